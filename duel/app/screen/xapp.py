"""``duel play --expansions pantheon`` full screen: the table of an expansion game, its moves
as a list to pick from, a line to type a move in, and a hand-over screen between two humans.

The game's control is :class:`duel.app.line.xplay.XGameControl` (the line mode's too); this module
only draws it. The table is the view of the human to move (of the one human against an AI): the
opponent's face-down Divinity shows as its Mythology only. The AI thinks in a worker thread, so
the screen stays responsive.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from duel.app.control.signals import SAVE_SIGNALS, route_signals_to_loop
from duel.app.control.xgame import XGameControl, close_xgame, hint_lines, open_xgame
from duel.app.control.xundo import UNDO_WORDS
from duel.app.i18n import N_, tr
from duel.app.screen.board import geometry, show_too_small, translate_bindings
from duel.app.text.xboard import EXPANSION_TITLES, board_lines, compact_board_lines, move_line
from duel.expansions import XMove, XState
from duel.moves import PLAYER_NAMES

#: The signals after which the app leaves (the game is saved after every move already): the
#: terminal closed, a kill, and SIGINT from ``kill -INT`` (Ctrl-C is a key here).
LEAVE_ON_SIGNALS = (*SAVE_SIGNALS, signal.SIGINT)
#: Seconds the app may take to leave after a signal before the process ends without it.
EXIT_GRACE = 3.0


class HandOver(ModalScreen[None]):
    """Between two humans: the table is hidden until the next player says they sit there."""

    def __init__(self, player: int) -> None:
        super().__init__(name="hand-over")
        self.player = player

    def compose(self) -> ComposeResult:
        name = PLAYER_NAMES[self.player]
        with Vertical(id="hand-over"):
            yield Label(tr("Pass the terminal to player {player}.", player=name))
            yield Button(tr("I am player {player}", player=name), id="ready", variant="primary")

    @on(Button.Pressed, "#ready")
    def ready(self) -> None:
        self.dismiss(None)

    def key_enter(self) -> None:
        self.dismiss(None)


class XApp(App[int]):
    """The full-screen game of :class:`~duel.app.line.xplay.XGameControl`."""

    CSS = """
    #too-small { height: 1fr; content-align: center middle; display: none; }
    #top { height: 1fr; }
    #board-scroll { height: 1fr; border: round $accent; }
    #moves { height: 1fr; border: round $primary; }
    #top.narrow #board-scroll { border: none; }
    #top.narrow #moves { border: none; border-top: solid $primary; padding: 0; }
    #log { height: 3; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    #hand-over { align: center middle; width: 60; height: 9; border: thick $accent;
                 background: $surface; padding: 1 2; }
    HandOver { align: center middle; }
    """
    BINDINGS = [
        Binding("ctrl+q", "leave", N_("Quit")),
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("f2", "hint", N_("Hint")),
        Binding("f3", "panel('moves')", N_("Moves")),
        Binding("f4", "panel('board')", N_("Board")),
    ]

    def __init__(self, control: XGameControl) -> None:
        super().__init__()
        self.control = control
        self.player: int | None = None
        self.moves: list[XMove] = []
        self.busy = False
        self.lines: list[str] = []
        #: Counts the decisions shown: a hint still thinking when its turn is over is dropped.
        self.turn = 0
        #: The signal that ended the app, if one did, and the timer that ends the process if
        #: the app does not leave (cancelled once it has).
        self.stopped_by: int | None = None
        self.watchdog: threading.Timer | None = None
        control.notify = self.say
        #: The table drawn (the view of the player deciding, or the referee's at the end).
        self.table: XState | None = None
        #: A terminal narrower than duel.app.screen.board.WIDE shows one panel at a time on
        #: F3 (the move list) and F4 (the table in its long form) in place of the short table;
        #: "" for the short table and the moves under it.
        self.panel = ""
        #: The hint's lines stay in the log until the next line: a narrow log shows its last
        #: line only, but all of a hint's.
        self.hint_shown = False

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        with Container(id="top"):
            with VerticalScroll(id="board-scroll"):
                yield Static(id="board")
            yield OptionList(id="moves")
        yield Input(placeholder=tr("Move: a number, the notation, or hint"), id="entry")
        yield Static(id="log")
        yield Footer()

    def on_resize(self) -> None:
        self.call_after_refresh(self.arrange)

    # --- layout: the base game's sizes (duel.app.screen.board.geometry) ----------------------
    def arrange(self) -> None:
        """Share the screen at its size. From duel.app.screen.board.WIDE columns the moves
        stand beside the table; below, the table comes first, in its short form
        (:func:`~duel.app.text.xboard.compact_board_lines`) where the long one does not fit,
        and the move list takes the lines left (F3 shows it in place of the table when fewer
        than three are left). Below 80x24 one line asks for a larger terminal."""
        width, height = self.size
        shape = geometry(width, height, 0)
        if show_too_small(self, shape, ("#top", "#entry", "#log", "Footer")):
            return
        top = self.query_one("#top")
        board = self.query_one("#board-scroll")
        moves = self.query_one("#moves", OptionList)
        entry = self.query_one("#entry", Input)
        log = self.query_one("#log")
        top.set_class(not shape.wide, "narrow")
        entry.compact = not shape.wide
        log_rows = 3 if shape.wide else len(self._log_lines(wide=False))
        log.styles.height = max(1, log_rows)
        moves.border_title = tr("Moves")
        if shape.wide:
            self.panel = ""
            top.styles.layout = "horizontal"
            board.display = moves.display = True
            board.styles.height = "1fr"
            moves.styles.width = shape.side
            moves.styles.height = "1fr"
            # Inside the table's border, beside the moves.
            self._draw_table(width - shape.side - 2, height - 3 - 3 - 1 - 2)
            self._show_log()
            return
        top.styles.layout = "vertical"
        moves.styles.width = "1fr"
        room = height - 1 - 1 - max(1, log_rows)  # the keys, the entry, the log
        # The moves under the table where three lines are left (their heading and two),
        # else on F3.
        rows = self._draw_table(width, room - 3)
        if not self.panel and rows > room - 3:
            rows = self._draw_table(width, room)
        board.display = self.panel != "moves"
        moves.display = self.panel == "moves" or (not self.panel and room - rows >= 3)
        if self.panel:
            board.styles.height = moves.styles.height = "1fr"
        elif moves.display:
            board.styles.height = rows
            moves.styles.height = room - rows
        else:
            board.styles.height = "1fr"
        self._show_log()

    def _draw_table(self, width: int, room: int) -> int:
        """Draw the table in ``width`` columns: its long form where it fits in ``room`` lines
        (or F4 asked for it), else its short form; the lines it takes."""
        board = self.query_one("#board", Static)
        if self.table is None:
            board.update("")
            return 0
        lines = board_lines(self.table)
        if self.panel != "board" and _rows(lines, width) > room:
            # A column for the scroll bar.
            lines = compact_board_lines(self.table, width - 1, room)
        board.update(Text("\n".join(lines)))
        return _rows(lines, width)

    def action_panel(self, name: str) -> None:
        """F3, F4 on a narrow terminal: the moves or the long table in place of the short
        table (the same key again brings it back); on a wide one the moves get the focus."""
        if geometry(*self.size, 0).wide:
            if name == "moves":
                self.query_one("#moves").focus()
            return
        self.panel = "" if name == self.panel else name
        self.arrange()

    def on_mount(self) -> None:
        self.title = (
            tr("7 Wonders Duel")
            + ": "
            + " + ".join(tr(EXPANSION_TITLES[e]) for e in self.control.expansions)
        )
        translate_bindings(self)  # the keys' names in the language in use
        self._catch_signals(install=True)
        self.next_decision()

    def on_unmount(self) -> None:
        self._catch_signals(install=False)

    # --- signals: through the event loop, never in the middle of a redraw ----------------------
    def _catch_signals(self, *, install: bool) -> None:
        route_signals_to_loop(LEAVE_ON_SIGNALS, self.signalled, install=install)

    def signalled(self, signum: int) -> None:
        """Leave with 128 + the signal. Textual's shutdown can block for good once the terminal
        is gone, so the process ends anyway after a while: the game is on disk already."""
        if self.stopped_by is not None:
            return
        self.stopped_by = signum
        self.watchdog = threading.Timer(EXIT_GRACE, os._exit, args=(128 + signum,))
        self.watchdog.daemon = True
        self.watchdog.start()
        self.exit(128 + signum)

    # --- messages from the control (the AI's moves), from any thread --------------------------
    def say(self, text: str) -> None:
        if threading.current_thread() is threading.main_thread():
            self._add_line(text)
        else:
            self.call_from_thread(self._add_line, text)

    def _add_line(self, text: str) -> None:
        self.lines = [*self.lines[-2:], text]
        self.hint_shown = False
        self.arrange()

    def _log_lines(self, wide: bool) -> list[str]:
        """The log's lines shown: three where the screen is wide, else the last one only (all
        of a hint's)."""
        return self.lines if wide or self.hint_shown else self.lines[-1:]

    def _show_log(self) -> None:
        # The CSS keeps each line on one row (an ellipsis where it is too long): a wrapped line
        # would push the older ones out of the three-line log. Text: a card name is never markup.
        lines = self._log_lines(geometry(*self.size, 0).wide)
        self.query_one("#log", Static).update(Text("\n".join(lines)))

    def _show_in_turn(self, turn: int, lines: list[str]) -> None:
        """Replaces the log by ``lines`` (a hint: heading and moves) if the decision they are
        about is still on the screen."""
        if turn == self.turn:
            self.lines = list(lines[-3:])
            self.hint_shown = True
            self.arrange()

    def hide_everything(self) -> None:
        """Before the hand-over: nothing of the previous player's stays on the screen (the
        table, the moves, the log with their hints and messages, the text being typed)."""
        self.lines = []
        self.hint_shown = False
        self.table = None
        self.query_one("#log", Static).update("")
        self.query_one("#board", Static).update("")
        self.query_one("#moves", OptionList).clear_options()
        self.query_one("#entry", Input).value = ""
        self.moves = []

    # --- the turn ------------------------------------------------------------------------------
    @work(thread=True, exclusive=True)
    def next_decision(self) -> None:
        """Deal and let the AI play (off the screen's thread) up to a human's decision."""
        self.busy = True
        player = self.control.advance()
        self.call_from_thread(self.show_turn, player)

    def show_turn(self, player: int | None) -> None:
        self.busy = False
        self.player = player
        self.turn += 1
        if player is None:
            self.table = self.control.view()
            self.panel = ""
            self.query_one("#moves", OptionList).clear_options()
            self.arrange()
            self.say(self.control.result())
            return
        if self.control.needs_hand_over(player):
            self.hide_everything()
            self.push_screen(HandOver(player), lambda _: self.show_decision(player))
            return
        self.show_decision(player)

    def show_decision(self, player: int) -> None:
        view = self.control.view(player)
        self.table = view
        self.panel = ""  # a new decision: the table first
        self.moves = view.legal_moves()
        options = self.query_one("#moves", OptionList)
        options.clear_options()
        options.add_options(
            [Option(f"{n:3}  {move_line(view, m)}") for n, m in enumerate(self.moves, 1)]
        )
        options.highlighted = 0
        self.arrange()
        self.query_one("#entry", Input).focus()

    def play(self, move: XMove) -> None:
        if self.player is None or self.busy:
            return
        self.player = None
        self.control.play(move)
        self.query_one("#entry", Input).value = ""
        self.next_decision()

    @on(OptionList.OptionSelected, "#moves")
    def picked(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.moves):
            self.play(self.moves[event.option_index])

    @on(Input.Submitted, "#entry")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.player is None or not text:
            return
        if text.lower() == "hint":
            self.action_hint()
            return
        if text.lower() in ("quit", "exit"):
            self.action_leave()
            return
        if text.lower() in UNDO_WORDS:
            from duel.app.control.xundo import undo

            self.say(undo(self.control))
            self.query_one("#entry", Input).value = ""
            self.next_decision()
            return
        move = self.control.read_move(self.player, text)
        if isinstance(move, str):
            self.say(move)
            return
        self.play(move)

    @work(thread=True, exclusive=True, group="hint")
    def action_hint(self) -> None:
        if self.player is None:
            return
        turn = self.turn
        view = self.control.view(self.player)
        # The log holds three lines: the heading and the two best moves, each on its own line.
        lines, _ = hint_lines(view, self.control.think, 2)
        # Shown only if the same decision is still on the screen: never after a hand-over.
        self.call_from_thread(self._show_in_turn, turn, lines)

    def action_leave(self) -> None:
        self.exit(0 if self.control.state.is_terminal() else 1)

    def action_interrupt(self) -> None:
        """Ctrl-C: as in the line mode, save and leave (exit 130); the caller then says where
        the game is. The game is saved after every move already: this save tries again if the
        last one failed."""
        if self.control.state.is_terminal():
            self.exit(0)
            return
        if self.control.saved_moves < len(self.control.moves) or self.control.saved_to is None:
            self.control.save()
        self.exit(130)


def _rows(lines: list[str], width: int) -> int:
    """The lines ``lines`` take in ``width`` columns, a long one wrapped."""
    return sum(max(1, -(-cell_len(line) // max(1, width))) for line in lines)


def run_xscreen(control: XGameControl) -> int:
    """Run the full-screen game; the exit code: 0 finished, 1 left unfinished, 128 + the signal
    that ended it."""
    app = XApp(control)
    try:
        code = app.run()
    finally:
        if app.watchdog is not None:
            app.watchdog.cancel()
    return 1 if code is None else code


def play_xgame(
    expansions: tuple[str, ...],
    seats: tuple[str | None, str | None],
    *,
    seed: int | None = None,
    think: float | None = None,
    record: Path | None = None,
    load: Path | None = None,
) -> int:
    """Play a game with ``expansions`` (or continue the one saved in ``load``) full screen
    (:func:`duel.app.control.xgame.open_xgame` says what the arguments mean); the exit code as
    :func:`run_xscreen`'s, 2 if the game could not start. The app catches the signals in its
    event loop; every move is saved as it is played."""
    control = open_xgame(expansions, seats, seed=seed, think=think, record=record, load=load)
    if control is None:
        return 2
    code = run_xscreen(control)
    close_xgame(control, print)
    return code
