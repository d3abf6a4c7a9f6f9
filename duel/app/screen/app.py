"""``duel play`` full screen: a Textual app that draws the table and drives a GameController.

The app is a view: it draws the view model (:mod:`duel.app.text.view_model`, and the rich panels of
:mod:`duel.app.text.render` built on it) and turns keys and clicks into moves for the
:class:`~duel.app.control.game.GameController`, which owns the game (dealing, AI moves, undo, save,
load). Each decision other than taking a card is its own dialog (a Textual ``Screen``): the
wonder draft, a progress token, The Great Library, destroying a card, The Mausoleum, who begins
Age II or III (once its structure is laid out: the dialog names its face-up cards), and with
``--manual-chance`` each card dealt and where the guild backs are.

Keys (shown in the footer): ``1``-``9`` take a card by its number (or click it, or move with
Tab / arrows and press Enter), ``i`` the focused card in full, ``h`` hint, ``c`` reopen the
current decision, ``s`` save, ``l`` load, ``u`` undo, ``q`` quit; below 120 columns ``m``
moves, ``t`` progress tokens, ``g`` the chance graph (Escape: the board). The layout follows
the terminal's size (:func:`geometry`) from 80x24 up. Without a game (``duel play`` with no
option) the app opens on the start screen (:mod:`duel.app.screen.start`); the final score
offers the review (:mod:`duel.app.screen.review`, also ``duel review RECORD --app``).

>>> from duel.app.control.game import Dealer, GameController
>>> app = DuelApp(GameController(["human", "random"], Dealer(seed=1)))
>>> app.title
'7 Wonders Duel'
"""

from __future__ import annotations

import contextlib
import math
import os
import shlex
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, OptionList, Sparkline, Static
from textual.widgets.option_list import Option

from duel.app.control.analysis import AnalysisSession
from duel.app.control.game import Dealer, GameController
from duel.app.control.levels import default_player
from duel.app.control.signals import SAVE_SIGNALS, route_signals_to_loop
from duel.app.control.values import ValueTrack
from duel.app.i18n import (
    N_,
    clip,
    display_name,
    display_width,
    tr,
    tr_error,
    tr_reason,
    trn,
)
from duel.app.screen.board import (  # noqa: F401 (CELL, UNIT, WIDE: the app's names too)
    CELL,
    MIN_SIZE,
    UNIT,
    WIDE,
    CardWidget,
    Geometry,
    Pyramid,
    draw_pyramid,
    geometry,
    show_too_small,
    translate_bindings,
)
from duel.app.screen.review import ReviewScreen
from duel.app.screen.start import (
    MENU_CSS,
    FileScreen,
    HandOff,
    MenuScreen,
    NewGame,
    NewGameScreen,
    StartScreen,
)
from duel.app.text import moves as M
from duel.app.text import render as R
from duel.app.text.analysis import analysis_summary, analysis_text
from duel.app.text.board import (
    age_line,
    age_line_short,
    card_detail,
    city_lines,
    fit_lines,
    last_move_text,
    military_line,
    tokens_text,
)
from duel.app.text.typed import file_named, save_target
from duel.app.text.view_model import Cell, age_count, card_offers, pyramid_rows
from duel.catalog import CARDS, TOKENS, WONDERS
from duel.moves import Move
from duel.pyramid_layouts import LAYOUTS
from duel.quote import quoted
from duel.record import GameRecord, RecordError
from duel.state import State

__all__ = ["DuelApp", "run_app"]

#: The app's actions on a game: off while the start menus or a review are shown.
GAME_ACTIONS = frozenset(
    {"hint", "decide", "card", "panel", "save", "load", "undo", "number", "analysis"}
)

#: Seconds after the card numbers change during which a number key is checked against the
#: numbers shown before (a key pressed that soon was aimed at the old board).
NUMBER_GRACE = 1.0
#: Seconds the app may take to leave after a signal before the process ends without it.
EXIT_GRACE = 3.0


# --- dialogs -------------------------------------------------------------------------------------
class Dialog(ModalScreen[None]):
    """A dialog that hands its answer to ``done`` once it is closed.

    (Not ``dismiss(result)`` with a ``push_screen`` callback: a dialog opened from the callback
    of another could get its callback registered on the closing one and lose its answer.)
    """

    def __init__(self, done: Callable[[Any], None], *, name: str) -> None:
        # No id: a dialog may be opened again above itself (Ctrl-C, then "save", during a
        # save), and two screens with one id crash the app.
        super().__init__(name=name)
        translate_bindings(self)
        self.done = done
        self.answered = False

    def on_mount(self) -> None:
        # Over the pyramid only: the cities, the track and the side panels (the hint) stay in
        # sight, and the text wraps within the board's width instead of running off it.
        with contextlib.suppress(Exception):
            x, y, width, height = cast(DuelApp, self.app).dialog_region()
            box = self.query_one(".dialog")
            box.styles.width = width
            box.styles.max_height = height
            box.styles.margin = (y, 0, 0, x)

    def answer(self, value: Any) -> None:
        if self.answered:
            return
        self.answered = True
        self.dismiss()
        self.app.call_later(self.done, value)

    def action_close(self) -> None:
        self.answer(None)


#: A modal dialog hides the app's keys: a decision's dialog offers them again.
GAME_KEYS: list[BindingType] = [
    Binding("escape", "close", N_("Board")),
    Binding("h", "app.hint", N_("Hint")),
    Binding("s", "app.save", N_("Save")),
    Binding("l", "app.load", N_("Load")),
    Binding("u", "app.undo", N_("Undo")),
    Binding("q", "app.quit_game", N_("Quit")),
]


class OptionsDialog(Dialog):
    """A decision's dialog: a title and options, each a label and the value it answers; the
    game's keys stay available."""

    BINDINGS = GAME_KEYS

    def __init__(
        self, title: str, options: list[tuple[str, Any]], done: Callable, *, name: str
    ) -> None:
        super().__init__(done, name=name)
        self.heading = title
        self.options = options


class ChoiceScreen(OptionsDialog):
    """A decision as a dialog: a title, numbered buttons, Escape to look at the board."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Label(self.heading, classes="dialog-title")
            for i, (label, _) in enumerate(self.options):
                yield Button(f"{i + 1}. {label}", id=f"choice-{i + 1}", classes="choice")
        yield Footer()

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(self.options):
                event.stop()
                self.answer(self.options[n - 1][1])

    @on(Button.Pressed, ".choice")
    def chosen(self, event: Button.Pressed) -> None:
        self.answer(self.options[int((event.button.id or "").split("-")[1]) - 1][1])


class ListScreen(OptionsDialog):
    """A long list to choose from (a card dealt with --manual-chance): type to scroll."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.heading, classes="dialog-title")
            yield OptionList(*[Option(label) for label, _ in self.options], id="options")
        yield Footer()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.answer(self.options[event.option_index][1])


class TextScreen(Dialog):
    """A question answered by a line of text (a file name, guild places, tokens drawn)."""

    BINDINGS = [Binding("escape", "close", N_("Cancel"))]

    def __init__(self, question: str, done: Callable, value: str = "", *, name: str) -> None:
        super().__init__(done, name=name)
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Input(value=self.value, id="answer")

    # Not "answered": Dialog's flag of that name would shadow the handler on the instance.
    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.answer(event.value.strip())


class InfoScreen(Dialog):
    """A panel to read (the final score) with buttons below it."""

    BINDINGS = [Binding("escape", "close", N_("Board"))]

    def __init__(
        self, body: Any, buttons: list[tuple[str, str]], done: Callable, *, name: str
    ) -> None:
        super().__init__(done, name=name)
        self.body = body
        self.buttons = buttons

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.body)
            with Horizontal(classes="buttons"):
                for label, key in self.buttons:
                    yield Button(f"{label} ({key[0]})", id=f"button-{key}")

    def on_key(self, event) -> None:
        # Each button answers to its first letter too (s: save, q: quit, c: cancel...).
        for _, key in self.buttons:
            if event.character == key[0]:
                event.stop()
                self.answer(key)
                return

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.answer((event.button.id or "").removeprefix("button-"))


# --- the app -------------------------------------------------------------------------------------
class DuelApp(App[int]):
    """The full-screen board of ``duel play``; its return value is the exit code."""

    TITLE = "7 Wonders Duel"
    # Ctrl-P's command palette (themes) would take room on the key line that 80 columns need.
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #too-small { height: 1fr; content-align: center middle; display: none; }
    #status { height: 1; background: $boost; }
    #notice { height: 1; background: $boost; }
    #top { height: 1fr; }
    #board { width: 1fr; }
    #side { border-left: solid $primary-darken-2; padding: 0 1; }
    #pyramid-box { height: auto; }
    .pyramid { height: auto; }
    .row { height: auto; }
    .card { padding: 0 0; }
    .card.taken { background: transparent; }
    .card.back { background: #3b4a6b; color: #c8d0e0; text-style: bold; }
    .card.guild-back { background: #6e288c; color: #ffe16e; text-style: bold; }
    .card.open { text-style: bold; }
    .card.open:focus { border: none; text-style: bold reverse; }
    .card.open:hover { text-style: bold underline; }
    #card-info { height: 1; color: $text-muted; }
    #last-move { height: 1; }
    #military { height: auto; }
    #tokens { height: auto; }
    .heading { text-style: bold; color: $accent; }
    .section { height: auto; }
    #moves-section { height: 1fr; }
    #moves-box { height: 1fr; }
    #hint { height: auto; max-height: 12; }
    #chance { height: 2; }
    #cities { height: 1fr; }
    .city { width: 1fr; padding: 0 1 0 0; }
    ChoiceScreen, ListScreen, TextScreen, InfoScreen { align: left top; }
    .dialog { height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    .dialog-title { text-style: bold; margin-bottom: 1; width: 100%; }
    .dialog Button { width: 100%; height: auto; min-height: 1; border: none; margin: 0;
                     text-align: left; content-align: left middle; text-wrap: wrap; }
    .dialog Button:focus { background: $accent; }
    .buttons Button { width: auto; }
    .buttons { height: auto; }
    #options { height: auto; max-height: 20; }
    .error { color: $error; }
    """ + MENU_CSS
    BINDINGS = [
        Binding("h", "hint", N_("Hint")),
        Binding("a", "analysis", N_("Analysis"), show=False),
        Binding("c", "decide", N_("Decide")),
        Binding("i", "card", N_("Card")),
        Binding("m", "panel('moves')", N_("Moves")),
        Binding("t", "panel('tokens')", N_("Tokens")),
        Binding("g", "panel('chance')", N_("Graph")),
        Binding("escape", "panel('')", show=False),
        Binding("s", "save", N_("Save")),
        Binding("l", "load", N_("Load")),
        Binding("u", "undo", N_("Undo")),
        Binding("q", "quit_game", N_("Quit")),
        # Ctrl-C and Ctrl-Q leave as q does (asking to save); Textual's own would only say
        # how to quit (Ctrl-C) or leave at once (Ctrl-Q: the game autosaved then).
        Binding("ctrl+c,ctrl+q", "quit_game", show=False, priority=True),
        *[Binding(str(n), f"number({n})", show=False) for n in range(1, 10)],
        Binding("left,up", "app.focus_previous", show=False),
        Binding("right,down", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        game: GameController | None = None,
        *,
        think: float = 1.0,
        hint_nodes: int | None = None,
        chance_nodes: int = 2000,
        delay: float = 0.0,
        review: GameRecord | None = None,
        review_level: str | None = None,
        review_seconds: float = 1.0,
        review_workers: int | None = None,
    ) -> None:
        super().__init__()
        translate_bindings(self)
        #: No game given: the start screen first (the board behind it is an empty table).
        self.starting = game is None
        self.game = game if game is not None else GameController(["human", "human"], Dealer())
        #: A record to review at once (``duel review RECORD --app``).
        self.review_first = review
        #: The review's engine: ``duel review``'s (the hint's, cmcts, 1 s a decision, every
        #: core) unless told otherwise (tests use tiny budgets).
        self.review_level = review_level
        self.review_seconds = review_seconds
        self.review_workers = review_workers
        self.think = think
        self.hint_nodes = hint_nodes
        self.chance_nodes = chance_nodes
        self.delay = delay
        self.busy = False  # an AI is thinking: the game must not change under it
        self.left = False  # the player chose to leave (saved or not)
        self.hand_off: HandOff | None = None  # an expansion game for its own table, after this app
        #: The signal that ended the app (SIGHUP, SIGTERM, SIGINT), and where the game was
        #: saved then (None: not saved, or nothing to save).
        self.stopped_by: int | None = None
        self.saved_to: Path | None = None
        #: After a signal, ends the process if the app does not (run_app sets it to False to
        #: ask for it, and cancels it once the app is gone; None in tests that run the app in
        #: their own process).
        self.watchdog: threading.Timer | bool | None = None
        self.waiting = False  # a look at the game is planned for when the dialog closes
        self.log_lines: list[str] = []
        #: A's chance of winning by position (the number of moves played): the hint's value
        #: where a hint was asked for, else the graph's own analysis by the same engine, and
        #: at a chance node the value of the move played before it (duel.app.control.values).
        self.values = ValueTrack(chance_nodes, seed=self.game.hint_seed)
        self.measuring = False  # a thread is valuing positions for the graph
        self.last_hint: str = tr("Press h for a hint: the best moves and the expected line.")
        #: The card numbering drawn now, the one before it, and when it changed (a number key
        #: pressed within NUMBER_GRACE seconds of a change may have been meant for the old one).
        self.shown_numbering: tuple[int, ...] = ()
        self.previous_numbering: tuple[int, ...] | None = None
        self.numbering_changed = -math.inf
        #: The side panel shown in place of the board on a narrow terminal ("" for none).
        self.panel = ""
        #: Every notice shown in the status line, oldest first.
        self.notices: list[str] = []
        #: Live analysis (a): asked for, and the session searching the position now.
        self.analysis_on = False
        self.analysis: AnalysisSession | None = None
        #: The budgets it searches with (None: duel.app.control.analysis.budgets(); tests
        #: use small ones).
        self.analysis_steps: list[int] | None = None
        #: The number of moves when the notice shown was given (None: none shown).
        self.notice_ply: int | None = None

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        yield Static(id="status")
        with Horizontal(id="top"):
            with Vertical(id="board"):
                yield Vertical(id="pyramid-box")
                yield Static(id="card-info")
                yield Static(id="last-move")
                yield Static(id="military")
                with Horizontal(id="cities"):
                    yield Static(id="city-a", classes="city")
                    yield Static(id="city-b", classes="city")
            with Vertical(id="side"):
                with Vertical(id="moves-section", classes="section"):
                    yield Label(tr("Moves"), classes="heading")
                    with VerticalScroll(id="moves-box"):
                        yield Static(id="moves")
                with Vertical(id="hint-section", classes="section"):
                    yield Label(tr("Hint"), classes="heading")
                    yield Static(id="hint")
                with Vertical(id="analysis-section", classes="section"):
                    yield Label(tr("Live analysis"), classes="heading")
                    yield Static(id="analysis")
                with Vertical(id="tokens-section", classes="section"):
                    yield Label(tr("Progress tokens on the board"), classes="heading")
                    yield Static(id="tokens")
                with Vertical(id="chance-section", classes="section"):
                    yield Label(tr("A's chance of winning"), classes="heading")
                    yield Sparkline([], id="chance")
                    yield Static(id="chance-text")
        yield Static(id="notice")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._catch_signals(install=True)
        self.set_interval(0.25, self.poll_analysis)
        self.refresh_board()
        if self.starting:
            self.open_start()
            if self.review_first is not None:
                self.open_review(self.review_first)
            return
        self.measure_chance()
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_board)

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def shape(self) -> Geometry:
        state = self.state
        rows = len(LAYOUTS[state.age].rows) if state.age else 0
        return geometry(self.size.width, self.size.height, rows)

    def dialog_region(self) -> tuple[int, int, int, int]:
        """Where a dialog goes (x, y, width, height): over the pyramid, below the status line,
        leaving the track, the cities and the side panels in sight."""
        shape = self.shape
        state = self.state
        if not state.age:
            return 0, 1, shape.board, max(8, self.draft_room(shape))
        from duel.app.screen.board import row_heights

        if state.is_terminal():  # the final score: the room the structure had
            rows = len(LAYOUTS[state.age].rows)
            return 0, 1, shape.board, max(8, rows * shape.card + 1)
        pyramid = sum(row_heights(pyramid_rows(state), shape))
        # Down to the card line and the last move, or over the track if that is not 8 lines:
        # the cities stay in sight.
        return 0, 1, shape.board, min(max(8, pyramid + 2), pyramid + 2 + shape.military)

    @staticmethod
    def draft_room(shape: Geometry) -> int:
        """The lines the draft's dialog takes above the cities (no pyramid yet)."""
        return max(8, shape.height - 3 - 2 - shape.military - 6)

    def say(self, text: str) -> None:
        self.log_lines.append(text)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Literal["information", "warning", "error"] = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Notices go to the status line above the keys (never over a city)."""
        text = " ".join((f"{title}: {message}" if title else str(message)).split())
        self.notices.append(text)
        self.notice_ply = len(self.game.moves)  # cleared by the next move
        style = {"error": "bold red", "warning": "bold yellow"}.get(severity, "")
        try:
            self.query_one("#notice", Static).update(Text(text, style=style, no_wrap=True))
        except Exception:  # noqa: BLE001 - not mounted yet: a toast then
            super().notify(message, title=title, severity=severity, timeout=timeout)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # No game keys on the start menus and the review (their own keys are theirs).
        if action in GAME_ACTIONS and isinstance(self.screen, (MenuScreen, ReviewScreen)):
            return False
        # The panel keys only where the panels are not already beside the board.
        return not (action == "panel" and parameters and parameters[0] and self.shape.wide)

    def action_panel(self, name: str) -> None:
        """A narrow terminal: show one side panel instead of the board (the same key or Escape
        brings the board back)."""
        if self.shape.wide:
            return
        self.panel = "" if name == self.panel else name
        self.refresh_board()

    def _arrange(self, shape: Geometry) -> None:
        if show_too_small(self, shape, ("#status", "#top", "#notice", "Footer")):
            return
        side = self.query_one("#side")
        board = self.query_one("#board")
        if shape.wide:
            self.panel = ""
            side.styles.width = shape.side
            side.display = board.display = True
            for section in ("moves", "hint", "tokens", "chance"):
                self.query_one(f"#{section}-section").display = True
            self.query_one("#analysis-section").display = self.analysis_on
        else:
            side.styles.width = "1fr"
            side.display = bool(self.panel)
            board.display = not self.panel
            for section in ("moves", "hint", "tokens", "chance", "analysis"):
                self.query_one(f"#{section}-section").display = section == self.panel
        self.query_one("#military").styles.height = shape.military

    def header(self, width: int) -> Text:
        """The status line: the Age, the decision, who moves, the Age at a glance, the
        discard pile and the dealer, shortened to ``width`` (the dealer's full sentence is the
        first line of the moves)."""
        state = self.state
        text = Text()
        text.append(f" {M.age_name(state.age)} ", style="bold reverse")
        text.append(f" {R.status_line(state).split(': ', 1)[1]}", style="bold")
        # The dealer's label is always shown (a seeded game is not fair play); the cards left
        # in full, else shortly; the discard pile where it fits.
        dealer = f" · {self.dealer_tag()}"
        room = width - text.cell_len - display_width(dealer)
        pile = " · " + tr("discard pile {n}", n=len(state.discard_pile))
        forms = [""]
        if state.age:
            left = trn(age_count(state).left, "{n} card left", "{n} cards left")
            forms = [f" · {age_line(state)}", f" · {age_line_short(state)}", f" · {left}"]
        # The widest count of cards left that leaves room for the pile, else the widest alone.
        both = [f for f in forms if display_width(f) + display_width(pile) <= room]
        alone = [f for f in forms if display_width(f) <= room]
        if both:
            text.append(both[0])
            text.append(pile, style="dim")
        elif alone:
            text.append(alone[0])
        text.append(dealer, style="dim")
        text.truncate(width)
        return text

    def keep_newest_moves(self) -> None:
        """Scroll the moves to the newest once the panels have their new sizes (a longer hint
        makes the moves' box shorter)."""
        box = self.query_one("#moves-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)

    def dealer_tag(self) -> str:
        dealer = self.game.dealer
        if dealer.manual:
            return tr("cards typed")
        return tr("fair play") if dealer.fair else tr("seeded: not fair play")

    def refresh_board(self) -> None:
        """Draw the whole table from the game's state, sized to the terminal."""
        state = self.state
        kinds = self.game.labels
        shape = self.shape
        self._arrange(shape)
        if shape.too_small:
            return
        self.query_one("#status", Static).update(self.header(shape.width))
        if self.notice_ply is not None and self.notice_ply != len(self.game.moves):
            self.notice_ply = None  # a notice is about the position it was given in
            self.query_one("#notice", Static).update("")
        box = self.query_one("#pyramid-box", Vertical)
        box.styles.height = "auto" if state.age else self.draft_room(shape)
        # A key pressed while the screen is still being built (or torn down) can refresh the
        # board while the box is not attached to the app: Textual refuses to mount into it then.
        # After a move within an Age the pyramid is redrawn in place (Pyramid.show).
        if box.is_attached:
            draw_pyramid(box, state, shape)
        military = military_line(state)
        if shape.military > 1:
            military = Text.assemble(military, "\n", self.pawn_and_tokens(shape.board))
        self.query_one("#military", Static).update(military)
        self.query_one("#tokens", Static).update(tokens_text(state))
        self.query_one("#last-move", Static).update(
            last_move_text(self.game.states, self.game.moves, shape.board - 1)
        )
        rows = self.city_rows(shape)
        width = max(10, (shape.board - 1) // 2 - 1)
        for player, part in ((0, "#city-a"), (1, "#city-b")):
            city = city_lines(state, player, kinds)
            self.query_one(part, Static).update(fit_lines(city, width, rows))
        moves = [self.game.dealer.label(), *self.log_lines[-200:]]
        self.query_one("#moves", Static).update("\n".join(moves))
        self.query_one("#hint", Static).update(self.last_hint)
        self.keep_newest_moves()
        self.draw_chance()
        numbering = self.game.numbering()
        if numbering != self.shown_numbering:
            self.previous_numbering, self.shown_numbering = self.shown_numbering, numbering
            self.numbering_changed = time.monotonic()
        offers = card_offers(state)
        self.query_one("#card-info", Static).update(
            tr("Take a card: its number, a click, or Tab and Enter; i: a card in full.")
            if offers and self.game.next_actor() == "human"
            else R.decision_title(state, kinds)
        )
        if self.analysis_on:
            self.draw_analysis()

    def pawn_and_tokens(self, width: int) -> Text:
        """The track's second line: where the pawn stands and the progress tokens on the
        board (BGA shows all five on the board; here by name, in full where they fit)."""
        state = self.state
        text = Text()
        names = [display_name("token", TOKENS[t].name) for t in state.board_token_ids]
        label = tr("tokens:") + " "
        joined = ", ".join(names) or tr("none left on the board")
        room = width - display_width(label) - 1
        if display_width(joined) > room:  # shortened alike, each in its share
            share = max(3, (room - 2 * (len(names) - 1)) // max(1, len(names)))
            joined = ", ".join(clip(n, share) for n in names)
        text.append(label, style="bold")
        text.append(joined, style="bold cyan")
        pawn = " · " + tr("pawn {where}", where=R.pawn_where(state))
        if text.cell_len + display_width(pawn) <= width - 1:
            text.append(pawn, style="dim")
        return text

    def city_rows(self, shape: Geometry) -> int:
        """Lines left for the cities under the pyramid, the card line, the last move and the
        track."""
        state = self.state
        if not state.age:
            return max(3, shape.height - 3 - self.draft_room(shape) - 2 - shape.military)
        from duel.app.screen.board import row_heights

        pyramid = sum(row_heights(pyramid_rows(state), shape))
        return max(3, shape.height - 3 - pyramid - 2 - shape.military)

    def show_card(self, cell: Cell) -> None:
        spec = CARDS[cell.face]
        price = ""
        if cell.both:
            price = "; " + ", ".join(
                f"{name} {R.price_label(*p)}" for name, p in zip("AB", cell.both, strict=True)
            )
        name = display_name("card", spec.name)
        info = f"{name}: {R.card_effect(spec)}{price} " + tr("(i: in full)")
        self.query_one("#card-info", Static).update(Text(info, no_wrap=True))

    def action_card(self) -> None:
        """The focused card (else the first takeable one) in full: effect, cost, the price for
        both players and its chains."""
        focused = self.focused
        if isinstance(focused, CardWidget) and focused.cell.card is not None:
            card = focused.cell.card
        else:
            offers = card_offers(self.state)
            if not offers:
                self.notify(tr("No card to look at now."))
                return
            card = offers[0].card
        body = "\n".join(card_detail(self.state, card))
        buttons = [(tr("Close"), "close")]
        if card in [o.card for o in card_offers(self.state)]:
            buttons.insert(0, (tr("Take it"), "take"))
        self.push_screen(
            InfoScreen(body, buttons, lambda a: self._card_answer(card, a), name="card")
        )

    def _card_answer(self, card: int, answer: str | None) -> None:
        if answer == "take":
            self.take_card(card)

    # --- the game loop --------------------------------------------------------------------------
    def advance(self) -> None:
        """Act for whoever is to move: the dealer, an AI (in a thread), or ask the human."""
        if self.busy or self.starting:
            return
        if len(self.screen_stack) > 1:
            if not isinstance(self.screen, Dialog):
                return  # a review over the game: it looks again when it is closed
            # A dialog is open, or still closing after its answer: look again when it is gone.
            if not self.waiting:
                self.waiting = True
                self.set_timer(0.05, self._advance_later)
            return
        actor = self.game.next_actor()
        if actor == "chance":
            if self.game.dealer.manual:
                self.ask_chance()
                return
            for text in self.game.deal_pending():
                self.say(text)
            self.changed()
        elif actor == "ai":
            self.busy = True
            self.ai_move()
        elif actor == "human":
            if self.state.phase != "play":
                self.action_decide()
        else:
            self.game_over()

    def _advance_later(self) -> None:
        self.waiting = False
        self.advance()

    def changed(self) -> None:
        """The game moved on: the live analysis of the position before stops at once, back to
        the board, redraw, measure the chance of winning, go on."""
        self.restart_analysis()
        self.panel = "analysis" if self.panel == "analysis" else ""
        self.refresh_board()
        self.measure_chance()
        self.call_after_refresh(self.advance)

    # Not exclusive: ``busy`` already lets one AI think at a time, and an exclusive worker
    # cancelled the one that had just played (its thread done, its state not yet set) when the
    # next AI move started at once after a quick redraw: harmless to the game, but
    # ``workers.wait_for_complete`` then raised WorkerCancelled.
    @work(thread=True, group="ai")
    def ai_move(self) -> None:
        move = self.game.ai_choose()
        if self.delay:
            time.sleep(self.delay)
        self.call_from_thread(self._ai_played, move)

    def _ai_played(self, move: Move) -> None:
        self.busy = False
        self.play(move)

    def measure_chance(self) -> None:
        """Value the new position for the graph in a thread (one at a time: a measure under
        way takes the newest position next, so none is cancelled half done)."""
        if self.chance_nodes <= 0 or self.measuring:
            return
        self.values.prune(self.game.states)
        if not self.values.wanted(self.game.states):
            self.draw_chance()
            return
        self.measuring = True
        self._measure()

    @work(thread=True, group="chance")
    def _measure(self) -> None:
        try:
            while True:
                states = list(self.game.states)
                wanted = self.values.wanted(states)
                if not wanted:
                    break
                self.values.analyse(states, wanted[0])
                self.call_from_thread(self.draw_chance)
        except ImportError:
            self.chance_nodes = 0  # no solver: no graph
        finally:
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                self.call_from_thread(self._measured)

    def _measured(self) -> None:
        self.measuring = False
        self.draw_chance()
        self.measure_chance()  # a position played after the thread's last look

    @property
    def chances(self) -> list[float]:
        """A's chance of winning at each position measured so far, in game order."""
        return [value for _, value in self.values.series(self.game.states, self.game.moves)]

    def draw_chance(self) -> None:
        """The graph of A's chance over the game (Textual's Sparkline, from the lowest to the
        highest value reached: the text gives the scale) and the value now, which is the
        hint's where one was asked for."""
        ply = len(self.game.moves)
        self.values.prune(self.game.states)
        data = self.chances
        line = self.query_one("#chance", Sparkline)
        line.display = len(data) >= 2  # one point has no line (Textual draws it full)
        line.data = data
        text = tr("Not measured yet.")
        if data:
            found = self.values.value_at(self.game.states, self.game.moves, ply)
            value, source = found if found is not None else (None, "")
            how = tr("the hint") if source == "hint" else tr("estimate")
            now = (
                tr("A {percent}% now ({how})", percent=f"{100 * value:.0f}", how=how)
                if value is not None
                else tr("measuring...")
            )
            text = now + "\n" + trn(
                len(data),
                "low {low}%, high {high}% over {n} position",
                "low {low}%, high {high}% over {n} positions",
                low=f"{100 * min(data):.0f}",
                high=f"{100 * max(data):.0f}",
            )
        self.query_one("#chance-text", Static).update(text)

    def play(self, move: Move) -> None:
        reason = self.state.why_illegal(move)
        if reason is not None:
            self.notify(tr("Not possible: {reason}", reason=tr_reason(reason)), severity="error")
            return
        self.say(self.game.play(move))
        self.last_hint = tr("Press h for a hint.")
        self.changed()

    # --- live analysis --------------------------------------------------------------------------
    def action_analysis(self) -> None:
        """Live analysis on or off: the position searched while the player thinks, deeper and
        deeper, stopped at once by a move (duel.app.control.analysis). Off between two people:
        neither may consult an engine in a fair game."""
        if all(kind == "human" for kind in self.game.kinds):
            self.notify(
                tr("Live analysis is off in a game between two people (fair play)."),
                severity="warning",
            )
            return
        self.analysis_on = not self.analysis_on
        if self.analysis_on:
            self.notify(tr("Live analysis on: it searches while you think; a: off."))
            if not self.shape.wide:
                self.panel = "analysis"
        else:
            self.notify(tr("Live analysis off."))
            if self.panel == "analysis":
                self.panel = ""
        self.restart_analysis()
        self.refresh_board()

    def stop_analysis(self) -> None:
        if self.analysis is not None:
            self.analysis.stop()
            self.analysis = None

    def restart_analysis(self) -> None:
        """Stop the session of the position before; start one for this position when the
        analysis is on and a human decides here (while an AI thinks, its cores are its own)."""
        session = self.analysis
        if session is not None and session.ply == len(self.game.moves) and self.analysis_on:
            return  # the same position: let it deepen
        self.stop_analysis()
        state = self.state
        if not self.analysis_on or self.game.next_actor() != "human":
            self.draw_analysis()
            return
        self.analysis = AnalysisSession(
            self.game.moves, state.to_move, seed=self.game.hint_seed, steps=self.analysis_steps
        )
        try:
            self.analysis.start()
        except Exception as error:  # noqa: BLE001 - one line, never a traceback
            self.analysis = None
            self.notify(tr("Live analysis failed: {error}", error=error), severity="error")
        self.draw_analysis()

    def poll_analysis(self) -> None:
        if self.analysis is not None:
            before = self.analysis.latest
            if self.analysis.read() is not before:
                self.draw_analysis()

    def draw_analysis(self) -> None:
        session = self.analysis
        snapshot = session.read() if session is not None else None
        running = session is not None and session.running
        with contextlib.suppress(Exception):  # not mounted yet
            shape = self.shape
            width = shape.side - 2 if shape.wide else shape.width - 2
            self.query_one("#analysis", Static).update(
                analysis_text(snapshot, running=running, width=width)
            )
            if self.analysis_on and not shape.wide and self.panel != "analysis":
                line = analysis_summary(snapshot, running=running)
                line.truncate(shape.width)
                self.query_one("#card-info", Static).update(line)

    # --- taking a card --------------------------------------------------------------------------
    def action_number(self, n: int) -> None:
        if self.game.next_actor() != "human" or self.state.phase != "play" or self.busy:
            return
        # A key pressed just after the numbers changed was meant for the board before.
        recent = time.monotonic() - self.numbering_changed < NUMBER_GRACE
        stale = self.game.stale_number(n, self.previous_numbering if recent else None)
        if stale is not None:
            self.numbering_changed = -math.inf  # told: pressed again, it is today's number
            again = tr("Press it again, or click the card.")
            self.notify(f"{stale} {again}", severity="warning")
            return
        offers = card_offers(self.state)
        if 1 <= n <= len(offers):
            self.take_card(offers[n - 1].card)

    def take_card(self, card: int) -> None:
        if self.busy or self.game.next_actor() != "human" or len(self.screen_stack) > 1:
            return
        spec = CARDS[card]
        options = self.game.card_actions(card)
        title = tr(
            "{card} ({colour}: {effect}): build, discard or wonder?",
            card=display_name("card", spec.name),
            colour=R.color_word(spec.color),
            effect=R.card_effect(spec),
        )
        self.push_screen(ChoiceScreen(title, options, self._decided, name="action"))

    def _decided(self, move: Move | None) -> None:
        if move is not None:
            self.play(move)

    # --- the other decisions --------------------------------------------------------------------
    def action_decide(self) -> None:
        """Open the dialog of the current decision (draft, token, Library, destroy...)."""
        state = self.state
        if self.busy or len(self.screen_stack) > 1:
            return
        if self.game.next_actor() == "chance" and self.game.dealer.manual:
            self.ask_chance()
            return
        if self.game.next_actor() != "human":
            return
        if state.phase == "play":
            self.notify(tr("Take a card: its number, or click it."))
            return
        options = [
            (f"{c.label}: {c.detail}" if c.detail else c.label, c.move) for c in R.choices(state)
        ]
        title = R.decision_title(state, self.game.labels)
        if state.phase == "choose_starter":  # the new structure, as the board behind shows it
            title = "\n".join([title, *R.laid_out_text(state)])
        self.push_screen(ChoiceScreen(title, options, self._decided, name=state.phase))

    def ask_chance(self) -> None:
        """--manual-chance: what the real game dealt (the first option deals at random)."""
        state = self.state
        outcomes = [m for m, _ in state.chance_outcomes()]
        phase = state.phase
        if phase in ("deal_guilds", "library_draw"):
            question = (
                tr(
                    "Age III is laid out. Which three cards have the guild back? row.card, row 1 "
                    "the most covered (e.g. 2.1 4.2 6.3); empty: deal at random"
                )
                if phase == "deal_guilds"
                else tr(
                    "Which tokens did The Great Library draw? Three names, separated by "
                    "commas; empty: deal at random"
                )
            )
            self.push_screen(TextScreen(question, self._chance_text, name=phase))
            return
        if phase == "reveal":
            row, place = R.slot_place(state.age, outcomes[0].slot)
            if state.age == 3 and state.is_guild_slot(outcomes[0].slot):
                title = tr(
                    "Which guild card was turned face up in row {row}, card {place}?",
                    row=row,
                    place=place,
                )
            else:
                title = tr(
                    "Which card was turned face up in row {row}, card {place}?",
                    row=row,
                    place=place,
                )
            names = [display_name("card", CARDS[m.card].name) for m in outcomes]
        elif phase == "setup_tokens":
            title = tr("Which progress token was put on the board?")
            names = [display_name("token", TOKENS[m.token].name) for m in outcomes]
        else:
            title = tr("Which wonder was revealed for the draft?")
            names = [display_name("wonder", WONDERS[m.wonder].name) for m in outcomes]
        options = [(tr("(deal at random)"), "random")] + sorted(
            zip(names, outcomes, strict=True), key=lambda o: o[0]
        )
        self.push_screen(ListScreen(title, options, self._chance_chosen, name=phase))

    def _chance_chosen(self, move: Move | str | None) -> None:
        if move is None:  # the dialog was closed: 'c' opens it again
            return
        self.game.push(move if isinstance(move, Move) else self.game.deal())
        self.say(self.game.announce_dealt([self.game.moves[-1]])[0])
        self.changed()

    def _chance_text(self, text: str | None) -> None:
        from duel.app.text.typed import guild_slots_typed, match_name

        state = self.state
        if text is None:
            return
        if not text:
            self._chance_chosen("random")
            return
        if state.phase == "deal_guilds":
            try:
                move = Move.deal_guilds(guild_slots_typed(text))
            except ValueError as error:
                self.notify(str(error), severity="error")
                self.call_after_refresh(self.ask_chance)
                return
        else:
            box = state.box_tokens
            names = [TOKENS[t].name for t in box]
            mask = 0
            for part in (p for p in text.split(",") if p.strip()):
                found = match_name(part, names)
                if isinstance(found, int):
                    mask |= 1 << box[found]
            move = Move.library_draw(mask)
            if move not in [m for m, _ in state.chance_outcomes()]:
                listed = ", ".join(names)
                self.notify(tr("Type three tokens from: {names}", names=listed), severity="error")
                self.call_after_refresh(self.ask_chance)
                return
        self._chance_chosen(move)

    # --- commands on keys -----------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="hint")
    def action_hint(self) -> None:
        state = self.state
        if state.is_terminal() or state.is_chance():
            return
        self.call_from_thread(self._show_hint_text, tr("Thinking..."))
        try:
            hint = self.game.hint(self.think, nodes=self.hint_nodes)
        except ImportError:
            self.call_from_thread(self._show_hint_text, tr("Hints need the solver."))
            return
        lines = self.game.hint_lines(hint)
        if state is self.state:
            best = hint.moves[0].value if hint.moves else None
            if best is not None:  # the graph's point here is the hint's value
                chance = best if hint.player == 0 else 1.0 - best
                values = [(m.move, m.value) for m in hint.moves]
                self.call_from_thread(self._hinted, state, chance, values)
            self.call_from_thread(self._show_hint_text, "\n".join(lines))

    def _hinted(self, state: State, chance: float, values: list) -> None:
        if state is self.state:
            self.values.hinted(len(self.game.moves), state, chance, values)
            self.draw_chance()

    def _show_hint_text(self, text: str) -> None:
        self.last_hint = text
        self.query_one("#hint", Static).update(text)
        self.keep_newest_moves()
        if len(self.screen_stack) == 1 and not self.shape.wide and self.panel != "hint":
            self.panel = "hint"  # a narrow terminal: the hint in place of the board
            self.refresh_board()
        elif len(self.screen_stack) > 1 and text != tr("Thinking..."):  # the panel is hidden
            self.notify(text, title=tr("Hint"), timeout=15)

    def _close_dialogs(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_undo(self) -> None:
        if self.busy:
            self.notify(tr("Wait for the AI's move."))
            return
        undone = self.game.undo()
        if isinstance(undone, str):
            self.notify(undone, severity="error")
            return
        self._close_dialogs()
        self.say(undone.text)
        self.notify(undone.text)
        self.changed()

    def action_save(self) -> None:
        default = str(self.game.save_path or "duel-game.json")
        question = tr("Save the game to:")
        self.push_screen(TextScreen(question, self._save_to, default, name="save"))

    def _save_to(self, name: str | None, then_quit: bool = False) -> None:
        if name is None:  # Escape: not saved
            return
        try:
            self.game.save(save_target(name))
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or error
            failed = tr("Could not save to {name}: {reason}", name=quoted(name), reason=reason)
            self.notify(failed, severity="error")
            return
        self.notify(tr("Game saved to {name} ({n} moves).", name=name, n=len(self.game.moves)))
        if then_quit:
            self.leave()

    def action_load(self) -> None:
        self.push_screen(TextScreen(tr("Load the game from:"), self._load_from, name="load"))

    def _load_from(self, name: str | None) -> None:
        if not name or self.busy:
            return
        try:
            path = file_named(name)
            problem = self.game.load(path)
        except (RecordError, ValueError) as error:
            self.notify(tr("Could not load: {error}", error=tr_error(error)), severity="error")
            return
        self._close_dialogs()
        self.log_lines = self.game.history()
        if problem:
            self.say(tr("{problem}: that player is played by a human now.", problem=problem))
        self.say(self.game.loaded_text(path))
        self.values.clear(self.game.hint_seed)
        self.changed()

    def action_quit_game(self) -> None:
        if not (self.game.dirty and self.game.moves):
            self.leave()
            return
        body = tr("The game changed since it was saved. Save it before leaving?")
        buttons = [(tr("Save and quit"), "save"), (tr("Quit"), "quit"), (tr("Cancel"), "cancel")]
        self.push_screen(InfoScreen(body, buttons, self._quit_answer, name="quit"))

    def _quit_answer(self, answer: str | None) -> None:
        if answer == "quit":
            self.leave()
        elif answer == "save":
            default = str(self.game.save_path or "duel-game.json")
            self.push_screen(
                TextScreen(
                    tr("Save the game to:"),
                    lambda name: self._save_to(name, then_quit=True),
                    default,
                    name="save",
                )
            )

    def leave(self) -> None:
        self.stop_analysis()
        self.left = True
        self.exit(0)

    # --- the start screen -----------------------------------------------------------------------
    def open_start(self) -> None:
        self.push_screen(StartScreen(self._start_chosen))

    def _back(self) -> None:
        if len(self.screen_stack) > 1:
            self.pop_screen()

    def _start_chosen(self, what: str) -> None:
        if what == "new":
            level = self.opponent_level().partition(":")[0]
            self.push_screen(NewGameScreen(self.new_game, self._back, level=level,
                                           think=self.think))
        elif what in ("load", "review"):
            done = self.load_game if what == "load" else self.review_file
            self.push_screen(FileScreen(what, done, self._back))
        elif what == "quit":
            self.action_quit_game()

    def opponent_level(self) -> str:
        """The AI level of the game now (its first AI seat), else the default (cmcts)."""
        for kind in self.game.kinds:
            if kind != "human":
                return kind
        return default_player("cmcts")

    def new_game(self, choice: NewGame) -> None:
        """Start the game chosen on the start screen."""
        from datetime import UTC, datetime

        if choice.expansions:
            self._hand_over(HandOff(game=choice))
            return

        game = GameController(
            choice.kinds,
            Dealer(seed=choice.seed),
            think=choice.think,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        try:
            game.set_players()
        except ValueError as error:
            if isinstance(self.screen, MenuScreen):
                self.screen.show_error(str(error))
            return
        self.think = choice.think
        kinds = game.kinds
        said = tr(
            "7 Wonders Duel: A ({a}) against B ({b}), {dealer}.",
            a=tr(kinds[0]) if kinds[0] == "human" else kinds[0],
            b=tr(kinds[1]) if kinds[1] == "human" else kinds[1],
            dealer=game.dealer.label(),
        )
        self.start_game(game, [said])

    def load_game(self, path: Path) -> str | None:
        """Continue a saved game (from the start screen); what is wrong with it, if it cannot."""
        from duel.app.control.xsaves import is_expansion_file
        from duel.app.screen.start import expansion_save_problem

        if is_expansion_file(path):
            problem = expansion_save_problem(path)
            if problem is None:
                self._hand_over(HandOff(path=path))
            return problem
        game = GameController(["human", self.opponent_level()], Dealer(), think=self.think)
        try:
            problem = game.load(path)
        except (RecordError, ValueError, OSError) as error:
            return tr("Could not load {path}: {error}", path=path, error=tr_error(error))
        if problem:
            said = [tr("{problem}: that player is played by a human now.", problem=problem)]
        else:
            said = []
        said.append(game.loaded_text(path))
        self.start_game(game, said, history=True)
        return None

    def _hand_over(self, hand_off: HandOff) -> None:
        """Close the app for an expansion game's own table (run_app runs it); the game of this
        app is saved first if it changed."""
        if self.game.dirty and self.game.moves:
            self.saved_to, _ = self.game.autosave()
        self.hand_off = hand_off
        self.left = True
        self.exit(0)

    def start_game(self, game: GameController, said: list[str], *, history: bool = False) -> None:
        """Play ``game`` from now on (a new one, a loaded one, a what-if from a review): the game
        before is kept (autosaved) if it changed since it was saved."""
        old = self.game
        if old is not game and old.dirty and old.moves:
            place, _ = old.autosave()
            if place is not None:
                said = [tr("The game before was saved to {place}.", place=place), *said]
        self.game = game
        self.starting = False
        self.log_lines = game.history() if history else []
        for text in said:
            self.say(text)
        self.values.clear(self.game.hint_seed)
        self.last_hint = tr("Press h for a hint: the best moves and the expected line.")
        self.shown_numbering, self.previous_numbering = (), None
        self._close_dialogs()
        self.changed()

    # --- the review -----------------------------------------------------------------------------
    def review_file(self, path: Path) -> str | None:
        """Review a record (from the start screen); what is wrong with it, if it cannot."""
        from duel.app.control.xsaves import is_expansion_file

        if is_expansion_file(path):
            from duel.app.screen.xreview import open_xreview

            return open_xreview(self, path, self._review_closed)
        try:
            record = GameRecord.load(path)
        except (RecordError, ValueError, OSError) as error:
            return tr("Could not read {path}: {error}", path=path, error=tr_error(error))
        self.open_review(record)
        return None

    def open_review(self, record: GameRecord, *, seed: int = 0) -> None:
        """The review screen of ``record``, computed by ``duel review``'s engine in a thread."""
        level = self.review_level or default_player("cmcts")
        self.push_screen(
            ReviewScreen(
                record,
                level=level,
                seconds=self.review_seconds,
                workers=self.review_workers,
                seed=seed,
                back=self._review_closed,
            )
        )

    def _review_closed(self) -> None:
        self._back()
        if not self.starting:
            self.call_after_refresh(self.advance)  # a finished game: its final score again

    def play_from(self, record: GameRecord, ply: int) -> None:
        """A what-if game from position ``ply`` of ``record``: the human plays who moves
        there, against the AI level of the game (cmcts by default); see
        :func:`duel.app.screen.review.what_if_game`."""
        from duel.app.screen.review import what_if_game

        try:
            game = what_if_game(record, ply, self.opponent_level(), think=self.think)
        except ValueError as error:
            self.notify(tr("Cannot play from here: {error}", error=error), severity="error")
            return
        kinds = game.kinds
        said = tr(
            "What if: from move {n} of the game reviewed, A ({a}) against B ({b}); {dealer}.",
            n=ply,
            a=tr(kinds[0]) if kinds[0] == "human" else kinds[0],
            b=tr(kinds[1]) if kinds[1] == "human" else kinds[1],
            dealer=game.dealer.label(),
        )
        self.start_game(game, [said], history=True)

    # --- signals --------------------------------------------------------------------------------
    def _catch_signals(self, *, install: bool) -> None:
        """SIGHUP (the terminal closed), SIGTERM and SIGINT (``kill -INT``; the Ctrl-C key is a
        key here) save the game and leave, through the event loop."""
        route_signals_to_loop(SAVE_ON_SIGNALS, self.signalled, install=install)

    def on_unmount(self) -> None:
        self._catch_signals(install=False)

    def signalled(self, signum: int) -> None:
        """Save at once (after a hang-up the terminal is gone, and restoring it may fail),
        then leave with 128 + the signal, 130 for SIGINT as Ctrl-C in the line mode."""
        if self.stopped_by is not None:
            return
        self.stopped_by = signum
        code = 128 + signum
        if self.game.dirty and self.game.moves:
            self.saved_to, _ = self.game.autosave()
            code = code if self.saved_to is not None else 1
        if self.watchdog is not None:
            # Textual's shutdown can block for good once the terminal is gone (its writer
            # thread stops taking output): the game is saved, so leave anyway after a while.
            self.watchdog = threading.Timer(EXIT_GRACE, os._exit, args=(code,))
            self.watchdog.daemon = True
            self.watchdog.start()
        self.exit(code)

    def game_over(self) -> None:
        state = self.state
        body = R.render_final(state, self.game.labels)
        buttons = [(tr("Review"), "review"), (tr("Board"), "board"), (tr("Undo"), "undo"),
                   (tr("Save"), "save"), (tr("Quit"), "quit")]
        self.push_screen(InfoScreen(body, buttons, self._over_answer, name="over"))

    def _over_answer(self, answer: str | None) -> None:
        if answer == "review":
            self.open_review(self.game.record())
        elif answer == "undo":
            self.action_undo()
        elif answer == "save":
            self.action_save()
        elif answer == "quit":
            self.action_quit_game()


#: The signals after which the app saves the game and leaves: the line mode's, and SIGINT (the
#: app reads Ctrl-C as a key, so SIGINT comes only from ``kill -INT``).
SAVE_ON_SIGNALS = (*SAVE_SIGNALS, signal.SIGINT)


def run_app(
    game: GameController | None, *, think: float, delay: float, **options: Any
) -> int:
    """Run the full-screen app on this terminal (``game`` None: the start screen first;
    ``options``: the review's, see :class:`DuelApp`); the exit code (0, 1 if a game to keep
    could not be saved, 128 + the signal that stopped it)."""
    app = DuelApp(game, think=think, delay=delay, **options)
    app.watchdog = False
    code: Any = 1
    try:
        code = app.run()
    finally:
        if isinstance(app.watchdog, threading.Timer):
            app.watchdog.cancel()
        # An error, a signal, the terminal gone: whatever ended the app, keep the game.
        game = app.game  # the start screen, a what-if: the game the app played last
        place = app.saved_to
        if game.dirty and game.moves and not app.left:
            place, _ = game.autosave()
            if place is None:
                code = 1
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
            if app.stopped_by is not None:
                print(tr("Stopped by {signal}.", signal=signal.Signals(app.stopped_by).name))
            if place is not None:
                again = f"duel play --load {shlex.quote(str(place))}"
                print(tr("Game saved to {place}. Continue it with: {again}", place=place,
                         again=again))
    if app.stopped_by is not None and code != 1:
        return 128 + app.stopped_by
    if app.hand_off is not None:
        from duel.app.screen.start import run_hand_off

        return run_hand_off(app.hand_off)
    return code if isinstance(code, int) else 0
