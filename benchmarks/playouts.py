"""Random playouts and engine primitives, pure Python vs the C core, on one core. Not a test.

    python benchmarks/playouts.py [--games N] [--seed S] [--rounds R]

Measures, for the pure-Python engine (duel.state) and the C core (duel._ccore) in the same run,
alternated A B A B so that a change of load hits both: uniformly random full games per second
(chance resolved with the exact probabilities), and "clone + legal moves + apply" per second on
decision states from random games. Prints the best round of each and the speed-ups. Also the
pure engine's primitives (legal moves, apply, validated apply, copy, hash).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game, play_random_game  # noqa: E402
from duel.core import AVAILABLE, CoreState, ccore  # noqa: E402


def rate(count: float, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def pure_games(games: int, rng: random.Random) -> tuple[float, int]:
    """Seconds for ``games`` uniformly random games, and their total steps."""
    start = time.perf_counter()
    steps = 0
    for _ in range(games):
        state = new_game()
        while not state.is_terminal():
            state = state.apply(state.random_move(rng), check=False)
            steps += 1
    return time.perf_counter() - start, steps


def c_games(games: int, seed: int) -> tuple[float, int]:
    start = time.perf_counter()
    result = ccore.play_random_games(games, seed)
    return time.perf_counter() - start, result["steps"]


def c_games_from_python(games: int, seed: int) -> float:
    """The same through CoreState calls, one per step (what a Python caller pays)."""
    start = time.perf_counter()
    for g in range(games):
        state = CoreState.new_game()
        step = 0
        while not state.is_terminal():
            state = state.apply(state.random_move(seed * 1_000_003 + g * 1000 + step))
            step += 1
    return time.perf_counter() - start


def pure_clone_legal_apply(states: list) -> float:
    start = time.perf_counter()
    for s in states:
        moves = s.legal_moves()
        s.apply(moves[len(moves) // 2], check=False)  # states are immutable: apply is the clone
    return time.perf_counter() - start


def decision_states(count: int, rng: random.Random) -> list:
    states = []
    while len(states) < count:
        state = new_game()
        while not state.is_terminal():
            if state.phase == "play":
                states.append(state)
            state = state.apply(state.random_move(rng), check=False)
    return states[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="pure-Python games per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {platform.python_version()} on {platform.machine()}, {platform.processor()}; "
        f"{os.cpu_count()} CPUs, load average {load:.1f}"
    )
    rng = random.Random(args.seed)
    for _ in range(200):  # warm the memoised prices, as a long run would
        play_random_game(rng)
    states = decision_states(5000, rng)

    if not AVAILABLE:
        print("C core not available (not built, or DUEL_PURE set): pure-Python figures only")
    c_game_count = args.games * 20
    best: dict[str, float] = {}
    steps_per_game = 0.0

    def keep(name: str, value: float) -> None:
        best[name] = max(best.get(name, 0.0), value)

    for r in range(args.rounds):  # A B A B: both paths see the same load
        seconds, steps = pure_games(args.games, rng)
        keep("pure games", args.games / seconds)
        steps_per_game = steps / args.games
        keep("pure cla", len(states) / pure_clone_legal_apply(states))
        if AVAILABLE:
            seconds, _ = c_games(c_game_count, args.seed + r)
            keep("c games", c_game_count / seconds)
            keep("c games via python", args.games / c_games_from_python(args.games, r))
            cores = [CoreState.from_state(s) for s in states]
            start = time.perf_counter()
            done, _ = ccore.bench_clone_legal_apply(cores, 40)
            keep("c cla", done / (time.perf_counter() - start))

    print(f"\nbest of {args.rounds} alternated rounds ({steps_per_game:.0f} steps per game):")
    print(f"random games, pure Python:          {best['pure games']:>12,.0f}/s")
    if AVAILABLE:
        print(f"random games, C core (in C):        {best['c games']:>12,.0f}/s")
        print(f"random games, C core via CoreState: {best['c games via python']:>12,.0f}/s")
    print(f"clone+legal moves+apply, pure:      {best['pure cla']:>12,.0f}/s")
    if AVAILABLE:
        print(f"clone+legal moves+apply, C (in C):  {best['c cla']:>12,.0f}/s")
        print(
            f"speed-up of the C core: {best['c games'] / best['pure games']:,.0f}x random games, "
            f"{best['c cla'] / best['pure cla']:,.0f}x clone+legal moves+apply"
        )

    print("\npure-Python primitives:")
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
    if AVAILABLE:
        start = time.perf_counter()
        for s in states:
            CoreState.from_state(s)
        print(f"CoreState.from_state: {rate(len(states), time.perf_counter() - start)}")
        cores = [CoreState.from_state(s) for s in states]
        start = time.perf_counter()
        for c in cores:
            c.to_state()
        print(f"CoreState.to_state:   {rate(len(states), time.perf_counter() - start)}")


if __name__ == "__main__":
    main()
