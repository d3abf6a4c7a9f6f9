"""Names of the expansions' components as a player types them: case-insensitive, a unique prefix
is enough, and a wrong name gets the nearest ones (the base catalog's ``card_named`` does the
same for base cards, with translated messages)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence


class UnknownComponentError(ValueError):
    """A Divinity, Mythology, Decree, Conspiracy or other expansion name that does not exist;
    the message says the nearest."""


def component_named(kind: str, names: Sequence[str], text: str) -> str:
    """The name in ``names`` that ``text`` means.

    >>> component_named("Decree", ["Blue tithe", "Red tithe"], "red")
    'Red tithe'
    """
    key = " ".join(text.strip().lower().split())
    for name in names:
        if name.lower() == key:
            return name
    starts = [n for n in names if n.lower().startswith(key)] if key else []
    if len(starts) == 1:
        return starts[0]
    near = starts or difflib.get_close_matches(text.strip().title(), list(names), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    raise UnknownComponentError(f"no {kind} named {text.strip()!r}{hint}")
