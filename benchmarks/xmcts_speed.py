"""The expansion MCTS's iterations per second beside the base game's cmcts, side by side.

    python benchmarks/xmcts_speed.py [--iterations 20000] [--rounds 3] [--sets pantheon agora both]

Both search the first decision of Age I of four seeded deals (the base game for ``cmcts``; Pantheon,
Agora and both for ``duel.solvers._xmcts``) at a fixed iteration budget; the arms alternate,
round after round, and each rate is counted in process CPU time, which other work on the machine
moves far less than wall time. ``cmcts`` and the shipped expansion search cut their playouts and
ask a learned value; "both to the end" is the expansion search playing every playout to the end
(``value_mix=0``), the dearer iteration.
The work behind an iteration differs: the figure says how fast each search grows its tree, not
that the algorithms are the same.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from duel import new_game, xcore
from duel.expansions import NAMED_SETS as EXPANSION_SETS
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
    parser.add_argument("--sets", nargs="+", choices=sorted(EXPANSION_SETS), default=["both"])
    args = parser.parse_args()
    n = args.iterations
    base = [_first_decision(new_game(), seed) for seed in range(4)]
    positions = {
        name: [_first_decision(xcore.new_game(EXPANSION_SETS[name]), seed) for seed in range(4)]
        for name in args.sets
    }
    rates: dict[str, list[float]] = {"base cmcts": []}
    for r in range(args.rounds):
        rates["base cmcts"].append(
            _rate(base, lambda s: make_player(f"cmcts:{n}", seed=1).choose(s), n)
        )
        for name, states in positions.items():
            rates.setdefault(f"{name} xmcts", []).append(
                _rate(states, lambda s: XCMctsPlayer(iterations=n, seed=1).choose(s), n)
            )
        if "both" in positions:
            rates.setdefault("both to the end", []).append(
                _rate(
                    positions["both"],
                    lambda s: XCMctsPlayer(iterations=n, seed=1, value_mix=0).choose(s),
                    n,
                )
            )
        print(
            f"round {r}: " + ", ".join(f"{k} {v[-1]:,.0f} it/CPU s" for k, v in rates.items()),
            flush=True,
        )
    medians = {k: statistics.median(v) for k, v in rates.items()}
    print(
        "median iterations per CPU second: "
        + ", ".join(
            f"{k} {v:,.0f} (base/this {medians['base cmcts'] / v:.2f})" for k, v in medians.items()
        )  # fmt: skip
    )


if __name__ == "__main__":
    main()
