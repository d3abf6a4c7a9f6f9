"""The differential check of the compiled expansion core against the Python expansion engine.

:func:`play` plays one random game through both engines and compares, at every step: the whole
state (the compiled one converted to an :class:`XState`), the legal moves in order, the chance
outcomes in order with their exact weights, and at each decision both players' views (the same
comparisons again: a view's moves and its chance outcomes over what that player cannot rule
out); at the end, the result. The CI test (``test_xcore.py``) and the long run
(``benchmarks/xcore_diff.py``) both use it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from duel import xcore
from duel.expansions import XState, new_xgame, observe
from duel.expansions.table import FIELDS


class Disagreement(AssertionError):
    """The engines differ; the message says where and how."""


@dataclass
class Tally:
    games: int = 0
    steps: int = 0
    states: int = 0  # referee states and views compared
    decisions: int = 0  # legal-move lists compared
    chance_nodes: int = 0  # chance-outcome lists compared
    views: int = 0
    results: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for name in ("games", "steps", "states", "decisions", "chance_nodes", "views"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k, v in other.results.items():
            self.results[k] = self.results.get(k, 0) + v


def _difference(python: XState, compiled: XState) -> str:
    lines = []
    for name in FIELDS:
        a, b = getattr(python, name), getattr(compiled, name)
        if name == "cities":
            for p in (0, 1):
                for f in python.cities[p].__slots__:
                    x, y = getattr(python.cities[p], f), getattr(compiled.cities[p], f)
                    if x != y:
                        lines.append(f"city {p} {f}: Python {x!r}, C {y!r}")
        elif a != b:
            lines.append(f"{name}: Python {a!r}, C {b!r}")
    return "; ".join(lines)


def compare(python: XState, compiled, where: str, tally: Tally) -> None:
    converted = xcore.to_xstate(compiled)
    tally.states += 1
    if converted != python:
        raise Disagreement(f"{where}: states differ: {_difference(python, converted)}")
    if python.is_terminal():
        return
    expansions = python.expansions
    if python.is_chance():
        tally.chance_nodes += 1
        ours = python.chance_weights()[0]
        theirs = [(xcore.decode_move(m, expansions), w) for m, w in compiled.chance_outcomes()]
        if ours != theirs:
            raise Disagreement(
                f"{where} ({python.phase}): chance outcomes differ: Python "
                f"{[(str(m), w) for m, w in ours][:8]}, C {[(str(m), w) for m, w in theirs][:8]}"
            )
        return
    tally.decisions += 1
    ours = python.legal_moves()
    theirs = [xcore.decode_move(m, expansions) for m in compiled.legal_moves()]
    if ours != theirs:
        raise Disagreement(
            f"{where} ({python.phase}): legal moves differ: Python {[str(m) for m in ours]}, "
            f"C {[str(m) for m in theirs]}"
        )


def play(expansions: tuple[str, ...], seed: int, *, views: bool = True) -> Tally:
    """One random game (moves drawn from the Python engine's lists) through both engines."""
    tally = Tally(games=1)
    rng = random.Random(seed)
    python = new_xgame(expansions)
    compiled = xcore.xcore.new_game(sum(xcore._EXPANSION_BIT[e] for e in expansions))
    step = 0
    while True:
        where = f"{'+'.join(expansions) or 'base'} seed {seed} step {step}"
        compare(python, compiled, where, tally)
        if python.is_terminal():
            break
        move = python.random_move(rng)
        after = python.apply(move, check=False)
        compiled_after = compiled.apply(xcore.encode_move(move))
        if views:
            for player in (0, 1):
                tally.views += 1
                view = compiled.view(player)
                compare(python.view(player), view, f"{where} view {player}", tally)
                # a view moves on by what its player sees of the move, as the Python view does
                # (not always to the next referee's view: a view cannot tell whether Curia
                # Julia's step is useful, so it may stop there when the referee does not)
                seen = observe(python, move, player)
                ours = python.view(player).apply(seen, check=False)
                theirs = view.apply(xcore.encode_move(seen))
                if xcore.to_xstate(theirs) != ours:
                    raise Disagreement(
                        f"{where} view {player}: {move} seen as {seen}: "
                        f"{_difference(ours, xcore.to_xstate(theirs))}"
                    )
        python, compiled = after, compiled_after
        step += 1
    tally.steps = step
    outcome = python.victory if python.winner != 2 else "shared"
    tally.results[outcome] = 1
    if python.returns() != xcore.CXState(compiled, expansions).returns():
        raise Disagreement(f"seed {seed}: results differ")
    return tally
