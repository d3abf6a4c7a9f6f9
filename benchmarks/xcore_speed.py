"""Random games per second: the compiled expansion core against the base game's core, one core.

    python benchmarks/xcore_speed.py [--games N] [--rounds R] [--python-games M]

In one run, alternated A B C ... A B C so that a change of the machine's load hits every arm,
timed in this process's CPU time (time.process_time: on a shared machine the wall clock counts
the other processes' turns too), with the wall-clock rates beside:
uniformly random full games (chance with its exact probabilities, all in C) on the base game's
core (``duel._ccore``), and on the expansion core (``duel._xcore``) playing the base game and
each expansion set it covers. The Python expansion engine is timed too (fewer games), for the
expansion sets the compiled core does not cover yet. Prints the best round of each arm, the
ratios to the base core, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import xcore  # noqa: E402
from duel.core import ccore  # noqa: E402
from duel.expansions import NAMED_SETS, new_xgame, play_random_xgame  # noqa: E402

SETS: tuple[tuple[str, ...], ...] = ((), *NAMED_SETS.values())


def label(expansions: tuple[str, ...]) -> str:
    return " + ".join(expansions) if expansions else "base game"


Rate = tuple[float, float]  # games per CPU second, games per wall-clock second


def timed(games: int, run) -> Rate:
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def base_core(games: int, seed: int) -> Rate:
    return timed(games, lambda: ccore.play_random_games(games, seed))


def expansion_core(expansions: tuple[str, ...], games: int, seed: int) -> Rate:
    mask = sum(xcore._EXPANSION_BIT[e] for e in expansions)
    return timed(games, lambda: xcore.xcore.random_games(mask, games, seed))


def python_engine(expansions: tuple[str, ...], games: int, seed: int) -> Rate:
    rng = random.Random(seed)

    def run() -> None:
        for _ in range(games):
            play_random_xgame(rng, new_xgame(expansions))

    return timed(games, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per round, C arms")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python-games", type=int, default=20, help="games per Python round")
    args = parser.parse_args()
    if ccore is None or not xcore.AVAILABLE:
        sys.exit("the compiled cores are not built (pip install -e .)")
    load_before = os.getloadavg()
    arms: dict[str, list[Rate]] = {"base core (duel._ccore)": []}
    compiled = [e for e in SETS if xcore.compiled(e)]
    for e in compiled:
        arms[f"expansion core: {label(e)}"] = []
    for e in SETS:
        arms[f"Python engine: {label(e)}"] = []
    for r in range(args.rounds):
        seed = 1000 + r
        arms["base core (duel._ccore)"].append(base_core(args.games, seed))
        for e in compiled:
            arms[f"expansion core: {label(e)}"].append(expansion_core(e, args.games, seed))
        for e in SETS:
            arms[f"Python engine: {label(e)}"].append(python_engine(e, args.python_games, seed))
    load_after = os.getloadavg()
    base = max(cpu for cpu, _ in arms["base core (duel._ccore)"])
    print(f"random games per second, best of {args.rounds} alternated rounds, one core")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores)")
    print(f"  {'':<40} {'per CPU second':>15} {'ratio':>7} {'per wall second':>16}")
    for name, rates in arms.items():
        cpu, wall = max(r[0] for r in rates), max(r[1] for r in rates)
        print(f"  {name:<40} {cpu:>13,.0f}/s {cpu / base:7.3f} {wall:>14,.0f}/s")


if __name__ == "__main__":
    main()
