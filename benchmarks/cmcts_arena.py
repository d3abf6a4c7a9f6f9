"""What a long think does to the ``cmcts`` tree: iterations, the visits kept from the moves
before (``reused``), and the arena's nodes and arms after each search.

One ``cmcts`` player thinks ``--seconds`` a move at every decision of the play phase of a seeded
game, both seats (so its tree follows the whole game, one move at a time), for ``--moves``
decisions. Timed: run it with nothing else on the core.

    python benchmarks/cmcts_arena.py --seconds 10 --moves 6
"""

from __future__ import annotations

import argparse
import random

from duel import new_game
from duel.solvers.players import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    player = make_player(f"cmcts:{args.seconds}s", seed=1, time_per_move=args.seconds)
    rng = random.Random(args.seed)
    state, done = new_game(), 0
    while done < args.moves and not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        if state.phase != "play" or len(state.legal_moves()) < 2:
            state = state.apply(state.legal_moves()[0], check=False)
            continue
        move = player.choose(state)
        done += 1
        info = player.last_info
        print(
            f"move {done}: iterations {info['iterations']:,}, reused {info['reused']:,},"
            f" nodes {info['nodes']:,}, arms {info['arms']:,}",
            flush=True,
        )
        state = state.apply(move, check=False)


if __name__ == "__main__":
    main()
