"""Drawing a 7 Wonders Duel table: rich renderables for the terminal and plain text for scripts.

Everything here reads a :class:`~duel.state.State` and draws it; nothing changes the game.

* :func:`render_table` - the whole table (pyramid, military track, progress tokens, both cities,
  what the player to move can do) as one rich renderable;
* :func:`plain_table` - the same information as plain lines (no colours, no box drawing), for
  ``--plain``, scripts and screen readers;
* :func:`print_state` - either of them on standard output (``duel show FILE``);
* :func:`choices` - the numbered options of a decision (shared with :mod:`duel.app.tui` so that the
  numbers on the screen are the numbers the player types);
* :func:`render_final` / :func:`plain_final` - victory type and score breakdown side by side;
* :func:`describe_transition` - what a move did, in words ("B loses 2 coins (looting token)").

>>> from duel import new_game
>>> lines = plain_table(new_game())
>>> lines[0]
'Setup: dealing the progress tokens (chance)'
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from duel.app.view_model import (  # noqa: F401 - part of this API
    WonderItem,
    card_offers,
    city_view,
    numbered_slots,
    price_text,
    production_text,
    pyramid_rows,
)
from duel.app.words import chain_symbol_name, plural
from duel.catalog import (
    AGE_NAMES,
    CARDS,
    RESOURCES,
    TOKENS,
    WONDERS,
    Card,
    Wonder,
    bits,
)
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.pyramid_layouts import LAYOUTS
from duel.quote import quoted
from duel.slots import slot_place
from duel.state import TAKEN, Score, State

#: Background style of a card of each colour (text drawn on top of it).
CARD_STYLE = {
    "brown": "bold white on rgb(125,72,32)",
    "grey": "bold black on rgb(170,170,170)",
    "blue": "bold white on rgb(30,80,190)",
    "green": "bold white on rgb(30,130,50)",
    "yellow": "bold black on rgb(230,190,40)",
    "red": "bold white on rgb(190,30,30)",
    "purple": "bold white on rgb(120,50,150)",
}
#: Foreground style of a card name in lists.
NAME_STYLE = {
    "brown": "rgb(190,120,60)",
    "grey": "rgb(170,170,170)",
    "blue": "rgb(90,140,255)",
    "green": "rgb(60,190,80)",
    "yellow": "rgb(235,200,50)",
    "red": "rgb(235,70,70)",
    "purple": "rgb(190,100,230)",
}
#: A face-up card still covered by others: the same colour, darker.
COVERED_STYLE = {
    "brown": "rgb(200,160,120) on rgb(70,40,18)",
    "grey": "rgb(220,220,220) on rgb(90,90,90)",
    "blue": "rgb(180,200,255) on rgb(20,45,105)",
    "green": "rgb(170,230,170) on rgb(18,70,28)",
    "yellow": "rgb(250,230,150) on rgb(120,100,20)",
    "red": "rgb(255,180,180) on rgb(105,18,18)",
    "purple": "rgb(230,190,250) on rgb(65,28,82)",
}
#: Okabe & Ito's colour-blind-safe hues, with lightness kept apart for the colours that look
#: alike under red-green colour blindness (brown, red, green); every card also carries a
#: three-letter tag for its colour (:data:`COLOR_TAG`), so hue is never the only clue.
COLORBLIND_CARD_STYLE = {
    "brown": "bold black on rgb(230,159,0)",
    "grey": "bold black on rgb(200,200,200)",
    "blue": "bold white on rgb(0,90,160)",
    "green": "bold black on rgb(0,190,140)",
    "yellow": "bold black on rgb(240,228,66)",
    "red": "bold white on rgb(150,40,0)",
    "purple": "bold black on rgb(204,121,167)",
}
COLORBLIND_NAME_STYLE = {
    "brown": "rgb(230,159,0)",
    "grey": "rgb(200,200,200)",
    "blue": "rgb(86,180,233)",
    "green": "rgb(0,190,140)",
    "yellow": "rgb(240,228,66)",
    "red": "rgb(213,94,0)",
    "purple": "rgb(204,121,167)",
}
COLORBLIND_COVERED_STYLE = {
    "brown": "rgb(250,210,140) on rgb(115,80,0)",
    "grey": "rgb(230,230,230) on rgb(95,95,95)",
    "blue": "rgb(190,220,255) on rgb(0,50,95)",
    "green": "rgb(200,255,230) on rgb(0,95,70)",
    "yellow": "rgb(255,250,190) on rgb(120,114,30)",
    "red": "rgb(255,200,170) on rgb(60,15,0)",
    "purple": "rgb(255,225,240) on rgb(110,60,90)",
}
#: Short colour tags, shown on every card in the colour-blind palette.
COLOR_TAG = {
    "brown": "RAW",
    "grey": "MAN",
    "blue": "CIV",
    "green": "SCI",
    "yellow": "COM",
    "red": "MIL",
    "purple": "GLD",
}
PALETTES = ("default", "colorblind")
PALETTE_ENV = "DUEL_PALETTE"
_DEFAULT_STYLES = None  # the default palette's styles, saved by set_palette
_palette = ["default"]


def set_palette(name: str | None = None) -> str:
    """Choose the colours: ``default`` or ``colorblind``; ``None`` reads ``$DUEL_PALETTE``.

    The style tables are updated in place, so every view picks the palette up. Returns the
    palette's name; an unknown name raises ``ValueError`` listing the palettes.

    >>> set_palette("colorblind"), CARD_STYLE["red"] != CARD_STYLE["brown"]
    ('colorblind', True)
    >>> set_palette("default")
    'default'
    """
    global _DEFAULT_STYLES
    if name is None:
        name = os.environ.get(PALETTE_ENV, "").strip().lower() or "default"
    if name not in PALETTES:
        raise ValueError(f"unknown palette {quoted(name)}: expected {' or '.join(PALETTES)}")
    tables = (CARD_STYLE, NAME_STYLE, COVERED_STYLE)
    if _DEFAULT_STYLES is None:
        _DEFAULT_STYLES = tuple(dict(table) for table in tables)
    chosen = (
        _DEFAULT_STYLES
        if name == "default"
        else (COLORBLIND_CARD_STYLE, COLORBLIND_NAME_STYLE, COLORBLIND_COVERED_STYLE)
    )
    for table, styles in zip(tables, chosen, strict=True):
        table.update(styles)
    _palette[0] = name
    return name


def palette() -> str:
    """The palette in use."""
    return _palette[0]


BACK_STYLE = {
    1: "rgb(150,110,60) on rgb(60,40,20)",
    2: "rgb(110,150,200) on rgb(20,40,70)",
    3: "rgb(190,130,200) on rgb(60,20,60)",
}
#: A face-down guild: guilds have their own back (bright purple, unlike the Age III back).
GUILD_BACK_STYLE = "bold rgb(255,225,110) on rgb(110,40,140)"
PLAYER_STYLE = ("bold cyan", "bold magenta")
COLOR_LABEL = {
    "brown": "raw",
    "grey": "manufactured",
    "blue": "civilian",
    "green": "science",
    "yellow": "commercial",
    "red": "military",
    "purple": "guild",
}
TOKEN_SHORT = {
    "Agriculture": "6 coins and 4 VP",
    "Architecture": "wonders cost 2 fewer resources",
    "Economy": "you get the coins your opponent pays for trading",
    "Law": "a science symbol, the scales",
    "Masonry": "blue cards cost 2 fewer resources",
    "Mathematics": "3 VP per progress token",
    "Philosophy": "7 VP",
    "Strategy": "+1 shield on each red card",
    "Theology": "every wonder gives Play Again",
    "Urbanism": "6 coins, then 4 coins per chain",
}
#: Even shorter, for the one-line list of tokens on the table.
TOKEN_TINY = {
    "Agriculture": "6c, 4 VP",
    "Architecture": "wonders -2 res.",
    "Economy": "rival's trade coins",
    "Law": "science symbol",
    "Masonry": "blue cards -2 res.",
    "Mathematics": "3 VP per token",
    "Philosophy": "7 VP",
    "Strategy": "+1 shield per red",
    "Theology": "wonders replay",
    "Urbanism": "6c, +4c per chain",
}
RES_SHORT = {"wood": "W", "clay": "C", "stone": "S", "glass": "G", "papyrus": "P"}
PHASE_TEXT = {
    "setup_tokens": "setup: dealing the progress tokens",
    "setup_wonders": "setup: revealing wonders for the draft",
    "draft": "wonder draft",
    "reveal": "turning cards face up",
    "play": "take a card",
    "choose_token": "choose a progress token (science pair)",
    "library_draw": "The Great Library draws 3 tokens",
    "library_choose": "The Great Library: choose a progress token",
    "destroy": "destroy a card of the opponent",
    "mausoleum": "The Mausoleum: build a discarded card",
    "choose_starter": "choose who begins this Age (its structure is laid out)",
    "game_over": "game over",
    "deal_guilds": "laying out: which 3 cards show the guild back",
}


# --- words for components -----------------------------------------------------------------------
def _need_text(need: tuple[int, ...]) -> str:
    parts = [f"{n} {RESOURCES[r]}" for r, n in enumerate(need) if n]
    return ", ".join(parts)


def _per_text(per: tuple[tuple[str, ...], int], unit: str) -> str:
    categories, each = per
    names = []
    for c in categories:
        if c == "wonder":
            names.append("wonder")
        elif c == "coins_div3":
            names.append("3 coins")
        else:
            names.append(f"{c} card")
    return f"{each} {unit} per {' or '.join(names)}"


def card_effect(card: Card) -> str:
    """A short description of what a card gives: "1 wood", "3 VP", "2 shields", "globe"..."""
    parts = []
    produced = [f"{n} {RESOURCES[r]}" for r, n in enumerate(card.produces) if n]
    if produced:
        parts.append(" + ".join(produced))
    if card.produce_choice:
        parts.append("one of " + "/".join(RESOURCES[r] for r in card.produce_choice))
    if card.trade_fixed:
        parts.append("/".join(RESOURCES[r] for r in card.trade_fixed) + " cost you 1 coin")
    if card.shields:
        parts.append(plural(card.shields, "shield"))
    if card.science:
        parts.append(f"science {card.science}")
    if card.points and not card.points_per_max:
        parts.append(f"{card.points} VP")
    if card.coins:
        parts.append(plural(card.coins, "coin"))
    if card.coins_per:
        parts.append(_per_text(card.coins_per, "coin") + " (yours)")
    if card.points_per_max:
        text = _per_text(card.points_per_max, "VP") + " (richer city)"
        if card.coins_per_max:
            text = text.replace(" VP", " VP and coin", 1)
        parts.append(text)
    elif card.coins_per_max:
        parts.append(_per_text(card.coins_per_max, "coin") + " (richer city)")
    if card.chain_gives:
        parts.append(f"chain: {chain_text(card.chain_gives)}")
    return ", ".join(parts) or "-"


def card_cost_text(card: Card) -> str:
    parts = []
    if card.coin_cost:
        parts.append(plural(card.coin_cost, "coin"))
    if any(card.need):
        parts.append(_need_text(card.need))
    text = ", ".join(parts) or "free"
    if card.chain_from:
        text += f" (free with {chain_text(card.chain_from)})"
    return text


def wonder_effect(wonder: Wonder) -> str:
    parts = []
    if wonder.extra_turn:
        parts.append("play again")
    if wonder.coins:
        parts.append(plural(wonder.coins, "coin"))
    if wonder.opponent_loses:
        parts.append(f"opponent loses {plural(wonder.opponent_loses, 'coin')}")
    if wonder.shields:
        parts.append(plural(wonder.shields, "shield"))
    if wonder.destroy:
        parts.append(f"destroy a {wonder.destroy} card")
    if wonder.produce_choice:
        parts.append("one of " + "/".join(RESOURCES[r] for r in wonder.produce_choice))
    if wonder.library:
        parts.append("a progress token from 3 of the box")
    if wonder.mausoleum:
        parts.append("build a discarded card")
    if wonder.points:
        parts.append(f"{wonder.points} VP")
    return ", ".join(parts)


def age_name(age: int) -> str:
    return AGE_NAMES.get(age, "Setup") if age else "Setup"


def player_label(player: int, kinds: tuple[str, str] | None = None) -> str:
    name = PLAYER_NAMES[player]
    return f"{name} ({kinds[player]})" if kinds else name


def _coins(n: int) -> str:
    return plural(n, "coin")


def chain_text(symbol: str) -> str:
    """A chain symbol by its display name and the two cards it links:
    ``water drop (Baths -> Aqueduct)``."""
    giver = next((c.name for c in CARDS if c.chain_gives == symbol), "?")
    taker = next((c.name for c in CARDS if c.chain_from == symbol), "?")
    return f"{chain_symbol_name(symbol)} ({giver} -> {taker})"


# --- numbering shared with the game loop --------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One numbered option of a decision: what the screen says and the move it makes."""

    label: str
    move: Move
    detail: str = ""


def choices(state: State) -> list[Choice]:
    """The numbered options of a decision other than taking a card (empty in the play phase)."""
    phase = state.phase
    player = state.to_move
    if phase == "draft":
        return [
            Choice(WONDERS[w].name, Move.pick_wonder(w), _wonder_detail(w))
            for w in state.wonder_offer
        ]
    if phase in ("choose_token", "library_choose"):
        pool = state.library_offer if phase == "library_choose" else state.board_token_ids
        return [
            Choice(TOKENS[t].name, Move.choose_token(t), TOKEN_SHORT[TOKENS[t].name]) for t in pool
        ]
    if phase in ("destroy", "mausoleum"):
        out = []
        for m in state.legal_moves():
            card = CARDS[m.card]
            out.append(Choice(card.name, m, f"{card.color}: {card_effect(card)}"))
        return out
    if phase == "choose_starter":
        age = age_name(state.age)
        return [
            Choice(name, Move.starter(p), f"{name} begins {age}" + (" (you)" * (player == p)))
            for p, name in enumerate(PLAYER_NAMES)
        ]
    return []


def laid_out_text(state: State) -> list[str]:
    """What the player choosing who begins sees (phase ``choose_starter``): the new structure's
    face-up cards, those that can be taken first, and in Age III where the guild backs are.
    Face-down cards stay unknown (they are dealt when uncovered)."""
    layout = LAYOUTS[state.age]
    pyramid, accessible = state.pyramid, set(state.accessible_slots)
    order = sorted(range(len(pyramid)), key=lambda s: (-layout.row_of[s], layout.x[s]))
    first = [CARDS[pyramid[s]].name for s in order if s in accessible and pyramid[s] >= 0]
    later = [CARDS[pyramid[s]].name for s in order if s not in accessible and pyramid[s] >= 0]
    lines = [
        f"{age_name(state.age)} is laid out. To take first: {', '.join(first)}; "
        f"also face up: {', '.join(later) or 'none'}."
    ]
    hidden = [s for s in range(len(pyramid)) if pyramid[s] < 0 and state.is_guild_slot(s)]
    if hidden:
        places = ", ".join("row {} card {}".format(*slot_place(state.age, s)) for s in hidden)
        lines.append(f"Face-down guilds (guild back) at {places}.")
    return lines


def _wonder_detail(w: int) -> str:
    return f"{wonder_effect(WONDERS[w])}; costs {_need_text(WONDERS[w].need)}"


def discard_gain(state: State, player: int) -> int:
    return 2 + state.count(player, "yellow")


#: The mark of a price the player cannot pay (in colour and in plain text alike).
UNAFFORDABLE = "✗"


def price_label(price: str, ok: bool, *, plain: bool = False) -> str:
    """``4c`` or ``4c ✗`` (plain text: ``4c, cannot afford``): the same words in the pyramid,
    the card list and the wonders."""
    if ok:
        return price
    return f"{price}, cannot afford" if plain else f"{price} {UNAFFORDABLE}"


# --- the pyramid --------------------------------------------------------------------------------
def _short(name: str, width: int) -> str:
    if len(name) <= width:
        return name
    for prefix in ("The ",):
        if name.startswith(prefix) and len(name) - len(prefix) <= width:
            return name[len(prefix) :]
    return name[: width - 1] + "."


def render_pyramid(state: State, width: int = 100) -> Text:
    """The current Age structure in its real shape: two text lines per row of cards."""
    age = state.age
    unit = max(5, min(8, (width - 2) // 12))
    cell = 2 * unit - 1
    tags = palette() == "colorblind"
    out = Text()
    for row in pyramid_rows(state):
        top, bottom = Text(), Text()
        column = 0
        for place in row:
            start = (place.x - 1) * unit
            for line in (top, bottom):
                line.append(" " * (start - column))
            column = start + cell
            if place.look == "taken":
                top.append(" " * cell)
                bottom.append(" " * cell)
            elif place.look == "guild_back":
                back = _short("Guild", cell - 2).center(cell - 2)
                top.append(" " + back + " ", style=GUILD_BACK_STYLE)
                bottom.append(("▚" * cell), style=GUILD_BACK_STYLE)
            elif place.look == "back":
                back = _short(age_name(age), cell - 2).center(cell - 2)
                top.append(" " + back + " ", style=BACK_STYLE[age])
                bottom.append(("░" * cell), style=BACK_STYLE[age])
            elif place.look == "open":
                card = CARDS[place.card]
                style = CARD_STYLE[card.color]
                label = f"{place.number} "
                top.append(label, style=style + " reverse")
                top.append(
                    _short(card.name, cell - len(label)).ljust(cell - len(label)), style=style
                )
                tail = price_label(place.price, place.ok)
                if tags:
                    tail = f"{COLOR_TAG[card.color]} {tail}" if tail else COLOR_TAG[card.color]
                bottom.append(tail.rjust(cell), style=style if place.ok else style + " strike")
            else:
                card = CARDS[place.card]
                dim = COVERED_STYLE[card.color]
                top.append(_short(card.name, cell).ljust(cell), style=dim)
                tag = COLOR_TAG[card.color] if tags else ""
                bottom.append(tag.ljust(cell), style=dim)
        out.append(top)
        out.append("\n")
        out.append(bottom)
        out.append("\n")
    out.rstrip()
    return out


_PLAIN_LOOK = {"taken": "(taken)", "back": "(face down)", "guild_back": "(face-down guild)"}


def plain_pyramid(state: State) -> list[str]:
    """The pyramid row by row, in words: face-down cards as '(face down)', or '(face-down
    guild)' for an Age III card with the guild back."""
    lines = []
    for r, row in enumerate(pyramid_rows(state), 1):
        items = []
        for place in row:
            if place.look in _PLAIN_LOOK:
                items.append(_PLAIN_LOOK[place.look])
            elif place.look == "open":
                items.append(f"[{place.number}] {CARDS[place.card].name}")
            else:
                items.append(f"{CARDS[place.card].name} (covered)")
        lines.append(f"  row {r}: " + ", ".join(items))
    return lines


# --- military track ------------------------------------------------------------------------------
_PLAYER_OF = {"A": 0, "B": 1}
_LOOT_ZONES = {"A5": (-8, -6, 5), "A2": (-5, -3, 2), "B2": (3, 5, 2), "B5": (6, 8, 5)}


def military_text(state: State) -> str:
    pawn = state.pawn
    if pawn == 0:
        where = "in the middle"
    else:
        towards = "B" if pawn > 0 else "A"
        where = f"{abs(pawn)} towards {towards}'s capital ({PLAYER_NAMES[pawn < 0]} leads)"
    tokens = ", ".join(
        f"{t} ({_LOOT_ZONES[t][2]} coins from {t[0]})" for t in state.military_tokens
    )
    return f"Military: pawn {where}; looting tokens left: {tokens or 'none'}"


def render_military(state: State) -> Text:
    """The conflict track: A's capital left, B's right, the pawn and looting tokens."""
    pawn = state.pawn
    track = Text("Military  ")
    track.append("A ", style=PLAYER_STYLE[0])
    track.append("◀", style=PLAYER_STYLE[0])
    zone_style = {0: "dim", 1: "", 2: "yellow", 3: "orange1"}
    for pos in range(-9, 10):
        d = abs(pos)
        zone = 0 if d == 0 else 1 if d <= 2 else 2 if d <= 5 else 3 if d <= 8 else 4
        label = f"{d:>2} "
        if pos == pawn:
            track.append(" ● ", style="bold black on white")
        elif d == 9:
            track.append(" ♛ ", style="bold")
        else:
            track.append(label, style=zone_style.get(zone, ""))
    track.append("▶", style=PLAYER_STYLE[1])
    track.append(" B", style=PLAYER_STYLE[1])
    loot = Text(" " * 13)
    column = 0
    owned = set(state.military_tokens)
    for name, (lo, hi, coins) in sorted(_LOOT_ZONES.items(), key=lambda kv: kv[1][0]):
        start = (lo + 9) * 3
        loot.append(" " * (start - column))
        width = (hi - lo + 1) * 3
        text = f"-{coins} {name[0]}" if name in owned else ""
        loot.append(text.center(width), style="bold yellow on rgb(70,50,0)" if text else "")
        column = start + width
    return Text.assemble(track, "\n", loot)


# --- cities ---------------------------------------------------------------------------------------
def prices_text(state: State, player: int) -> str:
    return " ".join(f"{RES_SHORT[r]}{p}" for r, p in state.trade_prices(player).items())


def _wonder_note(item: WonderItem, *, plain: bool = False) -> str:
    """What a wonder's line adds: ``built``, its price, ``out (7 built)`` or nothing."""
    if item.built:
        return "built"
    if item.out:
        return "out (7 built)"
    if item.cost is None:
        return ""
    return price_label(f"{item.cost}c", item.ok, plain=plain)


def render_city(state: State, player: int, kinds: tuple[str, str] | None = None) -> Panel:
    view = city_view(state, player)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for color, cards in view.cards:
        names = Text()
        for i, c in enumerate(cards):
            if i:
                names.append(", ")
            names.append(CARDS[c].name, style=NAME_STYLE[color])
        grid.add_row(Text(color, style=NAME_STYLE[color]), names)
    if not view.cards:
        grid.add_row("cards", "none yet")
    grid.add_row("makes", view.production)
    prices = " ".join(f"{RES_SHORT[r]}{p}" for r, p in view.prices)
    grid.add_row("buys", prices + "  (coins per unit)")
    grid.add_row("science", ", ".join(view.science) or "-")
    grid.add_row("tokens", ", ".join(view.tokens) or "-")
    wonders = Text()
    for i, item in enumerate(view.wonders):
        if i:
            wonders.append("\n")
        wonders.append(f"{item.marker} {item.name}", style="bold green" if item.built else "")
        note = _wonder_note(item)
        if note and not item.built:
            wonders.append(f"  {note}", style="red" if UNAFFORDABLE in note else "yellow")
    grid.add_row("wonders", wonders if wonders.plain else "-")
    title = Text.assemble(
        (f" {player_label(player, kinds)} ", PLAYER_STYLE[player]),
        (f" {_coins(view.coins)} ", "bold yellow"),
        (f" {view.points} VP ", "bold"),
    )
    return Panel(
        grid,
        title=title,
        title_align="left",
        border_style=PLAYER_STYLE[player] if view.to_move else "dim",
        box=box.ROUNDED,
    )


def plain_city(state: State, player: int, kinds: tuple[str, str] | None = None) -> list[str]:
    view = city_view(state, player)
    lines = [
        f"City of {player_label(player, kinds)}: {_coins(view.coins)}, "
        f"{view.points} VP so far"
    ]
    for color, cards in view.cards:
        lines.append(f"  {color}: {', '.join(CARDS[c].name for c in cards)}")
    if not view.cards:
        lines.append("  cards: none yet")
    lines.append(f"  makes: {view.production}")
    lines.append(f"  buys (coins per unit): {', '.join(f'{r} {p}' for r, p in view.prices)}")
    lines.append(f"  science: {', '.join(view.science) or 'none'}")
    lines.append(f"  progress tokens: {', '.join(view.tokens) or 'none'}")
    wonders = []
    for item in view.wonders:
        note = _wonder_note(item, plain=True)
        if item.built:
            wonders.append(f"{item.name} (built)")
        else:
            wonders.append(f"{item.marker} {item.name}" + (f" ({note})" if note else ""))
    lines.append(f"  wonders: {', '.join(wonders) or 'none'}")
    return lines


# --- the decision ---------------------------------------------------------------------------------
def _card_rows(state: State) -> list[tuple[int, int, str, bool]]:
    """(number, card, price, affordable) for each accessible card, as numbered."""
    return [(o.number, o.card, o.price, o.ok) for o in card_offers(state)]


def status_line(state: State) -> str:
    """ "Age II: take a card, B to move" """
    if state.is_terminal():
        return f"{age_name(state.age)}: {state.describe()}"
    who = "chance" if state.is_chance() else f"{PLAYER_NAMES[state.to_move]} to move"
    text = PHASE_TEXT[state.phase]
    if text.startswith("setup: "):
        text = text[7:]
    return f"{age_name(state.age)}: {text} ({who})"


def decision_title(state: State, kinds: tuple[str, str] | None = None) -> str:
    if state.is_terminal():
        return "Game over"
    if state.is_chance():
        return PHASE_TEXT[state.phase]
    return f"{player_label(state.to_move, kinds)}: {PHASE_TEXT[state.phase]}"


def render_decision(state: State, kinds: tuple[str, str] | None = None) -> RenderableType:
    title = Text(decision_title(state, kinds), style=PLAYER_STYLE[state.to_move])
    if state.is_chance() or state.is_terminal():
        return title
    if state.phase == "play":
        player = state.to_move
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
        table.add_column("#", justify="right", style="bold")
        table.add_column("card")
        table.add_column("gives")
        table.add_column("build", justify="right")
        for number, card, price, ok in _card_rows(state):
            spec = CARDS[card]
            name = Text(spec.name, style=NAME_STYLE[spec.color])
            if palette() == "colorblind":
                name.append(f" {COLOR_TAG[spec.color]}", style="dim")
            table.add_row(
                str(number),
                name,
                card_effect(spec),
                Text(price_label(price, ok), style="green" if ok else "red strike"),
            )
        gain = discard_gain(state, player)
        footer = Text(
            f"Type a number or a name, then build / discard (+{gain} coins) / wonder. Or 'help'.",
            style="dim",
        )
        return Group(title, table, footer)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right", style="bold")
    table.add_column("choice")
    table.add_column("")
    for i, choice in enumerate(choices(state), 1):
        table.add_row(str(i), choice.label, choice.detail)
    seen = [Text(line) for line in laid_out_text(state)] if state.phase == "choose_starter" else []
    return Group(title, *seen, table, Text("Type a number or a name. Or 'help'.", style="dim"))


def plain_decision(state: State, kinds: tuple[str, str] | None = None) -> list[str]:
    lines = [decision_title(state, kinds)]
    if state.is_chance() or state.is_terminal():
        return lines
    if state.phase == "play":
        player = state.to_move
        lines.append(
            f"Cards you can take ({_coins(state.coins(player))}; discarding gives "
            f"{discard_gain(state, player)}):"
        )
        for number, card, price, ok in _card_rows(state):
            spec = CARDS[card]
            cost = price_label(price, ok, plain=True)
            lines.append(
                f"  {number}. {spec.name} ({spec.color}): {card_effect(spec)}; build: {cost}"
            )
        return lines
    if state.phase == "choose_starter":
        lines += laid_out_text(state)
    for i, choice in enumerate(choices(state), 1):
        lines.append(f"  {i}. {choice.label}" + (f": {choice.detail}" if choice.detail else ""))
    return lines


# --- whole table ----------------------------------------------------------------------------------
def render_tokens(state: State) -> RenderableType:
    """The progress tokens still on the board, each with a few words on what it does."""
    names = state.board_tokens
    if not names:
        return Text("Progress tokens: none left on the board", style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    for _ in names:
        grid.add_column()  # wraps on narrow terminals
    grid.add_row(
        "Progress\ntokens",
        *[Text.assemble((name, "bold green"), "\n", (TOKEN_TINY[name], "dim")) for name in names],
    )
    return grid


def render_header(state: State, kinds: tuple[str, str] | None = None) -> Text:
    age = age_name(state.age)
    discard = len(state.discard_pile)
    return Text.assemble(
        (f" 7 Wonders Duel · {age} ", "bold reverse"),
        "  ",
        (status_line(state).split(": ", 1)[1], "bold"),
        (f"   discard pile: {discard} card{'s' * (discard != 1)}", "dim"),
    )


def render_table(
    state: State,
    kinds: tuple[str, str] | None = None,
    *,
    width: int = 100,
    decision: bool = True,
) -> RenderableType:
    """The whole table for the terminal: header, pyramid, military track, tokens, cities."""
    parts: list[RenderableType] = [render_header(state, kinds)]
    if state.age and any(card != TAKEN for card in state.pyramid):
        parts.append(Text(""))
        parts.append(render_pyramid(state, width))
    parts.append(Text(""))
    parts.append(render_military(state))
    parts.append(render_tokens(state))
    if state.phase in ("draft", "setup_wonders"):
        parts.append(_render_offer(state))
    cities = Table.grid(expand=True, padding=(0, 1))
    cities.add_column(ratio=1)
    cities.add_column(ratio=1)
    cities.add_row(render_city(state, 0, kinds), render_city(state, 1, kinds))
    parts.append(cities)
    if decision and not state.is_terminal():
        parts.append(render_decision(state, kinds))
    return Group(*parts)


def _render_offer(state: State) -> Text:
    text = Text("Wonders on offer: ", style="bold")
    for i, w in enumerate(state.wonder_offer):
        if i:
            text.append(" · ")
        text.append(WONDERS[w].name, style="bold")
    return text


def plain_table(
    state: State, kinds: tuple[str, str] | None = None, *, decision: bool = True
) -> list[str]:
    """The whole table as plain lines (no colours or drawing characters)."""
    lines = [status_line(state)]
    if state.age:
        lines.append("Pyramid (row 1 is the most covered; [n] = card you can take):")
        lines += plain_pyramid(state)
    lines.append(military_text(state))
    board = [f"{n} ({TOKEN_SHORT[n]})" for n in state.board_tokens]
    lines.append(f"Progress tokens on the board: {', '.join(board) or 'none'}")
    if state.wonder_offer:
        offer = ", ".join(WONDERS[w].name for w in state.wonder_offer)
        lines.append(f"Wonders on offer: {offer}")
    lines.append(f"Discard pile: {plural(len(state.discard_pile), 'card')}")
    lines += plain_city(state, 0, kinds)
    lines += plain_city(state, 1, kinds)
    if decision and not state.is_terminal():
        lines += plain_decision(state, kinds)
    return lines


def discard_lines(state: State) -> list[str]:
    pile = state.discard_pile
    if not pile:
        return ["The discard pile is empty."]
    lines = [f"Discard pile ({len(pile)} cards):"]
    for c in pile:
        spec = CARDS[c]
        lines.append(f"  {spec.name} ({spec.color}, {age_name(spec.age)}): {card_effect(spec)}")
    return lines


def render_discards(state: State) -> RenderableType:
    pile = state.discard_pile
    if not pile:
        return Text("The discard pile is empty.", style="dim")
    table = Table(
        title=f"Discard pile ({len(pile)} cards)", box=box.SIMPLE_HEAD, title_justify="left"
    )
    table.add_column("card")
    table.add_column("age")
    table.add_column("gives")
    table.add_column("cost")
    for c in pile:
        spec = CARDS[c]
        table.add_row(
            Text(spec.name, style=NAME_STYLE[spec.color]),
            age_name(spec.age),
            card_effect(spec),
            card_cost_text(spec),
        )
    return table


# --- end of the game ------------------------------------------------------------------------------
def victory_sentence(state: State) -> str:
    if state.is_shared_victory:
        return "Shared victory: same points and same civilian (blue) points."
    winner = PLAYER_NAMES[state.winner] if state.winner is not None else "?"
    loser = PLAYER_NAMES[1 - state.winner] if state.winner is not None else "?"
    if state.victory == "military":
        return f"{winner} wins by military supremacy: the pawn reached {loser}'s capital."
    if state.victory == "science":
        return f"{winner} wins by scientific supremacy: 6 different science symbols."
    a, b = state.score(0), state.score(1)
    if a.total == b.total:
        return f"{winner} wins the civilian victory on the tie-break (more blue points)."
    return (
        f"{winner} wins the civilian victory, {max(a.total, b.total)} to {min(a.total, b.total)}."
    )


def score_rows(state: State) -> list[tuple[str, int, int]]:
    a, b = state.score(0), state.score(1)
    rows = [(c, getattr(a, c), getattr(b, c)) for c in Score.CATEGORIES]
    rows.append(("total", a.total, b.total))
    return rows


_CATEGORY_LABEL = {
    "blue": "civilian (blue)",
    "green": "science (green)",
    "yellow": "commercial (yellow)",
    "purple": "guilds (purple)",
    "wonders": "wonders",
    "tokens": "progress tokens",
    "coins": "coins (1 per 3)",
    "military": "military",
    "total": "total",
}


def render_final(state: State, kinds: tuple[str, str] | None = None) -> RenderableType:
    table = Table(title="Score", box=box.ROUNDED, title_justify="left")
    table.add_column("")
    table.add_column(player_label(0, kinds), justify="right", style=PLAYER_STYLE[0])
    table.add_column(player_label(1, kinds), justify="right", style=PLAYER_STYLE[1])
    for category, a, b in score_rows(state):
        style = "bold" if category == "total" else ""
        if category == "total":
            table.add_section()
        table.add_row(_CATEGORY_LABEL[category], str(a), str(b), style=style)
    parts: list[RenderableType] = [
        Text(" Game over ", style="bold reverse"),
        Text(victory_sentence(state), style="bold green"),
    ]
    if state.victory != "civilian":
        parts.append(Text("(points as they stood when the game ended)", style="dim"))
    parts.append(table)
    return Group(*parts)


def plain_final(state: State, kinds: tuple[str, str] | None = None) -> list[str]:
    lines = ["Game over.", victory_sentence(state)]
    if state.victory != "civilian":
        lines.append("(points as they stood when the game ended)")
    head_a, head_b = player_label(0, kinds), player_label(1, kinds)
    width = max(len(head_a), len(head_b), 4)
    lines.append(f"{'Score':20} {head_a:>{width}} {head_b:>{width}}")
    for category, a, b in score_rows(state):
        lines.append(f"{_CATEGORY_LABEL[category]:20} {a:>{width}} {b:>{width}}")
    return lines


# --- what a move did ------------------------------------------------------------------------------
def describe_chance(move: Move) -> str:
    """A chance outcome as the dealer announces it: "Slot 9 revealed: Baths"."""
    kind = move.kind
    if kind is Kind.REVEAL_CARD:
        return f"Slot {move.slot} revealed: {CARDS[move.card].name}"
    if kind is Kind.REVEAL_WONDER:
        return f"Wonder revealed for the draft: {WONDERS[move.wonder].name}"
    if kind is Kind.REVEAL_TOKEN:
        return f"Progress token on the board: {TOKENS[move.token].name}"
    if kind is Kind.DEAL_GUILDS:
        return "Guild backs in Age III: " + guild_places(move)
    names = ", ".join(TOKENS[t].name for t in bits(move.token_mask))
    return f"The Great Library draws: {names}"


def guild_places(move: Move) -> str:
    """Where a guild deal puts the guilds: "row 2 card 1 (slot 2), ..."."""
    return ", ".join(
        "row {} card {} (slot {})".format(*slot_place(3, slot), slot) for slot in move.guild_slots
    )


def _payment(before: State, move: Move) -> tuple[int, int]:
    """(coins paid, of which trade) by the player to move for ``move``: the price the rules
    charge before the move (a chained card is free; the trade part goes to the opponent if
    they own Economy, else to the bank, as the card's own coin cost always does)."""
    player = before.to_move
    if move.kind is Kind.BUILD:
        if before.is_chained(player, move.card):
            return 0, 0
        paid = before.card_cost(player, move.card)
        return paid, paid - CARDS[move.card].coin_cost
    if move.kind is Kind.WONDER:
        paid = before.wonder_cost(player, move.wonder)
        return paid, paid
    return 0, 0


def _gain_source(before: State, move: Move) -> str:
    """Where the coins a move gains come from, for the log: ``from Tavern``."""
    kind = move.kind
    if kind is Kind.DISCARD:
        return "for the discard"
    if kind in (Kind.BUILD, Kind.MAUSOLEUM):
        if before.is_chained(before.to_move, move.card) and _owns(
            before, before.to_move, "Urbanism"
        ):
            return f"from {CARDS[move.card].name} and Urbanism (a chain)"
        return f"from {CARDS[move.card].name}"
    if kind is Kind.WONDER:
        return f"from {WONDERS[move.wonder].name}"
    if kind is Kind.TOKEN:
        return f"from {TOKENS[move.token].name}"
    return ""


def coin_flows(before: State, after: State, move: Move) -> list[str]:
    """The coins ``move`` moved, gross: what the player paid and to whom, what they got and
    from what, what the opponent got (Economy) or lost (looting, a wonder), with the totals.

    >>> import random
    >>> from duel import new_game
    >>> state, rng = new_game(), random.Random(1)
    >>> while state.phase != "play":
    ...     state = state.apply(state.random_move(rng))
    >>> discard = Move.discard(state.pyramid[state.accessible_slots[0]])
    >>> coin_flows(state, state.apply(discard), discard)
    ['A gets 2 coins for the discard, has 9']
    """
    if move.is_chance:
        return []
    player, other = before.to_move, 1 - before.to_move
    paid, trade = _payment(before, move)
    # Economy: the trade part of the price goes to the opponent instead of the bank.
    received = trade if _owns(before, other, "Economy") else 0
    out = []
    parts = []
    if paid:
        if not received:
            parts.append(f"pays {_coins(paid)} to the bank")
        elif received == paid:
            parts.append(f"pays {_coins(paid)} to {PLAYER_NAMES[other]} by Economy")
        else:
            parts.append(
                f"pays {_coins(paid)} ({paid - received} to the bank, {received} to "
                f"{PLAYER_NAMES[other]} by Economy)"
            )
    got = after.coins(player) - before.coins(player) + paid
    if got:
        source = _gain_source(before, move)
        parts.append(f"gets {_coins(got)}" + (f" {source}" if source else ""))
    if parts:
        out.append(f"{PLAYER_NAMES[player]} {' and '.join(parts)}, has {after.coins(player)}")
    lost = received - (after.coins(other) - before.coins(other))
    parts = []
    if received:
        parts.append(f"gets {_coins(received)} by Economy")
    if lost:
        looted = set(before.military_tokens) - set(after.military_tokens)
        why = (
            f"looting token {', '.join(sorted(looted))}"
            if looted
            else WONDERS[move.wonder].name
            if move.kind is Kind.WONDER
            else ""
        )
        parts.append(f"loses {_coins(lost)}" + (f" to {why}" if why else ""))
    if parts:
        out.append(f"{PLAYER_NAMES[other]} {' and '.join(parts)}, has {after.coins(other)}")
    return out


def _owns(state: State, player: int, token: str) -> bool:
    return any(TOKENS[t].name == token for t in state.tokens(player))


def describe_transition(before: State, after: State, move: Move) -> list[str]:
    """What happened because of ``move`` (besides the move itself), in short sentences."""
    if move.is_chance:
        return []
    player = before.to_move
    me, other = PLAYER_NAMES[player], PLAYER_NAMES[1 - player]
    out = coin_flows(before, after, move)
    for token in sorted(set(before.military_tokens) - set(after.military_tokens)):
        if before.coins(_PLAYER_OF[token[0]]) == 0:  # coin_flows said nothing: none to lose
            out.append(f"looting token {token} taken: {token[0]} had no coins to lose")
    if after.pawn != before.pawn:
        pawn = after.pawn
        where = (
            "the middle"
            if pawn == 0
            else (f"{abs(pawn)} towards {'B' if pawn > 0 else 'A'}'s capital")
        )
        out.append(f"the conflict pawn moves to {where}")
    if after.phase == "choose_token" and before.phase != "choose_token":
        out.append(f"{me} has a pair of science symbols and chooses a progress token")
    if after.age != before.age and before.age and not after.is_terminal():
        # the next structure is laid out (dealt next), then the chooser decides who begins it
        out.append(
            f"{age_name(before.age)} is over; {age_name(after.age)} is laid out, then "
            f"{PLAYER_NAMES[after.to_move]} chooses who begins it"
        )
    if (
        move.kind is Kind.WONDER
        and after.phase in ("play", "reveal")
        and after.to_move == player
        and after.age == before.age
    ):
        out.append(f"{me} plays again")
    if move.kind is Kind.STARTER:
        out.append(f"{age_name(after.age)} begins; {PLAYER_NAMES[move.player]} starts")
    del other
    return out


# --- printing -------------------------------------------------------------------------------------
def make_console(plain: bool = False, **kwargs) -> Console:
    if plain:
        return Console(color_system=None, highlight=False, emoji=False, **kwargs)
    return Console(highlight=False, emoji=False, **kwargs)


def print_state(state: State, *, plain: bool | None = None) -> None:
    """Print a position readably (``duel show FILE``); ``plain`` for text without colours.

    ``None`` chooses: the drawn table on a terminal, plain text (full card names, nothing cut to
    fit a drawing) when the output goes to a pipe or a file."""
    if plain is None:
        plain = not make_console().is_terminal
    if plain:
        lines = plain_final(state) if state.is_terminal() else []
        print("\n".join(plain_table(state) + lines))
        return
    console = make_console()
    console.print(render_table(state, width=min(console.width, 100)))
    if state.is_terminal():
        console.print(render_final(state))


__all__ = [
    "Choice",
    "chain_text",
    "price_label",
    "set_palette",
    "card_effect",
    "choices",
    "describe_chance",
    "describe_transition",
    "numbered_slots",
    "plain_final",
    "plain_table",
    "print_state",
    "render_final",
    "render_table",
]
