"""Build the example Age III endgames in ``examples/endgames/`` from seeded random games.

Each example is the first Age III play decision with at most ``--cards`` cards left in the
pyramid (face-down ones included) in a random game with that seed, kept only when the game is
still open (the exact value for A is between 2% and 98%).

    PYTHONPATH=. python benchmarks/make_endgames.py            # rewrites examples/endgames/
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from duel import new_game
from duel.position import save_position
from duel.state import State

OUT = Path(__file__).resolve().parent.parent / "examples" / "endgames"


def endgame_from_seed(seed: int, cards: int) -> State | None:
    """The first Age III play decision with at most ``cards`` cards left, in a random game."""
    rng = random.Random(seed)
    state = new_game()
    while not state.is_terminal():
        if (
            state.age == 3
            and state.phase == "play"
            and sum(1 for c in state.pyramid if c != -1) <= cards
        ):
            return state
        state = state.apply(state.random_move(rng), check=False)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--cards", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()
    from duel.solvers.search import analyse

    OUT.mkdir(parents=True, exist_ok=True)
    made = 0
    seed = args.first_seed
    while made < args.count:
        state = endgame_from_seed(seed, args.cards)
        seed += 1
        if state is None:
            continue
        info = analyse(state, exact=True, margin=False)
        if not 0.02 < info.value.a < 0.98:
            continue  # (nearly) decided: a dull example
        left = sum(1 for c in state.pyramid if c != -1)
        path = OUT / f"age3_{left}cards_seed{seed - 1}.json"
        save_position(state, path)
        made += 1
        print(f"{path.name}: value for A {info.value.a:.4f}, best {info.best_move}")


if __name__ == "__main__":
    main()
