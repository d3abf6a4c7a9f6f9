"""The view model of the table: what every view of ``duel play`` draws, as plain data.

The line mode (:mod:`duel.app.text.render`, in colour or plain text) and the full-screen app
(:mod:`duel.app.screen.app`) draw the same model, so a price, a number or a face-down guild reads
the same in all of them. Nothing here prints or knows a terminal.

>>> from duel import new_game
>>> import random
>>> state, rng = new_game(), random.Random(1)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng))
>>> rows = pyramid_rows(state)
>>> len(rows), sum(c.number is not None for row in rows for c in row)
(5, 6)
>>> city_view(state, 0).coins
7
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from duel.app.i18n import shown, tr
from duel.app.text.words import word
from duel.catalog import CARDS, COLORS, TOKENS, WONDERS
from duel.pyramid_layouts import LAYOUTS
from duel.state import HIDDEN, TAKEN, State

__all__ = [
    "AgeCount",
    "Cell",
    "CityView",
    "Distance",
    "Offer",
    "WonderItem",
    "age_count",
    "card_offers",
    "city_view",
    "distances",
    "pyramid_rows",
    "science_symbols",
]


@dataclass(frozen=True)
class Cell:
    """One place of the pyramid.

    ``look`` is ``taken``, ``back`` (face down), ``guild_back`` (an Age III card with the guild
    back), ``covered`` (face up, not yet takeable) or ``open`` (takeable: it has a ``number``
    and, in the play phase, the ``price`` for the player to move).
    """

    slot: int
    x: int
    look: str
    card: int | None = None
    number: int | None = None
    price: str = ""
    ok: bool = True
    #: The price for each player, A then B (``(("3c", True), ("free", True))``), in the play
    #: phase: what the opponent would pay matters too.
    both: tuple[tuple[str, bool], ...] = ()

    @property
    def face(self) -> int:
        """The card seen here (``open`` or ``covered``: a face-down or taken place has none)."""
        if self.card is None:
            raise ValueError(f"no card is seen at slot {self.slot} ({self.look})")
        return self.card


def numbered_slots(state: State) -> list[int]:
    """Accessible slots in the order they are numbered on the screen (1, 2, ...)."""
    if state.phase != "play" or not state.age:
        return []
    layout = LAYOUTS[state.age]
    return sorted(state.accessible_slots, key=lambda s: (-layout.row_of[s], layout.x[s]))


def price_text(state: State, player: int, card: int) -> tuple[str, bool]:
    """("3c", affordable) for building ``card`` now; "chain" when free through a chain.

    The one place that decides affordability: every view shows it."""
    if state.is_chained(player, card):
        return tr("chain"), True
    cost = state.card_cost(player, card)
    return (tr("free") if cost == 0 else f"{cost}c"), cost <= state.coins(player)


def both_prices(state: State, card: int) -> tuple[tuple[str, bool], tuple[str, bool]]:
    """:func:`price_text` for A and for B."""
    return price_text(state, 0, card), price_text(state, 1, card)


def pyramid_rows(state: State) -> list[list[Cell]]:
    """The current Age's structure, row 1 (the most covered) first, each row left to right."""
    layout = LAYOUTS[state.age]
    numbers = {slot: i + 1 for i, slot in enumerate(numbered_slots(state))}
    show_prices = state.phase == "play"
    rows = []
    for row in layout.rows:
        cells = []
        for slot in sorted(row, key=lambda s: layout.x[s]):
            card = state.pyramid[slot]
            x = layout.x[slot]
            if card == TAKEN:
                cells.append(Cell(slot, x, "taken"))
            elif card == HIDDEN:
                look = "guild_back" if state.is_guild_slot(slot) else "back"
                cells.append(Cell(slot, x, look))
            elif slot in numbers:
                both = both_prices(state, card) if show_prices else ()
                price, ok = both[state.to_move] if both else ("", True)
                cells.append(Cell(slot, x, "open", card, numbers[slot], price, ok, both))
            else:
                cells.append(Cell(slot, x, "covered", card))
        rows.append(cells)
    return rows


@dataclass(frozen=True)
class Offer:
    """A card the player to move can take: its number on the table and its price."""

    number: int
    card: int
    slot: int
    price: str
    ok: bool
    both: tuple[tuple[str, bool], ...] = ()


def card_offers(state: State) -> list[Offer]:
    """The accessible cards, as numbered, with their prices for the player to move."""
    out = []
    for i, slot in enumerate(numbered_slots(state), 1):
        card = state.pyramid[slot]
        both = both_prices(state, card)
        out.append(Offer(i, card, slot, *both[state.to_move], both))
    return out


@dataclass(frozen=True)
class WonderItem:
    """A wonder of a city: ``marker`` is ✓ (built) or W1, W2...; ``cost`` its price in coins
    for its owner as the board stands, shown for both players (the one not to move sees what
    the opponent would pay); None outside the play phase or when seven are built."""

    marker: str
    wonder: int
    built: bool
    cost: int | None = None
    ok: bool = True
    out: bool = False  # seven wonders are built: this one never will be

    @property
    def name(self) -> str:
        return shown(WONDERS[self.wonder].name)


@dataclass(frozen=True)
class CityView:
    """One player's city: coins, points, cards by colour, production, prices, science,
    tokens and wonders."""

    player: int
    coins: int
    points: int
    cards: tuple[tuple[str, tuple[int, ...]], ...]
    production: str
    prices: tuple[tuple[str, int], ...]
    science: tuple[str, ...]
    tokens: tuple[str, ...]
    wonders: tuple[WonderItem, ...]
    to_move: bool


def production_text(state: State, player: int) -> str:
    """What a city makes: ``1 wood, 2 clay, 1× glass/papyrus`` (or ``nothing``)."""
    prod = state.production(player)
    parts = [f"{n} {word(r)}" for r, n in prod.items()]
    raw, man = state.choice_production(player)
    if raw:
        parts.append(f"{raw}× " + "/".join(map(word, ("wood", "clay", "stone"))))
    if man:
        parts.append(f"{man}× " + "/".join(map(word, ("glass", "papyrus"))))
    return ", ".join(parts) or tr("nothing")


def science_symbols(state: State, player: int) -> tuple[str, ...]:
    """A city's science symbols, a symbol held twice (on two green cards) marked as a pair:
    ``("wheel", "quill (pair)")``.

    >>> from duel import new_game
    >>> science_symbols(new_game(), 0)
    ()
    """
    held = Counter(CARDS[c].science for c in state.city(player) if CARDS[c].science)
    return tuple(
        tr("{symbol} (pair)", symbol=word(s)) if held[s] >= 2 else word(s)
        for s in state.science(player)
    )


def city_view(state: State, player: int) -> CityView:
    """The view model of ``player``'s city."""
    city = state.city(player)
    cards = tuple(
        (color, tuple(c for c in city if CARDS[c].color == color))
        for color in COLORS
        if any(CARDS[c].color == color for c in city)
    )
    wonders = [WonderItem("✓", w, True) for w in state.built_wonders(player)]
    priced = state.phase == "play"  # both players: the opponent's prices matter too
    full = state.wonders_built_count >= 7
    for i, w in enumerate(state.wonders(player), 1):
        if full:
            wonders.append(WonderItem(f"W{i}", w, False, out=True))
        elif priced:
            cost = state.wonder_cost(player, w)
            wonders.append(WonderItem(f"W{i}", w, False, cost, cost <= state.coins(player)))
        else:
            wonders.append(WonderItem(f"W{i}", w, False))
    return CityView(
        player=player,
        coins=state.coins(player),
        points=state.score(player).total,
        cards=cards,
        production=production_text(state, player),
        prices=tuple(state.trade_prices(player).items()),
        science=science_symbols(state, player),
        tokens=tuple(shown(TOKENS[t].name) for t in state.tokens(player)),
        wonders=tuple(wonders),
        to_move=state.to_move == player and not state.is_chance() and not state.is_terminal(),
    )


#: Distinct science symbols that win the game at once.
SCIENCE_GOAL = 6
#: The pawn's distance from the middle that wins the game at once.
MILITARY_GOAL = 9
_LOOT_AT = {"A2": (1, 3, 2), "A5": (1, 6, 5), "B2": (0, 3, 2), "B5": (0, 6, 5)}


@dataclass(frozen=True)
class Distance:
    """How far a player is from the two immediate victories.

    ``symbols``: distinct science symbols held (``SCIENCE_GOAL`` wins); ``pairs``: symbols held
    twice (each gave a progress token); ``shields``: the pawn's steps still needed to reach the
    opponent's capital; ``loot``: (steps, coins) to the next looting token on the opponent's
    side, None when both are gone."""

    player: int
    symbols: int
    pairs: int
    shields: int
    loot: tuple[int, int] | None

    @property
    def science_left(self) -> int:
        return SCIENCE_GOAL - self.symbols


def distances(state: State, player: int) -> Distance:
    """``player``'s distance to a science and to a military victory.

    >>> from duel import new_game
    >>> distances(new_game(), 0)
    Distance(player=0, symbols=0, pairs=0, shields=9, loot=(3, 2))
    """
    held = Counter(CARDS[c].science for c in state.city(player) if CARDS[c].science)
    ahead = state.pawn if player == 0 else -state.pawn  # steps towards the opponent
    loot = [
        (at - ahead, coins)
        for name, (victim, at, coins) in _LOOT_AT.items()
        if victim != player and name in state.military_tokens and at > ahead
    ]
    return Distance(
        player,
        len(state.science(player)),
        sum(n >= 2 for n in held.values()),
        MILITARY_GOAL - ahead,
        min(loot) if loot else None,
    )


@dataclass(frozen=True)
class AgeCount:
    """The current Age's structure at a glance: cards still in it, and how many of them are
    face down, by back (``{"Age III": 4, "Guild": 2}``). A face-down card is only its back."""

    left: int
    face_down: tuple[tuple[str, int], ...]


def age_count(state: State) -> AgeCount:
    """Cards left in the Age and face-down cards by back.

    >>> from duel import new_game
    >>> age_count(new_game())
    AgeCount(left=0, face_down=())
    """
    if not state.age:
        return AgeCount(0, ())
    backs: Counter[str] = Counter()
    left = 0
    for slot, card in enumerate(state.pyramid):
        if card == TAKEN:
            continue
        left += 1
        if card == HIDDEN:
            guild = state.age == 3 and state.is_guild_slot(slot)
            backs["Guild" if guild else f"Age {'I' * state.age}"] += 1
    return AgeCount(left, tuple(backs.items()))
