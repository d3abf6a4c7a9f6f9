"""Drawing a 7 Wonders Duel table: rich renderables for the terminal and plain text for scripts.

Everything here reads a :class:`~duel.state.State` and draws it; nothing changes the game.

* :func:`render_table` - the whole table (pyramid, military track, progress tokens, both cities,
  what the player to move can do) as one rich renderable;
* :func:`plain_table` - the same information as plain lines (no colours, no box drawing), for
  ``--plain``, scripts and screen readers;
* :func:`print_state` - either of them on standard output (``duel show FILE``);
* :func:`choices` - the numbered options of a decision (shared with :mod:`duel.app.line.play`
  so that the numbers on the screen are the numbers the player types);
* :func:`render_final` / :func:`plain_final` - victory type and score breakdown side by side;

What a move did, in words, is :mod:`duel.app.text.moves` (no rich: the game's control says it
too).

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

from duel.app.i18n import N_, center, clip, display_width, language, ljust, rjust, shown, tr
from duel.app.text.moves import (
    PHASE_TEXT,
    age_name,
    coins_text,
    describe_chance,
    describe_transition,
    discard_gain,
    row_card,
)
from duel.app.text.view_model import (  # noqa: F401 - part of this API
    WonderItem,
    card_offers,
    city_view,
    numbered_slots,
    price_text,
    production_text,
    pyramid_rows,
)
from duel.app.text.words import chain_symbol_name, plural, word
from duel.catalog import (
    CARDS,
    RESOURCES,
    TOKENS,
    WONDERS,
    Card,
    Wonder,
)
from duel.moves import PLAYER_NAMES, Move
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
    "brown": N_("raw"),
    "grey": N_("manufactured"),
    "blue": N_("civilian"),
    "green": N_("science"),
    "yellow": N_("commercial"),
    "red": N_("military"),
    "purple": N_("guild"),
}
#: The colours' names as said in the card lists ("Baths (blue)").
COLOR_WORD = {
    "brown": N_("brown"),
    "grey": N_("grey"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "red": N_("red"),
    "purple": N_("purple"),
}


def color_word(color: str) -> str:
    """A card colour in the current language (``brown`` in English)."""
    return tr(COLOR_WORD.get(color, color))


TOKEN_SHORT = {
    "Agriculture": N_("6 coins and 4 VP"),
    "Architecture": N_("wonders cost 2 fewer resources"),
    "Economy": N_("you get the coins your opponent pays for trading"),
    "Law": N_("a science symbol, the scales"),
    "Masonry": N_("blue cards cost 2 fewer resources"),
    "Mathematics": N_("3 VP per progress token"),
    "Philosophy": N_("7 VP"),
    "Strategy": N_("+1 shield on each red card"),
    "Theology": N_("every wonder gives Play Again"),
    "Urbanism": N_("6 coins, then 4 coins per chain"),
}
#: Even shorter, for the one-line list of tokens on the table.
TOKEN_TINY = {
    "Agriculture": N_("6c, 4 VP"),
    "Architecture": N_("wonders -2 res."),
    "Economy": N_("rival's trade coins"),
    "Law": N_("science symbol"),
    "Masonry": N_("blue cards -2 res."),
    "Mathematics": N_("3 VP per token"),
    "Philosophy": N_("7 VP"),
    "Strategy": N_("+1 shield per red"),
    "Theology": N_("wonders replay"),
    "Urbanism": N_("6c, +4c per chain"),
}
RES_SHORT = {"wood": "W", "clay": "C", "stone": "S", "glass": "G", "papyrus": "P"}


# --- words for components -----------------------------------------------------------------------
def _need_text(need: tuple[int, ...]) -> str:
    parts = [f"{n} {word(RESOURCES[r])}" for r, n in enumerate(need) if n]
    return ", ".join(parts)


def _per_text(per: tuple[tuple[str, ...], int], unit: str) -> str:
    categories, each = per
    names = []
    for c in categories:
        if c == "wonder":
            names.append(tr("wonder"))
        elif c == "coins_div3":
            names.append(tr("3 coins"))
        else:
            names.append(tr("{color} card", color=color_word(c)))
    units = {
        "coin": N_("{n} coin per {what}"),
        "VP": N_("{n} VP per {what}"),
        "VP and coin": N_("{n} VP and coin per {what}"),
    }
    return tr(units[unit], n=each, what=tr(" or ").join(names))


def card_effect(card: Card) -> str:
    """A short description of what a card gives: "1 wood", "3 VP", "2 shields", "globe"..."""
    parts = []
    produced = [f"{n} {word(RESOURCES[r])}" for r, n in enumerate(card.produces) if n]
    if produced:
        parts.append(" + ".join(produced))
    if card.produce_choice:
        parts.append(
            tr(
                "one of {options}",
                options="/".join(word(RESOURCES[r]) for r in card.produce_choice),
            )
        )
    if card.trade_fixed:
        parts.append(
            tr(
                "{resources} bought for 1 coin",
                resources="/".join(word(RESOURCES[r]) for r in card.trade_fixed),
            )
        )
    if card.shields:
        parts.append(plural(card.shields, "shield"))
    if card.science:
        parts.append(tr("science {symbol}", symbol=word(card.science)))
    if card.points and not card.points_per_max:
        parts.append(tr("{n} VP", n=card.points))
    if card.coins:
        parts.append(plural(card.coins, "coin"))
    if card.coins_per:
        parts.append(tr("{rule} (yours)", rule=_per_text(card.coins_per, "coin")))
    if card.points_per_max:
        unit = "VP and coin" if card.coins_per_max else "VP"
        parts.append(tr("{rule} (richer city)", rule=_per_text(card.points_per_max, unit)))
    elif card.coins_per_max:
        parts.append(tr("{rule} (richer city)", rule=_per_text(card.coins_per_max, "coin")))
    if card.chain_gives:
        parts.append(tr("chain: {chain}", chain=chain_text(card.chain_gives)))
    return ", ".join(parts) or "-"


def _per_compact(per: tuple[tuple[str, ...], int], unit: str) -> str:
    categories, each = per
    what = "/".join(
        tr("wonder") if c == "wonder" else tr("3c") if c == "coins_div3" else color_word(c)
        for c in categories
    )
    return f"{each}{unit}/{what}"


def compact_effect(card: Card) -> str:
    """What a card gives in a few characters, as BGA's icons on the card say it: ``3VP``,
    ``2⚔``, ``+4c``, ``SS`` (two stone), ``W/C/S`` (one of them), ``S=1c`` (stone at 1 coin),
    the science symbol's name, ``→`` when it starts a chain.

    >>> from duel.catalog import CARDS
    >>> [compact_effect(c) for c in CARDS if c.name in ("Baths", "Tavern", "Quarry", "Garrison")]
    ['S', '1⚔→', '3VP→', '+4c→']
    """
    parts = []
    produced = "".join(RES_SHORT[RESOURCES[r]] * n for r, n in enumerate(card.produces) if n)
    if produced:
        parts.append(produced)
    if card.produce_choice:
        parts.append("/".join(RES_SHORT[RESOURCES[r]] for r in card.produce_choice))
    if card.trade_fixed:
        parts.append("/".join(RES_SHORT[RESOURCES[r]] for r in card.trade_fixed) + "=1c")
    if card.shields:
        parts.append(f"{card.shields}⚔")
    if card.science:
        parts.append(word(card.science))
    if card.points and not card.points_per_max:
        parts.append(tr("{n}VP", n=card.points))
    if card.coins:
        parts.append(f"+{card.coins}c")
    if card.coins_per:
        parts.append(_per_compact(card.coins_per, "c"))
    if card.points_per_max:
        unit = tr("VP") + ("+c" if card.coins_per_max else "")
        parts.append(_per_compact(card.points_per_max, unit))
    elif card.coins_per_max:
        parts.append(_per_compact(card.coins_per_max, "c"))
    text = " ".join(parts) or "-"
    return text + ("→" if card.chain_gives else "")


def card_cost_text(card: Card) -> str:
    parts = []
    if card.coin_cost:
        parts.append(plural(card.coin_cost, "coin"))
    if any(card.need):
        parts.append(_need_text(card.need))
    text = ", ".join(parts) or tr("free")
    if card.chain_from:
        text += tr(" (free with {chain})", chain=chain_text(card.chain_from))
    return text


def wonder_effect(wonder: Wonder) -> str:
    parts = []
    if wonder.extra_turn:
        parts.append(tr("play again"))
    if wonder.coins:
        parts.append(plural(wonder.coins, "coin"))
    if wonder.opponent_loses:
        parts.append(tr("opponent loses {coins}", coins=plural(wonder.opponent_loses, "coin")))
    if wonder.shields:
        parts.append(plural(wonder.shields, "shield"))
    if wonder.destroy:
        parts.append(tr("destroy a {color} card", color=color_word(wonder.destroy)))
    if wonder.produce_choice:
        parts.append(
            tr(
                "one of {options}",
                options="/".join(word(RESOURCES[r]) for r in wonder.produce_choice),
            )
        )
    if wonder.library:
        parts.append(tr("a progress token from 3 of the box"))
    if wonder.mausoleum:
        parts.append(tr("build a discarded card"))
    if wonder.points:
        parts.append(tr("{n} VP", n=wonder.points))
    return ", ".join(parts)






#: Player kinds said in words (AI levels keep their names: cmcts, search:2s...).
KIND_WORDS = (N_("human"),)


def player_label(player: int, kinds: tuple[str, str] | None = None) -> str:
    name = PLAYER_NAMES[player]
    return f"{name} ({tr(kinds[player])})" if kinds else name




def chain_text(symbol: str) -> str:
    """A chain symbol by its display name and the two cards it links:
    ``water drop (Baths -> Aqueduct)``."""
    giver = next((shown(c.name) for c in CARDS if c.chain_gives == symbol), "?")
    taker = next((shown(c.name) for c in CARDS if c.chain_from == symbol), "?")
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
            Choice(shown(WONDERS[w].name), Move.pick_wonder(w), _wonder_detail(w))
            for w in state.wonder_offer
        ]
    if phase in ("choose_token", "library_choose"):
        pool = state.library_offer if phase == "library_choose" else state.board_token_ids
        return [
            Choice(shown(TOKENS[t].name), Move.choose_token(t), tr(TOKEN_SHORT[TOKENS[t].name]))
            for t in pool
        ]
    if phase in ("destroy", "mausoleum"):
        out = []
        for m in state.legal_moves():
            card = CARDS[m.card]
            out.append(
                Choice(shown(card.name), m, f"{color_word(card.color)}: {card_effect(card)}")
            )
        return out
    if phase == "choose_starter":
        age = age_name(state.age)
        return [
            Choice(
                name,
                Move.starter(p),
                tr("{player} begins {age}", player=name, age=age) + (tr(" (you)") * (player == p)),
            )
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
    first = [shown(CARDS[pyramid[s]].name) for s in order if s in accessible and pyramid[s] >= 0]
    later = [
        shown(CARDS[pyramid[s]].name) for s in order if s not in accessible and pyramid[s] >= 0
    ]
    lines = [
        tr(
            "{age} is laid out. To take first: {first}; also face up: {later}.",
            age=age_name(state.age),
            first=", ".join(first),
            later=", ".join(later) or tr("none"),
        )
    ]
    hidden = [s for s in range(len(pyramid)) if pyramid[s] < 0 and state.is_guild_slot(s)]
    if hidden:
        places = ", ".join(row_card(*slot_place(state.age, s)) for s in hidden)
        lines.append(tr("Face-down guilds (guild back) at {places}.", places=places))
    return lines




def _wonder_detail(w: int) -> str:
    return tr(
        "{effect}; costs {cost}", effect=wonder_effect(WONDERS[w]), cost=_need_text(WONDERS[w].need)
    )




#: The mark of a price the player cannot pay (in colour and in plain text alike).
UNAFFORDABLE = "✗"


def price_label(price: str, ok: bool, *, plain: bool = False) -> str:
    """``4c`` or ``4c ✗`` (plain text: ``4c, cannot afford``): the same words in the pyramid,
    the card list and the wonders."""
    if ok:
        return price
    return tr("{price}, cannot afford", price=price) if plain else f"{price} {UNAFFORDABLE}"


# --- the pyramid --------------------------------------------------------------------------------
def _short(name: str, width: int) -> str:
    """``name`` in ``width`` columns (CJK characters take two): without "The ", else cut."""
    if display_width(name) <= width:
        return name
    for prefix in ("The ",):
        if name.startswith(prefix) and display_width(name) - len(prefix) <= width:
            return name[len(prefix) :]
    return clip(name, width)


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
                back = center(_short(tr("Guild"), cell - 2), cell - 2)
                top.append(" " + back + " ", style=GUILD_BACK_STYLE)
                bottom.append(("▚" * cell), style=GUILD_BACK_STYLE)
            elif place.look == "back":
                back = center(_short(age_name(age), cell - 2), cell - 2)
                top.append(" " + back + " ", style=BACK_STYLE[age])
                bottom.append(("░" * cell), style=BACK_STYLE[age])
            elif place.look == "open":
                card = CARDS[place.face]
                style = CARD_STYLE[card.color]
                label = f"{place.number} "
                top.append(label, style=style + " reverse")
                top.append(
                    ljust(_short(shown(card.name), cell - len(label)), cell - len(label)),
                    style=style,
                )
                tail = price_label(place.price, place.ok)
                if tags:
                    tail = f"{COLOR_TAG[card.color]} {tail}" if tail else COLOR_TAG[card.color]
                bottom.append(rjust(tail, cell), style=style if place.ok else style + " strike")
            else:
                card = CARDS[place.face]
                dim = COVERED_STYLE[card.color]
                top.append(ljust(_short(shown(card.name), cell), cell), style=dim)
                tag = COLOR_TAG[card.color] if tags else ""
                bottom.append(tag.ljust(cell), style=dim)
        out.append(top)
        out.append("\n")
        out.append(bottom)
        out.append("\n")
    out.rstrip()
    return out


_PLAIN_LOOK = {
    "taken": N_("(taken)"),
    "back": N_("(face down)"),
    "guild_back": N_("(face-down guild)"),
}


def plain_pyramid(state: State) -> list[str]:
    """The pyramid row by row, in words: face-down cards as '(face down)', or '(face-down
    guild)' for an Age III card with the guild back."""
    lines = []
    for r, row in enumerate(pyramid_rows(state), 1):
        items = []
        for place in row:
            if place.look in _PLAIN_LOOK:
                items.append(tr(_PLAIN_LOOK[place.look]))
            elif place.look == "open":
                items.append(f"[{place.number}] {shown(CARDS[place.face].name)}")
            else:
                items.append(tr("{card} (covered)", card=shown(CARDS[place.face].name)))
        lines.append("  " + tr("row {row}:", row=r) + " " + ", ".join(items))
    return lines


# --- military track ------------------------------------------------------------------------------
_PLAYER_OF = {"A": 0, "B": 1}
_LOOT_ZONES = {"A5": (-8, -6, 5), "A2": (-5, -3, 2), "B2": (3, 5, 2), "B5": (6, 8, 5)}


def pawn_where(state: State) -> str:
    """Where the conflict pawn stands: ``in the middle``, ``3 towards B's capital (A leads)``."""
    pawn = state.pawn
    if pawn == 0:
        return tr("in the middle")
    towards = "B" if pawn > 0 else "A"
    return tr(
        "{n} towards {player}'s capital ({leader} leads)",
        n=abs(pawn),
        player=towards,
        leader=PLAYER_NAMES[pawn < 0],
    )


def military_text(state: State) -> str:
    where = pawn_where(state)
    tokens = ", ".join(
        tr("{token} ({n} coins from {player})", token=t, n=_LOOT_ZONES[t][2], player=t[0])
        for t in state.military_tokens
    )
    return tr(
        "Military: pawn {where}; looting tokens left: {tokens}",
        where=where,
        tokens=tokens or tr("none"),
    )


def render_military(state: State) -> Text:
    """The conflict track: A's capital left, B's right, the pawn and looting tokens."""
    pawn = state.pawn
    track = Text(ljust(tr("Military"), 8) + "  ")
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
        return tr("built")
    if item.out:
        return tr("out (7 built)")
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
            names.append(shown(CARDS[c].name), style=NAME_STYLE[color])
        grid.add_row(Text(color_word(color), style=NAME_STYLE[color]), names)
    if not view.cards:
        grid.add_row(tr("cards"), tr("none yet"))
    grid.add_row(tr("makes"), view.production)
    prices = " ".join(f"{RES_SHORT[r]}{p}" for r, p in view.prices)
    grid.add_row(tr("buys"), prices + "  " + tr("(coins per unit)"))
    grid.add_row(tr("science"), ", ".join(view.science) or "-")
    grid.add_row(tr("tokens"), ", ".join(view.tokens) or "-")
    wonders = Text()
    for i, item in enumerate(view.wonders):
        if i:
            wonders.append("\n")
        wonders.append(f"{item.marker} {item.name}", style="bold green" if item.built else "")
        note = _wonder_note(item)
        if note and not item.built:
            wonders.append(f"  {note}", style="red" if UNAFFORDABLE in note else "yellow")
    grid.add_row(tr("wonders"), wonders if wonders.plain else "-")
    title = Text.assemble(
        (f" {player_label(player, kinds)} ", PLAYER_STYLE[player]),
        (f" {coins_text(view.coins)} ", "bold yellow"),
        (" " + tr("{n} VP", n=view.points) + " ", "bold"),
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
        tr(
            "City of {player}: {coins}, {points} VP so far",
            player=player_label(player, kinds),
            coins=coins_text(view.coins),
            points=view.points,
        )
    ]
    for color, cards in view.cards:
        lines.append(f"  {color_word(color)}: {', '.join(shown(CARDS[c].name) for c in cards)}")
    if not view.cards:
        lines.append("  " + tr("cards: none yet"))
    lines.append("  " + tr("makes: {production}", production=view.production))
    buys = ", ".join(f"{word(r)} {p}" for r, p in view.prices)
    lines.append("  " + tr("buys (coins per unit): {prices}", prices=buys))
    lines.append("  " + tr("science: {symbols}", symbols=", ".join(view.science) or tr("none")))
    lines.append(
        "  " + tr("progress tokens: {tokens}", tokens=", ".join(view.tokens) or tr("none"))
    )
    wonders = []
    for item in view.wonders:
        note = _wonder_note(item, plain=True)
        if item.built:
            wonders.append(tr("{wonder} (built)", wonder=item.name))
        else:
            wonders.append(f"{item.marker} {item.name}" + (f" ({note})" if note else ""))
    lines.append("  " + tr("wonders: {wonders}", wonders=", ".join(wonders) or tr("none")))
    return lines


# --- the decision ---------------------------------------------------------------------------------
def _card_rows(state: State) -> list[tuple[int, int, str, bool]]:
    """(number, card, price, affordable) for each accessible card, as numbered."""
    return [(o.number, o.card, o.price, o.ok) for o in card_offers(state)]


def status_line(state: State) -> str:
    """ "Age II: take a card, B to move" """
    if state.is_terminal():
        return f"{age_name(state.age)}: {describe_end(state)}"
    who = (
        tr("chance")
        if state.is_chance()
        else tr("{player} to move", player=PLAYER_NAMES[state.to_move])
    )
    text = PHASE_TEXT[state.phase]
    if text.startswith("setup: "):
        text = text[7:]
    return f"{age_name(state.age)}: {tr(text)} ({who})"


#: The setup phases without their "setup: " (the status line's Age says Setup already).
SETUP_WORDS = (N_("dealing the progress tokens"), N_("revealing wonders for the draft"))


def describe_end(state: State) -> str:
    """The engine's one-line description of a finished game, in the current language."""
    if language() == "en":
        return state.describe()
    return victory_sentence(state)


def decision_title(state: State, kinds: tuple[str, str] | None = None) -> str:
    if state.is_terminal():
        return tr("Game over")
    if state.is_chance():
        return tr(PHASE_TEXT[state.phase])
    return f"{player_label(state.to_move, kinds)}: {tr(PHASE_TEXT[state.phase])}"


def render_decision(state: State, kinds: tuple[str, str] | None = None) -> RenderableType:
    title = Text(decision_title(state, kinds), style=PLAYER_STYLE[state.to_move])
    if state.is_chance() or state.is_terminal():
        return title
    if state.phase == "play":
        player = state.to_move
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
        table.add_column("#", justify="right", style="bold")
        table.add_column(tr("card"))
        table.add_column(tr("gives"))
        table.add_column(tr("build"), justify="right")
        for number, card, price, ok in _card_rows(state):
            spec = CARDS[card]
            name = Text(shown(spec.name), style=NAME_STYLE[spec.color])
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
            tr(
                "Type a number or a name, then build / discard (+{gain} coins) / wonder. "
                "Or 'help'.",
                gain=gain,
            ),
            style="dim",
        )
        return Group(title, table, footer)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right", style="bold")
    table.add_column(tr("choice"))
    table.add_column("")
    for i, choice in enumerate(choices(state), 1):
        table.add_row(str(i), choice.label, choice.detail)
    seen = [Text(line) for line in laid_out_text(state)] if state.phase == "choose_starter" else []
    return Group(title, *seen, table, Text(tr("Type a number or a name. Or 'help'."), style="dim"))


def plain_decision(state: State, kinds: tuple[str, str] | None = None) -> list[str]:
    lines = [decision_title(state, kinds)]
    if state.is_chance() or state.is_terminal():
        return lines
    if state.phase == "play":
        player = state.to_move
        lines.append(
            tr(
                "Cards you can take ({coins}; discarding gives {gain}):",
                coins=coins_text(state.coins(player)),
                gain=discard_gain(state, player),
            )
        )
        for number, card, price, ok in _card_rows(state):
            spec = CARDS[card]
            cost = price_label(price, ok, plain=True)
            lines.append(
                f"  {number}. "
                + tr(
                    "{card} ({color}): {effect}; build: {cost}",
                    card=shown(spec.name),
                    color=color_word(spec.color),
                    effect=card_effect(spec),
                    cost=cost,
                )
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
        return Text(tr("Progress tokens: none left on the board"), style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    for _ in names:
        grid.add_column()  # wraps on narrow terminals
    grid.add_row(
        tr("Progress\ntokens"),
        *[
            Text.assemble((shown(name), "bold green"), "\n", (tr(TOKEN_TINY[name]), "dim"))
            for name in names
        ],
    )
    return grid


def render_header(state: State, kinds: tuple[str, str] | None = None) -> Text:
    age = age_name(state.age)
    discard = len(state.discard_pile)
    return Text.assemble(
        (f" 7 Wonders Duel · {age} ", "bold reverse"),
        "  ",
        (status_line(state).split(": ", 1)[1], "bold"),
        ("   " + _discard_count(discard), "dim"),
    )


def _discard_count(discard: int) -> str:
    if language() == "en":
        return f"discard pile: {discard} card{'s' * (discard != 1)}"
    return tr("discard pile: {n} cards", n=discard)


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
    text = Text(tr("Wonders on offer: "), style="bold")
    for i, w in enumerate(state.wonder_offer):
        if i:
            text.append(" · ")
        text.append(shown(WONDERS[w].name), style="bold")
    return text


def plain_table(
    state: State, kinds: tuple[str, str] | None = None, *, decision: bool = True
) -> list[str]:
    """The whole table as plain lines (no colours or drawing characters)."""
    lines = [status_line(state)]
    if state.age:
        lines.append(tr("Pyramid (row 1 is the most covered; [n] = card you can take):"))
        lines += plain_pyramid(state)
    lines.append(military_text(state))
    board = [f"{shown(n)} ({tr(TOKEN_SHORT[n])})" for n in state.board_tokens]
    lines.append(
        tr("Progress tokens on the board: {tokens}", tokens=", ".join(board) or tr("none"))
    )
    if state.wonder_offer:
        offer = ", ".join(shown(WONDERS[w].name) for w in state.wonder_offer)
        lines.append(tr("Wonders on offer: ") + offer)
    lines.append(tr("Discard pile: {cards}", cards=plural(len(state.discard_pile), "card")))
    lines += plain_city(state, 0, kinds)
    lines += plain_city(state, 1, kinds)
    if decision and not state.is_terminal():
        lines += plain_decision(state, kinds)
    return lines


def discard_lines(state: State) -> list[str]:
    pile = state.discard_pile
    if not pile:
        return [tr("The discard pile is empty.")]
    lines = [tr("Discard pile ({n} cards):", n=len(pile))]
    for c in pile:
        spec = CARDS[c]
        lines.append(
            f"  {shown(spec.name)} ({color_word(spec.color)}, {age_name(spec.age)}): "
            f"{card_effect(spec)}"
        )
    return lines


def render_discards(state: State) -> RenderableType:
    pile = state.discard_pile
    if not pile:
        return Text(tr("The discard pile is empty."), style="dim")
    table = Table(
        title=tr("Discard pile ({n} cards)", n=len(pile)),
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    table.add_column(tr("card"))
    table.add_column(tr("age"))
    table.add_column(tr("gives"))
    table.add_column(tr("cost"))
    for c in pile:
        spec = CARDS[c]
        table.add_row(
            Text(shown(spec.name), style=NAME_STYLE[spec.color]),
            age_name(spec.age),
            card_effect(spec),
            card_cost_text(spec),
        )
    return table


# --- end of the game ------------------------------------------------------------------------------
def victory_sentence(state: State) -> str:
    if state.is_shared_victory:
        return tr("Shared victory: same points and same civilian (blue) points.")
    winner = PLAYER_NAMES[state.winner] if state.winner is not None else "?"
    loser = PLAYER_NAMES[1 - state.winner] if state.winner is not None else "?"
    if state.victory == "military":
        return tr(
            "{winner} wins by military supremacy: the pawn reached {loser}'s capital.",
            winner=winner,
            loser=loser,
        )
    if state.victory == "science":
        return tr(
            "{winner} wins by scientific supremacy: 6 different science symbols.", winner=winner
        )
    a, b = state.score(0), state.score(1)
    if a.total == b.total:
        return tr(
            "{winner} wins the civilian victory on the tie-break (more blue points).",
            winner=winner,
        )
    return tr(
        "{winner} wins the civilian victory, {high} to {low}.",
        winner=winner,
        high=max(a.total, b.total),
        low=min(a.total, b.total),
    )


def score_rows(state: State) -> list[tuple[str, int, int]]:
    a, b = state.score(0), state.score(1)
    rows = [(c, getattr(a, c), getattr(b, c)) for c in Score.CATEGORIES]
    rows.append(("total", a.total, b.total))
    return rows


_CATEGORY_LABEL = {
    "blue": N_("civilian (blue)"),
    "green": N_("science (green)"),
    "yellow": N_("commercial (yellow)"),
    "purple": N_("guilds (purple)"),
    "wonders": N_("wonders"),
    "tokens": N_("progress tokens"),
    "coins": N_("coins (1 per 3)"),
    "military": N_("military"),
    "total": N_("total"),
}


def render_final(state: State, kinds: tuple[str, str] | None = None) -> RenderableType:
    table = Table(title=tr("Score"), box=box.ROUNDED, title_justify="left")
    table.add_column("")
    table.add_column(player_label(0, kinds), justify="right", style=PLAYER_STYLE[0])
    table.add_column(player_label(1, kinds), justify="right", style=PLAYER_STYLE[1])
    for category, a, b in score_rows(state):
        style = "bold" if category == "total" else ""
        if category == "total":
            table.add_section()
        table.add_row(tr(_CATEGORY_LABEL[category]), str(a), str(b), style=style)
    parts: list[RenderableType] = [
        Text(" " + tr("Game over") + " ", style="bold reverse"),
        Text(victory_sentence(state), style="bold green"),
    ]
    if state.victory != "civilian":
        parts.append(Text(tr("(points as they stood when the game ended)"), style="dim"))
    parts.append(table)
    return Group(*parts)


def plain_final(state: State, kinds: tuple[str, str] | None = None) -> list[str]:
    lines = [tr("Game over."), victory_sentence(state)]
    if state.victory != "civilian":
        lines.append(tr("(points as they stood when the game ended)"))
    head_a, head_b = player_label(0, kinds), player_label(1, kinds)
    width = max(display_width(head_a), display_width(head_b), 4)
    lines.append(f"{ljust(tr('Score'), 20)} {rjust(head_a, width)} {rjust(head_b, width)}")
    for category, a, b in score_rows(state):
        label = ljust(tr(_CATEGORY_LABEL[category]), 20)
        lines.append(f"{label} {a:>{width}} {b:>{width}}")
    return lines


# --- what a move did ------------------------------------------------------------------------------
















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
