"""Cards and Wonder boards of the base game, loaded from ``data/base/*.json``.

Resources are indexed in the canonical order ``wood, stone, clay, ore, glass, loom, papyrus``;
costs and production are 7-tuples in that order.

>>> CARD_BY_NAME["Statue"].cost
(1, 0, 0, 2, 0, 0, 0)
>>> len(age_deck(3, 4, random.Random(0)))
28
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from duel.data import load

RESOURCES: tuple[str, ...] = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}
RAW = (0, 1, 2, 3)
MANUFACTURED = (4, 5, 6)
COLORS: tuple[str, ...] = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
SYMBOLS: tuple[str, ...] = ("compass", "gear", "tablet")
ZERO7: tuple[int, ...] = (0,) * 7


@dataclass(frozen=True, slots=True)
class Effect:
    """One structured effect (see ``tools/import_base_reference.py`` for the JSON form)."""

    type: str
    count: int = 0
    resource: int = -1
    options: tuple[int, ...] = ()
    tradable: bool = False
    resources: tuple[int, ...] = ()
    side: str = ""
    price: int = 0
    symbol: str = ""
    colors: tuple[str, ...] = ()
    scope: tuple[str, ...] = ()
    each: int = 0

    def describe(self) -> str:
        """Short human text, e.g. ``"2 VP"`` or ``"wood/clay"``."""
        t = self.type
        if t == "produce":
            return f"{self.count} {RESOURCES[self.resource]}"
        if t == "produce_choice":
            text = "/".join(RESOURCES[r] for r in self.options)
            return text if self.tradable else f"{text} (not for sale)"
        if t == "trade_discount":
            kind = "raw" if self.resources == RAW else "manufactured"
            return f"{kind} from {self.side} for {self.price}"
        if t in ("points", "coins", "shields"):
            unit = {"points": "VP", "coins": "coins", "shields": "shields"}[t]
            return f"{self.count} {unit}"
        if t == "science":
            return f"science {self.symbol}"
        if t.endswith("_per_card"):
            unit = "VP" if t.startswith("points") else "coins"
            return f"{self.each} {unit}/{'+'.join(self.colors)} card ({'+'.join(self.scope)})"
        if t.endswith("_per_wonder_stage"):
            unit = "VP" if t.startswith("points") else "coins"
            return f"{self.each} {unit}/wonder stage ({'+'.join(self.scope)})"
        if t == "points_per_defeat_token":
            return f"{self.each} VP/defeat token ({'+'.join(self.scope)})"
        return t.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical Age card (copies of a name differ only in ``id`` and ``min_players``)."""

    id: int
    age: int
    name: str
    color: str
    coins: int
    cost: tuple[int, ...]
    chains_from: tuple[str, ...]
    chains_to: tuple[str, ...]
    effects: tuple[Effect, ...]
    min_players: int | None

    def describe(self) -> str:
        return "; ".join(e.describe() for e in self.effects)


@dataclass(frozen=True, slots=True)
class Stage:
    cost: tuple[int, ...]
    effects: tuple[Effect, ...]

    def describe(self) -> str:
        return "; ".join(e.describe() for e in self.effects)


@dataclass(frozen=True, slots=True)
class Wonder:
    """One side of one Wonder board."""

    id: int
    city: str
    name: str
    side: str
    resource: int
    stages: tuple[Stage, ...]

    @property
    def label(self) -> str:
        return f"{self.city} {self.side}"


def _effect(raw: dict[str, Any]) -> Effect:
    kw: dict[str, Any] = {"type": raw["type"]}
    for key in ("count", "price", "each", "symbol", "side"):
        if key in raw:
            kw[key] = raw[key]
    if "resource" in raw:
        kw["resource"] = RES_INDEX[raw["resource"]]
    if "options" in raw:
        kw["options"] = tuple(RES_INDEX[r] for r in raw["options"])
        kw["tradable"] = raw["tradable"]
    if "resources" in raw:
        kw["resources"] = tuple(RES_INDEX[r] for r in raw["resources"])
    if "colors" in raw:
        kw["colors"] = tuple(raw["colors"])
    if "scope" in raw:
        kw["scope"] = tuple(raw["scope"])
    return Effect(**kw)


def cost_vector(cost: dict[str, int]) -> tuple[int, ...]:
    return tuple(cost.get(r, 0) for r in RESOURCES)


def _load() -> tuple[tuple[Card, ...], tuple[Wonder, ...]]:
    cards = tuple(
        Card(
            id=c["id"],
            age=c["age"],
            name=c["name"],
            color=c["color"],
            coins=c["cost"].get("coins", 0),
            cost=cost_vector(c["cost"]),
            chains_from=tuple(c["chains_from"]),
            chains_to=tuple(c["chains_to"]),
            effects=tuple(_effect(e) for e in c["effects"]),
            min_players=c["min_players"],
        )
        for c in load("base/cards.json")
    )
    wonders = tuple(
        Wonder(
            id=i,
            city=w["city"],
            name=w["name"],
            side=w["side"],
            resource=RES_INDEX[w["starting_resource"]],
            stages=tuple(
                Stage(cost_vector(s["cost"]), tuple(_effect(e) for e in s["effects"]))
                for s in w["stages"]
            ),
        )
        for i, w in enumerate(load("base/wonders.json"))
    )
    return cards, wonders


CARDS, WONDERS = _load()
CARD_BY_NAME: dict[str, Card] = {}
for _card in CARDS:
    CARD_BY_NAME.setdefault(_card.name, _card)
CITIES: tuple[str, ...] = tuple(dict.fromkeys(w.city for w in WONDERS))
GUILDS: tuple[Card, ...] = tuple(c for c in CARDS if c.color == "purple")


def wonder(city: str, side: str) -> Wonder:
    """Look a board up by city name (or a unique prefix) and side, e.g. ``wonder("Rhod", "B")``."""
    for w in WONDERS:
        if w.side == side.upper() and w.city.lower().startswith(city.lower()):
            return w
    raise KeyError(f"no Wonder {city!r} side {side!r}")


def deck_players(players: int) -> int:
    """The player count whose cards are used (the 2-player variant uses the 3-player deck)."""
    return max(3, players)


def age_deck(age: int, players: int, rng: random.Random) -> list[int]:
    """Shuffled card ids for one Age; Age III includes ``players + 2`` random Guilds (5 for 2p)."""
    n = deck_players(players)
    ids = [c.id for c in CARDS if c.age == age and c.min_players is not None and c.min_players <= n]
    if age == 3:
        ids += rng.sample([g.id for g in GUILDS], n + 2)
    rng.shuffle(ids)
    return ids
