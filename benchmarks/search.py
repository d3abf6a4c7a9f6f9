"""Search benchmarks: nodes per second, exact endgame solve times, and (``--matches``) the
playing-strength targets.

    PYTHONPATH=. python benchmarks/search.py                  # speed and exact solves
    PYTHONPATH=. python benchmarks/search.py --backend c      # the compiled path alone
    PYTHONPATH=. python benchmarks/search.py --matches        # + search vs random / greedy
    PYTHONPATH=. python benchmarks/search.py --matches --games 20 --think 1.0 --log m.log

Targets (from the issue): at least 50,000 nodes/s on one core; every example endgame in
``examples/endgames/`` (Age III, at most 8 cards left) solved exactly within 10 s; the search
player at 1 s per move beats random in 100 of 100 games and greedy in at least 90 of 100.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game  # noqa: E402
from duel.position import load_position  # noqa: E402
from solvers.search import Limit, analyse  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def midgame_positions(count: int = 6) -> list:
    """Decision positions from seeded random games, spread over the three Ages."""
    out = []
    for seed in range(count):
        rng = random.Random(1000 + seed)
        state = new_game()
        for _ in range(20 + 15 * seed):
            state = state.apply(state.random_move(rng), check=False)
            if state.is_terminal():
                break
        while state.is_chance() and not state.is_terminal():
            state = state.apply(state.random_move(rng), check=False)
        if not state.is_terminal():
            out.append(state)
    return out


def make_searcher(backend: str, seed: int = 1):
    """A hint searcher (the defaults of ``analyse``) on the given path: "python" or "c"."""
    from solvers.search import CSearcher, Searcher

    cls = CSearcher if backend == "c" else Searcher
    return cls(seed=seed, chance_width=6, chance_samples=3)


def bench_speed(seconds: float, backends: list[str]) -> None:
    """Hint nodes/s per search path; with both, alternated position by position (A B A B) so
    that both see the same machine load, and the ratio."""
    paths = " vs ".join(backends)
    print(f"== hint speed: {seconds:g} s per position (heuristic search), {paths} ==")
    totals = {b: [0, 0.0] for b in backends}
    for state in midgame_positions():
        for backend in backends:
            info = analyse(state, Limit(time=seconds), seed=1, searcher=make_searcher(backend))
            # nodes and time: all the work, including an iteration the clock interrupted
            totals[backend][0] += info.nodes
            totals[backend][1] += info.time
            print(
                f"  {backend:6} {state.describe():28} depth {info.depth:2}  {info.nodes:8} nodes"
                f"  {info.nps:8} nodes/s  best {info.best_move}"
            )
    rates = {}
    for backend, (nodes, elapsed) in totals.items():
        rates[backend] = nodes / elapsed
        print(
            f"  {backend:6} overall: {nodes} nodes in {elapsed:.2f} s"
            f" = {rates[backend]:,.0f} nodes/s"
        )
    if len(rates) == 2:
        print(f"  compiled / Python: {rates['c'] / rates['python']:.1f}x nodes/s")


def bench_exact(limit_seconds: float) -> None:
    print("== exact endgame solves (examples/endgames) ==")
    paths = sorted((ROOT / "examples" / "endgames").glob("*.json"))
    worst = 0.0
    total_nodes = 0
    total_time = 0.0
    for path in paths:
        state = load_position(path)
        left = sum(1 for c in state.pyramid if c != -1)
        start = time.perf_counter()
        info = analyse(state, Limit(time=limit_seconds), exact=True, margin=False)
        seconds = time.perf_counter() - start
        worst = max(worst, seconds)
        total_nodes += info.nodes
        total_time += seconds
        status = "exact" if info.exact else "NOT SOLVED"
        print(
            f"  {path.name:28} {left} cards  {seconds:6.2f} s  {info.nodes:8} nodes"
            f"  {info.nps:7} nodes/s  {status}  P(A wins) {info.value.a:.4f}"
            f"  best {info.best_move}"
        )
    if paths:
        print(
            f"  worst {worst:.2f} s; {total_nodes} nodes in {total_time:.2f} s"
            f" = {total_nodes / total_time:,.0f} nodes/s"
        )


def bench_matches(games: int, think: float, seed: int, log: Path | None) -> None:
    from solvers.match import play_match

    for opponent in ("random", "greedy"):
        print(f"== search ({think:g} s/move) vs {opponent}: {games} games ==", flush=True)
        start = time.perf_counter()

        def report(game, opponent=opponent) -> None:
            line = (
                f"{opponent} game {game.index}: search as {'AB'[game.first_seat]},"
                f" {'shared' if game.winner is None else 'won by ' + 'AB'[game.winner]}"
                f" ({game.victory}), {game.seconds:.0f} s"
            )
            if log is not None:
                with log.open("a") as handle:
                    handle.write(line + "\n")

        result = play_match(
            "search", opponent, games=games, seed=seed, time_per_move=think, on_game=report
        )
        print("\n".join(result.summary()))
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="Search benchmarks")
    parser.add_argument("--speed-seconds", type=float, default=2.0)
    parser.add_argument("--exact-limit", type=float, default=60.0)
    parser.add_argument("--matches", action="store_true", help="also play the strength matches")
    parser.add_argument("--only-matches", action="store_true")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", type=Path, default=None, help="append one line per game")
    parser.add_argument(
        "--backend",
        choices=("python", "c", "both"),
        default="both",
        help="search path(s) for the speed part (default both, side by side)",
    )
    args = parser.parse_args()
    from solvers.search import C_SEARCH

    backends = ["python", "c"] if args.backend == "both" else [args.backend]
    if "c" in backends and not C_SEARCH:
        sys.exit("benchmarks/search.py: the compiled search is not built (or DUEL_PURE=1)")
    print(f"Python {sys.version.split()[0]}")
    if not args.only_matches:
        bench_speed(args.speed_seconds, backends)
        bench_exact(args.exact_limit)
    if args.matches or args.only_matches:
        bench_matches(args.games, args.think, args.seed, args.log)


if __name__ == "__main__":
    main()
