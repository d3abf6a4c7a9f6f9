"""An expansion game's table and moves as lines of text (:func:`board_lines`,
:func:`move_line`): the line mode, the full screen, ``duel show`` and the network game draw
the same words. Each draws the view it is given (a player's own, or the referee's)."""

from __future__ import annotations

from duel.app.i18n import N_, clip, display_width, ljust, shown, tr
from duel.catalog import AGE_NAMES
from duel.expansions import XMove, XState, senate
from duel.expansions.agora import CHAMBERS
from duel.expansions.components import (
    MYTHOLOGIES,
    XCARDS,
    XTOKENS,
    XWONDERS,
    space_price,
    structure_of,
)
from duel.expansions.table import HIDDEN, TAKEN, controller
from duel.moves import PLAYER_NAMES

EXPANSION_TITLES = {"pantheon": N_("Pantheon"), "agora": N_("Agora")}


_COLOURS = ("brown", "grey", "yellow", "blue", "green", "red", "purple")


_COLOUR_WORDS = {
    "brown": N_("brown"),
    "grey": N_("grey"),
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "green": N_("green"),
    "red": N_("red"),
    "purple": N_("purple"),
}


def _coins(n: int) -> str:
    return tr("{n} coin", n=n) if n == 1 else tr("{n} coins", n=n)


def _names(ids, table) -> str:
    return ", ".join(shown(table[i].name) for i in ids) or tr("none")


def _track(state: XState, gap: str = " ") -> str:
    """The military track (``gap`` between its places) and the looting tokens left."""
    cells = []
    for x in range(-9, 10):
        if x == state.pawn:
            cells.append("#")
        elif state.minerva is not None and x == state.minerva:
            cells.append("M")
        elif x == 0:
            cells.append("|")
        else:
            cells.append("·")
    loot = [n for i, n in enumerate(("A2", "A5", "B2", "B5")) if state.military >> i & 1]
    return tr(
        "Military: A {track} B   loot left: {tokens}",
        track=gap.join(cells),
        tokens=" ".join(loot) or tr("none"),
    )


def _space_line(state: XState, index: int) -> str:
    space = state.spaces[index]
    prices = tr("A pays {a}, B pays {b}", a=space_price(0, index + 1), b=space_price(1, index + 1))
    if space is None:
        what = tr("(empty)")
    elif space.divinity == "Gate":
        what = tr("the Gate (twice the price)")
    else:
        # only the Gate has no Mythology, and it is handled above
        assert space.mythology is not None
        mythology = shown(space.mythology)
        if space.divinity is None:
            what = tr(
                "a face-down Divinity ({mythology}), seated by {player}",
                mythology=mythology,
                player=PLAYER_NAMES[space.owner],
            )
        elif not space.face_up:
            what = tr(
                "{divinity} ({mythology}), face down: yours",
                divinity=shown(space.divinity),
                mythology=mythology,
            )
        else:
            what = f"{shown(space.divinity)} ({mythology})"
    return f"  {index + 1}  {what:50}  {prices}"


def _decks_line(state: XState) -> str:
    parts = []
    for i, mythology in enumerate(MYTHOLOGIES):
        known = [c.divinity for c in state.deck_tops[i] if c.divinity is not None]
        part = f"{shown(mythology)} {state.deck_size[i]}"
        if known:
            part += " (" + tr("top: {cards}", cards=", ".join(map(shown, known))) + ")"
        parts.append(part)
    return tr("Mythology decks: {decks}", decks="; ".join(parts))


def _structure_lines(state: XState) -> list[str]:
    if not state.age:
        return []
    lines = [tr("Structure of {age} (* takeable):", age=tr(AGE_NAMES[state.age]))]
    for row in structure_of(state.expansions, state.age).rows:
        cells = []
        for slot in row:
            card = state.pyramid[slot]
            if card == TAKEN:
                continue
            if card == HIDDEN:
                text = "[?]"
                if state.back_slots >> slot & 1:
                    text = "[" + tr("temple or guild") + "]"
                elif state.backs and state.backs[slot] == "senator":
                    text = "[" + tr("Senator") + "]"
            else:
                text = shown(XCARDS[card].name)
            if state.accessible >> slot & 1:
                text = "*" + text
            token = state.mythology_on.get(slot) or state.offering_on.get(slot)
            if token:
                text += " <" + (shown(token) if isinstance(token, str) else f"+{token}") + ">"
            cells.append(text)
        if cells:
            lines.append("   " + " | ".join(cells))
    return lines


def _city_lines(state: XState, player: int) -> list[str]:
    city = state.cities[player]
    score = state.score(player)
    coins = _coins(city.coins)
    if city.astarte:
        coins += " " + tr("(+{n} on Astarte)", n=city.astarte)
    lines = [f"{PLAYER_NAMES[player]}: {coins} · " + tr("{n} VP", n=score.total)]
    by_colour = []
    for colour in _COLOURS:
        ids = sorted(c for c in city.cards if XCARDS[c].color == colour)
        if ids:
            by_colour.append(f"{tr(_COLOUR_WORDS[colour])}: {_names(ids, XCARDS)}")
    lines.append("   " + ("; ".join(by_colour) or tr("no card yet")))
    built = [w for w, _ in city.built]
    lines.append(
        "   "
        + tr(
            "Wonders built: {built}; to build: {unbuilt}",
            built=_names(built, XWONDERS),
            unbuilt=_names(city.wonders, XWONDERS),
        )
    )
    extras = [tr("Progress tokens: {tokens}", tokens=_names(sorted(city.tokens), XTOKENS))]
    if city.science:
        extras.append(tr("science: {symbols}", symbols=", ".join(sorted(city.science))))
    if city.mythology:
        extras.append(
            tr("Mythology tokens: {tokens}", tokens=", ".join(map(shown, city.mythology)))
        )
    if city.offerings:
        extras.append(tr("Offerings: {values}", values=", ".join(f"-{v}" for v in city.offerings)))
    if city.divinities:
        extras.append(tr("Divinities: {names}", names=", ".join(map(shown, city.divinities))))
    if city.plots:
        extras.append(
            tr("Conspiracies: {plots}", plots=", ".join(_plot_text(p) for p in city.plots))
        )
    lines.append("   " + " · ".join(extras))
    return lines


def _plot_text(plot) -> str:
    name = plot.name if plot.name is not None else "?"
    if plot.used:
        return tr("{name} (triggered)", name=name)
    if plot.prepared:
        return tr("{name} (prepared)", name=name)
    return name


def _senate_lines(state: XState) -> list[str]:
    lines = [
        tr(
            "Senate (strictly more cubes controls a Chamber; cubes left: A {a}, B {b}):",
            a=senate.supply(state, 0),
            b=senate.supply(state, 1),
        )
    ]
    for chamber in CHAMBERS:
        a, b = state.senate[chamber.chamber - 1]
        owner = controller(state.senate, chamber.chamber)
        who = PLAYER_NAMES[owner] if owner is not None else "-"
        decrees = ", ".join(
            name if up else tr("a face-down Decree")
            for name, up in state.decrees[chamber.chamber - 1]
        )
        lines.append(
            f"  {chamber.chamber} ({chamber.points} VP)  A {a} · B {b}  → {who}   {decrees}"
        )
    lines.append(tr("Conspiracy deck: {n} cards", n=state.plot_size))
    return lines


def board_lines(state: XState) -> list[str]:
    """The table as ``state``'s observer sees it (a view: the opponent's secrets unknown)."""
    who = tr("chance") if state.is_chance() else PLAYER_NAMES[state.to_move]
    age = tr(AGE_NAMES[state.age]) if state.age else tr("setup")
    title = " + ".join(tr(EXPANSION_TITLES[e]) for e in state.expansions)
    lines = [
        tr("{expansions} · {age} · {player} to move", expansions=title, age=age, player=who),
        _track(state),
    ]
    lines.append(
        tr("Progress tokens on the board: {tokens}", tokens=_names(sorted(state.board), XTOKENS))
    )
    if state.pantheon:
        lines.append(tr("Pantheon (activate from Age II, instead of taking a card):"))
        lines.extend(_space_line(state, i) for i in range(len(state.spaces)))
        lines.append(_decks_line(state))
    if state.agora:
        lines.extend(_senate_lines(state))
    lines.extend(_structure_lines(state))
    for player in (0, 1):
        lines.extend(_city_lines(state, player))
    return lines


def move_line(state: XState, move: XMove) -> str:
    """A legal move with its price where it has one."""
    text = str(move)
    player = state.to_move
    if move.kind == "build":
        cost = state.card_cost(player, move.args[0])
        return text + (f"  ({_coins(cost)})" if cost else "")
    if move.kind == "wonder":
        cost = state.wonder_cost(player, move.args[0])
        return text + f"  ({_coins(cost)})"
    if move.kind == "activate":
        index = next(i for i, s in enumerate(state.spaces) if s and s.divinity == move.args[0])
        cost = max(0, state.activation_price(player, index + 1) - sum(move.args[1]))
        return text + f"  ({_coins(cost)})"
    return text



# --- the same table in few lines, for a small screen ----------------------------------------------
def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells with an ellipsis where it is longer (a CJK
    character takes two cells)."""
    if display_width(text) <= width:
        return text
    return clip(text, max(0, width - 1), mark="").rstrip() + "…"


def _columns(cells: list[str], width: int, per_line: int) -> list[str]:
    """``cells`` side by side, ``per_line`` to a line, each cut to its column."""
    column = width // per_line
    lines = []
    for start in range(0, len(cells), per_line):
        row = cells[start : start + per_line]
        parts = [ljust(fit(c, column - 1), column) for c in row[:-1]]
        lines.append(("".join(parts) + fit(row[-1], column - 1)).rstrip())
    return lines


def _compact_space(state: XState, index: int, width: int) -> str:
    """A space of the Pantheon in one column: its number, Divinity and both prices."""
    space = state.spaces[index]
    prices = f"A {space_price(0, index + 1)}c B {space_price(1, index + 1)}c"
    if space is None:
        what = tr("(empty)")
    elif space.divinity == "Gate":
        what = tr("the Gate (twice the price)")
    else:
        assert space.mythology is not None  # only the Gate has no Mythology
        if space.divinity is None:  # the opponent's: its Mythology and who seated it only
            what = f"? ({shown(space.mythology)}, {PLAYER_NAMES[space.owner]})"
        elif not space.face_up:
            what = tr("{divinity} (face down)", divinity=shown(space.divinity))
        else:
            what = f"{shown(space.divinity)} ({shown(space.mythology)})"
    room = width - 1 - display_width(f"{index + 1} ") - display_width(prices) - 1
    return f"{index + 1} {ljust(fit(what, room), room)} {prices}"


def _compact_chamber(state: XState, chamber) -> str:
    """A Chamber of the Senate in one column: its points, the cubes, who controls it, its
    Decrees."""
    a, b = state.senate[chamber.chamber - 1]
    owner = controller(state.senate, chamber.chamber)
    who = PLAYER_NAMES[owner] if owner is not None else "-"
    # A face-down Decree as a face-down card of the structure.
    decrees = ", ".join(name if up else "[?]" for name, up in state.decrees[chamber.chamber - 1])
    return f"{chamber.chamber} ({chamber.points} VP) A {a} B {b} → {who} {decrees}"


def wrap(text: str, width: int, indent: str = "   ") -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words (the lines after the
    first start with ``indent``); a word longer than a line is cut."""
    lines: list[str] = []
    body = text.lstrip(" ")
    line = text[: len(text) - len(body)]  # the first line keeps its own indent
    for word in body.split(" "):
        joined = f"{line} {word}" if line.strip() else line + word
        if display_width(joined) <= width or not line.strip():
            line = joined
            continue
        lines.append(fit(line, width))
        line = indent + word
    lines.append(fit(line, width))
    return lines


def _compact_structure(state: XState, width: int) -> list[str]:
    """The structure's rows, each on one line and centred, in the shape of the structure: the
    takeable cards (marked *) keep their whole name as long as the others can give up
    letters."""
    rows = _structure_lines(state)[1:]
    lines = []
    for row in rows:
        cells = row.strip().split(" | ")
        while display_width(" | ".join(cells)) > width:
            # The longest name that is not takeable gives up a letter; then takeable ones.
            order = sorted(
                range(len(cells)),
                key=lambda i: (cells[i].startswith("*"), -display_width(cells[i])),
            )
            longest = order[0]
            if display_width(cells[longest]) <= 4:
                break
            cells[longest] = fit(cells[longest], display_width(cells[longest]) - 1)
        line = " | ".join(cells)
        lines.append(" " * max(0, (width - display_width(line)) // 2) + line)
    return lines


def _compact_city(state: XState, player: int, width: int, level: int) -> list[str]:
    """A city: coins, points, cards by colour (how many) and science; the Wonders; the
    tokens and the expansions' holdings (F4's long form has the card names). Level 0 wraps
    them, level 1 cuts each to a line, level 2 puts the last two on one line."""
    city = state.cities[player]
    head, _, wonders, extras = _city_lines(state, player)
    counts = []
    for colour in _COLOURS:
        n = sum(1 for c in city.cards if XCARDS[c].color == colour)
        if n:
            counts.append(f"{tr(_COLOUR_WORDS[colour])} {n}")
    first = head + " · " + (", ".join(counts) or tr("no card yet"))
    if city.science:
        science = " · " + tr("science: {symbols}", symbols=", ".join(sorted(city.science)))
        first += science
        extras = extras.replace(science, "", 1)
    if level == 0:
        return [line for part in (first, wonders, extras) for line in wrap(part, width)]
    if level == 2:
        return [fit(first, width), fit(wonders + " ·" + extras[2:], width)]
    return [fit(line, width) for line in (first, wonders, extras)]


#: How the short table saves lines, one step more at each level: the structure's heading,
#: the cities' long lines wrapped, then cut, in three lines then two, the Mythology decks.
_LEVELS = (
    (True, 0, True),
    (False, 0, True),
    (False, 1, True),
    (False, 2, True),
    (False, 2, False),
)


def compact_board_lines(state: XState, width: int, room: int = 0) -> list[str]:
    """The table of :func:`board_lines` in few lines of at most ``width`` cells (the full
    screen at 80x24): the Age, the mover and the military track on one line, the Pantheon's
    spaces and the Senate's Chambers side by side, a line per row of the structure, a few
    lines per city. Where that is more than ``room`` lines (0: no limit), it saves lines
    (:data:`_LEVELS`), cutting long lines with an ellipsis; F4 shows the long form. The same
    view, so the same secrets kept."""
    lines: list[str] = []
    for heading, city, decks in _LEVELS:
        lines = _compact_lines(state, width, heading=heading, city=city, decks=decks)
        if not room or len(lines) <= room:
            break
    return lines


def _compact_lines(
    state: XState, width: int, *, heading: bool, city: int, decks: bool
) -> list[str]:
    who = tr("chance") if state.is_chance() else PLAYER_NAMES[state.to_move]
    age = tr(AGE_NAMES[state.age]) if state.age else tr("setup")
    status = f"{age} · " + tr("{player} to move", player=who) + " · " + _track(state, gap="")
    if display_width(status) > width:  # the track and the looting tokens whole
        status = f"{age} · {who} · " + _track(state, gap="")
    lines = [fit(status, width)]
    tokens = _names(sorted(state.board), XTOKENS)
    board = tr("Progress tokens on the board: {tokens}", tokens=tokens)
    lines.extend(wrap(board, width) if city == 0 else [fit(board, width)])
    spaces = [_compact_space(state, i, width // 2) for i in range(len(state.spaces))]
    chambers = [_compact_chamber(state, c) for c in CHAMBERS]
    agora_head = (
        tr("Senate: cubes left A {a}, B {b}", a=senate.supply(state, 0), b=senate.supply(state, 1))
        + " · "
        + tr("Conspiracy deck: {n} cards", n=state.plot_size)
    )
    decks_lines: list[str] = []
    if decks:
        line = _decks_line(state)
        decks_lines = wrap(line, width) if city == 0 else [fit(line, width)]
    if state.pantheon and state.agora:  # the spaces on the left, the Chambers on the right
        lines.extend(decks_lines)
        lines.append(fit(agora_head, width))
        pairs = [cell for pair in zip(spaces, chambers, strict=True) for cell in pair]
        lines.extend(_columns(pairs, width, 2))
    elif state.pantheon:
        lines.extend(decks_lines)
        lines.extend(_columns(spaces, width, 2))
    elif state.agora:
        lines.append(fit(agora_head, width))
        lines.extend(_columns(chambers, width, 2))
    if state.age:
        if heading:
            lines.append(tr("Structure of {age} (* takeable):", age=tr(AGE_NAMES[state.age])))
        lines.extend(_compact_structure(state, width))
    for player in (0, 1):
        lines.extend(_compact_city(state, player, width, city))
    return lines
