"""An exact Age III endgame as a player reads it.

The exact solver (:func:`duel.solvers.search.analyse` with ``exact=True``) gives each move's value
under perfect play, every face-down card enumerated. A player analysing an endgame also wants to
see why: after a move, each way the face-down cards can fall (with its probability and the value
after it), the best reply of whoever decides next, the threats on the board (a science or
military victory in reach), and where along the best line the game is decided.
:func:`explain_move` builds that report from one searcher, whose table already holds most of
the answers after the root solve, so each extra value costs little.

>>> from pathlib import Path
>>> from duel.position import load_position
>>> state = load_position(Path("examples/endgames/age3_8cards_seed102.json"))  # doctest: +SKIP
>>> report = explain_move(state, state.legal_moves()[0])  # doctest: +SKIP
>>> round(sum(r.probability for r in report.reveals), 9)  # doctest: +SKIP
1.0
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from duel.moves import PLAYER_NAMES, Move
from duel.solvers.search import (
    Limit,
    Searcher,
    analyse,
    exact_feasible,
    new_searcher,
    terminal_value,
)
from duel.state import State

__all__ = ["EndgameReport", "NotSolved", "Reveal", "Threat", "explain_move", "threats"]

#: Science symbols a player needs for a science victory, and the spaces from the centre of the
#: conflict track to a capital.
SCIENCE_WIN = 6
CAPITAL = 9
#: A value this close to 0 or 1 is a certain result (the solver's sums of probabilities round).
CERTAIN = 1e-9


class NotSolved(RuntimeError):
    """The position could not be solved exactly within the time given."""


@dataclass(frozen=True)
class Threat:
    """A victory in reach: ``kind`` is "science" or "military"; ``player`` (0 = A) is the one who
    threatens it; ``distance`` is how many symbols or track spaces are still missing."""

    kind: str
    player: int
    distance: int

    def __str__(self) -> str:
        who = PLAYER_NAMES[self.player]
        if self.kind == "science":
            return f"{who} is {self.distance} science symbol(s) from a science victory"
        return f"{who} is {self.distance} space(s) from the opponent's capital"


@dataclass(frozen=True)
class Reveal:
    """One way the chance after a move falls, up to the next decision.

    ``outcomes`` are the chance moves (cards turned up, a guild deal) in order, ``probability``
    their joint probability, ``value`` the analysed player's exact win chance after them,
    ``decider`` who decides next (``None`` at the end of the game) and ``reply`` that player's
    best move."""

    outcomes: tuple[Move, ...]
    probability: float
    value: float
    decider: int | None
    reply: Move | None


@dataclass(frozen=True)
class EndgameReport:
    """A move explained: its exact ``value`` for ``player`` (the mover), the ``reveals`` that can
    follow it (most likely first; a single entry with no outcomes if nothing is revealed), the
    ``line`` the game most likely follows under perfect play (each chance step its likeliest
    outcome), how that line ends, the index in ``line`` after which the result no longer depends
    on anything (``decided_at``; ``None`` if it is open to the end), and the ``threats`` on the
    board after the move."""

    move: Move
    player: int
    value: float
    reveals: tuple[Reveal, ...]
    line: tuple[Move, ...]
    line_victory: str
    line_winner: int | None
    decided_at: int | None
    threats: tuple[Threat, ...] = field(default=())

    def to_dict(self) -> dict:
        """JSON-ready, moves in the project's notation."""
        return {
            "move": str(self.move),
            "player": "AB"[self.player],
            "value": self.value,
            "reveals": [
                {
                    "outcomes": [str(m) for m in r.outcomes],
                    "probability": r.probability,
                    "value": r.value,
                    "decider": None if r.decider is None else "AB"[r.decider],
                    "reply": None if r.reply is None else str(r.reply),
                }
                for r in self.reveals
            ],
            "line": [str(m) for m in self.line],
            "line_victory": self.line_victory,
            "line_winner": None if self.line_winner is None else "AB"[self.line_winner],
            "decided_at": self.decided_at,
            "threats": [
                {"kind": t.kind, "player": "AB"[t.player], "distance": t.distance}
                for t in self.threats
            ],
        }


def threats(state: State, within: int = 2) -> tuple[Threat, ...]:
    """The victories in reach on the board: a player at most ``within`` science symbols from six
    different ones, or the pawn at most ``within`` spaces from a capital.

    >>> from duel import new_game
    >>> threats(new_game())
    ()
    """
    found = []
    for player in (0, 1):
        missing = SCIENCE_WIN - len(state.science(player))
        if 0 < missing <= within:
            found.append(Threat("science", player, missing))
    pawn = state.pawn  # positive: towards B's capital
    for player, distance in ((0, CAPITAL - pawn), (1, CAPITAL + pawn)):
        if 0 < distance <= within:
            found.append(Threat("military", player, distance))
    return tuple(found)


def _chance_paths(state: State) -> list[tuple[tuple[Move, ...], float, State]]:
    """Every sequence of chance outcomes from ``state`` to the next decision (or the end)."""
    if not state.is_chance():
        return [((), 1.0, state)]
    out = []
    for outcome, p in state.chance_outcomes():
        for path, q, end in _chance_paths(state.apply(outcome, check=False)):
            out.append(((outcome, *path), p * q, end))
    return out


class _Solver:
    """Exact values and best moves from one searcher (its table shared by every question)."""

    def __init__(self, searcher: Searcher, deadline: float) -> None:
        self.searcher = searcher
        self.deadline = deadline

    def solve(self, state: State):
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise NotSolved("out of time")
        info = analyse(state, Limit(time=left), exact=True, margin=False, searcher=self.searcher)
        if not info.exact:
            raise NotSolved("out of time")
        return info

    def value_a(self, state: State) -> float:
        if state.is_terminal():
            return terminal_value(state)
        return self.solve(state).value.a


def _for(player: int, value_a: float) -> float:
    return value_a if player == 0 else 1.0 - value_a


def explain_move(
    state: State,
    move: Move,
    *,
    searcher: Searcher | None = None,
    seconds: float = 60.0,
    max_line: int = 40,
) -> EndgameReport:
    """Explain ``move`` at the decision ``state`` (an Age III endgame the exact solver can
    finish): see :class:`EndgameReport`. Raises :class:`NotSolved` if the solves do not finish
    within ``seconds`` and ``ValueError`` if ``state`` is no decision or ``move`` is illegal."""
    if state.is_terminal() or state.is_chance():
        raise ValueError(f"no decision to take here ({state.describe()})")
    if move not in state.legal_moves():
        raise ValueError(f"{move} is not legal here: {state.why_illegal(move)}")
    if not exact_feasible(state):
        raise NotSolved("too far from the end of the game for an exact solve")
    searcher = searcher or new_searcher(chance_width=None, chance_samples=4)
    solver = _Solver(searcher, time.perf_counter() + seconds)
    player = state.to_move
    after = state.apply(move, check=False)
    reveals = []
    for outcomes, probability, end in _chance_paths(after):
        if end.is_terminal():
            value = _for(player, solver.value_a(end))
            reveals.append(Reveal(outcomes, probability, value, None, None))
            continue
        info = solver.solve(end)
        reveals.append(
            Reveal(outcomes, probability, _for(player, info.value.a), end.to_move, info.best_move)
        )
    reveals.sort(key=lambda r: (-r.probability, -r.value))
    value = sum(r.probability * r.value for r in reveals)
    line, decided_at, final = _principal_line(after, solver, max_line)
    return EndgameReport(
        move=move,
        player=player,
        value=value,
        reveals=tuple(reveals),
        line=(move, *line),
        line_victory=final.victory if final.is_terminal() else "",
        line_winner=final.winner if final.is_terminal() else None,
        decided_at=None if decided_at is None else decided_at + 1,
        threats=threats(after),
    )


def _principal_line(
    state: State, solver: _Solver, max_len: int
) -> tuple[list[Move], int | None, State]:
    """The best line from ``state`` with each chance step's likeliest outcome, the index of the
    first position from which the result is certain (value 0 or 1 for A, or a shared result
    certain), and the last state reached."""
    line: list[Move] = []
    decided_at = None
    while not state.is_terminal() and len(line) < max_len:
        value_a = solver.value_a(state)
        if decided_at is None and min(value_a, 1.0 - value_a) < CERTAIN:
            decided_at = len(line)
        if state.is_chance():
            move = max(state.chance_outcomes(), key=lambda mp: mp[1])[0]
        else:
            move = solver.solve(state).best_move
        line.append(move)
        state = state.apply(move, check=False)
    if decided_at is None and state.is_terminal():
        decided_at = len(line)
    return line, decided_at, state
