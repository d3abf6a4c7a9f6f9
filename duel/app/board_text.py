"""Text for the full-screen board at any size: card faces fitted to a cell, the cities in a few
lines, the military track in one, the Age at a glance and a card's detail.

The full-screen app (:mod:`duel.app.fullscreen`) sizes its parts to the terminal and asks this
module for the words that fit; the words themselves (effects, prices, chains) are the line
mode's (:mod:`duel.app.render`) and the prices the view model's (:mod:`duel.app.view_model`),
so every view says the same thing.

>>> from duel import new_game
>>> import random
>>> state, rng = new_game(), random.Random(1)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng))
>>> cell = next(c for row in pyramid_rows(state) for c in row if c.look == "open")
>>> [len(line) <= 11 for line in card_face(state, cell, 11, 2)]
[True, True]
>>> age_line(state)
'20 cards left in Age I, 8 face down: 8 Age I'
"""

from __future__ import annotations

import textwrap

from rich.text import Text

from duel.app import render as R
from duel.app.view_model import (
    Cell,
    age_count,
    both_prices,
    city_view,
    distances,
    pyramid_rows,
)
from duel.catalog import CARDS
from duel.moves import PLAYER_NAMES
from duel.state import State

__all__ = [
    "age_line",
    "card_detail",
    "card_face",
    "city_lines",
    "distance_text",
    "military_line",
    "tokens_text",
]


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True) or [""]


def _prices_line(state: State, cell: Cell, width: int, tag: str = "") -> str:
    """Both players' prices (``A 2c  B 4c``) if they fit, else the mover's; ``tag`` (the
    colour-blind palette's colour name) on the left."""
    own = R.price_label(cell.price, cell.ok)
    left = f"{tag} " if tag else ""
    if cell.both:
        both = "  ".join(f"{PLAYER_NAMES[p]} {R.price_label(*cell.both[p])}" for p in (0, 1))
        if len(left + both) <= width:
            return left + both.rjust(width - len(left))
    return left + own.rjust(width - len(left))


def card_face(state: State, cell: Cell, width: int, height: int, tag: str = "") -> list[str]:
    """The lines of a pyramid place ``width`` by ``height``: the number and full name (wrapped
    when the cell is tall enough, shortened when not), the effect, and for a takeable card its
    price for both players. A face-down card shows only its
    back."""
    if cell.look == "taken":
        return []
    if cell.look in ("back", "guild_back"):
        back = "Guild" if cell.look == "guild_back" else R.age_name(state.age)
        fill = ("▚" if cell.look == "guild_back" else "░") * width
        return [back.center(width)] + [fill] * (height - 1)
    spec = CARDS[cell.card]
    head = f"{cell.number} " if cell.look == "open" else ""
    price = [_prices_line(state, cell, width, tag)] if cell.look == "open" and cell.price else []
    room = height - len(price)
    if room <= 1 or len(head + spec.name) <= width:
        names = [head + R._short(spec.name, width - len(head))]
    else:
        names = _wrap(head + spec.name, width)[: max(1, room - 1)]
    body = _wrap(R.card_effect(spec), width)
    lines = names + body[: max(0, room - len(names))]
    lines += [""] * (room - len(lines))
    lines = lines[:room] + price
    if tag and not price:  # a card not takeable: its colour on its last line
        lines[-1] = tag if len(lines) > 1 else f"{lines[-1][: width - len(tag) - 1]} {tag}"
    return lines


def card_detail(state: State, card: int) -> list[str]:
    """A face-up card in full: colour and Age, effect, cost, its price now for both players
    and the chains it takes part in. (Face-down cards have no detail: their backs say all.)"""
    spec = CARDS[card]
    lines = [
        f"{spec.name}: {spec.color} card of {R.age_name(spec.age)}",
        f"Gives: {R.card_effect(spec)}",
        f"Costs: {R.card_cost_text(spec)}",
    ]
    if state.phase == "play":
        prices = []
        for player, (price, ok) in enumerate(both_prices(state, card)):
            coins = state.coins(player)
            prices.append(f"{PLAYER_NAMES[player]} {R.price_label(price, ok)} (has {coins})")
        lines.append("Price now: " + ", ".join(prices))
    if spec.chain_from:
        lines.append(f"Free through the chain {R.chain_text(spec.chain_from)}")
    if spec.chain_gives:
        lines.append(f"Chains to a later card: {R.chain_text(spec.chain_gives)}")
    slots = [c for row in pyramid_rows(state) for c in row if c.card == card] if state.age else []
    if slots:
        lines.append(
            f"Takeable now as number {slots[0].number}" if slots[0].look == "open"
            else "Covered: not takeable yet"
        )
    return lines


def distance_text(state: State, player: int) -> str:
    """``science 2/6, 1 pair · military 7 to win, 1 to loot 2`` for ``player``: symbols
    held of the six that win, pairs (each gave a token), the pawn's steps to the opponent's
    capital and to the next looting token."""
    d = distances(state, player)
    pairs = f", {d.pairs} pair{'s' * (d.pairs != 1)}" if d.pairs else ""
    loot = f", {d.loot[0]} to loot {d.loot[1]}" if d.loot else ""
    return f"science {d.symbols}/6{pairs} · military {d.shields} to win{loot}"


def tokens_text(state: State) -> str:
    """The progress tokens on the board, one a line with what each does."""
    names = state.board_tokens
    return "\n".join(f"{n}: {R.TOKEN_SHORT[n]}" for n in names) or "none left on the board"


def city_lines(state: State, player: int, kinds: tuple[str, str] | None = None) -> Text:
    """A city in a few lines, the most needed first: coins and points, what it makes and pays,
    science and military distance, wonders with their prices, tokens, cards by colour."""
    view = city_view(state, player)
    out = Text()
    style = R.PLAYER_STYLE[player]
    out.append(R.player_label(player, kinds), style=style + " reverse" * view.to_move)
    out.append(f"  {R._coins(view.coins)}", style="bold yellow")
    out.append(f"  {view.points} VP", style="bold")
    if view.to_move:
        out.append("  to move", style=style)
    prices = " ".join(f"{R.RES_SHORT[r]}{p}" for r, p in view.prices)
    production = "-" if view.production == "nothing" else view.production
    out.append(f"\nmakes {production} · buys {prices}")
    out.append(f"\n{distance_text(state, player)}")
    if view.science:
        out.append(f" ({', '.join(view.science)})")
    wonders = Text("\nwonders ", style="dim")
    for i, item in enumerate(view.wonders):
        if i:
            wonders.append(", ")
        wonders.append(item.name.removeprefix("The "), style="bold green" if item.built else "")
        note = R._wonder_note(item)
        if note and not item.built:
            wonders.append(f" {note}", style="red" if R.UNAFFORDABLE in note else "yellow")
    out.append_text(wonders if view.wonders else Text("\nwonders -", style="dim"))
    if view.tokens:
        out.append(f"\ntokens {', '.join(view.tokens)}")
    for color, cards in view.cards:
        out.append(f"\n{color} ", style=R.NAME_STYLE[color])
        out.append(", ".join(CARDS[c].name for c in cards))
    return out


def military_line(state: State) -> Text:
    """The conflict track in one line: A's capital left, B's right, the pawn, and the looting
    tokens still on the board marked on their squares (``2``/``5`` in colour)."""
    track = Text("⚔ ")
    track.append("A♛", style=R.PLAYER_STYLE[0])
    loot = {}
    for name in state.military_tokens:
        first = {"A2": -5, "A5": -8, "B2": 3, "B5": 6}[name]
        for pos in range(first, first + 3):
            loot[pos] = name
    for pos in range(-8, 9):
        if pos == state.pawn:
            track.append("●", style="bold black on white")
        else:
            style = "bold yellow on rgb(70,50,0)" if pos in loot else "dim"
            track.append(str(abs(pos)), style=style)
        track.append(" " if pos < 8 else "")
    track.append("♛B", style=R.PLAYER_STYLE[1])
    tokens = ", ".join(f"-{t[1]} {t[0]}" for t in sorted(state.military_tokens)) or "none"
    track.append(f"  loot left: {tokens}", style="dim")
    return track


def age_line(state: State) -> str:
    """``14 cards left in Age III, 5 face down: 3 Age III, 2 Guild``: the structure at a glance."""
    count = age_count(state)
    if not state.age:
        return "the wonder draft"
    backs = ", ".join(f"{n} {back}" for back, n in count.face_down)
    down = sum(n for _, n in count.face_down)
    hidden = f", {down} face down: {backs}" if down else ""
    return f"{count.left} cards left in {R.age_name(state.age)}{hidden}"
