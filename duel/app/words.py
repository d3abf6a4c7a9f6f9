"""Small wording helpers shared by the programs (no dependencies): plurals and display names.

>>> plural(1, "coin"), plural(3, "shield"), plural(0, "card")
('1 coin', '3 shields', '0 cards')
>>> chain_symbol_name("water_drop"), chain_symbol_name("greek_building")
('water drop', 'Greek building')
"""

from __future__ import annotations

#: Display names of chain symbols whose data name is not just the words with spaces.
_CHAIN_NAMES = {"greek_building": "Greek building"}


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``-1 coin`` too)."""
    return f"{n} {noun if abs(n) == 1 else many or noun + 's'}"


def chain_symbol_name(symbol: str) -> str:
    """A chain (linking) symbol as said on screen: the data's ``water_drop`` is a water drop."""
    return _CHAIN_NAMES.get(symbol, symbol.replace("_", " "))

