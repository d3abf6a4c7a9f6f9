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
from duel.reason import Reason, template

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

    def describe(self) -> Reason:
        """Short human text, e.g. ``"2 VP"`` or ``"wood/clay"`` (a :class:`~duel.reason.Reason`:
        the programs translate it)."""
        t = self.type
        if t == "produce":
            return Reason("{n} {resource}", n=self.count, resource=WORDS[RESOURCES[self.resource]])
        if t == "produce_choice":
            options = _slashed([WORDS[RESOURCES[r]] for r in self.options])
            return options if self.tradable else Reason("{options} (not for sale)", options=options)
        if t == "trade_discount":
            kind = WORDS["raw"] if self.resources == RAW else WORDS["manufactured"]
            return Reason(
                "{kind} from {side} for {price}", kind=kind, side=_word(self.side), price=self.price
            )
        if t == "points":
            return Reason("{n} VP", n=self.count)
        if t == "coins":
            return Reason("{n} coins", n=self.count)
        if t == "shields":
            return Reason("{n} shields", n=self.count)
        if t == "science":
            return Reason("science {symbol}", symbol=_word(self.symbol))
        scope = _plussed([_word(x) for x in self.scope]) if self.scope else ""
        if t.endswith("_per_card"):
            colors = _plussed([_word(x) for x in self.colors])
            if t.startswith("points"):
                return Reason(
                    "{n} VP/{colors} card ({scope})", n=self.each, colors=colors, scope=scope
                )
            return Reason(
                "{n} coins/{colors} card ({scope})", n=self.each, colors=colors, scope=scope
            )
        if t.endswith("_per_wonder_stage"):
            if t.startswith("points"):
                return Reason("{n} VP/wonder stage ({scope})", n=self.each, scope=scope)
            return Reason("{n} coins/wonder stage ({scope})", n=self.each, scope=scope)
        if t == "points_per_defeat_token":
            return Reason("{n} VP/defeat token ({scope})", n=self.each, scope=scope)
        return WORDS.get(t) or Reason(t.replace("_", " "))


#: The words of the effects, as reasons (each a literal, so that the catalog tool finds it).
WORDS: dict[str, Reason] = {
    "wood": Reason("wood"),
    "stone": Reason("stone"),
    "clay": Reason("clay"),
    "ore": Reason("ore"),
    "glass": Reason("glass"),
    "loom": Reason("loom"),
    "papyrus": Reason("papyrus"),
    "raw": Reason("raw"),
    "manufactured": Reason("manufactured"),
    "left": Reason("left"),
    "right": Reason("right"),
    "self": Reason("self"),
    "compass": Reason("compass"),
    "gear": Reason("gear"),
    "tablet": Reason("tablet"),
    "any": Reason("any"),
    "brown": Reason("brown"),
    "grey": Reason("grey"),
    "blue": Reason("blue"),
    "yellow": Reason("yellow"),
    "red": Reason("red"),
    "green": Reason("green"),
    "purple": Reason("purple"),
    "build_from_discard": Reason("build from discard"),
    "copy_neighbor_guild": Reason("copy neighbor guild"),
    "free_build_once_per_age": Reason("free build once per age"),
    "play_last_card_each_age": Reason("play last card each age"),
}


def _word(english: str) -> Reason:
    """A word of the effects (its English text when the table lacks it)."""
    return WORDS.get(english) or Reason("{x}", x=english)


def _joined(parts: list, template: str) -> Reason:
    """``parts`` said as one reason: ``template`` holds ``{first}`` and ``{rest}`` (``"{first};
    {rest}"``), applied from the right, so that each separator can be translated."""
    if not parts:
        return Reason("{x}", x="")
    out = parts[-1] if isinstance(parts[-1], Reason) else Reason("{x}", x=parts[-1])
    for part in reversed(parts[:-1]):
        out = Reason(template, first=part, rest=out)
    return out


def _slashed(parts: list) -> Reason:
    return _joined(parts, template("{first}/{rest}"))


def _plussed(parts: list) -> Reason:
    return _joined(parts, template("{first}+{rest}"))


def describe_effects(effects: tuple[Effect, ...]) -> Reason:
    """Effects said one after the other: ``2 VP; 1 wood``."""
    return _joined([e.describe() for e in effects], template("{first}; {rest}"))


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

    def describe(self) -> Reason:
        return describe_effects(self.effects)


@dataclass(frozen=True, slots=True)
class Stage:
    cost: tuple[int, ...]
    effects: tuple[Effect, ...]

    def describe(self) -> Reason:
        return describe_effects(self.effects)


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
