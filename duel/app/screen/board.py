"""The board's widgets, shared by the game's screen and the review's
(:mod:`duel.app.screen.app`, :mod:`duel.app.screen.review`): a card of the pyramid
(:class:`CardWidget`), the pyramid in its real shape (:class:`Pyramid`), and how the screen is
shared at a size (:func:`geometry`).

A card calls ``take_card`` and ``show_card`` on its app when it is clicked or focused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol, cast

from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Label, Static

from duel.app.i18n import display_name, language, tr
from duel.app.text import render as R
from duel.app.text.board import card_face
from duel.app.text.view_model import Cell, pyramid_rows
from duel.catalog import CARDS
from duel.pyramid_layouts import LAYOUTS
from duel.state import State


class _Table(Protocol):
    """What a card on the pyramid asks of the app it is in (``screen.app.DuelApp``)."""

    def take_card(self, card: int) -> None: ...

    def show_card(self, cell: Cell) -> None: ...

__all__ = [
    "CELL",
    "MIN_SIZE",
    "UNIT",
    "WIDE",
    "CardWidget",
    "Geometry",
    "Pyramid",
    "geometry",
    "translate_bindings",
]


def translate_bindings(node) -> None:
    """The key descriptions of ``node``'s bindings (a screen's or the app's: what the footer
    shows) in the current language. The ``BINDINGS`` tables mark them with ``N_``; each node
    has its own copy of the bindings, so this changes only ``node``."""
    if language() == "en":
        return
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=tr(b.description)) if b.description else b
                      for b in bindings]

#: Columns per unit of a layout's x coordinate; a card spans two units.
UNIT = 7
CELL = 2 * UNIT - 1


# --- the pyramid ---------------------------------------------------------------------------------
class CardWidget(Static, can_focus=True):
    """One place of the pyramid: a card (takeable ones focusable and clickable) or a back."""

    def __init__(self, cell: Cell, state: State, width: int = CELL, height: int = 3) -> None:
        self.cell = cell
        self.face = (width, height)
        self._shown = self._text(state)
        super().__init__(self._shown, classes=self._class_names(), id=f"slot-{cell.slot}")
        self._dress()

    def show(self, cell: Cell, state: State, width: int, height: int) -> None:
        """Become the place ``cell`` (the same slot) of ``state``, ``width`` x ``height``,
        as a new widget for it would be drawn. Textual lays out and paints again only what
        changed: the text only when it differs, the styles only when their value does."""
        self.cell = cell
        self.face = (width, height)
        self.set_classes(self._class_names())
        text = self._text(state)
        if text != self._shown:
            self._shown = text
            self.update(text)
        self._dress()

    def _dress(self) -> None:
        """Size, focus, tooltip and the palette's colours for the place shown."""
        cell = self.cell
        self.styles.width, self.styles.height = self.face
        self.can_focus = cell.look == "open"
        self.tooltip = None
        background: str | None = None
        color: str | None = None
        if cell.card is not None:
            spec = CARDS[cell.card]
            name = display_name("card", spec.name)
            self.tooltip = f"{name} ({R.color_word(spec.color)}): {R.card_effect(spec)}"
            # The colours of the palette in use (--palette, $DUEL_PALETTE), from the tables
            # every view draws with, so the app and the line mode always agree.
            table = R.COVERED_STYLE if cell.look == "covered" else R.CARD_STYLE
            style = RichStyle.parse(table[spec.color])
            if style.bgcolor is not None and style.bgcolor.triplet is not None:
                background = style.bgcolor.triplet.hex
            if style.color is not None and style.color.triplet is not None:
                color = style.color.triplet.hex
        # None clears a colour an earlier card of this place set: the stylesheet's again.
        self.styles.background = background
        self.styles.color = color

    def _class_names(self) -> str:
        cell = self.cell
        color = CARDS[cell.card].color if cell.card is not None else ""
        return f"card {cell.look.replace('_', '-')} {color}".strip()

    def _text(self, state: State) -> Text:
        cell = self.cell
        # The colour-blind palette names each card's colour too: hue is never the only clue.
        tag = ""
        if cell.card is not None and R.palette() == "colorblind":
            tag = R.COLOR_TAG[CARDS[cell.card].color]
        return Text("\n".join(card_face(state, cell, *self.face, tag)), no_wrap=True)

    def on_click(self) -> None:
        if self.cell.look == "open":
            cast(_Table, self.app).take_card(self.cell.face)

    def key_enter(self) -> None:
        self.on_click()

    def on_focus(self) -> None:
        if self.cell.card is not None:
            cast(_Table, self.app).show_card(self.cell)


@dataclass(frozen=True)
class Geometry:
    """How the screen is shared at a size: ``wide`` puts the side panels (moves, hint,
    tokens, chance) beside the board, else they come on keys; the pyramid's ``unit`` (columns
    per layout unit, a card spans two) and ``card`` height; ``military`` lines."""

    width: int
    height: int
    side: int
    unit: int
    card: int
    military: int
    #: Lines the pyramid may take when its cards are shorter than three lines (0: no limit):
    #: then each row is as tall as its cards need (:func:`row_heights`).
    pyramid: int = 0

    @property
    def wide(self) -> bool:
        return self.side > 0

    @property
    def board(self) -> int:
        return self.width - self.side

    @property
    def too_small(self) -> bool:
        return self.width < MIN_SIZE[0] or self.height < MIN_SIZE[1]


#: The smallest terminal the board fits in; below it the app asks for a larger one.
MIN_SIZE = (80, 24)
#: From this width the side panels stay beside the board.
WIDE = 120


def geometry(width: int, height: int, rows: int) -> Geometry:
    """The layout for a terminal of ``width`` x ``height`` and a structure of ``rows`` rows.

    >>> g = geometry(80, 24, 7)
    >>> g.wide, 12 * g.unit - 1 <= g.board, 7 * g.card + 1 + g.military + 5 <= 24 - 3
    (False, True, True)
    >>> geometry(160, 50, 5).card, geometry(160, 50, 5).wide
    (5, True)
    """
    side = max(40, min(70, width * 3 // 10)) if width >= WIDE else 0
    board = width - side - (1 if side else 0)
    unit = max(5, min(14, (board + 1) // 12))
    free = height - 3  # the status line, the notice line, the keys
    # Under the pyramid: the card line, the last move's line, the track, six lines of cities.
    below = 1 + 1 + 6
    card = 2
    for tall in (5, 4, 3):
        if rows * tall + below + 2 <= free:
            card = tall
            break
    military = 2  # the track with the looting tokens; the pawn and the board's tokens
    pyramid = 0 if card >= 3 else max(rows, free - below - military)
    return Geometry(width, height, side, unit, card, military, pyramid)


#: Lines a place of the pyramid needs on a small screen: a takeable card its name, what it
#: gives and both prices; a face-up card its name and effect; a back its Age.
NEEDS = {"open": 3, "covered": 2, "back": 1, "guild_back": 1, "taken": 0}


def show_too_small(app, shape: Geometry, parts: tuple[str, ...]) -> bool:
    """Below :data:`MIN_SIZE`: hide ``parts`` and show the ``#too-small`` line asking for a
    larger terminal (True); otherwise the reverse (False). Both full-screen apps use it."""
    small = shape.too_small
    app.query_one("#too-small").display = small
    for part in parts:
        app.query_one(part).display = not small
    if small:
        app.query_one("#too-small", Static).update(
            tr(
                "This terminal is {width}x{height}: please make it at least "
                "{min_width}x{min_height}.",
                width=shape.width,
                height=shape.height,
                min_width=MIN_SIZE[0],
                min_height=MIN_SIZE[1],
            )
        )
    return small


def row_heights(rows: list[list[Cell]], shape: Geometry) -> list[int]:
    """Each row's height, as tall as its cards need: where every row has room for
    ``shape.card`` lines, takeable cards get them and the others fewer (a back one or two);
    on a small screen :data:`NEEDS`, then face-up covered cards on one line, then takeable
    ones on two, when that is more than ``shape.pyramid`` lines. The lines saved go to the
    cities.

    >>> open_, back = Cell(0, 1, "open", 1, 1, "3c"), Cell(1, 2, "back")
    >>> row_heights([[back], [open_]], geometry(80, 24, 7))
    [1, 3]
    """
    needs = dict(NEEDS)
    if not shape.pyramid:  # room enough: takeable cards at full height, the others shorter
        card = shape.card
        needs.update(open=card, covered=max(2, card - 1), back=1 + (card >= 5))
        needs["guild_back"] = needs["back"]
        return [max((needs[c.look] for c in row), default=0) for row in rows]
    heights: list[int] = []
    for look, fewer in (("", 0), ("covered", 1), ("open", 2)):
        if look:
            needs[look] = fewer
        heights = [max((needs[c.look] for c in row), default=0) for row in rows]
        if sum(heights) <= shape.pyramid:
            break
    return heights


class Pyramid(Vertical):
    """The current Age's structure in its real shape, sized by a :class:`Geometry`.

    :meth:`show` redraws it in place for a later state of the same Age: the places stay, only
    their cards change, so the board's redraw after a move lays out and paints what changed
    instead of some twenty new widgets."""

    def __init__(self, state: State, shape: Geometry) -> None:
        super().__init__(classes="pyramid")
        self.state = state
        self.shape = shape

    def compose(self) -> ComposeResult:
        state = self.state
        if not state.age:
            yield Label(tr("The wonder draft: the Ages come after it."))
            return
        for tall, cell, places in self.plan(state, self.shape):
            with Horizontal(classes="row") as line:
                line.styles.height = tall
                for c, margin in places:
                    card = CardWidget(c, state, cell, tall)
                    card.styles.margin = (0, 0, 0, margin)
                    yield card

    @staticmethod
    def plan(state: State, shape: Geometry) -> list[tuple[int, int, list[tuple[Cell, int]]]]:
        """Each row's height, the cards' width and each place with its left margin."""
        unit, cell = shape.unit, 2 * shape.unit - 1
        layout = LAYOUTS[state.age]
        low, high = min(layout.x), max(layout.x)
        span = (high - low + 2) * unit - 1
        left = max(0, (shape.board - 1 - span) // 2) - (low - 1) * unit
        rows = pyramid_rows(state)
        plan = []
        for row, tall in zip(rows, row_heights(rows, shape), strict=True):
            places = []
            column = 0
            for c in row:
                start = left + (c.x - 1) * unit
                places.append((c, start - column))
                column = start + cell
            plan.append((tall, cell, places))
        return plan

    def show(self, state: State, shape: Geometry) -> bool:
        """Draw ``state`` at ``shape`` in place, as a new pyramid would be drawn (True), or
        False when a new one is needed: another Age, the draft, or one not yet composed."""
        if not (state.age and state.age == self.state.age and self.is_attached):
            return False
        plan = self.plan(state, shape)
        lines = list(self.query_children(Horizontal))
        cards = [list(line.query_children(CardWidget)) for line in lines]
        if [[w.cell.slot for w in row] for row in cards] != [
            [c.slot for c, _ in places] for _, _, places in plan
        ]:
            return False
        # A new pyramid took the focus from a card of the old one as Textual does when a
        # focused widget is removed; the same here, so the keys behave as they did.
        screen, ours = self.screen, list(self.walk_children(Widget, with_self=True))
        if screen.focused is not None and screen.focused in ours:
            screen._reset_focus(screen.focused, ours)
        self.state, self.shape = state, shape
        for line, row, (tall, cell, places) in zip(lines, cards, plan, strict=True):
            line.styles.height = tall
            for widget, (c, margin) in zip(row, places, strict=True):
                widget.show(c, state, cell, tall)
                widget.styles.margin = (0, 0, 0, margin)
        return True


def draw_pyramid(box: Widget, state: State, shape: Geometry) -> None:
    """Show ``state``'s pyramid in ``box``: in place within an Age (:meth:`Pyramid.show`),
    otherwise as a new one. The game and the review screens both draw through it."""
    shown = box.query_children(Pyramid)
    if not (shown and shown.last().show(state, shape)):
        box.remove_children()
        box.mount(Pyramid(state, shape))
