"""Throughput of many games at once (:mod:`duel.solvers.batch`). Prints figures; not a test.

    PYTHONPATH=. python benchmarks/scale.py --levels        # games per hour per core, each level
    PYTHONPATH=. python benchmarks/scale.py --scaling       # 1 worker vs 2, alternated A B A B

``--levels`` plays each level against itself on one core (in this process): random, greedy,
and search at 0.2 s and 1 s per move; a search game lasts about as long whatever the load
(the clock decides), the others run as fast as the core allows. ``--scaling`` plays the same
CPU-bound games (greedy against itself) sequentially in this process and then with two worker
processes, alternated, and prints the speed-up of each pair; the time counted includes starting
the workers. It also prints the CPU time per game (workers and coordinator): the same for one
worker and two when the pool costs nothing, whatever the load. The load average is printed
before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel.solvers.batch import run_jobs  # noqa: E402
from duel.solvers.match import match_jobs, play_match_game_json  # noqa: E402

LEVELS = [("random", 2000), ("greedy", 300), ("search:0.2s", 2), ("search:1s", 1)]  # and games


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the workers, once stopped)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed_run(level: str, games: int, seed: int, workers: int, chunksize: int | None) -> tuple:
    """Wall seconds, CPU seconds (coordinator and workers) and the results of one run."""
    jobs = match_jobs(level, level, games=games, seed=seed)
    start, cpu = time.perf_counter(), cpu_seconds()
    results = list(
        run_jobs(play_match_game_json, jobs, workers=workers, chunksize=chunksize, progress=False)
    )
    return time.perf_counter() - start, cpu_seconds() - cpu, results


def bench_levels(seed: int) -> None:
    print(f"== games per hour on one core, each level against itself ({load()}) ==")
    for level, games in LEVELS:
        seconds, _, results = timed_run(level, games, seed, 1, None)
        moves = sum(r["moves"] for r in results) / len(results)
        per_hour = 3600 * games / seconds
        print(
            f"  {level:12} {games:5} games in {seconds:7.2f} s: {per_hour:10,.0f} games/h"
            f"  ({seconds / games:.3f} s per game, {moves:.0f} decisions per game)",
            flush=True,
        )
    print(f"  ({load()})")


def bench_scaling(level: str, games: int, rounds: int, seed: int, chunksize: int | None) -> None:
    print(f"== 1 worker vs 2: {games} {level} games per run, {rounds} pairs ({load()}) ==")
    ratios = []
    for r in range(rounds):
        one, cpu_one, a = timed_run(level, games, seed + r, 1, chunksize)
        two, cpu_two, b = timed_run(level, games, seed + r, 2, chunksize)
        same = [{k: v for k, v in x.items() if k != "seconds"} for x in a] == [
            {k: v for k, v in x.items() if k != "seconds"} for x in b
        ]
        ratios.append(one / two)
        print(
            f"  pair {r + 1}: 1 worker {games / one:7.1f} games/s, 2 workers {games / two:7.1f}"
            f" games/s: x{one / two:.2f}; CPU per game {1000 * cpu_one / games:.1f} ms and"
            f" {1000 * cpu_two / games:.1f} ms (same results: {same})",
            flush=True,
        )
    print(f"  speed-up with 2 workers: x{sum(ratios) / len(ratios):.2f} on average ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", action="store_true")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--level", default="greedy", help="the games of --scaling")
    parser.add_argument("--games", type=int, default=1500, help="games per --scaling run")
    parser.add_argument("--chunksize", type=int, default=None, help="default: measured")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (args.levels or args.scaling):
        parser.error("choose --levels and/or --scaling")
    if args.levels:
        bench_levels(args.seed)
    if args.scaling:
        bench_scaling(args.level, args.games, args.rounds, args.seed, args.chunksize)


if __name__ == "__main__":
    main()
