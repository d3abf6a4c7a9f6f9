"""The one reader of JSON fields behind every format the engine reads: the base game's and the
expansions' positions and records. Each problem is raised as the format's own error (a
``ValueError`` subclass) carrying a translatable :class:`~duel.reason.Reason` that names the
field as written in the file (``players.A.coins``) and what is wrong with it.

>>> reader = JsonReader(ValueError)
>>> reader.get({"age": "two"}, "age", "", int)
Traceback (most recent call last):
...
ValueError: age: expected a whole number, got "two"
>>> reader.names(["Baths", "Baths"], "city", str.lower)
Traceback (most recent call last):
...
ValueError: city[1]: 'Baths' is listed twice
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Collection
from typing import Any, NoReturn, TypeVar

from duel.moves import PLAYER_NAMES
from duel.quote import quoted, shortened
from duel.reason import Reason, reason_of

T = TypeVar("T")

#: Absent: a field with no default is required.
REQUIRED: Any = ...

#: What a field of each type is said to expect (a value that is translated as well).
_EXPECTED = {
    list: Reason("a list"),
    dict: Reason("an object"),
    int: Reason("a whole number"),
    bool: Reason("true or false"),
    str: Reason("text"),
}
_A_VALUE = Reason("a value")


def shown(value: Any) -> str:
    """A file's value as a message quotes it: its JSON, cut to a readable length."""
    try:
        return shortened(json.dumps(value))
    except (ValueError, RecursionError):  # an int too long to print, a structure too deep
        return quoted(value)


class JsonReader:
    """Reads fields of parsed JSON, raising ``error`` with a :class:`Reason` on a bad one.

    ``null_is_absent``: a field written ``null`` takes its default (the expansions' formats);
    otherwise ``null`` is a value of the wrong type (the base game's).
    """

    def __init__(self, error: type[ValueError], *, null_is_absent: bool = False) -> None:
        self.error = error
        self.null_is_absent = null_is_absent

    def fail(self, reason: Reason) -> NoReturn:
        raise self.error(reason)

    def obj(self, data: Any, what: Reason) -> dict[str, Any]:
        """``data`` if it is a JSON object, else the error ``what`` (e.g. "a position is...")."""
        if not isinstance(data, dict):
            self.fail(what)
        return data

    def keys(self, obj: dict[str, Any], path: str, known: Collection[str]) -> None:
        """Refuse a key the format does not know, suggesting the nearest: a misspelt key would
        otherwise be ignored silently and its value lost."""
        for key in obj:
            if key not in known:
                close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
                hint = (
                    f"did you mean {close[0]!r}?" if close else "known: " + ", ".join(sorted(known))
                )
                self.fail(
                    Reason("{path}{key}: unknown key ({hint})", path=path, key=key, hint=hint)
                )

    def get(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        kind: type | tuple[type, ...],
        default: Any = REQUIRED,
    ) -> Any:
        """``obj[key]`` checked to be a ``kind`` (``bool`` is no ``int``); ``default`` when the
        key is absent, an error naming ``path + key`` when it is required."""
        absent = key not in obj or (
            self.null_is_absent
            and obj[key] is None
            and default is not REQUIRED
            and kind is not type(None)
        )
        if absent:
            if default is REQUIRED:
                self.fail(Reason("{path}{key}: missing", path=path, key=key))
            return default
        value = obj[key]
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            expected = _EXPECTED.get(kind, _A_VALUE) if isinstance(kind, type) else _A_VALUE
            self.fail(
                Reason(
                    "{path}{key}: expected {expected}, got {got}",
                    path=path,
                    key=key,
                    expected=expected,
                    got=shown(value),
                )
            )
        return value

    def number(
        self, obj: dict[str, Any], key: str, path: str, low: int, high: int, default: Any = REQUIRED
    ) -> int:
        """A whole number from ``low`` to ``high``."""
        value: int = self.get(obj, key, path, int, default)
        if not low <= value <= high:
            self.fail(
                Reason(
                    "{path}{key}: expected {low} to {high}, got {value}",
                    path=path,
                    key=key,
                    low=low,
                    high=high,
                    value=value,
                )
            )
        return value

    def name(self, value: Any, field: str, lookup: Callable[[str], T]) -> T:
        """The component ``lookup`` finds for the name ``value``; its error names ``field``."""
        if not isinstance(value, str):
            self.fail(
                Reason("{field}: expected a name, got {value}", field=field, value=shown(value))
            )
        try:
            return lookup(value)
        except ValueError as error:  # the catalogs' unknown-name errors
            self.fail(Reason("{field}: {error}", field=field, error=reason_of(error)))

    def names(self, values: Any, field: str, lookup: Callable[[str], T]) -> list[T]:
        """The components of a list of names, each listed once."""
        if not isinstance(values, list):
            self.fail(Reason("{field}: expected a list of names", field=field))
        out = [self.name(v, f"{field}[{i}]", lookup) for i, v in enumerate(values)]
        seen: list[T] = []
        for i, item in enumerate(out):
            if item in seen:
                self.fail(
                    Reason(
                        "{field}[{i}]: {value} is listed twice",
                        field=field,
                        i=i,
                        value=quoted(values[i]),
                    )
                )
            seen.append(item)
        return out

    def player(self, value: Any, field: str) -> int:
        """0 for "A", 1 for "B"."""
        if value not in PLAYER_NAMES:
            self.fail(
                Reason('{field}: expected "A" or "B", got {value}', field=field, value=shown(value))
            )
        return PLAYER_NAMES.index(value)

    # --- records ------------------------------------------------------------------------------
    def format(self, data: dict[str, Any], expected: str, default: Any = REQUIRED) -> None:
        """The ``format`` field names ``expected``."""
        value = data.get("format", default)
        if value != expected:
            self.fail(
                Reason(
                    "format: expected {FORMAT}, got {value}",
                    FORMAT=repr(expected),
                    value=quoted(None if value is REQUIRED else value),
                )
            )

    def moves(self, data: dict[str, Any], limit: int) -> list[Any]:
        """A record's raw ``moves``: a list of at most ``limit`` entries."""
        moves = data.get("moves")
        if not isinstance(moves, list):
            self.fail(Reason("moves: expected a list of moves"))
        if len(moves) > limit:
            self.fail(Reason("moves: {n} moves; a game has far fewer", n=len(moves)))
        return moves

    def metadata(self, data: dict[str, Any]) -> dict[str, Any]:
        """A record's ``metadata`` object (empty when absent)."""
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            self.fail(Reason("metadata: expected an object"))
        return metadata
