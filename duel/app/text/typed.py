"""What a player types in ``duel play``, read the same way by the line mode and the full screen.

Names are forgiving (case, "The ", prefixes, "did you mean"); the three guild slots of Age III
are typed as row.card or in the move notation. Nothing here reads or prints.

>>> match_name("pyramid", ["The Pyramids", "The Sphinx"]), match_name("s", ["Baths", "Stable"])
(0, 1)
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from duel.app.i18n import shown, tr
from duel.moves import Move, MoveParseError
from duel.pyramid_layouts import LAYOUTS
from duel.quote import quoted
from duel.reason import reason_of

__all__ = ["Ambiguous", "file_named", "guild_slots_typed", "match_name", "number", "save_target"]


class Ambiguous(str):
    """The message of :func:`match_name` when several names fit (in any language)."""


def _norm(text: str) -> str:
    text = " ".join(text.strip().lower().split())
    return text[4:] if text.startswith("the ") else text


def match_name(text: str, names: list[str]) -> int | str:
    """Index of the name ``text`` designates in ``names``, or a message saying why not.

    Case-insensitive; "The " may be left out; a unique prefix or a unique word prefix is
    enough. Near misses are suggested, never guessed.
    """
    key = _norm(text)
    if not key:
        return tr("type a name")
    keys = [_norm(n) for n in names]
    for test in (
        lambda k: k == key,
        lambda k: k.startswith(key),
        lambda k: any(w.startswith(key) for w in k.split()),
        lambda k: key in k,
    ):
        found = [i for i, k in enumerate(keys) if test(k)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return Ambiguous(
                tr(
                    "{text} could be {names}",
                    text=quoted(text.strip()),
                    names=", ".join(shown(names[i]) for i in found),
                )
            )
    near = difflib.get_close_matches(key, keys, n=3, cutoff=0.5)
    hint = (
        tr("; did you mean {names}?", names=", ".join(shown(names[keys.index(k)]) for k in near))
        if near
        else ""
    )
    return tr("nothing here is called {text}", text=quoted(text.strip())) + hint


def guild_slots_typed(text: str) -> list[int]:
    """The slots of three Age III cards typed as row.card ("2.1 4.2 6.3") or in the move
    notation ("guilds at slots 2 7 15"); ValueError saying what is wrong.

    >>> guild_slots_typed("2.1, 4.2 6.3"), guild_slots_typed("guilds at slots 2 7 15")
    ([2, 10, 17], [2, 7, 15])
    """
    lowered = text.lower()
    if lowered.startswith(("guilds", "slots")):
        notation = text if lowered.startswith("guilds") else f"guilds {text}"
        try:
            return list(Move.parse(notation).guild_slots)
        except MoveParseError as error:
            raise ValueError(reason_of(error)) from None
    layout = LAYOUTS[3]
    rows = layout.rows
    slots = []
    for part in text.replace(",", " ").split():
        row_text, _, place_text = part.partition(".")
        if not (row_text.isdigit() and place_text.isdigit()):
            raise ValueError(f"type each card as row.card (e.g. 2.1), not {quoted(part)}")
        row, place = int(row_text), int(place_text)
        if not 1 <= row <= len(rows):
            raise ValueError(f"there is no row {row} (rows 1-{len(rows)})")
        if not 1 <= place <= len(rows[row - 1]):
            raise ValueError(f"row {row} has {len(rows[row - 1])} cards, not {place}")
        slots.append(sorted(rows[row - 1], key=lambda s: layout.x[s])[place - 1])
    if len(slots) != 3 or len(set(slots)) != 3:
        raise ValueError("type three different cards (e.g. 2.1 4.2 6.3)")
    return slots


def file_named(text: str) -> Path:
    """The file a typed ``save``/``load`` names: quotes around it removed (a name with spaces),
    ``~`` expanded; ValueError for an empty name.

    >>> file_named('"~/my game.json"') == Path.home() / "my game.json"
    True
    """
    name = text.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        name = name[1:-1].strip()
    if not name:
        raise ValueError("the file needs a name")
    return Path(name).expanduser()


def save_target(text: str) -> Path:
    """The file a typed ``save FILE`` writes (:func:`file_named`); ValueError for an empty name
    or a folder that does not exist, which a save never creates.

    >>> save_target("/nonexistent/dir/x.json")
    Traceback (most recent call last):
    ValueError: the folder /nonexistent/dir does not exist (a save creates no folder)
    """
    path = file_named(text)
    if not path.parent.is_dir():
        raise ValueError(f"the folder {path.parent} does not exist (a save creates no folder)")
    return path


_NUMBER = re.compile(r"[0-9]+")


#: Larger numbers are never a choice; they are read as "too big" without converting them.
_MAX_DIGITS = 6


def number(text: str) -> int | None:
    """``text`` as a choice number: ASCII digits only ("²" or "٣" are not numbers here).

    A number of more than six digits is returned as 10**6 (out of every range) rather than
    converted: Python refuses ints of more than 4,300 digits.

    >>> number("12"), number(" 3 "), number("²"), number("x"), number("9" * 5000)
    (12, 3, None, None, 1000000)
    """
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    return int(text) if len(text) <= _MAX_DIGITS else 10**_MAX_DIGITS

