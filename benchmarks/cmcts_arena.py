"""How full the ``cmcts`` tree's arena gets at a given think: iterations, the visits kept from
the moves before (``reused``), and the arena's nodes and arms after each search, by Age.

Two ``cmcts`` players (each with its own tree, as in a match) play one seeded game at
``--seconds`` a move. Per Age (0 is the wonder draft) it prints the searches, the iterations a
second, the most nodes and arms after a search against the arena's room, and how many searches
ended with the arena over 90% full: a tree that fills its arena stops growing for the rest of the
move (``solvers/csrc/cmcts_module.c``), so a long think is then partly wasted. ``--options`` adds
``cmcts`` options to both players (e.g. ``arena_rate=70000``, the rate before 2026-11-29).
Timed: run it with nothing else on the core (two such runs at once take one core each).

    python benchmarks/cmcts_arena.py --seconds 10 --seed 5
    python benchmarks/cmcts_arena.py --seconds 3 --options arena_rate=70000 --verbose
"""

from __future__ import annotations

import argparse
import contextlib
import random
from collections import defaultdict

from duel.solvers.cmcts_player import _NODE_BYTES
from duel.solvers.match import play_game
from duel.solvers.players import make_player


class _Enough(Exception):
    """The searches asked for (``--moves``) are done."""


class _Recorder:
    """A player that plays as the one it wraps and records each search's figures by Age."""

    def __init__(self, player, rows: list, verbose: bool, moves: int) -> None:
        self.player, self.rows, self.verbose, self.moves = player, rows, verbose, moves

    def choose(self, state):
        move = self.player.choose(state)
        info = self.player.last_info
        if isinstance(info, dict) and "nodes" in info:  # an exact solve has no tree figures
            row = (
                state.age,
                info["iterations"],
                info["seconds"],
                info["nodes"],
                info["arms"],
                info["reused"],
            )
            self.rows.append(row)
            if self.verbose:
                print(
                    f"age {row[0]}: iterations {row[1]:,} in {row[2]:.3f} s, nodes {row[3]:,},"
                    f" arms {row[4]:,}, reused {row[5]:,}",
                    flush=True,
                )
            if len(self.rows) == self.moves:
                raise _Enough
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--options", default="", help="cmcts options, e.g. arena_rate=70000")
    parser.add_argument("--moves", type=int, default=0, help="stop after this many searches")
    parser.add_argument("--verbose", action="store_true", help="a line per search")
    args = parser.parse_args()
    level = f"cmcts:{args.seconds:g}s" + (f":{args.options}" if args.options else "")
    rows: list[tuple[int, int, float, int, int, int]] = []
    players = [
        _Recorder(
            make_player(level, seed=args.seed * 2 + k, time_per_move=args.seconds),
            rows,
            args.verbose,
            args.moves,
        )
        for k in (0, 1)
    ]
    room = players[0].player.arena_bytes // _NODE_BYTES
    arm_room = 12 * room  # the arena sets 12 arms aside per node (_NODE_BYTES counts both)
    with contextlib.suppress(_Enough):
        play_game(players, random.Random(args.seed))
    print(f"{level}, seed {args.seed}: arena room {room:,} nodes, {arm_room:,} arms")
    print(
        "age  searches  iterations/s  iterations most  nodes most (room)  arms most (room)"
        "  over 90%"
    )
    by_age: dict[object, list] = defaultdict(list)
    for row in sorted(rows, key=lambda r: r[0]):
        by_age[row[0]].append(row)
    by_age["all"] = rows
    for age, group in by_age.items():
        rate = sum(r[1] for r in group) / max(1e-9, sum(r[2] for r in group))
        nodes, arms = max(r[3] for r in group), max(r[4] for r in group)
        full = sum(r[3] > 0.9 * room or r[4] > 0.9 * arm_room for r in group)
        print(
            f"{age!s:>3}  {len(group):>8}  {rate:>12,.0f}  {max(r[1] for r in group):>15,}"
            f"  {nodes:>10,} ({nodes / room:4.0%})  {arms:>10,} ({arms / arm_room:4.0%})"
            f"  {full:>8}"
        )


if __name__ == "__main__":
    main()
