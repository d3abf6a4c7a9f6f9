"""Records of expansion games: the base record format (``docs/record-format.md``) plus the list
of expansions, every move in the notation of :class:`~duel.expansions.XMove`.

A finished game's record holds the referee's moves: every private move with its card (the
Divinities drawn, the one seated), as a score sheet written after the game would, except The Great
Library's draw: its two tokens not chosen go back to the box unseen by the opponent, so the record
keeps only the chosen one (``draw Law, ?, ?``; ``draw ?, ?, ?`` if no choice followed), as the
base game's records do (:mod:`duel.record`). Reading checks every move in order and names the
first one that is not legal, and why.

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

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel.expansions.moves import XMove
from duel.expansions.state import XState, new_game, observe
from duel.expansions.table import EXPANSIONS, XIllegalMoveError
from duel.files import read_json_file, write_atomically
from duel.json_reader import JsonReader
from duel.moves import MoveParseError
from duel.quote import quoted
from duel.reason import Reason, reason_of

FORMAT = "7wd-record"
VERSION = 2
MAX_MOVES = 3000
#: The Great Library's draw as a record writes it: the chosen token, or none if no choice
#: followed, and "?" for the tokens that went back to the box unseen.
_HIDDEN_DRAW = re.compile(r"draw\s+(?:\?|([^,?]+?))\s*,\s*\?\s*,\s*\?\s*", re.IGNORECASE)


class XRecordError(ValueError):
    """A malformed record, or one whose moves do not replay; the message says where."""


#: The reader of a record's fields: errors are :class:`XRecordError`\ s naming the field.
_READ = JsonReader(XRecordError)


@dataclass(frozen=True)
class XRecord:
    """The expansions played and the moves from the very start, chance outcomes included."""

    expansions: tuple[str, ...]
    moves: tuple[XMove, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Indexes of The Great Library's draws read from a file: only their chosen token is true,
    #: the others are placeholders (the first tokens of the box then), so the choice between
    #: them must not be replayed (an undo back to it is refused, :mod:`duel.app.control.xundo`).
    redacted: frozenset[int] = frozenset()

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
        out["moves"] = self.notation()
        return out

    def notation(self) -> list[str]:
        """The moves as written to a file: The Great Library's draw keeps only its chosen
        token (the two others went back to the box unseen), every other move in full.

        >>> from duel.expansions import XMove
        >>> draw, choice = XMove.parse("draw Law, Economy, Urbanism"), XMove.parse("token Law")
        >>> XRecord(("agora",), (draw, choice)).notation()
        ['draw Law, ?, ?', 'token Law']
        >>> XRecord(("agora",), (draw,)).notation()
        ['draw ?, ?, ?']
        """
        return public_texts([str(m) for m in self.moves])

    @staticmethod
    def from_json(data: Any) -> XRecord:
        expansions, moves_raw = _header(data)
        metadata = _READ.metadata(data)
        if metadata.get("in_progress") or "sealed" in data:
            raise XRecordError(
                Reason(
                    "metadata: the record of a game in progress, with the players' face-down "
                    "cards hidden until the game ends; it replays once the game is over, and "
                    "duel play --load continues it"
                )
            )
        moves, redacted = _replay(expansions, moves_raw, hidden_draws=True)
        return XRecord(tuple(sorted(expansions)), moves, metadata, redacted)

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
            raise XRecordError(
                Reason("{path}: {error}", path=path, error=reason_of(error))
            ) from None
        except RecursionError:
            raise XRecordError(
                Reason("{path}: nested too deeply to be a record", path=path)
            ) from None


def _header(data: Any) -> tuple[list[str], list[Any]]:
    """The expansions and the raw moves of a record's JSON, checked."""
    data = _READ.obj(data, Reason("a record is a JSON object"))
    _READ.format(data, FORMAT)
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise XRecordError(Reason("version: this program reads version {VERSION}", VERSION=VERSION))
    expansions = data.get("expansions")
    if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
        raise XRecordError(Reason('expansions: expected a list of names, e.g. ["pantheon"]'))
    for i, name in enumerate(expansions):
        if name not in EXPANSIONS:
            raise XRecordError(
                Reason(
                    "{field}[{i}]: {value} is not one of {names}",
                    field="expansions",
                    i=i,
                    value=quoted(name),
                    names=EXPANSIONS,
                )
            )
        if name in expansions[:i]:
            raise XRecordError(
                Reason(
                    "{field}[{i}]: {value} is listed twice",
                    field="expansions",
                    i=i,
                    value=quoted(name),
                )
            )
    moves_raw = _READ.moves(data, MAX_MOVES)
    return expansions, moves_raw


def _replay(
    expansions: list[str], moves_raw: list[Any], sealed: bool = False, *, hidden_draws: bool = False
) -> tuple[tuple[XMove, ...], frozenset[int]]:
    """The moves (the ``sealed`` ones of a save in progress), each parsed and checked legal in
    turn; the first that is not says why. With ``hidden_draws``, The Great Library's draws
    written ``draw Law, ?, ?`` (or ``draw ?, ?, ?`` at the end) are filled with tokens in the box
    then; their indexes come second."""
    state = new_game(tuple(expansions))
    moves: list[XMove] = []
    redacted: list[int] = []
    for number, text in enumerate(moves_raw, 1):
        if not isinstance(text, str):
            where = (
                Reason("sealed move {number}", number=number)
                if sealed
                else Reason("move {number}", number=number)
            )
            raise XRecordError(
                Reason(
                    "{where}: expected the move's notation, got {value}",
                    where=where,
                    value=quoted(text),
                )
            )
        hidden = _HIDDEN_DRAW.fullmatch(text) if hidden_draws else None
        try:
            if hidden:
                following = moves_raw[number] if number < len(moves_raw) else None
                move = _placeholder_draw(state, hidden.group(1), following)
                redacted.append(len(moves))
            else:
                move = XMove.parse(text)
            state = state.apply(move)
        except (MoveParseError, XIllegalMoveError) as error:
            values = {"number": number, "move": quoted(text), "error": reason_of(error)}
            raise XRecordError(
                Reason("sealed move {number} ({move}): {error}", **values)
                if sealed
                else Reason("move {number} ({move}): {error}", **values)
            ) from None
        moves.append(move)
    return tuple(moves), frozenset(redacted)


def _placeholder_draw(state: XState, chosen_name: str | None, following: Any) -> XMove:
    """A Great Library draw the record hides: its chosen token (named ``chosen_name``, which
    the following move must choose) and the first other tokens in the box.

    Any tokens of the box do: those not chosen go back to it, and no rule remembers which they
    were, so the rest of the game replays exactly as it was played (the state after the choice
    is the same; tests/expansions/test_records.py)."""
    box = state.box_tokens
    if state.phase != "library_draw":
        raise MoveParseError("The Great Library draws no tokens here")
    size = min(3, len(box))
    if chosen_name is None:
        if following is not None:
            raise MoveParseError(
                "a draw with all its tokens hidden ends the record; a draw followed by a choice "
                "keeps the chosen token (draw Law, ?, ?)"
            )
        return XMove("library_draw", (tuple(box[:size]),))
    choice = XMove.parse(f"token {chosen_name}")
    chosen = choice.args[0]
    if chosen not in box:
        name = str(choice).removeprefix("token ")
        raise MoveParseError(f"{name} is not in the box to be drawn by The Great Library here")
    if not isinstance(following, str) or _parse_or_none(following) != choice:
        raise MoveParseError(
            f"a draw with hidden tokens must be followed by the choice of its token ({choice})"
        )
    others = [t for t in box if t != chosen][: size - 1]
    return XMove("library_draw", (tuple(sorted((chosen, *others))),))


def _parse_or_none(text: str) -> XMove | None:
    try:
        return XMove.parse(text)
    except MoveParseError:
        return None


# --- saves of a game in progress -----------------------------------------------------------------
# A save must keep the private moves (the Divinities a player drew and seated, the Conspiracy
# prepared) for the game to continue, yet opening the file must not show them to the opponent
# (docs/engine.md, "Records and saves"). The referee's moves are masked by a random key that
# the program keeps apart from the save; the save's plain "moves" are the public shadows.
_SEAL_DOMAIN = b"7wd-sealed-moves-v1"


def seal(
    moves: Sequence[XMove], key: bytes, metadata: dict[str, Any] | None = None
) -> dict[str, str]:
    """The referee's ``moves`` masked by ``key``, with a fresh nonce and an authentication tag
    that covers the moves and ``metadata`` (the players, their thinking time, the seed: a save
    whose metadata was edited is refused like one whose moves were).

    >>> from duel.expansions import XMove
    >>> key = bytes(32)
    >>> sealed = seal([XMove.parse("seat zeus on 3")], key, {"players": ["human", "mcts"]})
    >>> "Zeus" in str(sealed)
    False
    >>> unseal(sealed, key, {"players": ["human", "mcts"]})
    ['seat Zeus on 3']
    >>> unseal(sealed, key, {"players": ["human", "human"]})
    Traceback (most recent call last):
    duel.expansions.record.XRecordError: sealed: altered, or sealed with another key
    """
    plain = json.dumps([str(m) for m in moves]).encode("utf-8")
    nonce = secrets.token_bytes(16)
    masked = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    return {
        "nonce": nonce.hex(),
        "moves": base64.b64encode(masked).decode("ascii"),
        "tag": _tag(key, nonce, plain, metadata),
    }


def _tag(key: bytes, nonce: bytes, plain: bytes, metadata: dict[str, Any] | None) -> str:
    message = nonce + plain
    if metadata is not None:
        # Canonical JSON, after a newline (which neither JSON text holds unescaped).
        message += b"\n" + json.dumps(metadata, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def unseal(sealed: Any, key: bytes, metadata: dict[str, Any] | None = None) -> list[str]:
    """The move texts :func:`seal` masked; XRecordError if ``sealed`` is malformed, altered,
    sealed with another key or with other ``metadata``."""
    if not isinstance(sealed, dict) or not all(
        isinstance(sealed.get(k), str) for k in ("nonce", "moves", "tag")
    ):
        raise XRecordError(Reason("sealed: expected an object with nonce, moves and tag"))
    if not re.fullmatch(r"[0-9a-f]{64}", sealed["tag"]):
        raise XRecordError(Reason("sealed: tag: expected 64 hex digits"))
    try:
        nonce = bytes.fromhex(sealed["nonce"])
        masked = base64.b64decode(sealed["moves"], validate=True)
    except ValueError:
        raise XRecordError(Reason("sealed: nonce or moves are not hex and base64 text")) from None
    plain = bytes(a ^ b for a, b in zip(masked, _stream(key, nonce, len(masked)), strict=True))
    try:
        expected = _tag(key, nonce, plain, metadata)
    except (TypeError, ValueError):  # metadata JSON cannot hold (NaN aside, never written)
        raise XRecordError(Reason("metadata: not plain JSON")) from None
    if not hmac.compare_digest(expected, sealed["tag"]):
        raise XRecordError(Reason("sealed: altered, or sealed with another key"))
    moves = json.loads(plain.decode("utf-8"))
    if not isinstance(moves, list):
        raise XRecordError(Reason("sealed: not a list of moves"))
    return moves


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    return hashlib.shake_256(_SEAL_DOMAIN + key + nonce).digest(size)


def save_in_progress(
    path: str | Path,
    expansions: Sequence[str],
    moves: Sequence[XMove],
    public_moves: Sequence[str],
    metadata: dict[str, Any],
    key: bytes,
) -> None:
    """Write a game in progress atomically: its public moves in plain, its moves sealed, its
    metadata under the seal's tag."""
    metadata = {**metadata, "in_progress": True}
    data = {
        "format": FORMAT,
        "version": VERSION,
        "expansions": list(expansions),
        "metadata": metadata,
        "moves": public_texts(public_moves),
        "sealed": seal(moves, key, metadata),
    }
    write_atomically(Path(path), json.dumps(data, indent=1) + "\n")


def public_texts(shadows: Sequence[str]) -> list[str]:
    """The public moves as a save writes them: each move as the opponent of its player saw it,
    except The Great Library's draw, whose two tokens not chosen go back to the box unseen, as
    in the base game's records (``draw Law, ?, ?``; ``draw ?, ?, ?`` until the choice).

    >>> public_texts(["draw Law, Economy, Urbanism", "token Law", "draw Law, Strategy, Theology"])
    ['draw Law, ?, ?', 'token Law', 'draw ?, ?, ?']
    """
    out = []
    for index, text in enumerate(shadows):
        if text.startswith("draw "):
            after = shadows[index + 1] if index + 1 < len(shadows) else ""
            chosen = after.removeprefix("token ") if after.startswith("token ") else None
            drawn = chosen is not None and chosen in text.removeprefix("draw ").split(", ")
            text = f"draw {chosen}, ?, ?" if drawn else "draw ?, ?, ?"
        out.append(text)
    return out


def load_in_progress(data: Any, key: bytes) -> XRecord:
    """The referee's record of a save written by :func:`save_in_progress`, every move checked
    legal; its public moves must be what the sealed ones show the other player."""
    expansions, public = _header(data)
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        raise XRecordError(Reason("metadata: expected an object"))
    moves, _ = _replay(expansions, unseal(data.get("sealed"), key, metadata), sealed=True)
    if len(moves) != len(public):
        raise XRecordError(
            Reason(
                "moves: {public} public moves for {sealed} sealed ones",
                public=len(public),
                sealed=len(moves),
            )
        )
    state, shadows = new_game(tuple(expansions)), []
    for move in moves:
        shadows.append(str(observe(state, move, 1 - state.to_move)))
        state = state.apply(move, check=False)
    for number, (shadow, text) in enumerate(zip(public_texts(shadows), public, strict=True), 1):
        if shadow != text:
            raise XRecordError(
                Reason(
                    "move {number}: {move} is not what was played",
                    number=number,
                    move=quoted(text),
                )
            )
    kept = {k: v for k, v in metadata.items() if k != "in_progress"}
    return XRecord(tuple(sorted(expansions)), moves, kept)
