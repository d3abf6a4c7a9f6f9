"""Random playouts and engine primitives, on one core. Prints figures; not a test.

    python benchmarks/playouts.py [--games N] [--seed S]

Measures: uniformly random full games per second (chance resolved with the exact
probabilities), and the rates of apply, legal-move generation and copying a state.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game, play_random_game  # noqa: E402


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor()}")

    rng = random.Random(args.seed)
    for _ in range(200):  # warm the memoised prices, as a long run would
        play_random_game(rng)
    start = time.perf_counter()
    steps = 0
    for _ in range(args.games):
        state = new_game()
        while not state.is_terminal():
            state = state.apply(state.random_move(rng), check=False)
            steps += 1
    elapsed = time.perf_counter() - start
    print(
        f"random games:        {rate(args.games, elapsed)}  "
        f"({args.games} games, {steps / args.games:.0f} steps per game, "
        f"{rate(steps, elapsed)} steps)"
    )

    # A sample of decision states from random games, for the primitives.
    states = []
    while len(states) < 5000:
        state = new_game()
        while not state.is_terminal():
            if state.phase == "play":
                states.append(state)
            state = state.apply(state.random_move(rng), check=False)
    moves = [s.legal_moves() for s in states]
    picks = [m[len(m) // 2] for m in moves]

    start = time.perf_counter()
    for _ in range(4):
        for s in states:
            s.legal_moves()
    print(
        f"legal_moves():       {rate(4 * len(states), time.perf_counter() - start)}  "
        f"(average {sum(map(len, moves)) / len(moves):.1f} moves)"
    )

    start = time.perf_counter()
    for _ in range(4):
        for s, m in zip(states, picks, strict=True):
            s.apply(m, check=False)
    print(f"apply(check=False):  {rate(4 * len(states), time.perf_counter() - start)}")

    start = time.perf_counter()
    for s, m in zip(states, picks, strict=True):
        s.apply(m)
    print(f"apply (validated):   {rate(len(states), time.perf_counter() - start)}")

    start = time.perf_counter()
    for _ in range(4):
        for s in states:
            type(s)(s.fields)  # a "copy" shares everything: states are immutable values
    print(f"copy (new handle):   {rate(4 * len(states), time.perf_counter() - start)}")

    start = time.perf_counter()
    for _ in range(4):
        for s in states:
            hash(type(s)(s.fields))
    print(f"hash (uncached):     {rate(4 * len(states), time.perf_counter() - start)}")


if __name__ == "__main__":
    main()
