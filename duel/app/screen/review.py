"""The review inside the full-screen app (issue 24): step through a game's moves on its board.

:class:`ReviewScreen` shows the position before each move on the board's own widgets
(:mod:`duel.app.screen.board`), the move played with its win chance, loss and mark, the engine's
best alternative and its line, and A's win chance over the whole game with the shown position
marked. The review is ``duel review``'s: :func:`duel.solvers.review.review_record` with the same
engine and budget by default (the hint's, ``cmcts``, 1 s a decision, every core), run in a
worker thread with a progress bar while the board can already be stepped through.

Keys: right or ``j`` the next move, left or ``k`` the one before, Home and End, ``]`` and ``[``
the next and previous marked move, ``p`` play from here (:func:`what_if_game`), Escape back.

A what-if game starts from the shown position with a fresh fair dealer: the position holds only
what was public then (:mod:`duel.state` keeps no face-down card), and every card, token or wonder
the record revealed later is dealt again from the operating system's randomness when the rules
reveal it, so the record cannot tell the player a card in advance.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from duel.app.control.game import Dealer, GameController, continuation_text
from duel.app.i18n import N_, display_name, language, tr, trn
from duel.app.screen.board import WIDE, CardWidget, draw_pyramid, geometry, translate_bindings
from duel.app.text import moves as M
from duel.app.text.board import city_lines, military_line
from duel.app.text.lines import position_text
from duel.app.text.review import MARK_NAMES, NOTES, loss_text
from duel.moves import Move
from duel.pyramid_layouts import LAYOUTS
from duel.record import GameRecord, Replay


def _describe(state: Any) -> str:
    """A position in words: the engine's English sentence, else the current language's."""
    return state.describe() if language() == "en" else position_text(state)


if TYPE_CHECKING:
    from duel.solvers.review import MoveReview, Review

__all__ = ["ReviewScreen", "what_if_game"]


class _PlaysFrom(Protocol):
    """What the review asks of the app it is in (``screen.app.DuelApp``): play on from a ply."""

    def play_from(self, record: GameRecord, ply: int) -> None: ...

#: Lines of the review above the board on a narrow terminal: the move, the best move and its
#: line, the graph.
NARROW_INFO = 4
SPARK = " ▁▂▃▄▅▆▇█"


def what_if_game(record: GameRecord, ply: int, level: str, *, think: float) -> GameController:
    """A game from position ``ply`` of ``record``: the moves up to it, the human playing the
    player to move there and ``level`` the other, dealt by a fresh fair :class:`Dealer`.

    Nothing the record revealed after ``ply`` is kept: a state holds no face-down card, and
    the chance events from ``ply`` on are dealt anew. A position just after a Great Library
    draw the record hides starts before the draw (it is dealt again). ValueError if the game is
    over at ``ply`` or ``ply`` is not a position of it.
    """
    replay = Replay.of(record)
    if not 0 <= ply <= replay.last:
        raise ValueError(f"no position {ply}: the game has positions 0 to {replay.last}")
    if ply > 0 and ply - 1 in record.redacted:
        ply -= 1
    state = replay.states[ply]
    if state.is_terminal():
        raise ValueError("the game is over at this position")
    kinds = [level, level]
    kinds[state.to_move] = "human"
    game = GameController(
        kinds,
        Dealer(),
        think=think,
        moves=list(replay.moves[:ply]),
        states=list(replay.states[: ply + 1]),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        redacted=frozenset(i for i in record.redacted if i < ply),
    )
    game.set_players()
    return game


class _Stopped(Exception):
    """The review screen was closed: the review stops."""


class ReviewScreen(Screen[None]):
    """A game's review on its board (see the module)."""

    BINDINGS = [
        Binding("right,j", "step(1)", N_("Next")),
        Binding("left,k", "step(-1)", N_("Back")),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("]", "mark(1)", N_("Next mark")),
        Binding("[", "mark(-1)", "Prev mark", show=False),
        Binding("p", "play_from", N_("Play from here")),
        Binding("escape", "back", N_("Back")),
        Binding("q", "app.quit_game", N_("Quit")),
    ]

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; }
    #rv-status { height: 1; background: $boost; }
    #rv-progress-row { height: 1; }
    #rv-progress-row ProgressBar { width: 40; }
    #rv-progress-text { width: 1fr; }
    #rv-top { height: 1fr; }
    #rv-board { width: 1fr; }
    #rv-info { height: auto; max-height: 3; }
    #rv-spark { height: 1; }
    #rv-pyramid { height: auto; }
    #rv-military { height: 1; }
    #rv-cities { height: 1fr; }
    .rv-city { width: 1fr; padding: 0 1 0 0; }
    #rv-side { border-left: solid $primary-darken-2; padding: 0 1; }
    #rv-move { height: auto; }
    #rv-graph { height: auto; margin-top: 1; }
    #rv-summary { height: auto; margin-top: 1; }
    #rv-notice { height: 1; background: $boost; }
    """

    def __init__(
        self,
        record: GameRecord,
        *,
        level: str,
        seconds: float = 1.0,
        workers: int | None = None,
        seed: int = 0,
        back: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(name="review")
        translate_bindings(self)
        self.record = record
        self.replay = Replay.of(record)
        self.level = level
        self.seconds = seconds
        self.review_workers = workers
        self.seed = seed
        self.go_back = back
        self.ply = 0
        self.review: Review | None = None
        self.progress: tuple[int, int] = (0, 0)
        self.failed: str | None = None
        self.stopped = False
        players = record.metadata.get("players")
        self.labels = ("A", "B")
        if isinstance(players, dict) and all(isinstance(players.get(p), str) for p in "AB"):
            self.labels = (players["A"], players["B"])

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="rv-status")
        with Horizontal(id="rv-progress-row"):
            yield ProgressBar(id="rv-progress", show_eta=False)
            yield Static(id="rv-progress-text")
        with Horizontal(id="rv-top"):
            with Vertical(id="rv-board"):
                yield Static(id="rv-info")
                yield Static(id="rv-spark")
                yield Vertical(id="rv-pyramid")
                yield Static(id="rv-military")
                with Horizontal(id="rv-cities"):
                    yield Static(id="rv-city-a", classes="rv-city")
                    yield Static(id="rv-city-b", classes="rv-city")
            with VerticalScroll(id="rv-side"):
                yield Static(id="rv-move")
                yield Static(id="rv-graph")
                yield Static(id="rv-summary")
        yield Static(id="rv-notice")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.show()
        self.compute()

    def on_resize(self) -> None:
        self.call_after_refresh(self.show)

    def on_unmount(self) -> None:
        self.stopped = True

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#rv-notice", Static).update(Text(text, style=style, no_wrap=True))

    # --- the review in a thread -----------------------------------------------------------------
    @work(thread=True, exclusive=True, group="review")
    def compute(self) -> None:
        from duel.solvers.review import review_record

        try:
            review = review_record(
                self.record,
                seconds=self.seconds,
                level=self.level,
                workers=self.review_workers,
                seed=self.seed,
                on_progress=self._progressed,
            )
        except _Stopped:
            return
        except Exception as error:  # noqa: BLE001 - one line on the screen, never a traceback
            if not self.stopped:
                failed = tr("The review failed: {error}", error=error)
                self.app.call_from_thread(self._failed, failed)
            return
        if not self.stopped:
            self.app.call_from_thread(self._reviewed, review)

    def _progressed(self, done: int, total: int) -> None:
        if self.stopped:
            raise _Stopped
        self.app.call_from_thread(self._show_progress, done, total)

    def _show_progress(self, done: int, total: int) -> None:
        self.progress = (done, total)
        bar = self.query_one("#rv-progress", ProgressBar)
        bar.update(total=max(total, 1), progress=done)
        clock = f"{self.seconds:g} s" if ":" not in self.level else tr("its budget")
        self.query_one("#rv-progress-text", Static).update(
            " " + tr(
                "Reviewing: {done} of {total} positions ({level}, {clock} each)",
                done=done,
                total=total,
                level=self.level,
                clock=clock,
            )
        )

    def _failed(self, text: str) -> None:
        self.failed = text
        self.query_one("#rv-progress-row").display = False
        self.say(text, "bold red")
        self.show()

    def _reviewed(self, review: Review) -> None:
        self.review = review
        self.query_one("#rv-progress-row").display = False
        self.say(tr("Reviewed by {level}: {result}.", level=review.level, result=self.final_text()))
        self.show()

    # --- stepping -------------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return self.replay.last

    def action_step(self, by: int) -> None:
        self.action_go(max(0, min(self.last, self.ply + by)))

    def action_go(self, ply: int) -> None:
        self.ply = self.last if ply < 0 else min(ply, self.last)
        self.show()

    def action_mark(self, direction: int) -> None:
        """The next (or previous) position whose move got a mark."""
        if self.review is None:
            self.say(tr("The marks come with the review: wait for it."))
            return
        marked = [m.number - 1 for m in self.review.moves if m.mark]
        ahead = [p for p in marked if (p - self.ply) * direction > 0]
        if not ahead:
            self.say(
                tr("No marked move after this one.") if direction > 0
                else tr("No marked move before this one.")
            )
            return
        self.action_go(min(ahead) if direction > 0 else max(ahead))

    def action_play_from(self) -> None:
        if self.replay.states[self.ply].is_terminal():
            self.say(tr("The game is over here: step back to play from an earlier position."))
            return
        cast(_PlaysFrom, self.app).play_from(self.record, self.ply)

    def action_back(self) -> None:
        self.stopped = True
        if self.go_back is not None:
            self.go_back()
        else:
            self.app.pop_screen()

    # --- drawing --------------------------------------------------------------------------------
    def move_review(self, ply: int) -> MoveReview | None:
        if self.review is None or ply >= len(self.review.moves):
            return None
        return self.review.moves[ply]

    def value_at(self, ply: int) -> float | None:
        """A's win chance at position ``ply`` (the latest analysed point at or before it)."""
        if self.review is None or not self.review.graph:
            return None
        value = None
        for index, v in self.review.graph:
            if index <= ply:
                value = v
        return value

    def show(self) -> None:
        """Draw the position ``ply``, its move's review and the graph, sized to the screen."""
        try:
            width, height = self.app.size
        except Exception:  # noqa: BLE001 - not mounted yet
            return
        state = self.replay.states[self.ply]
        rows = len(LAYOUTS[state.age].rows) if state.age else 0
        wide = width >= WIDE
        shape = geometry(width, height - (0 if wide else NARROW_INFO - 1), rows)
        side = self.query_one("#rv-side")
        side.display = wide
        if wide:
            side.styles.width = shape.side
        for part in ("#rv-info", "#rv-spark"):
            self.query_one(part).display = not wide
        self.query_one("#rv-status", Static).update(self.status_text(width))
        box = self.query_one("#rv-pyramid", Vertical)
        if state.age:
            draw_pyramid(box, state, shape)
            self.call_after_refresh(self._no_focus)
        else:
            box.remove_children()
            box.mount(Static(self.draft_text(state)))
        self.query_one("#rv-military", Static).update(military_line(state))
        self.query_one("#rv-city-a", Static).update(city_lines(state, 0, self.labels))
        self.query_one("#rv-city-b", Static).update(city_lines(state, 1, self.labels))
        if wide:
            self.query_one("#rv-move", Static).update("\n".join(self.move_text(shape.side - 3)))
            self.query_one("#rv-graph", Static).update(self.graph(shape.side - 10))
            self.query_one("#rv-summary", Static).update(self.summary_text())
        else:
            info = "\n".join(self.move_text(width, short=True))
            self.query_one("#rv-info", Static).update(
                Text(info, no_wrap=True, overflow="ellipsis")
            )
            self.query_one("#rv-spark", Static).update(self.spark(width))

    def _no_focus(self) -> None:
        for card in self.query(CardWidget):  # a review's cards are to look at, not to take
            card.can_focus = False

    @staticmethod
    def draft_text(state: Any) -> str:
        if not state.age and state.wonder_offer:
            from duel.catalog import WONDERS

            names = ", ".join(display_name("wonder", WONDERS[w].name) for w in state.wonder_offer)
            return tr("The wonder draft; on offer: {names}", names=names)
        return tr("The setup: the progress tokens and the wonders are dealt.")

    def status_text(self, width: int) -> Text:
        state = self.replay.states[self.ply]
        text = Text()
        text.append(" " + tr("Review") + " ", style="bold reverse")
        where = tr("position {n} of {last}", n=self.ply, last=self.last)
        text.append(" " + where, style="bold")
        age = M.age_name(state.age) if state.age else tr("setup and draft")
        text.append(f" · {age}")
        text.append(f" · {_describe(state)}", style="dim")
        text.truncate(width)
        return text

    def move_text(self, width: int, *, short: bool = False) -> list[str]:
        """The move played from the shown position: who, what, its win chance, loss and mark;
        the engine's best move and its line; on a wide screen the position's value too."""
        ply = self.ply
        if ply >= self.last:
            state = self.replay.states[ply]
            end = _describe(state) if state.is_terminal() else tr("the record stops here")
            return [tr("The end ({end}).", end=end)]
        number = ply + 1
        head = tr("Move {n}: {move}", n=number, move=self.replay.move_text(number))
        m = self.move_review(ply)
        if m is None:
            if self.failed:
                return [head, self.failed]
            done, total = self.progress
            return [head, tr("Reviewing... {done} of {total} positions analysed.", done=done,
                                total=total)]
        if m.player == "chance":
            if m.hidden or m.probability is None:
                return [f"{head} " + tr("(hidden)")]
            p = tr("certain") if m.probability == 1 else tr("p {p}", p=f"{m.probability:.1%}")
            return [f"{head} ({p})"]
        if m.value is None:
            return [head, f"({tr(NOTES[m.note]) if m.note in NOTES else m.note})"]
        from duel.solvers.review import EQUAL, SYMBOLS

        if m.mark:
            mark = f"{SYMBOLS[m.mark]} {tr(MARK_NAMES[m.mark])}"
        else:
            mark = tr("forced") if m.choices == 1 else ""
        loss = loss_text(m)  # duel review's figure, sign and all
        lines = [" ".join(part for part in (f"{head}: {m.value:.1%}", loss, mark) if part)]
        line = self.best_line(m)
        if m.best_move is None:
            pass
        elif m.best_move == m.move or (m.loss is not None and m.loss < EQUAL):
            then = tr("; then {line}", line=line) if line else "."
            lines.append(tr("The engine's choice too") + then)
        else:
            then = tr("; then {line}", line=line) if line else ""
            best = tr("Best: {move} {value}", move=m.best_move, value=f"{m.best_value:.1%}")
            lines.append(best + then)
        if not short:
            value = self.value_at(ply)
            if value is not None:
                lines.append(tr("A's chance of winning here: {value}", value=f"{value:.0%}"))
        return lines

    def best_line(self, m: MoveReview) -> str:
        """The best move's expected line in words, after the move (it stops at chance)."""
        notation = m.info.get("line") if m.info else None
        if not notation:
            return ""
        try:
            pv = [Move.parse(text) for text in notation]
        except ValueError:
            return ""
        text = continuation_text(self.replay.states[self.ply], pv, limit=6)
        return text.removeprefix("then ")

    def graph(self, width: int) -> Text:
        """The review's graph of A's chance with the shown position's column highlighted and
        marked under the chart."""
        from duel.app.text.review import review_graph

        if self.review is None:
            return Text(tr("A's chance of winning: the graph comes with the review."), style="dim")
        width = max(20, width)
        height = 3
        lines = review_graph(self.review, self.last, width=width, height=height)
        column = round(self.ply * (width - 1) / max(self.last, 1))
        for row in lines[: 2 * height + 1]:
            row.stylize("reverse", 6 + column, 7 + column)
        pointer = Text(" " * (6 + column) + "▲ " + tr("here"), style="bold")
        out = Text(tr("A's chance of winning") + "\n", style="bold")
        for row in [*lines[: 2 * height + 1], pointer, *lines[2 * height + 1 :]]:
            out.append_text(row)
            out.append("\n")
        out.rstrip()
        return out

    def spark(self, width: int) -> Text:
        """The graph in one line (narrow screens): A's chance as bars, the shown position's
        highlighted."""
        value = self.value_at(self.ply)
        if self.review is None or not self.review.graph:
            return Text(tr("A's chance: the graph comes with the review."), style="dim")
        from duel.app.text.review import _column_values

        label = f"A {value:.0%} " if value is not None else "A ?% "
        columns = max(10, width - len(label) - 1)
        values = _column_values(self.review.graph, self.last, columns)
        column = round(self.ply * (columns - 1) / max(self.last, 1))
        text = Text(label, style="bold")
        for c, v in enumerate(values):
            char = SPARK[max(1, min(8, round(v * 8)))]
            text.append(char, style="reverse" if c == column else "")
        return text

    def summary_text(self) -> str:
        if self.review is None:
            return ""
        lines = [tr("Result: {result}", result=self.final_text())]
        for player, s in self.review.summary.items():
            label = self.labels["AB".index(player)]
            lines.append(
                f"{player} ({tr(label) if label == 'human' else label}): "
                + ", ".join(
                    (
                        trn(s.decisions, "{n} decision", "{n} decisions"),
                        tr("average loss {loss}", loss=f"{s.average_loss:.1%}"),
                        trn(s.inaccuracy, "{n} inaccuracy", "{n} inaccuracies"),
                        trn(s.mistake, "{n} mistake", "{n} mistakes"),
                        trn(s.blunder, "{n} blunder", "{n} blunders"),
                    )
                )
            )
        return "\n".join(lines)

    def final_text(self) -> str:
        """The review's result (``duel review``'s words: the engine's English, else the last
        position in the current language)."""
        final = self.replay.states[-1]
        if self.review is None or language() == "en":
            return self.review.final if self.review is not None else ""
        if final.is_terminal():
            return position_text(final)
        return tr("unfinished: {position}", position=position_text(final))
