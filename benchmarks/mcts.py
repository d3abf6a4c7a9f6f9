"""MCTS iterations per second, per leaf evaluation and prior, side by side.

Positions: play decisions from seeded random games in Ages I, II and III. Each configuration
searches every position for a fixed number of iterations; the configurations are run in turn,
``--rounds`` times (A B C A B C...), so that a change of machine load hits them all alike.

    python benchmarks/mcts.py --iterations 400 --rounds 2
"""

from __future__ import annotations

import argparse
import os
import random
import time

from duel import new_game
from duel.solvers.mcts import Config, search

CONFIGS = {
    "leaf value, static prior": Config(rollout=0, prior="static"),
    "leaf value, value prior": Config(rollout=0, prior="value"),
    "rollout 4 + value, value prior (default)": Config(),
    "rollout to the Age's end + value": Config(rollout="age"),
    "rollout to the game's end": Config(rollout=None),
}


def positions(games: int = 3, seed: int = 3) -> dict[int, list]:
    """Play decisions by Age (about the 10th, 30th and 50th decision of each game)."""
    rng = random.Random(seed)
    out: dict[int, list] = {1: [], 2: [], 3: []}
    for _ in range(games):
        state = new_game()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng), check=False)
                continue
            decisions += 1
            if decisions in (10, 30, 50) and state.phase == "play":
                out[state.age].append(state)
            state = state.apply(state.random_move(rng), check=False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    by_age = positions()
    totals: dict[tuple[str, int], list[float]] = {}
    for _ in range(args.rounds):
        for name, config in CONFIGS.items():
            for age, states in by_age.items():
                for state in states:
                    start = time.perf_counter()
                    result = search(state, iterations=args.iterations, config=config, seed=1)
                    got = totals.setdefault((name, age), [0.0, 0.0])
                    got[0] += result.iterations
                    got[1] += time.perf_counter() - start
    load = os.getloadavg()[0]
    print(f"MCTS iterations/s ({args.iterations} per search, load {load:.1f})")
    print(f"{'configuration':42} {'Age I':>8} {'Age II':>8} {'Age III':>8}")
    for name in CONFIGS:
        rates = [totals[(name, age)][0] / totals[(name, age)][1] for age in (1, 2, 3)]
        print(f"{name:42} " + " ".join(f"{r:8.0f}" for r in rates))


if __name__ == "__main__":
    main()
