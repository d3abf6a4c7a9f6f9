"""Small wording helpers shared by the programs (no dependencies): plurals and display names.

>>> plural(1, "coin"), plural(3, "shield"), plural(0, "card")
('1 coin', '3 shields', '0 cards')
>>> chain_symbol_name("water_drop"), chain_symbol_name("greek_building")
('water drop', 'Greek building')
"""

from __future__ import annotations

from duel.app.i18n import N_, language, tr

#: The nouns counted on screen, for the message catalogs (no plural in Chinese or Japanese).
COUNTED = {
    "coin": N_("{n} coins"),
    "shield": N_("{n} shields"),
    "card": N_("{n} cards"),
}
#: Chain symbols, science symbols and resources as said on screen (translated where shown).
SYMBOL_WORDS = {
    "wood": N_("wood"),
    "clay": N_("clay"),
    "stone": N_("stone"),
    "glass": N_("glass"),
    "papyrus": N_("papyrus"),
    "globe": N_("globe"),
    "sundial": N_("sundial"),
    "mortar": N_("mortar"),
    "wheel": N_("wheel"),
    "pendulum": N_("pendulum"),
    "quill": N_("quill"),
    "law": N_("law"),
}

#: Chain symbols' names, for the catalogs (chain_symbol_name translates them).
CHAIN_WORDS = (
    N_("amphora"),
    N_("barrel"),
    N_("book"),
    N_("gear"),
    N_("Greek building"),
    N_("helmet"),
    N_("horseshoe"),
    N_("lamp"),
    N_("lyre"),
    N_("mask"),
    N_("moon"),
    N_("pillar"),
    N_("sun"),
    N_("sword"),
    N_("target"),
    N_("tower"),
    N_("water drop"),
)

#: Display names of chain symbols whose data name is not just the words with spaces.
_CHAIN_NAMES = {"greek_building": "Greek building"}


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``-1 coin`` too)."""
    if language() != "en" and noun in COUNTED:
        return tr(COUNTED[noun], n=n)
    return f"{n} {noun if abs(n) == 1 else many or noun + 's'}"


def chain_symbol_name(symbol: str) -> str:
    """A chain (linking) symbol as said on screen: the data's ``water_drop`` is a water drop."""
    return tr(_CHAIN_NAMES.get(symbol, symbol.replace("_", " ")))


def word(english: str) -> str:
    """A resource or science symbol (``wood``, ``wheel``) in the current language."""
    return tr(SYMBOL_WORDS.get(english, english))
