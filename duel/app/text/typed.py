"""What a player types in ``duel play``, read the same way by the line mode and the full screen.

Names are forgiving (case, "The ", prefixes, "did you mean"); the three guild slots of Age III
are typed as row.card or in the move notation. Nothing here reads or prints.

>>> match_name("pyramid", ["The Pyramids", "The Sphinx"]), match_name("s", ["Baths", "Stable"])
(0, 1)
"""

from __future__ import annotations

import difflib

from duel.app.i18n import shown, tr
from duel.moves import Move, MoveParseError
from duel.pyramid_layouts import LAYOUTS
from duel.quote import quoted
from duel.reason import reason_of

__all__ = ["Ambiguous", "guild_slots_typed", "match_name"]


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
