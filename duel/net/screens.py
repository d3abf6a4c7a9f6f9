"""``duel join``: the local app's full-screen views, fed by the server instead of a local game.

* The base game: :class:`RemoteGame` is a :class:`~duel.app.control.game.GameController`
  whose "AI" is the server: when the seat does not decide, the app's worker waits for the
  server's next move (the opponent's, or a card dealt) instead of asking an AI; the seat's own
  moves go to the server as they are played. :class:`NetDuelApp` is the app with the clocks
  in its status line, and without undo, load and (unless the host allowed them) hints.
* The expansions: :class:`RemoteXControl` has the interface of
  :class:`~duel.app.line.xplay.XGameControl` that :class:`~duel.app.screen.xapp.XApp` draws;
  :class:`NetXApp` adds the clocks and the hints' rule.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual import work
from textual.binding import Binding

from duel.app.control.game import Dealer, GameController
from duel.app.i18n import N_, tr
from duel.app.screen.app import DuelApp, InfoScreen
from duel.app.screen.xapp import XApp
from duel.app.text.xboard import board_lines
from duel.expansions import XMove
from duel.moves import PLAYER_NAMES, Move
from duel.net.referee import wire
from duel.net.seat import RemoteSeat

#: Seconds between looks at the connection while a worker waits for the server.
WAIT = 0.25


class RemoteGame(GameController):
    """The base game of a seat, played through the server (see the module's help)."""

    def __init__(self, seat: RemoteSeat) -> None:
        players = seat.connection.players
        super().__init__(kinds=[players[0], players[1]], dealer=Dealer())
        self.seat = seat
        self.states = list(seat.game.states)
        self.moves = list(seat.game.moves)
        self.sent: tuple[int, int] | None = None
        self.errors_seen = len(seat.connection.errors)

    def next_actor(self) -> str:
        if self.seat.over or self.state.is_terminal():
            return "over"
        state = self.state
        if not state.is_chance() and state.to_move == self.seat.player:
            return "human"
        return "ai"  # the server: the opponent, or the dealer

    def is_human(self, player: int) -> bool:
        return player == self.seat.player

    def push(self, move: Move) -> Any:
        after = self.state.apply(move)
        self.moves.append(move)
        self.states.append(after)
        return after  # not dirty: the game is kept on the server

    def play(self, move: Move) -> str:
        before = self.state
        if self.next_actor() == "human":
            ply = len(self.moves)
            self.sent = (ply, self.seat.connection.reconnects)
            self.seat.net.play(ply, wire(move))  # if it is not sent, the wait sends it again
        return self.move_text(before, self.push(move), move)

    def wait_next(self, closing: Callable[[], bool]) -> Move | None:
        """The server's next move after the local ones (None: the game is over, the local game
        left the server's and must be brought back in step, or the app is closing)."""
        while not closing():
            self.seat.wait(WAIT)
            if self.seat.over:
                return None
            server = self.seat.game.moves
            connection = self.seat.connection
            if len(connection.errors) > self.errors_seen:
                self.errors_seen = len(connection.errors)
                return None  # a move refused: take the server's game
            mine = len(self.moves)
            if server[: min(len(server), mine)] != self.moves[: min(len(server), mine)]:
                return None
            if len(server) > mine:
                return server[mine]
            ply = len(server)
            online = connection.my_turn and connection.link == "online"
            if ply < mine and online and self.sent != (ply, connection.reconnects):
                self.sent = (ply, connection.reconnects)  # lost on the way: sent again
                self.seat.net.play(ply, wire(self.moves[ply]))
        return None

    def resync(self) -> None:
        self.states = list(self.seat.game.states)
        self.moves = list(self.seat.game.moves)

    def undo(self) -> str:
        return tr("No undo in a network game: the server is the referee.")


class NetDuelApp(DuelApp):
    """The full-screen base game of a network seat (see the module's help)."""

    # Ctrl-R resigns (asking first); off the key line, which 80 columns fill already. A priority
    # binding: a decision's dialog (the draft's, a token's) is modal and hides the app's other
    # keys, and the player may want to resign while one is open.
    BINDINGS = [
        *DuelApp.BINDINGS,
        Binding("ctrl+r", "resign", N_("Resign"), show=False, priority=True),
    ]

    def __init__(self, seat: RemoteSeat, **options: Any) -> None:
        hints = seat.connection.hints
        super().__init__(RemoteGame(seat), chance_nodes=2000 if hints else 0, **options)
        self.seat = seat
        self.closing = False
        self.over_shown = False
        self.log_lines = [seat.seat_text(), seat.hints_text(), *self.game.history()]
        if not hints:
            self.last_hint = seat.hints_text()

    # Textual calls the handlers of every class of the MRO: DuelApp's on_mount (which starts the
    # game) runs before these, and calling it again here would open each dialog twice.
    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)

    def on_unmount(self) -> None:
        self.closing = True

    def tick(self) -> None:
        """The clocks and the link, once a second."""
        if not self.shape.too_small:
            self.query_one("#status").update(self.header(self.shape.width))  # type: ignore[attr-defined]
        link = self.seat.link_text()
        before = getattr(self, "_link", "")
        if link and link != before:
            self.notify(link, severity="warning")
        elif before and not link:
            self.notify(tr("Connected again: the game goes on."))
        self._link = link
        if self.seat.over and not self.over_shown and not self.busy:
            self._close_dialogs()  # ended on the seat's move: on time, or resigned
            self.changed()

    def header(self, width: int):
        """The clocks first (they must show at 80 columns), then the local app's status."""
        clocks = self.seat.clocks_text()
        if not clocks:
            return super().header(width)
        from rich.text import Text

        text = Text(clocks + " ", style="bold")
        text.append_text(super().header(max(width - text.cell_len, 20)))
        return text

    def dealer_tag(self) -> str:
        return tr("network game")

    @work(thread=True, exclusive=True, group="ai")
    def ai_move(self) -> None:
        move = self.game.wait_next(lambda: self.closing)  # type: ignore[attr-defined]
        if not self.closing:
            self.call_from_thread(self._from_server, move)

    def _from_server(self, move: Move | None) -> None:
        self.busy = False
        if move is not None:
            self.play(move)
            return
        if not self.seat.over:
            problem = self.seat.connection.errors[-1][0] if self.seat.connection.errors else ""
            if problem:
                self.notify(self.seat.error_text(problem), severity="error")
        self.game.resync()  # type: ignore[attr-defined]
        self.log_lines = [*self.log_lines[:2], *self.game.history()]
        self.changed()

    def action_hint(self) -> None:  # type: ignore[override]  # refuses, no worker
        if not self.seat.connection.hints:
            self.notify(self.seat.hints_text(), severity="warning")
            return
        super().action_hint()

    def action_load(self) -> None:
        self.notify(tr("A network game cannot load another game."), severity="warning")

    def action_resign(self) -> None:
        if self.seat.player is None or self.seat.over:
            return
        if any(screen.name == "resign" for screen in self.screen_stack):
            return  # asked already (Ctrl-R again while the question is open)
        body = tr("Resign the game? Your opponent wins.")
        buttons = [(tr("Resign"), "resign"), (tr("Cancel"), "cancel")]
        self.push_screen(InfoScreen(body, buttons, self._resign_answer, name="resign"))

    def _resign_answer(self, answer: str | None) -> None:
        if answer == "resign":
            self.seat.net.resign()

    def action_quit_game(self) -> None:
        self.leave()

    def game_over(self) -> None:
        if self.over_shown:
            return
        self.over_shown = True
        if self.state.is_terminal():
            super().game_over()
        else:  # a loss on time or a resignation: no final score to draw
            buttons = [(tr("Review"), "review"), (tr("Board"), "board"), (tr("Quit"), "quit")]
            self.push_screen(
                InfoScreen(self.seat.result_text(), buttons, self._over_answer, name="over")
            )
        self.say(self.seat.result_text())
        self.say(self.seat.review_text())


class RemoteXControl:
    """An expansion game's seat through the server, with the interface of
    :class:`~duel.app.line.xplay.XGameControl` that the full-screen app draws."""

    def __init__(self, seat: RemoteSeat) -> None:
        self.seat = seat
        self.expansions = seat.game.expansions
        self.think = 1.0
        self.notify: Callable[[str], None] = print
        #: Called (from the waiting thread) when the game moved on while the seat waits.
        self.moved: Callable[[], None] = lambda: None
        self.told = len(seat.game.moves)
        self.sent: tuple[int, int] | None = None
        self.errors_seen = len(seat.connection.errors)
        self.closing = False

    @property
    def state(self) -> Any:
        return self.seat.game.state

    @property
    def humans(self) -> list[int]:
        return [] if self.seat.player is None else [self.seat.player]

    def view(self, player: int | None = None) -> Any:
        return self.seat.game.state

    def needs_hand_over(self, player: int) -> bool:
        return False

    def advance(self) -> int | None:
        """Wait for the seat's decision (its player) or the end of the game (None)."""
        while not self.closing:
            self.seat.wait(WAIT)
            game, connection = self.seat.game, self.seat.connection
            for i in range(self.told, len(game.moves)):
                before = game.states[i]
                if before.is_chance() or before.to_move != self.seat.player:
                    who = "" if before.is_chance() else f"{PLAYER_NAMES[before.to_move]}: "
                    self.notify(who + str(game.moves[i]))
            if len(game.moves) != self.told:
                self.moved()
            self.told = len(game.moves)
            if self.seat.over:
                return None
            if len(connection.errors) > self.errors_seen:
                self.errors_seen = len(connection.errors)
                self.notify(self.seat.error_text(connection.errors[-1][0]))
                self.sent = None
            if self.seat.my_decision() and self.sent is None:
                return self.seat.player
            if self.sent is not None and len(game.texts) > self.sent[0]:
                self.sent = None  # played: the next decision may come
            elif self.sent is not None and self.sent[1] != connection.reconnects:
                self.sent = None  # the connection dropped: ask again if still to decide
        return None

    def play(self, move: XMove) -> None:
        ply = len(self.seat.game.texts)
        self.sent = (ply, self.seat.connection.reconnects)
        if not self.seat.net.play(ply, wire(move)):
            self.sent = None
            self.notify(tr("Not sent: the connection is down. Try again in a moment."))

    def read_move(self, player: int, text: str) -> XMove | str:
        """The move typed (a number, the notation), or a sentence: why not, or that the
        player resigned (``resign``)."""
        moves = self.state.legal_moves()
        text = text.strip()
        if text.lower() == "resign":
            self.seat.net.resign()
            return tr("You resigned.")
        if text.isdigit():
            if 1 <= int(text) <= len(moves):
                return moves[int(text) - 1]
            return tr("Choose a number from 1 to {n}.", n=len(moves))
        try:
            move = XMove.parse(text)
        except ValueError as error:
            return str(error)
        reason = self.state.why_illegal(move)
        return move if reason is None else reason

    def public(self, move: XMove) -> str:
        return str(move)

    def result(self) -> str:
        return self.seat.result_text() + " " + self.seat.review_text()

    def saved_text(self) -> str:
        return tr("The game goes on on the server: join it again with the same code.")


class NetXApp(XApp):
    """The full-screen expansion game of a network seat: the clocks in the title bar, the
    hints only if the host allowed them."""

    CSS = XApp.CSS + "#clock { height: 1; background: $boost; }"

    def __init__(self, control: RemoteXControl) -> None:
        super().__init__(control)  # type: ignore[arg-type]
        self.remote = control
        control.moved = self._moved

    def _moved(self) -> None:
        with contextlib.suppress(RuntimeError):  # the app is closing
            self.call_from_thread(self.show_waiting)

    def show_waiting(self) -> None:
        """The table as it is now while the other seat decides (no moves to choose from)."""
        if self.player is None:
            self.query_one("#board").update("\n".join(board_lines(self.remote.state)))  # type: ignore[attr-defined]
            self.query_one("#moves").clear_options()  # type: ignore[attr-defined]

    def compose(self):
        from textual.widgets import Static

        yield Static(id="clock")
        yield from super().compose()

    def on_mount(self) -> None:  # after XApp's own (Textual calls both)
        self.show_waiting()
        self.say(self.remote.seat.seat_text() + " " + self.remote.seat.hints_text())
        self.set_interval(1.0, self.tick)

    def on_unmount(self) -> None:
        self.remote.closing = True

    def tick(self) -> None:
        seat = self.remote.seat
        parts = [seat.seat_text(), seat.clocks_text(), seat.link_text(), seat.result_text()]
        self.query_one("#clock").update(" · ".join(p for p in parts if p))  # type: ignore[attr-defined]

    def show_turn(self, player: int | None) -> None:
        super().show_turn(player)
        if player is None:
            self.query_one("#board").update("\n".join(board_lines(self.remote.state)))  # type: ignore[attr-defined]

    def action_hint(self) -> None:  # type: ignore[override]  # refuses, no worker
        if not self.remote.seat.connection.hints:
            self.say(self.remote.seat.hints_text())
            return
        super().action_hint()

    def action_leave(self) -> None:
        self.exit(0 if self.remote.seat.over else 1)


def run_screen(seat: RemoteSeat) -> int:
    """The full-screen app on the seat; 0 once the game is over, 1 if the player left (the
    game goes on on the server)."""
    app: DuelApp | XApp
    if seat.game.expansions:
        app = NetXApp(RemoteXControl(seat))
    else:
        app = NetDuelApp(seat, think=1.0, delay=0.0)
    try:
        code = app.run()
    finally:
        if app.watchdog is not None and not isinstance(app.watchdog, bool):
            app.watchdog.cancel()
    if seat.over:
        return 0
    return code if isinstance(code, int) and code else 1
