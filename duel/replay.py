"""Stepping through a game record: positions by index, the move list, navigation commands.

No input or output here, so that the line-mode ``duel replay``, ``duel show --at`` and the coming
full-screen app share one implementation. Index ``n`` is the position after the first ``n``
moves: 0 is the new game, ``len(moves)`` the last position.

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

from duel.catalog import AGE_NAMES
from duel.moves import PLAYER_NAMES, Move
from duel.quote import quoted
from duel.record import GameRecord
from duel.state import State

__all__ = ["COMMANDS", "Cursor", "Replay", "ReplayError", "mover", "numbered_moves"]


class ReplayError(ValueError):
    """An index outside the game or a command that is not one."""


def mover(before: State, move: Move) -> str:
    """Who made ``move`` from ``before``: ``A``, ``B``, or ``chance`` for a chance outcome.

    A ``start`` move is the decision of the player to move (the one who chooses who begins)."""
    if move.is_chance or before.is_chance():
        return "chance"
    return PLAYER_NAMES[before.to_move]


@dataclass(frozen=True)
class Replay:
    """The positions of a record, computed once: ``states[n]`` follows the first ``n`` moves."""

    record: GameRecord
    states: tuple[State, ...]
    #: The moves as the record writes them: The Great Library's draw keeps only its chosen token
    #: (``draw Law, ?, ?``), as a file read back holds placeholders for the other two.
    notation: tuple[str, ...]

    @staticmethod
    def of(record: GameRecord) -> Replay:
        return Replay(record, tuple(record.states()), tuple(record.notation()))

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.record.moves

    @property
    def last(self) -> int:
        """The index of the last position (the number of moves)."""
        return len(self.record.moves)

    def check(self, index: int) -> int:
        """``index`` if it is a position of the game, else a :class:`ReplayError`."""
        if not 0 <= index <= self.last:
            raise ReplayError(f"no move {index}: the game has moves 0 to {self.last}")
        return index

    def state(self, index: int) -> State:
        """The position after ``index`` moves (negative counts from the end, as in Python)."""
        if index < 0:
            index += self.last + 1
        return self.states[self.check(index)]

    def move_text(self, number: int) -> str:
        """``B build Baths`` for move ``number`` (1-based: the move that leads to index
        ``number``); a chance outcome reads ``chance: reveal slot 9 Baths``."""
        if not 1 <= number <= self.last:
            raise ReplayError(f"no move {number}: the game has moves 1 to {self.last}")
        move = self.moves[number - 1]
        who = mover(self.states[number - 1], move)
        text = self.notation[number - 1]
        return f"{who}: {text}" if who == "chance" else f"{who} {text}"

    def move_line(self, number: int) -> str:
        """``12. B build Baths``: the move list's line for move ``number``."""
        return f"{number}. {self.move_text(number)}"

    def age_marks(self) -> dict[int, str]:
        """Move numbers where an Age's play begins (``{31: "Age I", ...}``), for the move list."""
        marks = {}
        for n in range(1, self.last + 1):
            before, after = self.states[n - 1], self.states[n]
            if after.age != before.age and after.age:
                marks[n] = AGE_NAMES[after.age]
        return marks


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
    "next [K]": "forward one move (or K moves); Enter alone does the same",
    "prev [K]": "back one move (or K)",
    "first": "the new game (position 0)",
    "last": "the final position",
    "goto N": "the position after move N",
    "moves": "the whole move list",
    "help": "this list",
    "quit": "leave",
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
        head = f"Move {self.index} of {self.replay.last}"
        return f"{head}: {self.last_move}" if self.index else f"{head}: the new game, no move yet"

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
                    edge = "the last position" if verb == "next" else "the start"
                    return self, f"already at {edge}"
                return self.at(target), ""
            if verb == "first":
                return self.at(0), ""
            if verb == "last":
                return self.at(self.replay.last), ""
            if verb == "goto":
                if argument is None:
                    return self, "goto N: which move? (0 is the start)"
                return self.at(int(argument)), ""
        except ValueError as error:
            if isinstance(error, ReplayError):
                return self, str(error)
            return self, f"{verb} needs a whole number, not {quoted(argument)}"
        if verb == "moves":
            return self, "\n".join(numbered_moves(self.replay))
        if verb == "help":
            return self, "\n".join(f"  {name:10} {what}" for name, what in COMMANDS.items())
        if verb == "quit":
            return self, "quit"
        return self, f"unknown command {quoted(text.strip())}: type help for the commands"

    def window(self, before: int = 4, after: int = 3) -> list[str]:
        """The moves around the cursor, the current one marked ``>``."""
        lo = max(1, self.index - before)
        hi = min(self.replay.last, self.index + after)
        lines = []
        for n in range(lo, hi + 1):
            mark = ">" if n == self.index else " "
            lines.append(f"{mark} {self.replay.move_line(n)}")
        return lines
