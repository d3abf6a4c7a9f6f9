"""Search benchmarks: nodes per second, exact endgame solve times, and (``--matches``) the
playing-strength targets.

    PYTHONPATH=. python benchmarks/search.py                  # speed and exact solves
    PYTHONPATH=. python benchmarks/search.py --backend c      # the compiled path alone
    PYTHONPATH=. python benchmarks/search.py --matches        # + search vs random / greedy
    PYTHONPATH=. python benchmarks/search.py --matches --games 20 --think 1.0 --log m.log
    PYTHONPATH=. python benchmarks/search.py --only-matches --workers 2 --out results/

The endgame solves and the matches are batch jobs (:mod:`duel.solvers.batch`): ``--workers N``
(default: every core) solves or plays that many at once, each on its own core, so the times per
position stay single-core times when the machine has a core per worker. With ``--out DIR`` the
matches write each game as it ends and an interrupted run resumes where it stopped.

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
from duel.solvers.batch import default_workers, run_jobs  # noqa: E402
from duel.solvers.search import Limit, analyse  # noqa: E402

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
    from duel.solvers.search import CSearcher, Searcher

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


def solve_endgame(job: dict) -> dict:
    """One exact endgame solve (a batch job): time, nodes, value and best move."""
    state = load_position(ROOT / job["path"])
    start = time.perf_counter()
    info = analyse(state, Limit(time=job["limit"]), exact=True, margin=False)
    return {
        "cards": sum(1 for c in state.pyramid if c != -1),
        "seconds": time.perf_counter() - start,
        "nodes": info.nodes,
        "nps": info.nps,
        "exact": info.exact,
        "value_a": info.value.a,
        "best": str(info.best_move),
    }


def bench_exact(limit_seconds: float, workers: int) -> None:
    print(f"== exact endgame solves (examples/endgames, {workers} at a time) ==")
    paths = sorted((ROOT / "examples" / "endgames").glob("*.json"))
    jobs = [{"path": str(p.relative_to(ROOT)), "limit": limit_seconds} for p in paths]
    worst = 0.0
    total_nodes = 0
    total_time = 0.0
    for path, r in zip(paths, run_jobs(solve_endgame, jobs, workers=workers), strict=True):
        worst = max(worst, r["seconds"])
        total_nodes += r["nodes"]
        total_time += r["seconds"]
        status = "exact" if r["exact"] else "NOT SOLVED"
        print(
            f"  {path.name:28} {r['cards']} cards  {r['seconds']:6.2f} s  {r['nodes']:8} nodes"
            f"  {r['nps']:7} nodes/s  {status}  P(A wins) {r['value_a']:.4f}  best {r['best']}"
        )
    if paths:
        print(
            f"  worst {worst:.2f} s; {total_nodes} nodes in {total_time:.2f} s"
            f" = {total_nodes / total_time:,.0f} nodes/s"
        )


def bench_matches(
    games: int, think: float, seed: int, log: Path | None, workers: int, out: Path | None
) -> None:
    from duel.solvers.match import play_match

    for opponent in ("random", "greedy"):
        print(
            f"== search ({think:g} s/move) vs {opponent}: {games} games, {workers} at a time ==",
            flush=True,
        )
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
            "search",
            opponent,
            games=games,
            seed=seed,
            time_per_move=think,
            on_game=report,
            workers=workers,
            out=None if out is None else out / f"search{think:g}s_vs_{opponent}_seed{seed}.jsonl",
            progress=None,
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
    parser.add_argument("--workers", type=int, default=default_workers(), help="processes")
    parser.add_argument("--out", type=Path, default=None, help="resumable match results here")
    args = parser.parse_args()
    from duel.solvers.search import C_SEARCH

    backends = ["python", "c"] if args.backend == "both" else [args.backend]
    if "c" in backends and not C_SEARCH:
        sys.exit("benchmarks/search.py: the compiled search is not built (or DUEL_PURE=1)")
    print(f"Python {sys.version.split()[0]}")
    if not args.only_matches:
        bench_speed(args.speed_seconds, backends)
        bench_exact(args.exact_limit, args.workers)
    if args.matches or args.only_matches:
        bench_matches(args.games, args.think, args.seed, args.log, args.workers, args.out)


if __name__ == "__main__":
    main()
