"""The messages between a client and the server: JSON objects, one a WebSocket text frame.

Every message has ``"v"`` (the protocol's version, :data:`VERSION`) and ``"type"``; the rest
depends on the type (``docs/protocol.md`` is the reference, with an example of each). The
functions here turn frames into checked dictionaries and back; they know nothing of games.

>>> decode(encode({"type": "hello", "code": "abc"}))["code"]
'abc'
>>> try:
...     decode('{"v": 1, "type": "move"}')
... except ProtocolError as error:
...     print(error.code, error)
bad-message move: the field "ply" is missing or not a whole number
"""

from __future__ import annotations

import json
import re
from typing import Any

from duel.app.i18n import N_

VERSION = 1
#: The largest frame either side accepts (bytes). A game's longest message, the welcome of a
#: finished game with its record, is under 20 kB.
MAX_FRAME = 64 * 1024
#: Join codes: letters and digits a person can read out, in groups (``K7QX-M2PA-9RTE``).
CODE_PATTERN = re.compile(r"^[A-Z2-9]{4}(-[A-Z2-9]{4}){2}$")
#: Letters without 0/O and 1/I/L: a code read aloud or copied by hand stays right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: What a client may send, with the fields each needs and their types.
CLIENT_MESSAGES: dict[str, dict[str, type]] = {
    "hello": {"code": str},
    "move": {"ply": int, "move": object},
    "resign": {},
    "ping": {},
}
MAX_MOVE_TEXT = 200

#: Error codes, each with the sentence a client shows (translated there, through tr()).
ERRORS = {
    "bad-json": N_("The message is not a JSON object."),
    "bad-version": N_("This server speaks protocol version {version}; update the program."),
    "bad-message": N_("The message is not one of the protocol's."),
    "too-big": N_("The message is larger than the server accepts."),
    "bad-code": N_("No game has this code."),
    "hello-first": N_("Say hello with a join code first."),
    "timeout": N_("The connection said nothing in time and was closed."),
    "rate": N_("Too many messages: slow down."),
    "spectator": N_("A spectator cannot play."),
    "not-your-turn": N_("It is not your turn."),
    "stale": N_("The game has moved on since that move was chosen."),
    "illegal": N_("Not possible: {reason}"),
    "over": N_("The game is over."),
    "replaced": N_("This seat was joined from another connection."),
    "busy": N_("The server is full; try again later."),
}


class ProtocolError(ValueError):
    """A message that breaks the protocol: ``code`` is one of :data:`ERRORS`."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or ERRORS.get(code, code))
        self.code = code


def encode(message: dict[str, Any]) -> str:
    """A message as a frame (the version added)."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), ensure_ascii=False)


def error(code: str, detail: str = "", **fields: Any) -> str:
    """An ``error`` frame: the code, the English sentence, and fields to fill it with."""
    try:
        text = detail or ERRORS[code].format(**fields)
    except (KeyError, IndexError):
        text = ERRORS[code]
    return encode({"type": "error", "code": code, "message": text, **fields})


def decode(frame: str | bytes, *, expected: dict[str, dict[str, type]] | None = None) -> dict:
    """A frame from the other side, checked: a JSON object of this version, of a known type
    with its fields (``expected``: the types and fields to accept; by default a client's)."""
    if isinstance(frame, bytes):
        raise ProtocolError("bad-json", "binary frames are not part of the protocol")
    if len(frame) > MAX_FRAME:
        raise ProtocolError("too-big")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad-json")
    if message.get("v") != VERSION or type(message.get("v")) is not int:
        raise ProtocolError("bad-version", ERRORS["bad-version"].format(version=VERSION))
    kind = message.get("type")
    schema = (expected if expected is not None else CLIENT_MESSAGES).get(kind)  # type: ignore[arg-type]
    if schema is None:
        raise ProtocolError("bad-message", f"unknown message type {str(kind)[:40]!r}")
    for name, kind_of in schema.items():
        value = message.get(name)
        if kind_of is int and (type(value) is not int or not 0 <= value < 10_000):
            raise ProtocolError(
                "bad-message", f'{kind}: the field "{name}" is missing or not a whole number'
            )
        if kind_of is str and (not isinstance(value, str) or len(value) > MAX_MOVE_TEXT):
            raise ProtocolError("bad-message", f'{kind}: the field "{name}" is not a short text')
        if kind_of is object and (value is None or len(json.dumps(value)) > MAX_MOVE_TEXT):
            raise ProtocolError("bad-message", f'{kind}: the field "{name}" is not a move')
    return message


def normal_code(text: str) -> str:
    """A join code as typed (any case, spaces or dashes anywhere) in its written form."""
    letters = re.sub(r"[\s-]", "", text.upper())
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))
