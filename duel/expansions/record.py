"""Records of expansion games: the base record format (``docs/record-format.md``) plus the list
of expansions, every move in the notation of :class:`~duel.expansions.XMove`.

A finished game's record holds the referee's moves: every private move with its card (the
Divinities drawn, the one seated), as a score sheet written after the game would. Reading checks
every move in order and names the first one that is not legal, and why.

>>> import random
>>> from duel.expansions import new_xgame
>>> state, moves, rng = new_xgame(("pantheon",)), [], random.Random(4)
>>> while not state.is_terminal():
...     move = state.random_move(rng)
...     moves.append(move)
...     state = state.apply(move)
>>> record = XRecord(("pantheon",), tuple(moves))
>>> XRecord.from_json(record.to_json()).final_state() == state
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel.expansions.moves import XMove
from duel.expansions.state import XState, new_game
from duel.expansions.table import EXPANSIONS, XIllegalMoveError
from duel.moves import MoveParseError
from duel.position import read_json_file, write_atomically

FORMAT = "7wd-record"
VERSION = 2
MAX_MOVES = 3000


class XRecordError(ValueError):
    """A malformed record, or one whose moves do not replay; the message says where."""


@dataclass(frozen=True)
class XRecord:
    """The expansions played and the moves from the very start, chance outcomes included."""

    expansions: tuple[str, ...]
    moves: tuple[XMove, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)

    def states(self) -> list[XState]:
        """The state before each move, then the final state."""
        states = [new_game(self.expansions)]
        for move in self.moves:
            states.append(states[-1].apply(move))
        return states

    def final_state(self) -> XState:
        state = new_game(self.expansions)
        for move in self.moves:
            state = state.apply(move)
        return state

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "expansions": list(self.expansions),
        }
        if self.metadata:
            out["metadata"] = self.metadata
        out["moves"] = [str(m) for m in self.moves]
        return out

    @staticmethod
    def from_json(data: Any) -> XRecord:
        if not isinstance(data, dict):
            raise XRecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise XRecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION or type(data.get("version")) is not int:
            raise XRecordError(f"version: this program reads version {VERSION}")
        expansions = data.get("expansions")
        if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
            raise XRecordError('expansions: expected a list of names, e.g. ["pantheon"]')
        unknown = [e for e in expansions if e not in EXPANSIONS]
        if unknown:
            raise XRecordError(
                f"expansions: {unknown[0]!r} is not one this program plays "
                f"({', '.join(EXPANSIONS)})"
            )
        moves_raw = data.get("moves")
        if not isinstance(moves_raw, list):
            raise XRecordError("moves: expected a list of moves")
        if len(moves_raw) > MAX_MOVES:
            raise XRecordError(f"moves: {len(moves_raw)} moves; a game has far fewer")
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise XRecordError("metadata: expected an object")
        if metadata.get("in_progress"):
            raise XRecordError(
                "metadata: the record of a game in progress, with the players' face-down "
                "cards hidden until the game ends; it replays once the game is over"
            )
        state = new_game(tuple(expansions))
        moves = []
        for number, text in enumerate(moves_raw, 1):
            if not isinstance(text, str):
                raise XRecordError(f"move {number}: expected the move's notation, got {text!r}")
            try:
                move = XMove.parse(text)
                state = state.apply(move)
            except (MoveParseError, XIllegalMoveError) as error:
                raise XRecordError(f"move {number} ({text!r}): {error}") from None
            moves.append(move)
        return XRecord(tuple(sorted(expansions)), tuple(moves), metadata)

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save never destroys the previous file."""
        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: str | Path) -> XRecord:
        """Read a record file; every problem is an :class:`XRecordError` naming the file."""
        data = read_json_file(path, XRecordError)
        try:
            return XRecord.from_json(data)
        except XRecordError as error:
            raise XRecordError(f"{path}: {error}") from None
        except RecursionError:
            raise XRecordError(f"{path}: nested too deeply to be a record") from None
