"""Exact endgames of expansion games: expectimax over the compiled core from the mover's view.

The value of a decision for the player to move, exactly, in the game as that player sees it
(:meth:`duel.xcore.CXState.view`): the opponent's private cards (a face-down Divinity, unseen
Conspiracies) and the face-down cards are chance nodes there, each outcome with its exact
probability from what the player cannot rule out, as in the MCTS's model. Both players then
play perfectly in that model (the mover maximises, the opponent minimises the mover's value) and
chance is averaged: the value is the mover's P(win) + P(shared) / 2 under perfect play.

**Search.** Depth-first expectiminimax on the compiled core's raw state (``duel._xcore.State``:
legal move codes, chance outcomes with integer weights, apply), with

* alpha-beta at decision nodes (the values are in [0, 1], so the root starts at the window
  (0, 1) and a move that wins outright ends its node's search: nothing beats 1);
* a chance node searched with the full window (its value is exact whatever its parent's window);
* a transposition table keyed by the compiled state (its equality and hash cover the whole
  state), holding exact values and lower/upper bounds.

**Budget.** ``nodes`` bounds the states expanded; past it :class:`NodeBudgetExceeded` is raised,
so a caller (the expansion hint, :mod:`duel.solvers.xhint`) falls back to its estimate: only a
finished search is ever shown as exact. :func:`brute_force` is the same game value without
pruning or table, for the tests.

>>> import random
>>> from duel import xcore
>>> state, rng = xcore.new_game(("pantheon",)), random.Random(3)
>>> while not (state.age == 3 and cards_left(state) <= 3 and not state.is_chance()):
...     state = state.apply(state.random_move(rng), check=False)
>>> result = solve(state, nodes=200_000)
>>> 0.0 <= result.value <= 1.0 and result.finished
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from duel import xcore
from duel.expansions import XMove, XState

# the compiled state's phase code of the end (the solver runs on the compiled core only)
_GAME_OVER = xcore.PHASES.index("game_over") if xcore.AVAILABLE else -1
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: A default node budget for a hint: a few seconds of the Python driver on one core.
DEFAULT_NODES = 200_000
#: The cards left in Age III from which :func:`worth_trying` says an exact solve may finish.
MAX_CARDS = 8


class NodeBudgetExceeded(Exception):
    """The search expanded its budget of nodes before finishing."""


@dataclass(frozen=True)
class XExactResult:
    """The exact value of each legal move of the root (for its mover), best first."""

    moves: list[tuple[XMove, float]]
    nodes: int
    seconds: float
    finished: bool = True

    @property
    def value(self) -> float:
        return self.moves[0][1]

    @property
    def best_move(self) -> XMove:
        return self.moves[0][0]


def cards_left(state: XState | xcore.CXState) -> int:
    """The Age cards still in the pyramid (face up or down)."""
    python = state.to_xstate() if isinstance(state, xcore.CXState) else state
    return sum(1 for card in python.pyramid if card != -1)


def worth_trying(state: XState | xcore.CXState, max_cards: int = MAX_CARDS) -> bool:
    """Whether an exact solve is worth starting: Age III, a decision, few cards left."""
    return (
        state.age == 3
        and not state.is_chance()
        and not state.is_terminal()
        and cards_left(state) <= max_cards
    )


def _terminal_value(core: Any, root: int) -> float:
    winner = core.winner
    return 1.0 if winner == root else 0.0 if winner in (0, 1) else 0.5


class _Solver:
    def __init__(self, root_player: int, nodes: int, deadline: float | None = None) -> None:
        self.root = root_player
        self.budget = nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[Any, tuple[float, int]] = {}

    def value(self, core: Any, alpha: float, beta: float) -> float:
        """The root player's value of ``core``: exact when strictly inside (alpha, beta), else a
        bound on the side it fails (fail-hard)."""
        if core.phase == _GAME_OVER:
            return _terminal_value(core, self.root)
        entry = self.table.get(core)
        if entry is not None:
            v, flag = entry
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.budget:
            raise NodeBudgetExceeded(self.nodes)
        if (
            self.deadline is not None
            and self.nodes & 1023 == 0
            and time.perf_counter() > self.deadline
        ):
            raise NodeBudgetExceeded(self.nodes)
        if core.is_chance:
            outcomes = core.chance_outcomes()
            total = sum(w for _, w in outcomes)
            v = sum(w * self.value(core.apply(m), 0.0, 1.0) for m, w in outcomes) / total
            self.table[core] = (v, _EXACT)
            return v
        maximising = core.to_move == self.root
        best = 0.0 if maximising else 1.0
        a, b = alpha, beta
        for code in core.legal_moves():
            v = self.value(core.apply(code), a, b)
            if maximising:
                if v > best:
                    best = v
                a = max(a, best)
            else:
                if v < best:
                    best = v
                b = min(b, best)
            if a >= b:
                break
        if best <= alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self.table[core] = (best, flag)
        return best


def _root_view(state: XState | xcore.CXState) -> xcore.CXState:
    compiled = state if isinstance(state, xcore.CXState) else xcore.CXState.from_xstate(state)
    return compiled.view(compiled.to_move)


def solve(
    state: XState | xcore.CXState,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
    moves: list[XMove] | None = None,
) -> XExactResult:
    """The exact value of every legal move (or of ``moves``) at decision ``state``, from its
    mover's view; raises :class:`NodeBudgetExceeded` past ``nodes`` expanded states or
    ``seconds`` (checked every 1,024 nodes)."""
    view = _root_view(state)
    if view.is_chance() or view.is_terminal():
        raise ValueError(f"an exact solve starts at a decision ({view.describe()})")
    start = time.perf_counter()
    solver = _Solver(view.to_move, nodes, None if seconds is None else start + seconds)
    wanted = None if moves is None else {xcore.encode_move(m) for m in moves}
    rows = []
    for code in view.core.legal_moves():
        if wanted is None or code in wanted:
            v = solver.value(view.core.apply(code), 0.0, 1.0)
            rows.append((xcore.decode_move(code, view.expansions), v))
    rows.sort(key=lambda row: -row[1])
    return XExactResult(rows, solver.nodes, time.perf_counter() - start)


def try_solve(
    state: XState | xcore.CXState,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
    max_cards: int = MAX_CARDS,
) -> XExactResult | None:
    """:func:`solve` where :func:`worth_trying` says so and it finishes within ``nodes`` and
    ``seconds``, else None (the caller's estimate stands)."""
    if not xcore.AVAILABLE or not worth_trying(state, max_cards):
        return None
    try:
        return solve(state, nodes=nodes, seconds=seconds)
    except NodeBudgetExceeded:
        return None


def brute_force(state: XState | xcore.CXState) -> dict[XMove, Fraction]:
    """Each legal move's exact value for the mover of ``state`` (from their view), by plain
    expectiminimax in exact fractions: no pruning, no table (small positions only)."""
    view = _root_view(state)
    root = view.to_move

    def value(core: Any) -> Fraction:
        if core.phase == _GAME_OVER:
            return Fraction(_terminal_value(core, root)).limit_denominator(2)
        if core.is_chance:
            outcomes = core.chance_outcomes()
            total = sum(w for _, w in outcomes)
            return sum(
                (Fraction(w, total) * value(core.apply(m)) for m, w in outcomes), Fraction(0)
            )
        children = [value(core.apply(code)) for code in core.legal_moves()]
        return max(children) if core.to_move == root else min(children)

    return {
        xcore.decode_move(code, view.expansions): value(view.core.apply(code))
        for code in view.core.legal_moves()
    }
