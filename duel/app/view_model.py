"""The view model of the table: what every view of ``duel play`` draws, as plain data.

The line mode (:mod:`duel.app.render`, in colour or plain text) and the full-screen app
(:mod:`duel.app.fullscreen`) draw the same model, so a price, a number or a face-down guild reads
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

from duel.catalog import CARDS, COLORS, TOKENS, WONDERS
from duel.pyramid_layouts import LAYOUTS
from duel.state import HIDDEN, TAKEN, State

__all__ = [
    "Cell",
    "CityView",
    "Offer",
    "WonderItem",
    "card_offers",
    "city_view",
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
        return "chain", True
    cost = state.card_cost(player, card)
    return ("free" if cost == 0 else f"{cost}c"), cost <= state.coins(player)


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
                price, ok = price_text(state, state.to_move, card) if show_prices else ("", True)
                cells.append(Cell(slot, x, "open", card, numbers[slot], price, ok))
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


def card_offers(state: State) -> list[Offer]:
    """The accessible cards, as numbered, with their prices for the player to move."""
    out = []
    for i, slot in enumerate(numbered_slots(state), 1):
        card = state.pyramid[slot]
        price, ok = price_text(state, state.to_move, card)
        out.append(Offer(i, card, slot, price, ok))
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
        return WONDERS[self.wonder].name


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
    parts = [f"{n} {r}" for r, n in prod.items()]
    raw, man = state.choice_production(player)
    if raw:
        parts.append(f"{raw}× wood/clay/stone")
    if man:
        parts.append(f"{man}× glass/papyrus")
    return ", ".join(parts) or "nothing"


def science_symbols(state: State, player: int) -> tuple[str, ...]:
    """A city's science symbols, a symbol held twice (on two green cards) marked as a pair:
    ``("wheel", "quill (pair)")``.

    >>> from duel import new_game
    >>> science_symbols(new_game(), 0)
    ()
    """
    held = Counter(CARDS[c].science for c in state.city(player) if CARDS[c].science)
    return tuple(f"{s} (pair)" if held[s] >= 2 else s for s in state.science(player))


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
        tokens=tuple(TOKENS[t].name for t in state.tokens(player)),
        wonders=tuple(wonders),
        to_move=state.to_move == player and not state.is_chance() and not state.is_terminal(),
    )
