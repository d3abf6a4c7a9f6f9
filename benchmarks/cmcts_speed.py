"""Iterations per second of the compiled MCTS (duel.solvers._cmcts) for several configurations,
measured side by side (A B A B ...) on the same positions, because absolute speeds move with the
machine's load.

Positions: every 12th decision of three greedy games (Ages I to III). Each configuration searches
each position for ``--secs`` seconds on a fresh tree.

    python benchmarks/cmcts_speed.py                      # default configurations, 2 rounds
    python benchmarks/cmcts_speed.py --rounds 3 "rollout=4,policy=kind" "rollout=-1"
"""

from __future__ import annotations

import argparse
import os
import random

from duel import new_game
from duel.core import CoreState
from duel.solvers._cmcts import Tree
from duel.solvers.players import CMctsConfig, GreedyPlayer

DEFAULTS = ("", "policy=kind", "rollout=4", "rollout=4,policy=kind")


def positions(games: int = 3, every: int = 12) -> list:
    rng = random.Random(5)
    out = []
    for g in range(games):
        state, player, i = new_game(), GreedyPlayer(g), 0
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.random_move(rng), check=False)
                continue
            if i % every == 0 and len(state.legal_moves()) > 1:
                out.append(CoreState.from_state(state))
            i += 1
            state = state.apply(player.choose(state), check=False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "configs",
        nargs="*",
        default=list(DEFAULTS),
        help="CMctsConfig overrides, '' for the defaults",
    )
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--secs", type=float, default=0.05, help="search time per position")
    args = ap.parse_args()
    states = positions()
    print(f"load {os.getloadavg()[0]:.1f}; {len(states)} positions, {args.secs} s each")
    for r in range(args.rounds):
        for text in args.configs:
            tree = Tree(seed=1, **CMctsConfig.from_string(text).tree_options())
            done = seconds = 0.0
            for st in states:
                tree.reset()
                result = tree.search(st, seconds=args.secs)
                done += result["iterations"]
                seconds += result["seconds"]
            print(f"round {r}  {text or '(defaults)':32s} {done / seconds:10,.0f} iterations/s")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
