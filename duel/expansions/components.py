"""What Pantheon adds to the box, as records: Divinities, Grand Temples, two Wonders, three
Progress tokens, the Pantheon board's prices and the token slots of the Age structures.

Everything is read from ``data/duel/pantheon.json`` (the rules in words: ``docs/pantheon.md``).
The expansion's cards, Wonders and tokens extend the base catalog's tables with the next ids, so
a base card keeps its id in an expansion game and the base records (:class:`duel.catalog.Card`,
:class:`duel.catalog.Wonder`, :class:`duel.catalog.ProgressToken`) describe them all.

>>> XCARDS[TEMPLE_IDS[2]].name, TEMPLE_MYTHOLOGY[TEMPLE_IDS[2]]
('Greek Grand Temple', 'Greek')
>>> [XWONDERS[w].name for w in PANTHEON_WONDERS]
['The Sanctuary', 'The Divine Theater']
>>> divinity_named("zeus").mythology, space_price(0, 1), space_price(1, 1)
('Greek', 8, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from duel import data
from duel.catalog import (
    CARDS,
    TOKENS,
    WONDERS,
    Card,
    ProgressToken,
    Wonder,
    card_from_data,
    token_from_data,
    wonder_from_data,
)
from duel.expansions import agora
from duel.expansions.names import UnknownComponentError, component_named
from duel.pyramid_layouts import LAYOUTS, Layout

_RAW = data.load("duel/pantheon.json")

MYTHOLOGIES: tuple[str, ...] = tuple(m["name"] for m in _RAW["mythologies"])


@dataclass(frozen=True, slots=True)
class Divinity:
    """A Divinity card: its Mythology and what activating it does (``effect``, ``amount``)."""

    name: str
    mythology: str
    effect: str
    amount: int
    text: str


#: The effect kinds of pantheon.json, in the short names the engine dispatches on.
_EFFECT_OF = {
    "enki_progress_tokens": "enki",
    "science": "ishtar",
    "snake_token": "nisaba",
    "protected_coins": "astarte",
    "steal_card": "baal",
    "coins": "tanit",
    "points": "aphrodite",
    "build_from_discard": "hades",
    "discard_structure_card": "zeus",
    "unbuild_wonder": "anubis",
    "wonder_from_discard": "isis",
    "steal_unbuilt_wonder": "ra",
    "shields": "mars",
    "minerva_pawn": "minerva",
    "military_token_swap": "neptune",
}


def _divinity(raw: dict) -> Divinity:
    ((kind, value),) = raw["effects"].items()
    amount = value if isinstance(value, int) and not isinstance(value, bool) else 0
    return Divinity(raw["name"], raw["mythology"], _EFFECT_OF[kind], amount, raw["text"])


DIVINITIES: tuple[Divinity, ...] = tuple(_divinity(d) for d in _RAW["divinities"])
DIVINITY: dict[str, Divinity] = {d.name: d for d in DIVINITIES}
#: The Divinities of each Mythology, in the data's order.
BY_MYTHOLOGY: dict[str, tuple[str, ...]] = {
    m: tuple(d.name for d in DIVINITIES if d.mythology == m) for m in MYTHOLOGIES
}
GATE = "Gate"

#: Price of each Pantheon space (1-6) for player A (index 0) and player B: they add up to 11.
SPACE_PRICES: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(_RAW["pantheon_board"]["cost_player_a"]),
    tuple(_RAW["pantheon_board"]["cost_player_b"]),
)
SPACES = len(SPACE_PRICES[0])
GATE_MULTIPLIER = _RAW["pantheon_board"]["gate_cost_multiplier"]
SANCTUARY_DISCOUNT = 2


def space_price(player: int, space: int) -> int:
    """What ``player`` pays to activate the Divinity on ``space`` (1-6), before any discount."""
    return SPACE_PRICES[player][space - 1]


# --- cards: the five Grand Temples, after the 73 base cards ---------------------------------------
TEMPLES: tuple[Card, ...] = tuple(
    card_from_data(len(CARDS) + i, t) for i, t in enumerate(_RAW["grand_temples"])
)
TEMPLE_IDS: tuple[int, ...] = tuple(t.id for t in TEMPLES)
#: Agora's Senators, after the Grand Temples (a card of no colour and no printed cost).
SENATOR_CARDS: tuple[Card, ...] = tuple(
    Card(
        id=len(CARDS) + len(TEMPLES) + i,
        name=name,
        age=0,
        color="senator",
        coin_cost=0,
        need=(0, 0, 0, 0, 0),
        chain_from=None,
        chain_gives=None,
        produces=(0, 0, 0, 0, 0),
        produce_choice=(),
        trade_fixed=(),
        shields=0,
        science=None,
        points=0,
        coins=0,
        coins_per=None,
        coins_per_max=None,
        points_per_max=None,
    )
    for i, (name, _) in enumerate(agora.senator_names())
)
SENATOR_IDS: tuple[int, ...] = tuple(c.id for c in SENATOR_CARDS)
SENATOR_KIND: dict[int, agora.SenatorKind] = {
    c.id: kind for c, (_, kind) in zip(SENATOR_CARDS, agora.senator_names(), strict=True)
}
XCARDS: tuple[Card, ...] = CARDS + TEMPLES + SENATOR_CARDS
#: The Mythology whose token builds each Grand Temple for free.
TEMPLE_MYTHOLOGY: dict[int, str] = {
    t.id: raw["chain_from"].removeprefix("mythology:")
    for t, raw in zip(TEMPLES, _RAW["grand_temples"], strict=True)
}
#: Grand Temple points by the number of temples in a city.
TEMPLE_POINTS: tuple[int, ...] = (0, *(_RAW["grand_temple_points"][str(n)] for n in (1, 2, 3)))


# --- wonders and progress tokens -----------------------------------------------------------------
_PANTHEON_W = tuple(wonder_from_data(len(WONDERS) + i, w) for i, w in enumerate(_RAW["wonders"]))
_AGORA_W = tuple(
    wonder_from_data(len(WONDERS) + len(_PANTHEON_W) + i, w)
    for i, w in enumerate(agora.AGORA_WONDERS_RAW)
)
XWONDERS: tuple[Wonder, ...] = WONDERS + _PANTHEON_W + _AGORA_W
PANTHEON_WONDERS: tuple[int, ...] = tuple(w.id for w in _PANTHEON_W)
AGORA_WONDERS: tuple[int, ...] = tuple(w.id for w in _AGORA_W)
W_SANCTUARY, W_DIVINE_THEATER = PANTHEON_WONDERS
W_CURIA_JULIA, W_KNOSSOS = AGORA_WONDERS

_PANTHEON_T = tuple(
    token_from_data(len(TOKENS) + i, t) for i, t in enumerate(_RAW["progress_tokens"])
)
_AGORA_T = tuple(
    token_from_data(len(TOKENS) + len(_PANTHEON_T) + i, t)
    for i, t in enumerate(agora.AGORA_TOKENS_RAW)
)
XTOKENS: tuple[ProgressToken, ...] = TOKENS + _PANTHEON_T + _AGORA_T
PANTHEON_TOKENS: tuple[int, ...] = tuple(t.id for t in _PANTHEON_T)
AGORA_TOKENS: tuple[int, ...] = tuple(t.id for t in _AGORA_T)
T_ENGINEERING, T_MYSTICISM, T_POLIORCETICS = PANTHEON_TOKENS
T_CORRUPTION, T_ORGANIZED_CRIME = AGORA_TOKENS
MYSTICISM_POINTS = 2

# --- tokens on the structures ---------------------------------------------------------------------
_SLOTS = {s["token"]: tuple(s["slots"]) for s in _RAW["token_slots"]["base"]}
_AGORA_SLOTS = {s["token"]: tuple(s["slots"]) for s in _RAW["token_slots"]["with_agora"]}
#: Age I slots (face down) that carry a Mythology token, and Age II slots with an Offering token.
MYTHOLOGY_SLOTS: tuple[int, ...] = _SLOTS["mythology"]
OFFERING_SLOTS: tuple[int, ...] = _SLOTS["offering"]


def token_slots(expansions: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Mythology and the Offering token slots: Agora's larger structures move them."""
    slots = _AGORA_SLOTS if "agora" in expansions else _SLOTS
    return slots["mythology"], slots["offering"]


def structure_of(expansions: tuple[str, ...], age: int) -> Layout:
    """The structure of ``age``: Agora's larger ones, or the base game's."""
    return agora.structure(age) if "agora" in expansions else LAYOUTS[age]


MYTHOLOGY_TOKENS_PER_KIND = _RAW["counts"]["mythology_tokens_per_mythology"]
OFFERINGS: tuple[int, ...] = tuple(
    t["effects"]["activation_discount"] for t in _RAW["offering_tokens"]
)


def divinity_named(text: str) -> Divinity:
    """The Divinity with that name (case-insensitive, a unique prefix is enough)."""
    return DIVINITY[component_named("Divinity", list(DIVINITY), text)]


def mythology_named(text: str) -> str:
    return component_named("Mythology", list(MYTHOLOGIES), text)


def xcard_named(text: str) -> int:
    """Id of a base card or Grand Temple by name."""
    names = [c.name for c in XCARDS]
    return names.index(component_named("card", names, text))


def xwonder_named(text: str) -> int:
    names = [w.name for w in XWONDERS]
    short = {n[4:]: n for n in names if n.startswith("The ")}
    try:
        name = component_named("Wonder", names, text)
    except UnknownComponentError:
        name = short[component_named("Wonder", list(short), text)]
    return names.index(name)


def xtoken_named(text: str) -> int:
    names = [t.name for t in XTOKENS]
    return names.index(component_named("progress token", names, text))
