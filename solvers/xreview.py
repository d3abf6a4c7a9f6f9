"""The review of an expansion game's record: each decision judged by the expansion player's
search (:func:`duel.solvers.xplayers.search`, from the mover's own view), the move played
against the search's best, its loss in win chance and its mark, as the base game's review
(:mod:`duel.solvers.review`) does with its own engine. No input or output here: ``duel review``
prints it (:mod:`duel.app.cli.review`).

A decision with one legal move is not judged. The values are today's expansion player's (an
open-loop MCTS with a heuristic evaluation, docs/strength.md has its strength); a stronger
compiled player will replace it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from duel.expansions import XMove, XState
from duel.expansions.record import XRecord
from duel.solvers.xplayers import evaluate, search

#: Losses in win chance from which a move is marked (as the base review's).
MARKS = ((0.20, "??"), (0.10, "?"), (0.05, "?!"))
#: Iterations a decision when no time is given, at least a few per legal move.
DEFAULT_ITERATIONS = 400


@dataclass(frozen=True)
class XJudged:
    """One decision of the record: move ``number`` (1-based) by ``player``."""

    number: int
    player: int
    move: XMove
    value: float  # the win chance of the move played, for its player (a shared victory 1/2)
    best: XMove
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def mark(self) -> str:
        return next((mark for limit, mark in MARKS if self.loss >= limit), "")


def judge(
    state: XState, move: XMove, *, iterations: int | None, seconds: float | None, seed: int
) -> tuple[float, XMove, float]:
    """(value of ``move``, best move, its value) for the player to move in ``state``."""
    view = state.view(state.to_move)
    legal = view.legal_moves()
    budget = None if seconds is not None else max(iterations or DEFAULT_ITERATIONS, 4 * len(legal))
    result = search(view, iterations=budget, seconds=seconds, seed=seed)
    arms = {m: value for m, _, value in result.moves}
    best = result.best_move
    value = arms.get(move)
    if value is None:  # never tried: the position it leads to, as a playout's end would judge
        after = view.apply(move, check=False)
        value = evaluate(after) if view.to_move == 0 else 1.0 - evaluate(after)
    return value, best, arms[best]


def review_xrecord(
    record: XRecord,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[XJudged]:
    """Every decision of ``record`` with more than one legal move, judged (see the module),
    but The Great Library's choices the record hides (their tokens not chosen are placeholders:
    :attr:`XRecord.redacted`)."""
    states = record.states()
    todo = [
        n
        for n, state in enumerate(states[:-1], 1)
        if not state.is_chance()
        and n - 2 not in record.redacted
        and len(state.view(state.to_move).legal_moves()) > 1
    ]
    judged = []
    for done, n in enumerate(todo):
        if progress is not None:
            progress(done, len(todo))
        state, move = states[n - 1], record.moves[n - 1]
        value, best, best_value = judge(
            state, move, iterations=iterations, seconds=seconds, seed=seed * 100_003 + n
        )
        judged.append(XJudged(n, state.to_move, move, value, best, best_value))
    if progress is not None:
        progress(len(todo), len(todo))
    return judged


@dataclass(frozen=True)
class XPlayerSummary:
    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


def summary(judged: list[XJudged], player: int) -> XPlayerSummary:
    mine = [j for j in judged if j.player == player]
    marks = [j.mark for j in mine]
    return XPlayerSummary(
        len(mine),
        sum(j.loss for j in mine) / len(mine) if mine else 0.0,
        marks.count("?!"),
        marks.count("?"),
        marks.count("??"),
    )
