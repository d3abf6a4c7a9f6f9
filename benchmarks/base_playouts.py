"""Random playouts of the base game: games per second for 3 and 7 players, one core.

    PYTHONPATH=. python benchmarks/base_playouts.py [--games 200] [--players 3 7]

Every game is a full game with uniformly random legal moves (legal-move generation prices every
card and stage, so trading dominates). The trading memo is process-wide and starts empty, so two
figures are printed per player count: the first ``--games`` games from a cold memo, then the same
number again with the memo warm (CP-SAT is then called only for situations never seen before).
"""

from __future__ import annotations

import argparse
import random
import time

from wonders import trading
from wonders.game import GameState, new_game


def random_game(players: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(players, seed)
    while not state.is_terminal():
        for p in state.current_players():
            while state.decision_city(p) is not None:
                state = state.apply(rng.choice(state.legal_moves(p)))
    return state


def measure(players: int, games: int, first_seed: int) -> tuple[float, int]:
    solver_before = trading.STATS["solver"]
    start = time.perf_counter()
    for g in range(games):
        random_game(players, first_seed + g)
    elapsed = time.perf_counter() - start
    return games / elapsed, trading.STATS["solver"] - solver_before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 7])
    args = parser.parse_args()
    for players in args.players:
        cold, cold_solves = measure(players, args.games, 0)
        warm, warm_solves = measure(players, args.games, 10_000)
        print(
            f"{players} players: {cold:6.1f} games/s over the first {args.games} games "
            f"({cold_solves} CP-SAT solves), {warm:6.1f} games/s over the next {args.games} "
            f"({warm_solves} CP-SAT solves)"
        )


if __name__ == "__main__":
    main()
