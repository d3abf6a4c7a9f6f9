"""Game records: the moves of a game from the very start, chance outcomes included.

Replaying a record from a new game reproduces the final state exactly. The file is JSON with the
moves in the readable notation (``docs/record-format.md``).

>>> import random
>>> from duel import new_game
>>> state, moves = new_game(), []
>>> rng = random.Random(7)
>>> while not state.is_terminal():
...     move = state.random_move(rng)
...     moves.append(move)
...     state = state.apply(move)
>>> record = GameRecord(tuple(moves))
>>> GameRecord.from_json(record.to_json()).final_state() == state
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel.catalog import GUILDS
from duel.moves import Kind, Move, MoveParseError
from duel.position import PositionError, read_json_file, write_atomically
from duel.state import IllegalMoveError, State, new_game

FORMAT = "7wd-record"
VERSION = 1


class RecordError(ValueError):
    """A malformed record or one whose moves do not replay; the message says which move."""


@dataclass(frozen=True)
class GameRecord:
    """A sequence of moves from the initial state, plus free-form metadata (players, date...)."""

    moves: tuple[Move, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)

    def states(self) -> list[State]:
        """Every state of the game, from the new game to the last move."""
        state = new_game()
        out = [state]
        for i, move in enumerate(self.moves):
            try:
                state = state.apply(move)
            except IllegalMoveError as error:
                raise RecordError(f"move {i + 1} ({move}): {error}") from None
            out.append(state)
        return out

    def final_state(self) -> State:
        return self.states()[-1]

    def append(self, move: Move) -> GameRecord:
        return GameRecord(self.moves + (move,), self.metadata)

    def truncated(self, length: int) -> GameRecord:
        return GameRecord(self.moves[:length], self.metadata)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.metadata:
            out["metadata"] = self.metadata
        out["moves"] = [str(m) for m in self.moves]
        return out

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version", VERSION) != VERSION:
            raise RecordError(f"version: this program reads version {VERSION}")
        moves_raw = data.get("moves")
        if not isinstance(moves_raw, list):
            raise RecordError("moves: expected a list of moves")
        moves = []
        for i, text in enumerate(moves_raw):
            if not isinstance(text, str):
                raise RecordError(f"moves[{i}]: expected a move in notation, got {text!r}")
            try:
                moves.append(Move.parse(text))
            except MoveParseError as error:
                raise RecordError(f"moves[{i}] ({text!r}): {error}") from None
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError("metadata: expected an object")
        record = GameRecord(tuple(with_guild_deal(moves)), metadata)
        record.states()  # validate: every move must replay
        return record

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save never destroys the previous file."""
        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        data = read_json_file(path, RecordError)
        try:
            return GameRecord.from_json(data)
        except RecordError as error:
            raise RecordError(f"{path}: {error}") from None


def with_guild_deal(moves: list[Move]) -> list[Move]:
    """``moves`` with the Age III guild deal added if the record predates it.

    Records written before guild backs were public go from ``start X`` (the Age III starter)
    straight to ``reveal slot ...``. The deal is inferred from where the guilds were revealed:
    when the reveals show all three guild slots, or the slots never revealed are exactly the
    guilds not yet seen. Otherwise the record cannot be read; the message says which move to add.

    >>> from duel.moves import Move
    >>> old = [Move.parse(m) for m in ("start A", "reveal slot 0 Arsenal")]
    >>> with_guild_deal(old[:1]) == old[:1]  # nothing after the start: the deal is still to come
    True
    """
    starts = [i for i, m in enumerate(moves) if m.kind is Kind.STARTER]
    if len(starts) < 2:
        return moves
    at = starts[1] + 1  # Age I ends with the first starter choice, Age II with the second
    if at >= len(moves) or moves[at].kind is Kind.DEAL_GUILDS:
        return moves
    reveals = [m for m in moves[at:] if m.kind is Kind.REVEAL_CARD]
    guilds = sorted({m.slot for m in reveals if GUILDS >> m.card & 1})
    unrevealed = sorted(set(range(20)) - {m.slot for m in reveals})
    if len(guilds) + len(unrevealed) == 3:
        guilds += unrevealed
    if len(guilds) != 3:
        missing = 3 - len(guilds)
        shown = f" {' '.join(map(str, guilds))}" if guilds else ""
        raise RecordError(
            f"moves[{at}]: this record predates public guild backs and its Age III reveals show "
            f"{len(guilds)} of the 3 guild slots: insert 'guilds at slots{shown} ...' before "
            f"moves[{at}] ({moves[at]}), naming the other {missing} among the slots never "
            f"revealed ({', '.join(map(str, unrevealed))})"
        )
    return [*moves[:at], Move.deal_guilds(guilds), *moves[at:]]


__all__ = ["GameRecord", "PositionError", "RecordError"]
