"""Text for the full-screen board at any size: card faces fitted to a cell, the cities in a few
lines, the military track in one, the Age at a glance and a card's detail.

The full-screen app (:mod:`duel.app.screen.app`) sizes its parts to the terminal and asks this
module for the words that fit; the words themselves (effects, prices, chains) are the line
mode's (:mod:`duel.app.text.render`) and the prices the view model's
(:mod:`duel.app.text.view_model`), so every view says the same thing.

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

from duel.app.i18n import (
    center,
    clip,
    display_name,
    display_width,
    ljust,
    rjust,
    shown,
    tr,
    trn,
    wrap,
)
from duel.app.text import moves as M
from duel.app.text import render as R
from duel.app.text.view_model import (
    Cell,
    age_count,
    both_prices,
    city_view,
    distances,
    pyramid_rows,
)
from duel.catalog import CARDS, TOKENS, WONDERS
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.state import State

__all__ = [
    "age_line",
    "age_line_short",
    "card_detail",
    "card_face",
    "city_lines",
    "distance_text",
    "fit_lines",
    "last_move_text",
    "military_line",
    "tokens_text",
]


def _wrap(text: str, width: int) -> list[str]:
    return wrap(text, width) or [""]


def _wrap_words(text: str, width: int) -> list[str]:
    """Lines of whole words (a word longer than the line is shortened with a dot, never
    split: ``Fortificat.``, not ``Fortificati`` / ``ons``).

    >>> _wrap_words("5 Fortifications", 11)
    ['5', 'Fortificat.']
    """
    if not text.isascii():
        return _wrap(text, width)
    import textwrap

    return [clip(line, width) for line in textwrap.wrap(text, width, break_long_words=False)]


def _compact_price(price: str, ok: bool) -> str:
    """``0``, ``3``, ``ch`` (a chain) and ``✗`` when the player cannot pay: ``A0 B3✗``."""
    if price == tr("free"):
        text = "0"
    elif price == tr("chain"):
        text = "ch"
    else:
        text = price.removesuffix("c")
    return text + ("" if ok else R.UNAFFORDABLE)


def price_forms(cell: Cell) -> list[str]:
    """Both players' prices, from the widest form to the narrowest."""
    if not cell.both:
        return [R.price_label(cell.price, cell.ok)]
    long = [f"{PLAYER_NAMES[p]} {R.price_label(*cell.both[p])}" for p in (0, 1)]
    short = [
        f"{PLAYER_NAMES[p]}{R.price_label(*cell.both[p]).replace(' ', '')}" for p in (0, 1)
    ]
    tiny = [f"{PLAYER_NAMES[p]}{_compact_price(*cell.both[p])}" for p in (0, 1)]
    return ["  ".join(long), " ".join(long), " ".join(short), " ".join(tiny)]


def prices_text(cell: Cell, width: int) -> str:
    """Both players' prices in the widest form that fits ``width``: ``A free  B 5c ✗``,
    ``A free B 5c ✗``, ``Afree B5c✗``, then ``A0 B5✗``; never one player's alone (what the
    opponent would pay matters too, most of all when the mover's is free).

    >>> cell = Cell(0, 0, "open", 1, 1, "free", True, (("free", True), ("5c", False)))
    >>> [prices_text(cell, w) for w in (20, 13, 11, 6)]
    ['A free  B 5c ✗', 'A free B 5c ✗', 'Afree B5c✗', 'A0 B5✗']
    """
    forms = price_forms(cell)
    return next((f for f in forms if display_width(f) <= width), forms[-1])


def _prices_line(state: State, cell: Cell, width: int, tag: str = "") -> str:
    """Both players' prices (:func:`prices_text`), right-aligned; ``tag`` (the colour-blind
    palette's colour name) on the left, the prices made narrower for it if need be."""
    if tag:
        for form in price_forms(cell):
            if display_width(f"{tag} {form}") <= width:
                return f"{tag} " + rjust(form, width - display_width(tag) - 1)
    both = prices_text(cell, width)
    return rjust(clip(both, width, ""), width)


def _effect_lines(spec, width: int, lines: int) -> list[str]:
    """The effect in full if it fits in ``lines`` lines of ``width`` without cutting a word
    (``one of glass/papyrus`` is never ``one of glas``), else compactly."""
    effect = R.card_effect(spec)
    full = _wrap_words(effect, width)
    whole = all(display_width(w) <= width for w in effect.split())
    if whole and len(full) <= lines:
        return full
    compact = R.compact_effect(spec)
    return _wrap(compact, width)[: max(1, lines)] if lines else []


def card_face(state: State, cell: Cell, width: int, height: int, tag: str = "") -> list[str]:
    """The lines of a pyramid place ``width`` by ``height``: the number and full name (wrapped
    when the cell is tall enough, shortened when not), the effect (in full where it fits, else
    compactly: ``3VP``, ``2⚔``, ``+4c``), and for a takeable card both players' prices. A
    face-down card shows only its back. On one or two lines the compact effect shares the
    name's line, so a takeable card always says what it gives and what it costs."""
    if cell.look == "taken":
        return []
    if cell.look in ("back", "guild_back"):
        back = tr("Guild") if cell.look == "guild_back" else M.age_name(state.age)
        fill = ("▚" if cell.look == "guild_back" else "░") * width
        return [center(back, width)] + [fill] * (height - 1)
    spec = CARDS[cell.face]
    name = display_name("card", spec.name)
    head = f"{cell.number} " if cell.look == "open" else ""
    price = [_prices_line(state, cell, width, tag)] if cell.look == "open" and cell.price else []
    room = height - len(price)
    if room <= 1:  # one line for the name and what the card gives
        effect = R.compact_effect(spec)
        rest = width - display_width(head) - display_width(effect) - 1
        if rest >= 3:
            lines = [head + ljust(R._short(name, rest), rest) + " " + effect]
        else:
            lines = [head + R._short(name, width - len(head))]
        return (lines + price)[-height:] if room < 1 else lines + price
    if display_width(head + name) <= width:
        names = [head + name]
    else:
        wrapped = _wrap_words(head + name, width)
        too_long = any(display_width(w) > width for w in (head + name).split())
        alone = wrapped[0] == head.strip()  # the number on a line of its own
        if too_long or alone or len(wrapped) > room - 1:  # one line, shortened
            wrapped = [head + R._short(name, width - len(head))]
        names = wrapped
    body = _effect_lines(spec, width, room - len(names))
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
            age=M.age_name(spec.age),
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
    science and military distance, its cards by colour, wonders with their prices, tokens."""
    view = city_view(state, player)
    out = Text()
    style = R.PLAYER_STYLE[player]
    out.append(R.player_label(player, kinds), style=style + " reverse" * view.to_move)
    out.append(f"  {M.coins_text(view.coins)}", style="bold yellow")
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
    for color, cards in view.cards:  # the city itself first: what was built, by colour
        out.append(f"\n{R.color_word(color)} ", style=R.NAME_STYLE[color])
        out.append(", ".join(display_name("card", CARDS[c].name) for c in cards))
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
    return trn(count.left, "{n} card left in {age}{hidden}", "{n} cards left in {age}{hidden}",
               age=M.age_name(state.age), hidden=hidden)


def age_line_short(state: State) -> str:
    """``14 left, 5 face down``: :func:`age_line` for a narrow header."""
    count = age_count(state)
    down = sum(n for _, n in count.face_down)
    left = trn(count.left, "{n} card left", "{n} cards left")
    return left + (tr(", {n} face down", n=down) if down else "")


def _decision_parts(before: State, after: State, move: Move) -> list[str]:
    """A decision in a few words: who and what, the coins each player gained or paid, the
    looting, the pawn, the token taken and an extra turn."""
    who = PLAYER_NAMES[before.to_move]
    parts = [f"{who} {move}"]
    for p in (0, 1):
        delta = after.coins(p) - before.coins(p)
        if delta:
            parts.append(tr("{player} {delta}c, has {coins}", player=PLAYER_NAMES[p],
                            delta=f"{delta:+d}", coins=after.coins(p)))
    for token in sorted(set(before.military_tokens) - set(after.military_tokens)):
        parts.append(tr("looting {token}", token=f"{token[0]}-{token[1]}"))
    if after.pawn != before.pawn:
        parts.append(tr("pawn {where}", where=R.pawn_where(after)))
    for p in (0, 1):
        for t in sorted(set(after.tokens(p)) - set(before.tokens(p))):
            parts.append(tr("{player} takes {token}", player=PLAYER_NAMES[p],
                            token=display_name("token", TOKENS[t].name)))
    if (
        move.kind is Kind.WONDER
        and not after.is_terminal()
        and after.to_move == before.to_move
        and after.age == before.age
        and after.phase in ("play", "reveal")
    ):
        parts.append(tr("{player} plays again", player=who))
    return parts


def _chance_parts(run: list[Move], after: State) -> list[str]:
    """A run of chance events in a few words (a Great Library draw stays unnamed: its tokens
    are for the drawer's eyes in the dialog)."""
    kind = run[0].kind
    if kind is Kind.REVEAL_CARD:
        names = ", ".join(display_name("card", CARDS[m.card].name) for m in run)
        if len(run) > 2:
            return [tr("{age} dealt, face up: {names}", age=M.age_name(after.age), names=names)]
        return [tr("revealed {names}", names=names)]
    if kind is Kind.DEAL_GUILDS:
        return [tr("guild backs dealt")]
    if kind is Kind.REVEAL_TOKEN:
        names = ", ".join(display_name("token", TOKENS[m.token].name) for m in run)
        return [tr("tokens on the board: {names}", names=names)]
    if kind is Kind.REVEAL_WONDER:
        names = ", ".join(display_name("wonder", WONDERS[m.wonder].name) for m in run)
        return [tr("wonders dealt: {names}", names=names)]
    return [tr("The Great Library draws 3 tokens")]


def last_move_text(states: list[State], moves: list[Move], width: int) -> Text:
    """The moves since the player to move last decided, on one line of ``width``: who did what,
    the coins, the looting, the pawn, the token taken, what was revealed, the Age laid out
    and who begins it. The newest are kept when it is too long (``…`` stands for the rest)."""
    if not moves:
        return Text(tr("No move yet."), style="dim")
    now = states[-1]
    start = len(moves) - 1
    # Back to the last decision of the player to move now (theirs is known to them), keeping
    # at least one decision and at most six moves of the others.
    decisions = 0
    i = len(moves) - 1
    while i >= 0:
        move, before = moves[i], states[i]
        if not move.is_chance:
            if decisions and (before.to_move == now.to_move or len(moves) - i > 12):
                break
            decisions += 1
        start = i
        i -= 1
    segments: list[str] = []
    run: list[Move] = []
    for k in range(start, len(moves)):
        move = moves[k]
        if move.is_chance:
            if run and run[0].kind is not move.kind:
                segments += _chance_parts(run, states[k])
                run = []
            run.append(move)
            continue
        if run:
            segments += _chance_parts(run, states[k])
            run = []
        parts = _decision_parts(states[k], states[k + 1], move)
        segments.append(parts[0] + (" (" + ", ".join(parts[1:]) + ")" if parts[1:] else ""))
    if run:
        segments += _chance_parts(run, states[-1])
    label = tr("Last:") + " "
    text = " · ".join(segments)
    room = width - display_width(label)
    while display_width(text) > room and len(segments) > 1:
        segments = segments[1:]
        text = "… " + " · ".join(segments)
    out = Text(label, style="bold")
    out.append(clip(text, room, "…"))
    return out


def fit_lines(text: Text, width: int, rows: int) -> Text:
    """``text`` wrapped to ``width`` in at most ``rows`` lines; when it needs more, the last
    line says how many were left out (``+3 more lines``), so a city is never
    cut without a mark.

    >>> print(fit_lines(Text("a\\nb\\nc\\nd"), 20, 3).plain)
    a
    b
    +2 more lines
    """
    from rich.console import Console

    if rows <= 0:
        return Text()
    lines = text.wrap(Console(width=max(1, width)), max(1, width))
    if len(lines) <= rows:
        return text
    kept = list(lines)[: rows - 1]
    out = Text("\n").join(kept)
    hidden = len(lines) - len(kept)
    more = trn(hidden, "+{n} more line", "+{n} more lines")
    out.append(("\n" if kept else "") + more, style="dim italic")
    return out
