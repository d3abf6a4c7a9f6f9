"""The expansion MCTS's iterations per second beside the base game's cmcts, side by side.

    python benchmarks/xmcts_speed.py [--iterations 20000] [--rounds 3]

Both search the first decision of Age I of four seeded deals (the base game for ``cmcts``, Pantheon
and Agora together for ``duel.solvers._xmcts``) at a fixed iteration budget; the arms alternate,
round after round, and each rate is counted in process CPU time, which other work on the machine
moves far less than wall time. ``cmcts`` evaluates its leaves with the learned value and the
expansion search plays random games to the end, so the work behind an iteration differs: the
figure says how fast each search grows its tree, not that the two are the same algorithm.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from duel import new_game, xcore
from duel.solvers.players import make_player
from duel.solvers.xcmcts import XCMctsPlayer


def _first_decision(state: Any, seed: int) -> Any:
    rng = random.Random(seed)
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(rng), check=False)
    return state


def _rate(states: list[Any], choose: Callable[[Any], object], iterations: int) -> float:
    start = time.process_time()
    for state in states:
        choose(state)
    return len(states) * iterations / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    n = args.iterations
    base = [_first_decision(new_game(), seed) for seed in range(4)]
    both = [_first_decision(xcore.new_game(("agora", "pantheon")), seed) for seed in range(4)]
    rates: dict[str, list[float]] = {"base cmcts": [], "both xmcts": []}
    for r in range(args.rounds):
        rates["base cmcts"].append(
            _rate(base, lambda s: make_player(f"cmcts:{n}", seed=1).choose(s), n)
        )
        rates["both xmcts"].append(
            _rate(both, lambda s: XCMctsPlayer(iterations=n, seed=1).choose(s), n)
        )
        print(
            f"round {r}: " + ", ".join(f"{k} {v[-1]:,.0f} it/CPU s" for k, v in rates.items()),
            flush=True,
        )
    medians = {k: statistics.median(v) for k, v in rates.items()}
    print(
        f"median: base cmcts {medians['base cmcts']:,.0f}, both xmcts {medians['both xmcts']:,.0f}"
        f" iterations per CPU second; base/both {medians['base cmcts'] / medians['both xmcts']:.2f}"
    )


if __name__ == "__main__":
    main()
