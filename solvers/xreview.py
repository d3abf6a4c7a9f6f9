"""The review of an expansion game's record: each decision judged from the mover's own view, the
move played against the best, its loss in win chance and its mark, as the base game's review
(:mod:`duel.solvers.review`) does with its own engine. No input or output here: ``duel review``
prints it (:mod:`duel.app.cli.review`).

The judge (:func:`judge`) is the expansion hint's engine (:mod:`duel.solvers.xhint`): a move
that ends the game at its exact value, the exact endgame solver in Age III where it finishes
within its node budget (:func:`duel.solvers.xendgame.try_solve`), else the ``cmcts`` level's
search (:class:`duel.solvers.xcmcts.XCMctsPlayer`) with the hint's calibrated win chances; a
move played that the search never tried is valued by a search from the position it leads to.
Without the compiled search, the Python ``mcts`` (:func:`duel.solvers.xplayers.search`) judges.
A decision with one legal move is not judged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from duel.expansions import XMove, XState
from duel.expansions.record import XRecord
from duel.solvers.xendgame import try_solve
from duel.solvers.xhint import ending_moves
from duel.solvers.xplayers import compiled_available, evaluate, search

#: Losses in win chance from which a move is marked (as the base review's).
MARKS = ((0.20, "??"), (0.10, "?"), (0.05, "?!"))
#: Iterations a decision when no time is given (at least a few per legal move): the compiled
#: search's (about a third of a second on one core); the Python fallback's are 400.
DEFAULT_ITERATIONS = 4000
PYTHON_ITERATIONS = 400
#: The exact endgame solver's node budget a decision (deterministic), and the cards left from
#: which it is tried (fewer than the hint's: a review judges every decision of the game).
EXACT_NODES = 100_000
REVIEW_EXACT_CARDS = 6


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
    """(value of ``move``, best move, its value) for the player to move in ``state``, judged from
    their own view (see the module)."""
    view = state.view(state.to_move)
    legal = view.legal_moves()
    ending = ending_moves(view)
    winning = [m for m, v in ending.items() if v == 1.0]
    if len(ending) == len(legal) or (winning and move in ending):
        best = max(ending, key=lambda m: ending[m])
        return ending[move], best, ending[best]
    exact = try_solve(view, nodes=EXACT_NODES, max_cards=REVIEW_EXACT_CARDS)
    if exact is not None and move in dict(exact.moves):
        return dict(exact.moves)[move], exact.best_move, exact.value
    if not compiled_available():
        value, best, best_value = _judge_python(
            view, move, iterations=iterations, seconds=seconds, seed=seed
        )
    else:
        value, best, best_value = _judge_compiled(view, move, ending, iterations, seconds, seed)
    if winning:  # a win now was missed: the best move is the win, whatever the search says
        return value, winning[0], 1.0
    return value, best, best_value


def _judge_compiled(
    view: XState,
    move: XMove,
    ending: dict[XMove, float],
    iterations: int | None,
    seconds: float | None,
    seed: int,
) -> tuple[float, XMove, float]:
    from duel.solvers.xcmcts import XCMctsPlayer
    from duel.solvers.xhint_calibration import calibrate

    legal = view.legal_moves()
    budget = None if seconds is not None else max(iterations or DEFAULT_ITERATIONS, 4 * len(legal))
    found = XCMctsPlayer(iterations=budget, seconds=seconds, seed=seed).analyse(view)
    arms = {m: calibrate(v, view.expansions) for m, n, v in found if n > 0}
    arms.update(ending)  # a move that ends the game: its exact value
    best = max(found, key=lambda row: (row[1], row[2]))[0]
    value = arms.get(move)
    if value is None:  # never tried: the opponent's search from the position it leads to
        after = view.apply(move, check=False)
        if after.is_chance():
            value = evaluate(after) if view.to_move == 0 else 1.0 - evaluate(after)
        else:
            reply = XCMctsPlayer(
                iterations=None if budget is None else max(1, budget // 2),
                seconds=None if seconds is None else seconds / 2,
                seed=seed,
            ).analyse(after)
            theirs = calibrate(reply[0][2], view.expansions)  # for the player to move there
            value = theirs if after.to_move == view.to_move else 1.0 - theirs
    return value, best, arms[best]


def _judge_python(
    view: XState, move: XMove, *, iterations: int | None, seconds: float | None, seed: int
) -> tuple[float, XMove, float]:
    legal = view.legal_moves()
    budget = None if seconds is not None else max(iterations or PYTHON_ITERATIONS, 4 * len(legal))
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
