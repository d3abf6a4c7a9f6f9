"""The time ladder move by move: how much better is the move chosen with twice the iterations?

The self-play ladder (``time_ladder.py``) asks it of whole games, where the deal and the seat
decide most results, so a small gain per move needs hundreds of games to show. This asks it of
single decisions: positions of seeded ``cmcts`` self-play games (play decisions of Ages I-III that
MCTS answers, not the exact solver) are searched afresh at each budget of ``--iterations`` and
once by a reference search of ``--reference`` iterations (another seed). The reference's mean
value of each root move judges the moves the budgets chose: a budget's *loss* at a position is the
reference value of the reference's best move less that of the move chosen (0 when they agree).
The reference shares the budgets' playouts and their bias; what it measures is how much of what a
much longer search would prefer a budget already finds.

The default reference visits some moves only a few hundred times, and judges them by those few
(a move worth a sure win was once judged 0.19 that way); ``--exact-judge`` judges Age III
positions by the exact solver instead. Compare levers only against the same reference.

Iteration budgets make every figure a function of the seeds alone, so the load changes nothing.
``--seconds`` gives the budgets as times per move instead, as in a game: a lever that makes each
iteration dearer is judged at the time it costs. Timed runs need a core per
worker and nothing else running.

    python benchmarks/move_ladder.py --games 20 --positions 150 --workers 2 --out base.jsonl
    python benchmarks/move_ladder.py --games 20 --positions 150 --workers 2 \\
        --options mix_lambda=0.3 --reference-from base.jsonl     # a lever, judged alike
    python benchmarks/move_ladder.py --compare base.jsonl lever.jsonl  # gain per move, with SE
    python benchmarks/move_ladder.py --games 20 --exact-judge 20 --seconds 0.3 1 --workers 2 \\
        --options mix_lambda=0.3 --reference-from exact.jsonl  # timed, Age III, exact judge
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from endgames import cards_left  # noqa: E402  (the script's folder)
from exact_budget import selfplay_decisions  # noqa: E402

from duel.position import position_from_json, position_to_json  # noqa: E402
from duel.solvers.batch import run_jobs  # noqa: E402
from duel.solvers.players import make_player  # noqa: E402
from duel.solvers.search import exact_feasible  # noqa: E402
from duel.state import State  # noqa: E402


def game_positions(seed: int, iterations: int, min_cards: int = 12) -> list[State]:
    """The play decisions with several moves in one seeded self-play game, those of Age III with
    fewer than ``min_cards`` cards left excepted (by default the ones a 1 s player solves)."""
    return selfplay_decisions(
        seed,
        iterations,
        lambda s: (
            s.phase == "play" and len(s.legal_moves()) > 1 and not exact_feasible(s, min_cards - 1)
        ),
    )


def exact_rows(state: State, seconds: float) -> list[list] | None:
    """Every legal move with its exact value for the mover (visits 1), or None if a solve did not
    finish within ``seconds``: the judge of ``--exact-judge``, free of the playouts' bias."""
    from duel.solvers.search import Limit, analyse

    rows = []
    for move in state.legal_moves():
        child = state.apply(move, check=False)
        info = analyse(child, Limit(time=seconds), exact=True, margin=False, threads=1)
        if not info.exact:
            return None
        a = info.value.a
        rows.append([int(move), 1, a if state.to_move == 0 else 1.0 - a])
    return rows


def judge(job: dict) -> dict:
    """One position: the move each budget chooses, and the reference's values of every move."""
    state = position_from_json(job["position"])
    index = job["index"]
    chosen = []
    for n in job["budgets"]:
        player = make_player(f"cmcts:{n}{job['options']}", seed=1000 + index)
        chosen.append(int(player.choose(state)))
    if job.get("exact"):
        rows = job["known"][1] if job["known"] is not None else exact_rows(state, job["exact"])
        if rows is None:
            return {"index": index, "age": state.age, "chosen": chosen, "unsolved": True}
        best = max(rows, key=lambda r: (r[2], -r[0]))[0]
    elif job["known"] is not None:  # the reference of an earlier run (the same seeds)
        best, rows = job["known"]
    else:
        level = f"cmcts:{job['reference']}{job['reference_options']}"
        ref = make_player(level, seed=500_000 + index)
        best = int(ref.choose(state))
        rows = [[int(m), int(v), float(q)] for m, v, q in ref.last_info["moves"]]
    return {"index": index, "age": state.age, "chosen": chosen, "best": best, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=61)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--game-iterations", type=int, default=3000)
    ap.add_argument("--iterations", type=int, nargs="+", default=[17_500, 35_000, 70_000])
    ap.add_argument(
        "--seconds",
        type=float,
        nargs="+",
        default=None,
        help="budgets as seconds per move instead of --iterations (timed: a core per worker)",
    )
    ap.add_argument("--reference", type=int, default=560_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default=None, help="results file (JSON lines; a rerun resumes it)")
    ap.add_argument("--options", default="", help="the budgets' cmcts options, e.g. mix_lambda=0.3")
    ap.add_argument(
        "--reference-options",
        default="",
        help="the reference's cmcts options (CMctsConfig), e.g. pick=visits",
    )
    ap.add_argument(
        "--reference-from",
        default=None,
        help="an earlier run's results file: its reference values (same seeds), not searched again",
    )
    ap.add_argument(
        "--exact-judge",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="Age III positions only (--judge-cards, 12-14 cards left), judged by the exact"
        " solver's value of every move (each solve within SECONDS, or the position is left out)",
    )
    ap.add_argument(
        "--judge-cards",
        type=int,
        nargs=2,
        default=[12, 14],
        metavar=("MIN", "MAX"),
        help="with --exact-judge: the cards left of the decisions judged (default 12 14)",
    )
    ap.add_argument(
        "--compare",
        nargs=2,
        metavar=("BASE", "LEVER"),
        help="compare two results files judged by the same reference (no search)",
    )
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    start = time.perf_counter()
    pool: list[State] = []
    for g in range(args.games):
        pool.extend(game_positions(args.seed + g, args.game_iterations, args.judge_cards[0]))
    if args.exact_judge:
        low, high = args.judge_cards
        pool = [s for s in pool if s.age == 3 and low <= cards_left(s) <= high]
    picks = random.Random(args.seed).sample(range(len(pool)), min(args.positions, len(pool)))
    known: dict[int, list] = {}
    if args.reference_from:
        for line in Path(args.reference_from).read_text(encoding="utf-8").splitlines():
            r = json.loads(line).get("result") or {}
            if "best" in r:
                known[r["index"]] = [r["best"], r["rows"]]
    budgets = [f"{t:g}s" for t in args.seconds] if args.seconds else args.iterations
    jobs = [
        {
            "index": i,
            "position": position_to_json(pool[p]),
            "budgets": budgets,
            "options": f":{args.options}" if args.options else "",
            "reference": args.reference,
            "reference_options": f":{args.reference_options}" if args.reference_options else "",
            "known": known.get(i),
            "exact": args.exact_judge,
        }
        for i, p in enumerate(sorted(picks))
    ]
    print(
        f"{len(jobs)} positions of {len(pool)} from {args.games} cmcts:{args.game_iterations}"
        f" games (seed {args.seed}); budgets {budgets}, reference {args.reference}",
        flush=True,
    )
    results = list(run_jobs(judge, jobs, workers=args.workers, out=args.out, label="positions"))
    print(f"({time.perf_counter() - start:.0f} s wall)")
    unsolved = sum("best" not in r for r in results)
    results = [r for r in results if "best" in r]
    if unsolved:
        print(f"{unsolved} positions left out: a move's exact solve did not finish in time")
    print()
    print("| budget | agrees with the reference | mean loss | loss > 0.02 | largest loss |")
    print("|---|---|---|---|---|")
    for k, n in enumerate(budgets):
        losses = [loss(r, r["chosen"][k]) for r in results]
        agree = sum(r["chosen"][k] == r["best"] for r in results)
        label = f"{n:,}" if isinstance(n, int) else n
        print(
            f"| {label} | {agree}/{len(results)} | {statistics.mean(losses):.4f} |"
            f" {sum(x > 0.02 for x in losses)} | {max(losses):.3f} |"
        )
    return 0


def loss(result: dict, move: int) -> float:
    """The reference's value of its best move less its value of ``move`` (a move the reference
    never tried is judged by its worst tried one)."""
    q = {m: value for m, visits, value in result["rows"] if visits}
    return max(0.0, q[result["best"]] - q.get(move, min(q.values())))


def compare(base_file: str, lever_file: str) -> None:
    """Two runs judged by the same reference, position by position: each budget's mean loss and
    the lever's gain per move over the base, with its standard error."""

    def load(path: str) -> dict[int, dict]:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        rows = (json.loads(line).get("result") or {} for line in lines)
        return {r["index"]: r for r in rows if "best" in r}

    base, lever = load(base_file), load(lever_file)
    common = sorted(set(base) & set(lever))
    if any(base[i]["rows"] != lever[i]["rows"] for i in common):
        raise SystemExit("the two runs were judged by different references")
    print(f"{len(common)} positions in both")
    print(
        "| budget | base: agrees / mean loss | lever: agrees / mean loss | gain per move (SE)"
        " | decisions better / worse |"
    )
    print("|---|---|---|---|---|")
    for k in range(len(base[common[0]]["chosen"])):
        a = [loss(base[i], base[i]["chosen"][k]) for i in common]
        b = [loss(base[i], lever[i]["chosen"][k]) for i in common]
        gains = [x - y for x, y in zip(a, b, strict=True)]
        se = statistics.stdev(gains) / len(gains) ** 0.5
        agree = [sum(r[i]["chosen"][k] == base[i]["best"] for i in common) for r in (base, lever)]
        better, worse = sum(g > 1e-9 for g in gains), sum(g < -1e-9 for g in gains)
        print(
            f"| {k + 1} | {agree[0]}, {statistics.mean(a):.4f} | {agree[1]}, "
            f"{statistics.mean(b):.4f} | {statistics.mean(gains):+.4f} ({se:.4f}) |"
            f" {better} / {worse} |"
        )


if __name__ == "__main__":
    raise SystemExit(main())
