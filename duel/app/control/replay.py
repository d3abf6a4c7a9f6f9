"""Stepping through a game record: the move list and the navigation commands of a replay view.

No input or output here, so that the line-mode ``duel replay``, ``duel show --at`` and the coming
full-screen app share one implementation. The positions of a record by index are the game's
(:class:`duel.record.Replay`): index ``n`` is the position after the first ``n`` moves, 0 the new
game, ``len(moves)`` the last position.

>>> import random
>>> from duel import new_game
>>> from duel.record import GameRecord
>>> state, moves, rng = new_game(), [], random.Random(3)
>>> while len(moves) < 40:
...     move = state.random_move(rng)
...     moves.append(move)
...     state = state.apply(move)
>>> replay = Replay.of(GameRecord(tuple(moves)))
>>> replay.last, replay.state(40) == state
(40, True)
>>> cursor = Cursor(replay)
>>> cursor = cursor.command("goto 12")[0]
>>> cursor.index, cursor.command("prev")[0].index, cursor.command("last")[0].index
(12, 11, 40)
>>> cursor.command("goto 99")[1]
'no move 99: the game has moves 0 to 40'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from duel.app.i18n import N_, tr, tr_error
from duel.moves import PLAYER_NAMES
from duel.quote import quoted
from duel.reason import Reason
from duel.record import Replay, ReplayError, mover
from duel.state import State

if TYPE_CHECKING:
    from duel.expansions.record import XRecord
    from duel.expansions.state import XState

__all__ = ["COMMANDS", "Cursor", "Replay", "ReplayError", "XReplay", "mover", "numbered_moves"]


@dataclass(frozen=True)
class XReplay(Replay):
    """The positions of an expansion game's record (:class:`duel.expansions.record.XRecord`),
    with the base replay's interface: a :class:`Cursor` steps through either."""

    record: XRecord  # type: ignore[assignment]
    states: tuple[XState, ...]  # type: ignore[assignment]

    @staticmethod
    def of(record: XRecord) -> XReplay:  # type: ignore[override]
        return XReplay(record, tuple(record.states()), tuple(record.notation()))

    def move_text(self, number: int) -> str:
        if not 1 <= number <= self.last:
            raise ReplayError(
                Reason(
                    "no move {number}: the game has moves 1 to {last}",
                    number=number,
                    last=self.last,
                )
            )
        before = self.states[number - 1]
        text = self.notation[number - 1]
        if before.is_chance():
            return f"chance: {text}"
        return f"{PLAYER_NAMES[before.to_move]} {text}"


def numbered_moves(replay: Replay, *, chance: bool = True) -> list[str]:
    """The whole move list, one line per move (``chance=False`` leaves out chance outcomes)."""
    lines = []
    for n in range(1, replay.last + 1):
        if not chance and mover(replay.states[n - 1], replay.moves[n - 1]) == "chance":
            continue
        lines.append(replay.move_line(n))
    return lines


#: The navigation commands and what they do (the help text of every replay view).
COMMANDS = {
    "next [K]": N_("forward one move (or K moves); Enter alone does the same"),
    "prev [K]": N_("back one move (or K)"),
    "first": N_("the new game (position 0)"),
    "last": N_("the final position"),
    "goto N": N_("the position after move N"),
    "moves": N_("the whole move list"),
    "help": N_("this list"),
    "quit": N_("leave"),
}
_ALIASES = {
    "": "next",
    "n": "next",
    "+": "next",
    "forward": "next",
    "p": "prev",
    "-": "prev",
    "b": "prev",
    "back": "prev",
    "previous": "prev",
    "f": "first",
    "start": "first",
    "l": "last",
    "end": "last",
    "g": "goto",
    "go": "goto",
    "m": "moves",
    "list": "moves",
    "h": "help",
    "?": "help",
    "q": "quit",
    "exit": "quit",
}


@dataclass(frozen=True)
class Cursor:
    """A position in a replay and the commands that move it. Immutable: each command returns a
    new cursor and a message (empty when the command simply moved)."""

    replay: Replay
    index: int = 0

    @property
    def state(self) -> State:
        return self.replay.states[self.index]

    @property
    def last_move(self) -> str | None:
        """The move that led here, ``A build Baths`` (``None`` at the start)."""
        return self.replay.move_text(self.index) if self.index else None

    def header(self) -> str:
        """``Move 12 of 143: B build Baths`` (``Move 0 of 143: the new game``)."""
        if not self.index:
            return tr("Move 0 of {last}: the new game, no move yet", last=self.replay.last)
        return tr(
            "Move {index} of {last}: {move}",
            index=self.index,
            last=self.replay.last,
            move=self.last_move,
        )

    def at(self, index: int) -> Cursor:
        return replace(self, index=self.replay.check(index))

    def command(self, text: str) -> tuple[Cursor, str]:
        """Apply one typed command: ``(new cursor, message)``. Unknown or out-of-range commands
        leave the cursor where it is and say why; ``quit`` returns the message ``"quit"``."""
        words = text.strip().lower().split()
        verb = _ALIASES.get(words[0] if words else "", words[0] if words else "")
        verb = _ALIASES.get(verb, verb)
        if verb.isdigit():  # a bare number is goto
            words, verb = ["goto", verb], "goto"
        argument = words[1] if len(words) > 1 else None
        try:
            if verb in ("next", "prev"):
                step = int(argument) if argument is not None else 1
                if step < 1:
                    raise ValueError
                target = self.index + (step if verb == "next" else -step)
                target = min(max(target, 0), self.replay.last)
                if target == self.index:
                    if verb == "next":
                        return self, tr("already at the last position")
                    return self, tr("already at the start")
                return self.at(target), ""
            if verb == "first":
                return self.at(0), ""
            if verb == "last":
                return self.at(self.replay.last), ""
            if verb == "goto":
                if argument is None:
                    return self, tr("goto N: which move? (0 is the start)")
                return self.at(int(argument)), ""
        except ValueError as error:
            if isinstance(error, ReplayError):
                return self, tr_error(error)
            return self, tr(
                "{verb} needs a whole number, not {value}", verb=verb, value=quoted(argument)
            )
        if verb == "moves":
            return self, "\n".join(numbered_moves(self.replay))
        if verb == "help":
            return self, "\n".join(f"  {name:10} {tr(what)}" for name, what in COMMANDS.items())
        if verb == "quit":
            return self, "quit"
        return self, tr(
            "unknown command {value}: type help for the commands", value=quoted(text.strip())
        )

    def window(self, before: int = 4, after: int = 3) -> list[str]:
        """The moves around the cursor, the current one marked ``>``."""
        lo = max(1, self.index - before)
        hi = min(self.replay.last, self.index + after)
        lines = []
        for n in range(lo, hi + 1):
            mark = ">" if n == self.index else " "
            lines.append(f"{mark} {self.replay.move_line(n)}")
        return lines
