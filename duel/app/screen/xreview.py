"""The review of an expansion game's record in the full-screen app (the start screen's Review
of an expansion record): the decisions judged one by one in a worker thread
(:func:`duel.solvers.xreview.judge`, the same as ``duel review``), listed with their values and
marks as they come; the table at the move selected (the finished game's, every card shown).
Escape goes back."""

from __future__ import annotations

from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from duel.app.control.replay import XReplay
from duel.app.i18n import N_, tr
from duel.moves import PLAYER_NAMES

#: Iterations of the expansion player's search a decision (the screen stays responsive).
ITERATIONS = 200


class XReviewScreen(Screen[None]):
    """An expansion record's moves, judged, and the table at the one selected."""

    BINDINGS = [Binding("escape", "back", N_("Back"))]
    DEFAULT_CSS = """
    XReviewScreen #xreview-moves { width: 46; height: 1fr; }
    XReviewScreen #xreview-table { width: 1fr; height: 1fr; overflow-y: auto; }
    XReviewScreen #xreview-status { height: 1; }
    """

    def __init__(
        self, replay: XReplay, back: Callable[[], None], *, iterations: int = ITERATIONS
    ) -> None:
        super().__init__(name="xreview")
        self.replay = replay
        self.back = back
        self.iterations = iterations
        self.judged: dict[int, str] = {}  # move number -> its value and mark

    def compose(self) -> ComposeResult:
        yield Label(id="xreview-status")
        with Horizontal():
            yield OptionList(
                *[Option(self._line(n), id=f"m{n}") for n in range(1, self.replay.last + 1)],
                id="xreview-moves",
            )
            yield Static(id="xreview-table")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        moves = self.query_one("#xreview-moves", OptionList)
        if self.replay.last:
            moves.highlighted = self.replay.last - 1  # the game's end first, as the base review
        moves.focus()
        self.show(self.replay.last)
        self.query_one("#xreview-status", Label).update(tr("Reviewing: the moves are judged…"))
        self.judge_all()

    def _line(self, number: int) -> str:
        return f"{self.replay.move_line(number)}{self.judged.get(number, '')}"

    def show(self, number: int) -> None:
        from duel.app.text.xboard import board_lines

        self.query_one("#xreview-table", Static).update(
            "\n".join(board_lines(self.replay.states[number]))
        )

    @on(OptionList.OptionHighlighted)
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show(event.option_index + 1)

    @work(thread=True, exclusive=True, group="xreview")
    def judge_all(self) -> None:
        from duel.solvers.xreview import judge

        states, moves = self.replay.states, self.replay.moves
        for n in range(1, self.replay.last + 1):
            state = states[n - 1]
            if state.is_chance() or len(state.view(state.to_move).legal_moves()) < 2:
                continue
            value, best, best_value = judge(
                state, moves[n - 1], iterations=self.iterations, seconds=None, seed=n
            )
            loss = max(0.0, best_value - value)
            mark = "??" if loss >= 0.2 else "?" if loss >= 0.1 else "?!" if loss >= 0.05 else ""
            text = f"  {value:.0%}" + (f" {mark} ({best})" if mark else "")
            self.app.call_from_thread(self._judged, n, text)
        self.app.call_from_thread(self._done)

    def _judged(self, number: int, text: str) -> None:
        self.judged[number] = text
        moves = self.query_one("#xreview-moves", OptionList)
        moves.replace_option_prompt(f"m{number}", self._line(number))

    def _done(self) -> None:
        players = []
        for player in (0, 1):
            marks = [
                t for n, t in self.judged.items() if self.replay.states[n - 1].to_move == player
            ]
            bad = sum(1 for t in marks if "?" in t)
            players.append(f"{PLAYER_NAMES[player]} {bad}")
        self.query_one("#xreview-status", Label).update(
            tr(
                "Reviewed by the expansion player's search: marked moves {marks}. Escape: back.",
                marks=", ".join(players),
            )
        )

    def action_back(self) -> None:
        self.workers.cancel_group(self, "xreview")
        self.back()


def open_xreview(app, path, back: Callable[[], None]) -> str | None:
    """Push the review of the expansion record at ``path`` on ``app``; what is wrong with the
    file, if it cannot (a save in progress, a position, a bad record)."""
    from duel.app.i18n import tr_error
    from duel.expansions.position import is_xposition
    from duel.expansions.record import XRecord, XRecordError
    from duel.files import read_json_file

    try:
        data = read_json_file(path, XRecordError)
        if is_xposition(data):
            return tr(
                "{path}: a position, not a game record (duel show prints a position)", path=path
            )
        replay = XReplay.of(XRecord.from_json(data))
    except XRecordError as error:
        return tr("Could not read {path}: {error}", path=path, error=tr_error(error))
    app.push_screen(XReviewScreen(replay, back))
    return None
