"""What Agora adds to the box: the Senate's Chambers, Senators, Decrees, Conspiracies, its
larger structures, two Wonders, two Progress tokens and its military tokens.

Everything is read from ``data/duel/agora.json`` (the rules in words: ``docs/agora.md``).
Senators are cards: they lie in the structures and take the card ids after the Grand Temples.
Identical Senators (three Politicians of the middle section, six Conspirators) get numbered
names ("Conspirator #2"), so that every move names one card; a face-down Senator slot always
turns up the lowest-numbered unseen card of the kind drawn, so the numbering carries no
information.

>>> [c.chamber for c in CHAMBERS if c.section == "middle"], CHAMBERS[2].points
([3, 4], 3)
>>> senate_actions(blue_cards=3), senate_actions(blue_cards=5)
(2, 3)
>>> [structure(age).slots for age in (1, 2, 3)]
[25, 25, 23]
"""

from __future__ import annotations

from dataclasses import dataclass

from duel import data
from duel.expansions.names import component_named
from duel.pyramid_layouts import Layout, layout_from_data

_RAW = data.load("duel/agora.json")


@dataclass(frozen=True, slots=True)
class Chamber:
    chamber: int  # 1-6
    section: str  # left, middle, right
    points: int  # to its controller at the end
    decree_face_up: bool  # at setup


CHAMBERS: tuple[Chamber, ...] = tuple(
    Chamber(c["chamber"], c["section"], c["points"], c["decree_face_up"]) for c in _RAW["senate"]
)
SECTION_CHAMBERS: dict[str, tuple[int, ...]] = {
    section: tuple(c.chamber for c in CHAMBERS if c.section == section)
    for section in ("left", "middle", "right")
}
CUBES = _RAW["counts"]["influence_cubes_per_player"]
_ACTIONS = _RAW["senate_actions_by_blue_cards"]


def senate_actions(blue_cards: int) -> int:
    """A Politician's number of Senate actions for a city with ``blue_cards`` blue cards."""
    for row in _ACTIONS:
        if blue_cards >= row["blue_cards_min"] and (
            row["blue_cards_max"] is None or blue_cards <= row["blue_cards_max"]
        ):
            return row["actions"]
    raise ValueError(blue_cards)


def adjacent(chamber: int) -> tuple[int, ...]:
    """The Chambers next to ``chamber`` (the six form one line)."""
    return tuple(c for c in (chamber - 1, chamber + 1) if 1 <= c <= len(CHAMBERS))


# --- Senators ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SenatorKind:
    name: str  # the data's name, shared by the cards of the kind
    kind: str  # politician or conspirator
    section: str | None
    count: int


SENATOR_KINDS: tuple[SenatorKind, ...] = tuple(
    SenatorKind(s["name"], s["kind"], s["section"], s["count"]) for s in _RAW["senators"]
)


def senator_names() -> list[tuple[str, SenatorKind]]:
    """Every Senator card's name and kind, in id order ("Conspirator", "Conspirator #2", ...)."""
    out = []
    for kind in SENATOR_KINDS:
        for n in range(1, kind.count + 1):
            out.append((kind.name if n == 1 else f"{kind.name} #{n}", kind))
    return out


SENATORS_PER_AGE = {age: _RAW["counts"][f"senators_in_age_{age}"] for age in (1, 2, 3)}

# --- Decrees and Conspiracies ---------------------------------------------------------------------
DECREES: tuple[str, ...] = tuple(d["name"] for d in _RAW["decrees"])
CONSPIRACIES: tuple[str, ...] = tuple(c["name"] for c in _RAW["conspiracies"])
#: Conspiracies that end with "then you may move 1 of your cubes to an adjacent Chamber".
CONSPIRACIES_WITH_MOVE = frozenset(
    c["name"] for c in _RAW["conspiracies"] if "move_influence" in c["effects"]
)
TITHES: dict[str, str] = {
    d["name"]: d["effects"]["coins_when_built"]["what"]
    for d in _RAW["decrees"]
    if "coins_when_built" in d["effects"]
}
WAIVERS: dict[str, str] = {
    d["name"]: d["effects"]["ignore_cost_symbol"]
    for d in _RAW["decrees"]
    if "ignore_cost_symbol" in d["effects"]
}
REBATES: dict[str, tuple[int, ...]] = {
    d["name"]: tuple(
        ("wood", "clay", "stone", "glass", "papyrus").index(r)
        for r in d["effects"]["trade_discount"]["resources"]
    )
    for d in _RAW["decrees"]
    if "trade_discount" in d["effects"]
}


def decree_named(text: str) -> str:
    return component_named("Decree", DECREES, text)


def conspiracy_named(text: str) -> str:
    return component_named("Conspiracy", CONSPIRACIES, text)


# --- the structures ----------------------------------------------------------------------------
_STRUCTURES = {
    int(age): layout_from_data(int(age), slots) for age, slots in _RAW["layouts"].items()
}


def structure(age: int) -> Layout:
    """Agora's larger structure of ``age`` (the base game's: :data:`LAYOUTS`)."""
    return _STRUCTURES[age]


AGORA_WONDERS_RAW: list[dict] = _RAW["wonders"]
AGORA_TOKENS_RAW: list[dict] = _RAW["progress_tokens"]
