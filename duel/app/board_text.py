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

from rich.text import Text

from duel.app import render as R
from duel.app.i18n import center, clip, display_name, display_width, rjust, shown, tr, trn, wrap
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
    return wrap(text, width) or [""]


def _prices_line(state: State, cell: Cell, width: int, tag: str = "") -> str:
    """Both players' prices (``A 2c  B 4c``) if they fit, else the mover's; ``tag`` (the
    colour-blind palette's colour name) on the left."""
    own = R.price_label(cell.price, cell.ok)
    left = f"{tag} " if tag else ""
    if cell.both:
        both = "  ".join(f"{PLAYER_NAMES[p]} {R.price_label(*cell.both[p])}" for p in (0, 1))
        if display_width(left + both) <= width:
            return left + rjust(both, width - display_width(left))
    return left + rjust(own, width - display_width(left))


def card_face(state: State, cell: Cell, width: int, height: int, tag: str = "") -> list[str]:
    """The lines of a pyramid place ``width`` by ``height``: the number and full name (wrapped
    when the cell is tall enough, shortened when not), the effect, and for a takeable card its
    price for both players. A face-down card shows only its
    back."""
    if cell.look == "taken":
        return []
    if cell.look in ("back", "guild_back"):
        back = tr("Guild") if cell.look == "guild_back" else R.age_name(state.age)
        fill = ("▚" if cell.look == "guild_back" else "░") * width
        return [center(back, width)] + [fill] * (height - 1)
    spec = CARDS[cell.card]
    name = display_name("card", spec.name)
    head = f"{cell.number} " if cell.look == "open" else ""
    price = [_prices_line(state, cell, width, tag)] if cell.look == "open" and cell.price else []
    room = height - len(price)
    if room <= 1 or display_width(head + name) <= width:
        names = [head + R._short(name, width - len(head))]
    else:
        names = _wrap(head + name, width)[: max(1, room - 1)]
    body = _wrap(R.card_effect(spec), width)
    lines = names + body[: max(0, room - len(names))]
    lines += [""] * (room - len(lines))
    lines = lines[:room] + price
    if tag and not price:  # a card not takeable: its colour on its last line
        lines[-1] = tag if len(lines) > 1 else f"{clip(lines[-1], width - len(tag) - 1, '')} {tag}"
    return lines


def card_detail(state: State, card: int) -> list[str]:
    """A face-up card in full: colour and Age, effect, cost, its price now for both players
    and the chains it takes part in. (Face-down cards have no detail: their backs say all.)"""
    spec = CARDS[card]
    lines = [
        tr(
            "{card}: {colour} card of {age}",
            card=display_name("card", spec.name),
            colour=R.color_word(spec.color),
            age=R.age_name(spec.age),
        ),
        tr("Gives: {effect}", effect=R.card_effect(spec)),
        tr("Costs: {cost}", cost=R.card_cost_text(spec)),
    ]
    if state.phase == "play":
        prices = []
        for player, (price, ok) in enumerate(both_prices(state, card)):
            coins = state.coins(player)
            label = R.price_label(price, ok)
            prices.append(tr("{player} {price} (has {coins})", player=PLAYER_NAMES[player],
                             price=label, coins=coins))
        lines.append(tr("Price now: {prices}", prices=", ".join(prices)))
    if spec.chain_from:
        lines.append(tr("Free through the chain {chain}", chain=R.chain_text(spec.chain_from)))
    if spec.chain_gives:
        lines.append(tr("Chains to a later card: {chain}", chain=R.chain_text(spec.chain_gives)))
    slots = [c for row in pyramid_rows(state) for c in row if c.card == card] if state.age else []
    if slots:
        lines.append(
            tr("Takeable now as number {n}", n=slots[0].number) if slots[0].look == "open"
            else tr("Covered: not takeable yet")
        )
    return lines


def distance_text(state: State, player: int) -> str:
    """``science 2/6, 1 pair · military 7 to win, 1 to loot 2`` for ``player``: symbols
    held of the six that win, pairs (each gave a token), the pawn's steps to the opponent's
    capital and to the next looting token."""
    d = distances(state, player)
    pairs = trn(d.pairs, ", {n} pair", ", {n} pairs") if d.pairs else ""
    loot = tr(", {n} to loot {coins}", n=d.loot[0], coins=d.loot[1]) if d.loot else ""
    return tr(
        "science {symbols}/6{pairs} · military {shields} to win{loot}",
        symbols=d.symbols,
        pairs=pairs,
        shields=d.shields,
        loot=loot,
    )


def tokens_text(state: State) -> str:
    """The progress tokens on the board, one a line with what each does."""
    names = state.board_tokens
    lines = [f"{shown(n)}: {tr(R.TOKEN_SHORT[n])}" for n in names]
    return "\n".join(lines) or tr("none left on the board")


def city_lines(state: State, player: int, kinds: tuple[str, str] | None = None) -> Text:
    """A city in a few lines, the most needed first: coins and points, what it makes and pays,
    science and military distance, wonders with their prices, tokens, cards by colour."""
    view = city_view(state, player)
    out = Text()
    style = R.PLAYER_STYLE[player]
    out.append(R.player_label(player, kinds), style=style + " reverse" * view.to_move)
    out.append(f"  {R._coins(view.coins)}", style="bold yellow")
    out.append("  " + tr("{n} VP", n=view.points), style="bold")
    if view.to_move:
        out.append("  " + tr("to move"), style=style)
    prices = " ".join(f"{R.RES_SHORT[r]}{p}" for r, p in view.prices)
    production = "-" if view.production == tr("nothing") else view.production
    makes = tr("makes {production} · buys {prices}", production=production, prices=prices)
    out.append("\n" + makes)
    out.append(f"\n{distance_text(state, player)}")
    if view.science:
        out.append(f" ({', '.join(view.science)})")
    wonders = Text("\n" + tr("wonders") + " ", style="dim")
    for i, item in enumerate(view.wonders):
        if i:
            wonders.append(", ")
        wonders.append(item.name.removeprefix("The "), style="bold green" if item.built else "")
        note = R._wonder_note(item)
        if note and not item.built:
            wonders.append(f" {note}", style="red" if R.UNAFFORDABLE in note else "yellow")
    out.append_text(wonders if view.wonders else Text("\n" + tr("wonders") + " -", style="dim"))
    if view.tokens:
        out.append("\n" + tr("tokens") + " " + ", ".join(view.tokens))
    for color, cards in view.cards:
        out.append(f"\n{R.color_word(color)} ", style=R.NAME_STYLE[color])
        out.append(", ".join(display_name("card", CARDS[c].name) for c in cards))
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
    tokens = ", ".join(f"-{t[1]} {t[0]}" for t in sorted(state.military_tokens)) or tr("none")
    track.append("  " + tr("loot left: {tokens}", tokens=tokens), style="dim")
    return track


def age_line(state: State) -> str:
    """``14 cards left in Age III, 5 face down: 3 Age III, 2 Guild``: the structure at a glance."""
    count = age_count(state)
    if not state.age:
        return tr("the wonder draft")
    backs = ", ".join(f"{n} {tr(back)}" for back, n in count.face_down)
    down = sum(n for _, n in count.face_down)
    hidden = tr(", {n} face down: {backs}", n=down, backs=backs) if down else ""
    return tr("{n} cards left in {age}{hidden}", n=count.left, age=R.age_name(state.age),
              hidden=hidden)
