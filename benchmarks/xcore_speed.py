"""Random games per second: the compiled expansion core against the base game's core, one core.

    python benchmarks/xcore_speed.py [--games N] [--rounds R] [--python-games M]

In one run, alternated A B C ... A B C so that a change of the machine's load hits every arm:
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
from duel.expansions import new_xgame, play_random_xgame  # noqa: E402

SETS: tuple[tuple[str, ...], ...] = ((), ("pantheon",), ("agora",), ("agora", "pantheon"))


def label(expansions: tuple[str, ...]) -> str:
    return " + ".join(expansions) if expansions else "base game"


def base_core(games: int, seed: int) -> float:
    start = time.perf_counter()
    ccore.play_random_games(games, seed)
    return games / (time.perf_counter() - start)


def expansion_core(expansions: tuple[str, ...], games: int, seed: int) -> float:
    mask = sum(xcore._EXPANSION_BIT[e] for e in expansions)
    start = time.perf_counter()
    xcore.xcore.random_games(mask, games, seed)
    return games / (time.perf_counter() - start)


def python_engine(expansions: tuple[str, ...], games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        play_random_xgame(rng, new_xgame(expansions))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per round, C arms")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python-games", type=int, default=20, help="games per Python round")
    args = parser.parse_args()
    if ccore is None or not xcore.AVAILABLE:
        sys.exit("the compiled cores are not built (pip install -e .)")
    load_before = os.getloadavg()
    arms: dict[str, list[float]] = {"base core (duel._ccore)": []}
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
    base = max(arms["base core (duel._ccore)"])
    print(f"random games per second, best of {args.rounds} alternated rounds, one core")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores)")
    for name, rates in arms.items():
        best = max(rates)
        print(f"  {name:<40} {best:>12,.0f}/s  {best / base:6.3f} x base core")


if __name__ == "__main__":
    main()
