"""Fixed-iteration matches of the expansion MCTS: a development signal, not a timed match.

    python benchmarks/xmcts_match.py --games 24 --a "xcmcts:2000" --b "xcmcts:2000:value_mix=0"
    python benchmarks/xmcts_match.py --games 12 --a "xcmcts:2000" --b "mcts:300"
    python benchmarks/xmcts_match.py --a "xcmcts:2000" --b "old:2000" --old /tmp/old/_xmcts.so

A player is ``xcmcts:ITERATIONS[:knob=value...]`` (``XCMctsPlayer``), ``mcts:ITERATIONS`` (the
Python expansion ``mcts`` of ``solvers/xplayers.py``) or ``old:ITERATIONS`` (the plain UCT of
an earlier build of ``duel.solvers._xmcts``, loaded from ``--old``: the starting point). Games
come in deal pairs, the same chance seed with the seats swapped, over Pantheon, Agora and both in
turn. Prints A's score with a Wilson interval, as A and as B, and the victory kinds.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import random
import time
from collections import Counter
from typing import Any

from duel import xcore
from duel.expansions import NAMED_SETS
from duel.solvers.match import wilson_interval
from duel.solvers.xcmcts import XCMctsPlayer
from duel.solvers.xplayers import make_xplayer

SETS: tuple[tuple[str, ...], ...] = tuple(NAMED_SETS.values())


class OldPlayer:
    """The starting point: the plain open-loop UCT of an earlier build (random playouts)."""

    def __init__(self, module: Any, iterations: int, seed: int) -> None:
        self.module, self.iterations, self.seed = module, iterations, seed

    def choose(self, state: xcore.CXState) -> Any:
        self.seed += 1
        view = state.view(state.to_move).core.to_bytes()
        found = self.module.search(view, self.iterations, self.seed, 1.0)
        best = max(found, key=lambda row: row[1])
        return xcore.decode_move(best[0], state.expansions)


def make(spec: str, seed: int, old: Any) -> Any:
    name, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    if name == "xcmcts":
        knobs = dict(p.split("=") for p in parts[1:])
        return XCMctsPlayer(
            iterations=int(parts[0]), seed=seed, **{k: float(v) for k, v in knobs.items()}
        )
    if name == "old":
        return OldPlayer(old, int(parts[0]), seed)
    return make_xplayer(spec, seed=seed)


def play(players: dict[int, Any], expansions: tuple[str, ...], deal: int) -> xcore.CXState:
    rng = random.Random(deal)
    state = xcore.new_game(expansions)
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
            continue
        player = players[state.to_move]
        compiled = isinstance(player, (XCMctsPlayer, OldPlayer))
        state = state.apply(player.choose(state if compiled else state.to_xstate()), check=False)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--games", type=int, default=24, help="an even number (deal pairs)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--old", help="the .so of the starting point, for old:N")
    args = parser.parse_args()
    old = None
    if args.old:
        loader = importlib.machinery.ExtensionFileLoader("_xmcts", args.old)
        spec = importlib.util.spec_from_loader("_xmcts", loader)
        assert spec is not None
        old = importlib.util.module_from_spec(spec)
        loader.exec_module(old)
    score = {0: 0.0, 1: 0.0}
    played = {0: 0, 1: 0}
    kinds: Counter[str] = Counter()
    start = time.process_time()
    for g in range(args.games):
        pair, seat = divmod(g, 2)
        expansions = SETS[pair % len(SETS)]
        deal = args.seed + pair
        players = {seat: make(args.a, deal * 2 + 1, old), 1 - seat: make(args.b, deal * 2, old)}
        end = play(players, expansions, deal)
        result = 1.0 if end.winner == seat else 0.5 if end.winner not in (0, 1) else 0.0
        score[seat] += result
        played[seat] += 1
        victory = end.to_xstate().victory or "shared"
        kinds[f"{'A' if end.winner == seat else 'B'} {victory}"] += 1
        total, n = score[0] + score[1], played[0] + played[1]
        print(f"game {g + 1}: {'+'.join(expansions)} A as {'AB'[seat]}: {result}"
              f"  running {total}/{n}", flush=True)  # fmt: skip
    total, n = score[0] + score[1], played[0] + played[1]
    low, high = wilson_interval(total / n if n else 0.0, n)
    print(
        f"{args.a} vs {args.b}: {total}/{n} = {total / n:.1%} (Wilson 95% {low:.1%}-{high:.1%});"
        f" as A {score[0]}/{played[0]}, as B {score[1]}/{played[1]};"
        f" {dict(kinds)}; {time.process_time() - start:.0f} CPU s"
    )


if __name__ == "__main__":
    main()
