"""Exact endgame solving: the time and node curve by cards left in Age III.

For each N in ``--cards`` (default 8 10 12 14) it builds ``--count`` Age III positions (default
10: half from seeded uniformly random games, half from seeded games of the search player against
itself at a small node budget), each the first Age III play decision with at most N cards left in
the pyramid (face-down cards included), and solves each exactly in a fresh process (so the peak
memory figure is that solve's own). Nothing is filtered: decided positions count as they come.

    PYTHONPATH=. python benchmarks/endgames.py                     # the whole curve
    PYTHONPATH=. python benchmarks/endgames.py --cards 8 10 --limit 60

Targets (issues 9 and 28): every position with 12 cards left solved within 10 s, with 14 and
16 within 60 s.
A solve that passes ``--limit`` seconds is stopped and reported as unsolved.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game  # noqa: E402
from duel.position import load_position, save_position  # noqa: E402
from duel.solvers.search import default_threads  # noqa: E402
from duel.state import State  # noqa: E402

TARGETS = {12: 10.0, 14: 60.0, 16: 60.0}


def cards_left(state: State) -> int:
    return sum(1 for c in state.pyramid if c != -1)


def endgame(seed: int, cards: int, players: str) -> State | None:
    """The first Age III play decision with at most ``cards`` cards left in a seeded game."""
    rng = random.Random(seed)
    state = new_game()
    chooser = None
    if players == "search":
        from duel.solvers.players import make_player

        chooser = make_player("search:1500", seed=seed)
    while not state.is_terminal():
        if state.age == 3 and state.phase == "play" and cards_left(state) <= cards:
            return state
        if chooser is not None and not state.is_chance():
            move = chooser.choose(state)
        else:
            move = state.random_move(rng)
        state = state.apply(move, check=False)
    return None


def positions(cards: int, count: int, first_seed: int) -> list[tuple[str, State]]:
    """``count`` positions with at most ``cards`` cards left: half random, half search games."""
    out: list[tuple[str, State]] = []
    for players, share in (("random", count - count // 2), ("search", count // 2)):
        seed = first_seed
        made = 0
        while made < share:
            state = endgame(seed, cards, players)
            if state is not None:
                out.append((f"{players}:{seed}", state))
                made += 1
            seed += 1
    return out


def solve_one(path: Path, limit: float, threads: int = 1) -> dict:
    """Solve one position exactly (run in its own process); the figures as a dict."""
    import resource

    import duel.solvers.search as search
    from duel.solvers.search import Limit, analyse

    state = load_position(path)
    # The curve measures the solver: every chance outcome is enumerated at any size asked for,
    # whatever EXACT_CARDS_C (the limit `duel analyze --exact` enumerates up to) says; beyond it
    # analyse would sample chance and never report an exact value.
    search.EXACT_CARDS_C = max(search.EXACT_CARDS_C, cards_left(state))
    start = time.perf_counter()
    info = analyse(state, Limit(time=limit), exact=True, margin=False, threads=threads)
    seconds = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "seconds": seconds,
        "nodes": info.nodes,
        "exact": bool(info.exact),
        "value_a": info.value.a,
        "best": str(info.best_move),
        "peak_mb": peak_kb / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[8, 10, 12, 14])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=500)
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument(
        "--threads",
        type=int,
        default=default_threads(),
        help="threads per exact solve [default: one per core, as duel analyze --exact]",
    )
    parser.add_argument("--solve-one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, help="also write every solve here")
    args = parser.parse_args()
    if args.solve_one is not None:
        print(json.dumps(solve_one(args.solve_one, args.limit, args.threads)))
        return
    print(
        f"Python {sys.version.split()[0]}; limit {args.limit:g} s per solve,"
        f" {args.threads} thread(s) per solve",
        flush=True,
    )
    rows = []
    every = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.cards:
            results = []
            for name, state in positions(n, args.count, args.first_seed):
                path = Path(tmp) / f"{n}_{name.replace(':', '_')}.json"
                save_position(state, path)
                command = [sys.executable, __file__, "--solve-one", str(path)]
                out = subprocess.run(
                    [*command, "--limit", str(args.limit), "--threads", str(args.threads)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(out.stdout.strip().splitlines()[-1])
                r.update(name=name, cards=cards_left(state), max_cards=n)
                results.append(r)
                every.append(r)
                status = "exact" if r["exact"] else "NOT SOLVED"
                print(
                    f"  N={n:2} {name:14} {r['cards']:2} cards {r['seconds']:7.2f} s"
                    f" {r['nodes']:10,} nodes {r['peak_mb']:7.0f} MB  {status}"
                    f"  P(A) {r['value_a']:.4f}  {r['best']}",
                    flush=True,
                )
            solved = [r for r in results if r["exact"]]
            times = [r["seconds"] for r in results]
            rows.append(
                (
                    n,
                    len(results),
                    len(solved),
                    statistics.median(times),
                    max(times),
                    statistics.median(r["nodes"] for r in results),
                    max(r["nodes"] for r in results),
                    max(r["peak_mb"] for r in results),
                )
            )
    print()
    print("| cards left | positions | solved | median s | worst s | median nodes | max nodes |"
          " peak MB | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, count, solved, med, worst, med_nodes, max_nodes, peak in rows:
        target = TARGETS.get(n)
        verdict = ""
        if target is not None:
            ok = solved == count and worst <= target
            verdict = f"{'met' if ok else 'MISSED'} (all within {target:g} s)"
        print(
            f"| {n} | {count} | {solved} | {med:.2f} | {worst:.2f} | {med_nodes:,.0f} |"
            f" {max_nodes:,} | {peak:.0f} | {verdict} |"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(every, indent=1))


if __name__ == "__main__":
    main()
