"""A's chance of winning at each position of a game in play: the graph and the "now" value.

One engine for every number on screen (issue 62): a decision is valued by the review's door,
:func:`duel.solvers.review.analyse_position`, with the hint's engine (``cmcts``, through
:func:`duel.solvers.hint.hint_analysis`; the search where the compiled MCTS is not built) at an
iteration budget and the hint's seed, so the point is what the hint would say at that budget,
and what ``duel review`` says of the same position at the same budget and seed. A hint asked
for replaces the point with its own (larger) search.

A chance node (a card about to be turned face up, a token drawn) gets no search of its own: its
value is the engine's value of the move played at the decision before it, the expectation over
the deals to come (:func:`duel.solvers.review.played_value_a`). So the graph does not jump when
a card is revealed; what the revealed card changes shows at the next decision. The review's
graph follows the same rule (:func:`duel.solvers.review.graph_points`).

No input or output here: the app runs :meth:`ValueTrack.analyse` in a worker thread and draws
:meth:`ValueTrack.series`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from duel.moves import Move
from duel.state import State

__all__ = ["Valued", "ValueTrack", "graph_level"]

ESTIMATE = "estimate"
HINT = "hint"


def graph_level(nodes: int) -> str:
    """The review level that values a position for the graph: the hint's engine at ``nodes``
    iterations (search nodes where the compiled MCTS is not built).

    >>> graph_level(2000) in ("cmcts:2000", "search:2000")
    True
    """
    from duel.solvers.hint import cmcts_available

    return f"{'cmcts' if cmcts_available() else 'search'}:{nodes}"


@dataclass(frozen=True)
class Valued:
    """One decision's analysis as the graph reads it: A's value with best play, each analysed
    move's value for the player to move (notation -> value), and where it came from."""

    state: State
    value_a: float
    values: tuple[tuple[str, float], ...]
    source: str = ESTIMATE

    @property
    def result(self) -> dict[str, Any]:
        """The shape of a review job's result (for :func:`played_value_a`)."""
        return {"value_a": self.value_a, "values": [list(mv) for mv in self.values]}

    def after(self, move: Move) -> float | None:
        """A's value after ``move``, when this analysis valued it."""
        from duel.solvers.review import played_value_a

        if all(m != str(move) for m, _ in self.values):
            return None
        value: float | None = played_value_a(self.result, move, self.state.to_move)
        return value


def analyse(state: State, *, nodes: int, seed: int) -> Valued | None:
    """The graph's analysis of a decision (see the module); None without the solver."""
    try:
        from duel.solvers.review import analyse_position
    except ImportError:
        return None
    result = analyse_position(state, level=graph_level(nodes), seed=seed)
    values = tuple((str(m), v) for m, v in result.values)
    return Valued(state, result.value_a, values)


#: A's value at the end of a game by its winner (a shared victory counts 1/2).
_END_VALUES: dict[int | None, float] = {0: 1.0, 1: 0.0}

class ValueTrack:
    """A's chance of winning by position, for one game (see the module).

    ``estimates`` hold the graph's own analyses, ``hints`` the hints asked for, by position
    index (the number of moves played); a position taken back and played differently is
    dropped by :meth:`prune`.
    """

    def __init__(self, nodes: int, seed: int = 0) -> None:
        self.nodes = nodes
        self.seed = seed
        self.estimates: dict[int, Valued] = {}
        self.hints: dict[int, Valued] = {}

    def clear(self, seed: int | None = None) -> None:
        self.estimates.clear()
        self.hints.clear()
        if seed is not None:
            self.seed = seed

    def prune(self, states: Sequence[State]) -> None:
        """Forget the analyses of positions that are no longer the game's (undone)."""
        for table in (self.estimates, self.hints):
            items = list(table.items())  # a copy in one step: the measuring thread adds
            for ply in [p for p, v in items if p >= len(states) or states[p] != v.state]:
                del table[ply]

    # --- what to analyse ------------------------------------------------------------------------
    def wanted(self, states: Sequence[State]) -> list[int]:
        """The decision the graph needs analysed for the position now to have a value: the
        last position if it is a decision, else the decision before the chance nodes that end
        the game so far (none when it has a value already). Positions played while the graph
        was busy are not gone back to: the app values the newest first and keeps up."""
        ply = self._decision_at_or_before(states, len(states) - 1)
        if ply is None or ply in self.estimates or ply in self.hints:
            return []
        return [ply]

    def analyse(self, states: Sequence[State], ply: int) -> Valued | None:
        """Analyse position ``ply`` (in a worker thread) and keep it."""
        valued = analyse(states[ply], nodes=self.nodes, seed=self.seed)
        if valued is not None and ply < len(states) and states[ply] == valued.state:
            self.estimates[ply] = valued
        return valued

    def hinted(
        self, ply: int, state: State, value_a: float, values: Sequence[tuple[Move, float]]
    ) -> None:
        """A hint's search at position ``ply``: its value replaces the graph's there."""
        moves = tuple((str(m), v) for m, v in values if v is not None)
        self.hints[ply] = Valued(state, value_a, moves, HINT)

    # --- values ---------------------------------------------------------------------------------
    @staticmethod
    def _decision_at_or_before(states: Sequence[State], ply: int) -> int | None:
        """The decision at ``ply``, or the one before the chance nodes that lead to ``ply``."""
        while ply >= 0:
            state = states[ply]
            if state.is_terminal():
                return None
            if not state.is_chance():
                return ply
            ply -= 1
        return None

    def value_at(
        self, states: Sequence[State], moves: Sequence[Move], ply: int
    ) -> tuple[float, str] | None:
        """A's chance at position ``ply`` and its source (``hint``, ``estimate``, ``end``),
        or None when not analysed yet."""
        state = states[ply]
        if state.is_terminal():
            return _END_VALUES.get(state.winner, 0.5), "end"
        decision = self._decision_at_or_before(states, ply)
        if decision is None:
            return None
        hint, estimate = self.hints.get(decision), self.estimates.get(decision)
        if decision == ply:
            best = hint or estimate
            return None if best is None else (best.value_a, best.source)
        for valued in (hint, estimate):  # a chance node: the value of the move played before it
            if valued is not None:
                value = valued.after(moves[decision])
                if value is not None:
                    return value, valued.source
        best = hint or estimate
        return None if best is None else (best.value_a, best.source)

    def series(self, states: Sequence[State], moves: Sequence[Move]) -> list[tuple[int, float]]:
        """A's chance at every position valued so far, in game order."""
        out = []
        for ply in range(len(states)):
            found = self.value_at(states, moves, ply)
            if found is not None:
                out.append((ply, found[0]))
        return out
