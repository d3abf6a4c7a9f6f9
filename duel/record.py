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

from duel.moves import Move, MoveParseError
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
        record = GameRecord(tuple(moves), metadata)
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


__all__ = ["GameRecord", "PositionError", "RecordError"]
