"""The components of 7 Wonders Duel: 73 cards, 12 wonders and 10 progress tokens.

Everything is read from ``data/duel/*.json`` and compiled once into small frozen records with
integer ids, bit masks and packed production, so that the rules engine works on ints.

>>> card = card_named("Sawmill")
>>> card.name, card.age, card.color, card.produces
('Sawmill', 2, 'brown', (2, 0, 0, 0, 0))
>>> WONDERS[wonder_named("The Sphinx")].extra_turn
True
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import duel.data as data
from duel.quote import quoted
from duel.reason import Reason

RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
RAW = frozenset({0, 1, 2})
COLORS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
SCIENCE_SYMBOLS = ("globe", "sundial", "mortar", "wheel", "pendulum", "quill", "law")
AGE_NAMES = {1: "Age I", 2: "Age II", 3: "Age III", 4: "Guild"}
#: At most seven wonders are built in a game: the eighth then leaves the game.
MAX_WONDERS_BUILT = 7

#: Packed production: 3 bits per resource, in RESOURCES order (a city never makes more than 4).
PRODUCTION_BITS = 3


def pack_production(units: tuple[int, ...] | list[int]) -> int:
    return sum(n << (PRODUCTION_BITS * r) for r, n in enumerate(units))


def unpack_production(packed: int) -> tuple[int, ...]:
    return tuple((packed >> (PRODUCTION_BITS * r)) & 7 for r in range(len(RESOURCES)))


@dataclass(frozen=True, slots=True)
class Card:
    """An Age card (Age 4 = guild). ``need`` is the resource cost in RESOURCES order."""

    id: int
    name: str
    age: int
    color: str
    coin_cost: int
    need: tuple[int, ...]
    chain_from: str | None
    chain_gives: str | None
    produces: tuple[int, ...]
    produce_choice: tuple[int, ...]
    trade_fixed: tuple[int, ...]
    shields: int
    science: str | None
    points: int
    coins: int
    coins_per: tuple[tuple[str, ...], int] | None
    coins_per_max: tuple[tuple[str, ...], int] | None
    points_per_max: tuple[tuple[str, ...], int] | None

    @property
    def bit(self) -> int:
        return 1 << self.id


@dataclass(frozen=True, slots=True)
class Wonder:
    id: int
    name: str
    need: tuple[int, ...]
    points: int
    shields: int
    coins: int
    opponent_loses: int
    extra_turn: bool
    destroy: str | None
    produce_choice: tuple[int, ...]
    library: bool
    mausoleum: bool

    @property
    def bit(self) -> int:
        return 1 << self.id


@dataclass(frozen=True, slots=True)
class ProgressToken:
    id: int
    name: str
    points: int
    coins: int
    text: str

    @property
    def bit(self) -> int:
        return 1 << self.id


def _need(cost: dict[str, int]) -> tuple[int, ...]:
    return tuple(cost.get(r, 0) for r in RESOURCES)


def _per(effect: dict[str, Any] | None) -> tuple[tuple[str, ...], int] | None:
    return None if effect is None else (tuple(effect["count"]), effect["each"])


def card_from_data(i: int, raw: dict[str, Any]) -> Card:
    """A card record from its entry in a data file (``data/duel/cards.json`` and the
    expansions' files), with the id ``i``."""
    fx = raw["effects"]
    return Card(
        id=i,
        name=raw["name"],
        age=raw["age"],
        color=raw["color"],
        coin_cost=raw["cost"].get("coins", 0),
        need=_need(raw["cost"]),
        chain_from=raw["chain_from"],
        chain_gives=raw["chain_gives"],
        produces=_need(fx.get("produce", {})),
        produce_choice=tuple(RESOURCES.index(r) for r in fx.get("produce_choice", ())),
        trade_fixed=tuple(RESOURCES.index(r) for r in fx.get("trade_fixed", ())),
        shields=fx.get("shields", 0),
        science=fx.get("science"),
        points=fx.get("points", 0),
        coins=fx.get("coins", 0),
        coins_per=_per(fx.get("coins_per")),
        coins_per_max=_per(fx.get("coins_per_max")),
        points_per_max=_per(fx.get("points_per_max")),
    )


def wonder_from_data(i: int, raw: dict[str, Any]) -> Wonder:
    """A Wonder record from its data entry; effects it does not know are left out."""
    fx = raw["effects"]
    return Wonder(
        id=i,
        name=raw["name"],
        need=_need(raw["cost"]),
        points=fx.get("points", 0),
        shields=fx.get("shields", 0),
        coins=fx.get("coins", 0),
        opponent_loses=fx.get("opponent_loses_coins", 0),
        extra_turn=fx.get("extra_turn", False),
        destroy=fx.get("destroy"),
        produce_choice=tuple(RESOURCES.index(r) for r in fx.get("produce_choice", ())),
        library="progress_from_box" in fx,
        mausoleum=fx.get("build_from_discard", False),
    )


def token_from_data(i: int, raw: dict[str, Any]) -> ProgressToken:
    """A Progress token record from its data entry; effects it does not know are left out."""
    fx = raw["effects"]
    return ProgressToken(
        id=i,
        name=raw["name"],
        points=fx.get("points", 0),
        coins=fx.get("coins", 0),
        text=raw["text"],
    )


CARDS: tuple[Card, ...] = tuple(
    card_from_data(i, c) for i, c in enumerate(data.load("duel/cards.json"))
)
WONDERS: tuple[Wonder, ...] = tuple(
    wonder_from_data(i, w) for i, w in enumerate(data.load("duel/wonders.json"))
)
TOKENS: tuple[ProgressToken, ...] = tuple(
    token_from_data(i, t) for i, t in enumerate(data.load("duel/progress_tokens.json"))
)

ALL_CARDS = (1 << len(CARDS)) - 1
ALL_WONDERS = (1 << len(WONDERS)) - 1
ALL_TOKENS = (1 << len(TOKENS)) - 1
AGE_DECK = {age: sum(c.bit for c in CARDS if c.age == age) for age in (1, 2, 3, 4)}
GUILDS = AGE_DECK[4]
COLOR_MASK = {color: sum(c.bit for c in CARDS if c.color == color) for color in COLORS}
CHAIN_SYMBOLS = tuple(sorted({c.chain_gives for c in CARDS if c.chain_gives}))

_CARD_IDS = {c.name.lower(): c.id for c in CARDS}
_WONDER_IDS = {w.name.lower(): w.id for w in WONDERS}
_TOKEN_IDS = {t.name.lower(): t.id for t in TOKENS}
_ALIASES = {
    "glassblower": "glass-blower",
    "glass blower": "glass-blower",
    "stables": "stable",
    "chamber of commerce": "chamber of commerce",
    "magistrate guild": "magistrates guild",
    "circus maximums": "circus maximus",
    "tribunal": "courthouse",
}

T_AGRICULTURE, T_ARCHITECTURE, T_ECONOMY, T_LAW, T_MASONRY = range(5)
T_MATHEMATICS, T_PHILOSOPHY, T_STRATEGY, T_THEOLOGY, T_URBANISM = range(5, 10)
assert [t.name for t in TOKENS] == [
    "Agriculture",
    "Architecture",
    "Economy",
    "Law",
    "Masonry",
    "Mathematics",
    "Philosophy",
    "Strategy",
    "Theology",
    "Urbanism",
]


class UnknownNameError(ValueError):
    """A card, wonder or token name that does not exist; the message lists the nearest names."""


#: The kinds of name looked up, as the errors say them (translated by the programs).
_KIND_WORDS = {"card": Reason("card"), "wonder": Reason("wonder")}
_KIND_WORDS["progress token"] = Reason("progress token")


def _lookup(kind: str, table: dict[str, int], names: list[str], text: str) -> int:
    key = " ".join(text.strip().lower().split())
    key = _ALIASES.get(key, key)
    if key in table:
        return table[key]
    starts = [n for n in names if n.lower().startswith(key)] if key else []
    if len(starts) == 1:
        return table[starts[0].lower()]
    near = starts or difflib.get_close_matches(text.strip(), names, n=3, cutoff=0.5)
    if not near:
        near = difflib.get_close_matches(text.strip().title(), names, n=3, cutoff=0.4)
    value = quoted(text.strip())
    if near:
        raise UnknownNameError(
            Reason(
                "no {kind} named {value}; did you mean {names}?",
                kind=_KIND_WORDS[kind],
                value=value,
                names=tuple(near),
            )
        )
    raise UnknownNameError(Reason("no {kind} named {value}", kind=_KIND_WORDS[kind], value=value))


def card_named(text: str) -> Card:
    """The card with that name (case-insensitive, unique prefixes and known aliases accepted)."""
    return CARDS[_lookup("card", _CARD_IDS, [c.name for c in CARDS], text)]


_WONDER_SHORT = {w.name[4:]: w.id for w in WONDERS if w.name.startswith("The ")}


def wonder_named(text: str) -> int:
    """The id of the wonder with that name ("The " may be omitted)."""
    table = {**_WONDER_IDS, **{n.lower(): i for n, i in _WONDER_SHORT.items()}}
    names = [w.name for w in WONDERS] + list(_WONDER_SHORT)
    return _lookup("wonder", table, names, text)


def token_named(text: str) -> int:
    return _lookup("progress token", _TOKEN_IDS, [t.name for t in TOKENS], text)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
