"""The hint's shown win chance against the exact value, on Age III positions of strong play.

Three steps, each resumable (results are appended a line at a time, done work is skipped):

``make``: seeded self-play games of ``cmcts:ITERATIONS`` (the positions a strong player meets,
as ``benchmarks/exact_budget.py`` makes them); from each game the Age III play decision with
exactly N cards left in the pyramid, for each N of ``--cards``, saved as a position file.

``solve``: each position solved exactly offline (every deal enumerated, one thread, a node
limit): the judge. Nodes are counted, so the figures do not depend on the machine's load.

``hint``: the default hint (``duel hint``'s settings) on each position: the value shown, whether
it is exact, the recommended move and, where the hint was not exact, that move's exact value
(the position after it solved as the judge is) for the regret. Then the table: per cards left,
positions, exact shown, mean / 90th percentile / worst |shown - exact|, Brier score of the shown
value against the exact one, mean and worst regret, and the hint's time.

    PYTHONPATH=. python benchmarks/hint_truth.py make --games 10 --cards 10 12 14 16
    PYTHONPATH=. python benchmarks/hint_truth.py solve --max-nodes 2000000000
    PYTHONPATH=. python benchmarks/hint_truth.py hint
    PYTHONPATH=. python benchmarks/hint_truth.py table

Times move with the machine's load: each line records ``os.getloadavg()``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgames import cards_left  # noqa: E402
from exact_budget import selfplay_decisions  # noqa: E402

import duel.solvers.search as search  # noqa: E402
from duel.position import load_position, save_position  # noqa: E402
from duel.state import State  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "hint_truth"


def _done(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    rows = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["position"]] = row
    return rows


def _append(path: Path, row: dict) -> None:
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")


def make(games: int, first_seed: int, cards: list[int], iterations: int) -> None:
    folder = OUT / "positions"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = set(cards)
    for seed in range(first_seed, first_seed + games):
        if all((folder / f"g{seed}_{n}.json").exists() for n in wanted):
            continue
        found = selfplay_decisions(
            seed,
            iterations,
            lambda s: s.age == 3 and s.phase == "play" and cards_left(s) in wanted,
        )
        seen = set()
        for state in found:
            n = cards_left(state)
            if n not in seen:  # the first decision with n cards (a Play Again makes a second)
                seen.add(n)
                save_position(state, folder / f"g{seed}_{n}.json")
        print(f"game {seed}: {sorted(seen)}", flush=True)


def _positions(cards: list[int] | None) -> list[Path]:
    paths = sorted((OUT / "positions").glob("g*_*.json"))
    if cards:
        paths = [p for p in paths if int(p.stem.split("_")[1]) in cards]
    return sorted(paths, key=lambda p: (int(p.stem.split("_")[1]), p.stem))


def exact_solve(state: State, max_nodes: int, threads: int = 1) -> dict:
    """The judge: ``state`` (a decision or a chance node) solved to the end of the game."""
    search.EXACT_CARDS_C = max(search.EXACT_CARDS_C, cards_left(state))
    start = time.perf_counter()
    info = search.analyse(
        state, search.Limit(nodes=max_nodes), exact=True, margin=False, threads=threads
    )
    return {
        "value_a": info.value.a,
        "exact": bool(info.exact),
        "nodes": info.nodes,
        "seconds": round(time.perf_counter() - start, 3),
        "best": str(info.best_move) if info.moves else None,
        "load": round(os.getloadavg()[0], 2),
    }


def solve(cards: list[int] | None, max_nodes: int) -> None:
    out = OUT / "exact.jsonl"
    done = _done(out)
    for path in _positions(cards):
        if path.stem in done:
            continue
        state = load_position(path)
        row = {"position": path.stem, "cards": cards_left(state), "to_move": state.to_move}
        row |= exact_solve(state, max_nodes)
        _append(out, row)
        print(json.dumps(row), flush=True)


#: What a two-thread exact solve gets through per second on the quiet 2-core machine, counted in
#: one-thread nodes (a two-thread solve searches 0-17% more nodes in all): the slowest of the
#: quick positions measured quiet (docs/search.md, "Threads": search:504, 38.6M one-thread nodes
#: in 8.3 s on two threads, 4.6M a second; the others 5.7M-8.1M), divided by 0.84, the
#: two-thread wall time of today's solver against the one before its CPU-per-node changes
#: (2026-12-03, the idle machine, search:504 and g6415_14 alternated twice: 0.840 and 0.838).
#: The hint's exact stage gets ``DEFAULT_EXACT_SECONDS`` times this many nodes on one thread
#: here: reproducible, and independent of the load of the day, at the price of standing for the
#: quiet machine's time.
QUIET_NODES_PER_SECOND = 5_480_000


def hint(
    cards: list[int] | None, max_nodes: int, seconds: float | None, out: Path | None = None
) -> None:
    from duel.solvers.hint import DEFAULT_EXACT_SECONDS, hint_analysis

    exact_nodes = int(QUIET_NODES_PER_SECOND * (seconds or DEFAULT_EXACT_SECONDS))
    exact_rows = _done(OUT / "exact.jsonl")
    out = out or OUT / "hints.jsonl"
    done = _done(out)
    for path in _positions(cards):
        if path.stem in done or path.stem not in exact_rows:
            continue
        state = load_position(path)
        start, cpu = time.perf_counter(), time.process_time()
        # the default hint, its exact stage on a node budget (see QUIET_NODES_PER_SECOND); the
        # cards rule is the default one's (exact_cards_for_time at DEFAULT_EXACT_SECONDS)
        from duel.solvers.cmcts_player import EXACT_TIME_SHARE, exact_cards_for_time

        reach = exact_cards_for_time((seconds or DEFAULT_EXACT_SECONDS) / EXACT_TIME_SHARE, 2)
        info = hint_analysis(state, exact_nodes=exact_nodes, exact_cards=reach)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        judge = exact_rows[path.stem]
        mover = state.to_move
        row = {
            "position": path.stem,
            "cards": cards_left(state),
            "shown": info.moves[0].value,
            "hint_exact": bool(info.exact),
            "engine": info.extra.get("engine"),
            "move": str(info.best_move),
            "nodes": info.nodes,
            "seconds": round(took, 3),
            "cpu_seconds": round(cpu, 3),  # the hint's own CPU time (one thread: nodes budget)
            "quiet_seconds": None,
            "load": round(os.getloadavg()[0], 2),
        }
        estimate = info.extra.get("estimate")
        row["estimate"] = estimate["value"] if estimate else info.moves[0].value
        if info.exact:  # the exact stage's nodes at the quiet machine's rate
            row["quiet_seconds"] = round(info.nodes / QUIET_NODES_PER_SECOND, 2)
        if judge["exact"]:
            truth = judge["value_a"] if mover == 0 else 1.0 - judge["value_a"]
            row["exact_value"] = truth
            if info.exact:
                row["move_value"] = info.moves[0].value
            else:
                child = exact_solve(state.apply(info.best_move, check=False), max_nodes)
                if child["exact"]:
                    row["move_value"] = child["value_a"] if mover == 0 else 1.0 - child["value_a"]
        _append(out, row)
        print(json.dumps(row), flush=True)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table(path: Path | None = None) -> None:
    rows = list(_done(path or OUT / "hints.jsonl").values())
    print(
        "| cards left | positions | judged | exact shown | mean abs | p90 abs | worst abs | Brier |"
        " estimate's mean abs | mean regret | worst regret | exact stage (quiet s, worst) |"
        " hint CPU s (mean, worst) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sorted({r["cards"] for r in rows}):
        group = [r for r in rows if r["cards"] == n]
        judged = [r for r in group if "exact_value" in r]
        errors = [abs(r["shown"] - r["exact_value"]) for r in judged]
        # the estimate's own error, where one was made (a probe that proved the position at
        # once made none: its "estimate" is the exact value)
        raw = [
            abs(r["estimate"] - r["exact_value"])
            for r in judged
            if not (r["hint_exact"] and r["estimate"] == r["shown"])
        ]
        brier = statistics.mean((r["shown"] - r["exact_value"]) ** 2 for r in judged)
        regrets = [r["exact_value"] - r["move_value"] for r in judged if "move_value" in r]
        quiet = [r["quiet_seconds"] for r in group if r["quiet_seconds"] is not None]
        cpu = [r["cpu_seconds"] for r in group if "cpu_seconds" in r]
        cpu_text = f"{statistics.mean(cpu):.2f}, {max(cpu):.2f}" if cpu else "-"
        print(
            f"| {n} | {len(group)} | {len(judged)} | {sum(r['hint_exact'] for r in group)} |"
            f" {statistics.mean(errors):.3f} | {quantile(errors, 0.9):.3f} | {max(errors):.3f} |"
            f" {brier:.4f} | {statistics.mean(raw) if raw else float('nan'):.3f} |"
            f" {statistics.mean(regrets) if regrets else float('nan'):.3f} |"
            f" {max(regrets, default=float('nan')):.3f} ({len(regrets)} valued) |"
            f" {max(quiet, default=0.0):.1f} | {cpu_text} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("make", "solve", "hint", "table"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=6400)
    parser.add_argument("--cards", type=int, nargs="+", default=None)
    parser.add_argument("--iterations", type=int, default=2000, help="cmcts budget of the games")
    parser.add_argument("--max-nodes", type=int, default=2_000_000_000, help="per exact solve")
    parser.add_argument("--time", type=float, default=None, help="the hint budget")
    parser.add_argument("--out", type=Path, default=None, help="hint's rows (default hints.jsonl)")
    args = parser.parse_args()
    if args.step == "make":
        make(args.games, args.first_seed, args.cards or [10, 12, 14, 16], args.iterations)
    elif args.step == "solve":
        solve(args.cards, args.max_nodes)
    elif args.step == "hint":
        hint(args.cards, args.max_nodes, args.time, args.out)
    else:
        table(args.out)


if __name__ == "__main__":
    main()
