"""Base-game records: the settings of a game and every decision, enough to replay it exactly.

A game is fixed by the number of players, the seed and the wonder sides (the seed deals the
boards and the three Ages); the record adds every decision in the order it was made. The JSON
format (``7w-record``) is documented in ``docs/base_game.md``.

>>> from wonders.game import new_game
>>> state = new_game(3, seed=4)
>>> record = GameRecord(players=3, seed=4)
>>> for p in state.current_players():
...     move = state.legal_moves(p)[0]
...     state = state.apply(move)
...     record = record.append(move)
>>> GameRecord.from_json(record.to_json()).final_state() == state
True
>>> record.to_json()["moves"][0]
'0 build Glassworks'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from duel.quote import quoted
from wonders.game import ACTIONS, GameState, IllegalMoveError, Move, new_game

FORMAT = "7w-record"
VERSION = 1
_MOVE = re.compile(r"(\d+)\s+(\w+)\s+(.+)")

__all__ = ["GameRecord", "RecordError", "move_from_text", "move_to_text"]


class RecordError(ValueError):
    """A malformed record, or one whose moves do not replay; the message says which move."""


def move_to_text(move: Move) -> str:
    """``0 build Stone Pit``: the city, the action and the card."""
    return f"{move.city} {move.action} {move.card}"


def move_from_text(text: str) -> Move:
    """The inverse of :func:`move_to_text` (the card's name exactly as in the game's data)."""
    found = _MOVE.fullmatch(text.strip())
    if not found or found.group(2) not in ACTIONS:
        raise RecordError(f"{quoted(text)}: expected '<city> <{'|'.join(ACTIONS)}> <card>'")
    return Move(int(found.group(1)), found.group(2), found.group(3))


@dataclass(frozen=True)
class GameRecord:
    """The settings and the decisions of a base game; :meth:`states` replays it."""

    players: int
    seed: int
    sides: str = "random"
    moves: tuple[Move, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)

    def new_game(self) -> GameState:
        return new_game(self.players, self.seed, sides=self.sides)

    def states(self) -> list[GameState]:
        """Every state, from the new game to the last decision."""
        state = self.new_game()
        out = [state]
        for i, move in enumerate(self.moves):
            try:
                state = state.apply(move)
            except IllegalMoveError as error:
                raise RecordError(f"move {i + 1} ({move_to_text(move)}): {error}") from None
            out.append(state)
        return out

    def final_state(self) -> GameState:
        return self.states()[-1]

    def append(self, move: Move) -> GameRecord:
        return replace(self, moves=self.moves + (move,))

    def truncated(self, length: int) -> GameRecord:
        return replace(self, moves=self.moves[:length])

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": self.players,
            "seed": self.seed,
            "sides": self.sides,
            "metadata": self.metadata,
            "moves": [move_to_text(m) for m in self.moves],
        }

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format: expected {FORMAT!r}, got {quoted(data.get('format'))}")
        version = data.get("version", VERSION)
        # type(): true == 1 in Python, but JSON's true is no number.
        if type(version) is not int or version != VERSION:
            raise RecordError(
                f"version: this program reads version {VERSION}, not {quoted(version)}"
            )
        players, seed = data.get("players"), data.get("seed")
        if type(players) is not int or not 2 <= players <= 7:
            raise RecordError(f"players: expected 2 to 7, got {quoted(players)}")
        if type(seed) is not int:
            raise RecordError(f"seed: expected a whole number, got {quoted(seed)}")
        sides = data.get("sides", "random")
        if sides not in ("random", "A", "B"):
            raise RecordError(f"sides: expected random, A or B, got {quoted(sides)}")
        raw = data.get("moves", [])
        if not isinstance(raw, list) or not all(isinstance(m, str) for m in raw):
            raise RecordError("moves: expected a list of moves ('0 build Stone Pit')")
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError("metadata: expected an object")
        moves = []
        for i, text in enumerate(raw):
            try:
                moves.append(move_from_text(text))
            except RecordError as error:
                raise RecordError(f"moves[{i}]: {error}") from None
        record = GameRecord(players, seed, sides, tuple(moves), metadata)
        record.states()  # every move must replay
        return record

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save never destroys the previous file."""
        from duel.files import write_atomically

        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        from duel.files import read_json_file

        data = read_json_file(path, RecordError)
        try:
            return GameRecord.from_json(data)
        except RecordError as error:
            raise RecordError(f"{path}: {error}") from None
