"""The start screen of ``duel play`` (issue 24): a new game, a saved game, a review, or quit.

``duel play`` with no seat or option on the command line opens the full-screen app on
:class:`StartScreen`; any option (``--a``, ``--b``, ``--load``, ``--seed``, ``--line``...) starts
as before. Every choice works with keys and the mouse, and Escape goes back:

* **New game** (:class:`NewGameScreen`): the game (the base game, Pantheon, Agora or both), your
  seat (A or B), the opponent's level (random, greedy, search or cmcts, the default, with its
  seconds per move; an expansion game is played by the expansion players, :func:`expansion_level`)
  and the deal (fair, the default, or a seed: reproducible, not fair play);
* **Load** and **Review** (:class:`FileScreen`): the saved games this machine knows of
  (:func:`known_games`: the autosave, the user data folder, the current folder) or a path typed;
* **Quit**.

The screens only gather the answers; the app (:class:`duel.app.screen.app.DuelApp`) starts the
game, loads it or opens the review. An expansion game has its own table
(:mod:`duel.app.screen.xapp`): the app closes and hands the game over (:class:`HandOff`,
:func:`run_hand_off`). A bad answer (a time that is not a number, a file that is
not a saved game) is one line on the screen, never a traceback.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, RadioButton, RadioSet, Static
from textual.widgets.option_list import Option

from duel.app.control.game import autosave_places
from duel.app.control.saves import known_autosaves, user_data_dir
from duel.app.i18n import N_, tr
from duel.app.screen.board import translate_bindings

__all__ = [
    "GAME_CHOICES",
    "LEVEL_CHOICES",
    "HandOff",
    "MENU_CSS",
    "Choice",
    "Choices",
    "FileScreen",
    "NewGame",
    "NewGameScreen",
    "StartScreen",
    "expansion_level",
    "known_games",
    "run_hand_off",
]

#: The opponent levels the start screen offers (``duel play --b`` takes any other).
LEVEL_CHOICES = ("random", "greedy", "search", "cmcts")
#: The levels that think for a time per move.
TIMED = ("search", "cmcts")
#: The games the start screen offers: the expansions played, and the words shown.
GAME_CHOICES: tuple[tuple[tuple[str, ...], str], ...] = (
    ((), N_("base game")),
    (("pantheon",), N_("Pantheon")),
    (("agora",), N_("Agora")),
    (("agora", "pantheon"), N_("Pantheon + Agora")),
)


def expansion_level(level: str, think: float) -> str:
    """The expansion player standing for a start-screen level: ``random`` and ``greedy`` as they
    are, a searching level as the expansions' default search (``cmcts`` where it is built, else
    ``mcts``) with the same time.

    >>> from duel.solvers.xplayers import DEFAULT_XLEVEL
    >>> expansion_level("cmcts:1s", 1.0) == f"{DEFAULT_XLEVEL}:1s", expansion_level("greedy", 1.0)
    (True, 'greedy')
    """
    from duel.solvers.xplayers import DEFAULT_XLEVEL

    name = level.partition(":")[0]
    return name if name in ("random", "greedy") else f"{DEFAULT_XLEVEL}:{think:g}s"


@dataclass(frozen=True)
class NewGame:
    """The new game chosen: the human's seat (0: A, 1: B), the opponent's level (with its time
    as ``cmcts:1s``), the seconds per move and the seed (None: a fair deal).

    >>> NewGame(1, "cmcts:1s", 1.0, None).kinds
    ['cmcts:1s', 'human']
    """

    seat: int
    level: str
    think: float
    seed: int | None
    expansions: tuple[str, ...] = ()

    @property
    def kinds(self) -> list[str]:
        """The two seats' players (an expansion game's: :func:`expansion_level`)."""
        level = expansion_level(self.level, self.think) if self.expansions else self.level
        kinds = [level, level]
        kinds[self.seat] = "human"
        return kinds


@dataclass(frozen=True)
class HandOff:
    """An expansion game chosen on the start screen, for its own table once the app has closed:
    a new game, or the save at ``path`` to continue."""

    game: NewGame | None = None
    path: Path | None = None


def run_hand_off(hand_off: HandOff) -> int:
    """Play the expansion game of ``hand_off`` on its full-screen table; the exit code."""
    from duel.app.screen.xapp import play_xgame

    game = hand_off.game
    if game is not None:
        a, b = game.kinds
        return play_xgame(
            game.expansions, (a, b), seed=game.seed, think=game.think
        )
    return play_xgame((), (None, None), load=hand_off.path)


def expansion_save_problem(path: Path) -> str | None:
    """Why the expansion game saved in ``path`` cannot be continued, or None."""
    from duel.app.control.xsaves import read_save
    from duel.app.i18n import tr_error
    from duel.expansions.record import XRecordError

    try:
        record, _ = read_save(path)
    except XRecordError as error:
        return tr("Could not load {path}: {error}", path=path, error=tr_error(error))
    if record.final_state().is_terminal():
        return tr("{path}: this game is over; Review shows it move by move.", path=path)
    return None


def opponent_level(name: str, seconds: float) -> str:
    """The level string of an opponent: ``cmcts:1.5s``, or ``greedy`` (no clock).

    >>> opponent_level("cmcts", 1.0), opponent_level("random", 3.0)
    ('cmcts:1s', 'random')
    """
    return f"{name}:{seconds:g}s" if name in TIMED else name


def parse_seconds(text: str) -> float | str:
    """Seconds per move typed, or a sentence saying why not.

    >>> parse_seconds("0.5"), parse_seconds("x"), parse_seconds("0")
    (0.5, 'The time per move must be a number of seconds, such as 1 or 0.5.', 'The time per move must be more than 0 s and at most 600 s.')
    """  # noqa: E501 (a doctest's line)
    try:
        value = float(text.strip())
    except ValueError:
        return tr("The time per move must be a number of seconds, such as 1 or 0.5.")
    if not math.isfinite(value) or value <= 0 or value > 600:
        return tr("The time per move must be more than 0 s and at most 600 s.")
    return value


def parse_seed(text: str) -> int | str:
    """A seed typed (a whole number from 0), or a sentence saying why not.

    >>> parse_seed(" 42 "), parse_seed("-1")
    (42, 'The seed must be a whole number from 0 to 2^63 - 1.')
    """
    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value < 2**63:
        return tr("The seed must be a whole number from 0 to 2^63 - 1.")
    return value


def known_games(limit: int = 20) -> list[Path]:
    """Saved games this machine knows of, newest first: the autosave (wherever it went), then
    the JSON files of the user data folder and of the current folder that read as game
    records."""
    from duel.record import GameRecord

    candidates: list[Path] = []
    for folder in (user_data_dir(), Path(".")):
        try:
            candidates += sorted(folder.glob("*.json"))
        except OSError:
            continue
    first = [*known_autosaves(), *autosave_places(user_data_dir() / "duel-autosave.json")]
    seen: set[Path] = set()
    found: list[tuple[float, int, Path]] = []
    for rank, path in enumerate([*first, *candidates]):
        try:
            key = path.resolve()
            if key in seen or not path.is_file() or path.stat().st_size > 2_000_000:
                continue
            seen.add(key)
            if not _is_expansion_game(path):
                GameRecord.load(path)
            found.append((-path.stat().st_mtime, rank, path))
        except Exception:  # noqa: BLE001 - not a saved game: not listed
            continue
    found.sort(key=lambda f: (f[1] >= len(first), f[0], f[1]))
    return [path for _, _, path in found[:limit]]


def _is_expansion_game(path: Path) -> bool:
    """An expansion game's record or save that reads (a position is not a game)."""
    from duel.app.control.xsaves import is_expansion_file, read_save
    from duel.expansions.position import is_xposition
    from duel.files import read_json_file

    if not is_expansion_file(path) or is_xposition(read_json_file(path)):
        return False
    read_save(path)  # raises if it does not read
    return True


def _dated(path: Path) -> str:
    """A saved game in the list: its path and when it was last saved (local time)."""
    from datetime import datetime

    try:
        return f"{_shown(path)}  ({datetime.fromtimestamp(path.stat().st_mtime):%Y-%m-%d %H:%M})"
    except OSError:
        return _shown(path)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd())) if path.is_absolute() else str(path)
    except ValueError:
        home = Path.home()
        return f"~{os.sep}{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


#: The menus' styles (in the app's CSS, as the dialogs', so that they win over the widgets' own).
MENU_CSS = """
    MenuScreen { align: center middle; }
    .menu { width: 76; height: auto; max-height: 100%; border: thick $accent; padding: 0 1;
            background: $surface; }
    .menu-title { text-style: bold; width: 100%; content-align: center middle; }
    .menu Button { width: 100%; height: 1; min-height: 1; border: none; margin: 0;
                   text-align: left; content-align: left middle; }
    .menu Button:focus { background: $accent; }
    .menu RadioSet { width: 100%; height: auto; border: none; layout: horizontal; padding: 0; }
    .menu RadioButton { width: auto; height: 1; padding: 0 1 0 0; }
    .menu RadioButton > .toggle--button { background: transparent; color: $text-muted; }
    .menu RadioButton.-on > .toggle--button { color: $text-success; text-style: bold; }
    .menu Input { width: 100%; height: 1; border: none; padding: 0; }
    .menu .row { height: 1; width: 100%; }
    .menu .row Label { width: 20; }
    .menu .row Input { width: 1fr; }
    .menu .hint { color: $text-muted; }
    .menu #error { color: $error; height: auto; }
    .menu #games { height: auto; max-height: 10; border: none; }
    .menu .buttons { height: 1; width: 100%; }
    .menu .buttons Button { width: 1fr; content-align: center middle; }
"""


class Choice(RadioButton):
    """A radio button whose marker says in characters whether it is chosen, ``(•)`` or ``( )``:
    Textual's own draws the same glyph either way and tells them apart by colour alone, lost in
    plain text, a screen capture or a terminal without colour."""

    BUTTON_LEFT = ""
    BUTTON_RIGHT = ""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "(•)" if self.value else "( )"


class Choices(RadioSet):
    """A radio set whose cursor (the highlighted button) starts on the chosen button, not on the
    first: Enter or Space there keeps the choice, and the highlight never points at a choice
    that is not the one made. (A choice changed later moves the cursor with it: RadioSet's own.)"""

    def on_mount(self) -> None:
        # after RadioSet's own mount handler (which runs after this one and puts the cursor on the
        # first button), once it has noted the button pressed
        self.call_later(self._cursor_on_choice)

    def _cursor_on_choice(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index


class MenuScreen(Screen[None]):
    """A screen of the start menus (the app's game keys are off while one is shown)."""

    def __init__(self, *, name: str) -> None:
        super().__init__(name=name)
        translate_bindings(self)


    def show_error(self, text: str) -> None:
        self.query_one("#error", Static).update(text)




class StartScreen(MenuScreen):
    """The first screen of ``duel play``: n new game, l load, r review, q quit."""

    BINDINGS = [
        Binding("n", "choose('new')", N_("New game")),
        Binding("l", "choose('load')", N_("Load")),
        Binding("r", "choose('review')", N_("Review")),
        Binding("q", "choose('quit')", N_("Quit")),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
        Binding("escape", "nothing", show=False),
    ]

    def __init__(self, chosen: Callable[[str], None]) -> None:
        super().__init__(name="start")
        self.chosen = chosen

    def compose(self) -> ComposeResult:
        with Vertical(classes="menu"):
            yield Label("7 Wonders Duel", classes="menu-title")
            yield Static("")
            yield Button(tr("n  New game: your seat, the opponent, the deal"), id="start-new")
            yield Button(tr("l  Load a saved game"), id="start-load")
            yield Button(tr("r  Review a game record: every move judged"), id="start-review")
            yield Button(tr("q  Quit"), id="start-quit")
            yield Static("")
            yield Static(
                tr(
                    "Keys or the mouse; Escape goes back. In a game: 1-9 take a card, i a card in "
                    "full, h hint, u undo, s save."
                ),
                classes="hint",
            )
            yield Static(id="error")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#start-new", Button).focus()

    def action_choose(self, what: str) -> None:
        self.chosen(what)

    def action_nothing(self) -> None:
        pass

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.chosen((event.button.id or "").removeprefix("start-"))


class NewGameScreen(MenuScreen):
    """A new game's choices: seat (a/b), opponent (1-4), time, deal (f fair, d seeded)."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("enter", "start", N_("Start"), priority=False),
        Binding("e", "next_game", "Game", show=False),
        Binding("a", "seat(0)", "Seat A", show=False),
        Binding("b", "seat(1)", "Seat B", show=False),
        *[Binding(str(i), f"level({i})", show=False) for i in range(1, len(LEVEL_CHOICES) + 1)],
        Binding("f", "deal('fair')", "Fair", show=False),
        Binding("d", "deal('seed')", "Seeded", show=False),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        start: Callable[[NewGame], None],
        back: Callable[[], None],
        *,
        level: str = "cmcts",
        think: float = 1.0,
    ) -> None:
        super().__init__(name="new")
        self.start = start
        self.back = back
        self.level = level if level in LEVEL_CHOICES else "cmcts"
        self.think = think

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="menu"):
            yield Label(tr("New game"), classes="menu-title")
            yield Label(tr("Game (e): the base game or with its expansions"))
            with Choices(id="game"):
                for i, (_, words) in enumerate(GAME_CHOICES):
                    yield Choice(tr(words), value=i == 0, id=f"game-{i}")
            yield Label(tr("Your seat (a, b)"))
            with Choices(id="seat"):
                yield Choice("A", value=True, id="seat-a")
                yield Choice("B", id="seat-b")
            yield Label(tr("Opponent (1-4): random, greedy (one ply), search, cmcts (strongest)"))
            with Choices(id="level"):
                for i, name in enumerate(LEVEL_CHOICES, 1):
                    yield Choice(f"{i} {name}", value=name == self.level, id=f"level-{name}")
            with Horizontal(classes="row"):
                yield Label(tr("Seconds per move:"))
                yield Input(f"{self.think:g}", id="think")
            yield Label(tr("Deal (f, d): fair hides each card until the rules reveal it"))
            with Choices(id="deal"):
                yield Choice(tr("fair"), value=True, id="deal-fair")
                yield Choice(tr("seeded (reproducible, not fair play)"), id="deal-seed")
            with Horizontal(classes="row"):
                yield Label(tr("Seed:"))
                yield Input("1", id="seed", disabled=True)
            with Horizontal(classes="buttons"):
                yield Button(tr("Start (Enter)"), id="new-start")
                yield Button(tr("Back (Escape)"), id="new-back")
            yield Static(id="error")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#new-start", Button).focus()

    def action_back(self) -> None:
        self.back()

    def action_next_game(self) -> None:
        # counted here: the radio set turns the other buttons off only when its message comes,
        # after a second key pressed at once
        self.game_index = (self.chosen_game() + 1) % len(GAME_CHOICES)
        self.query_one(f"#game-{self.game_index}", RadioButton).value = True

    @on(RadioSet.Changed, "#game")
    def game_changed(self, event: RadioSet.Changed) -> None:
        self.game_index = event.index

    def chosen_game(self) -> int:
        return getattr(self, "game_index", 0)

    def action_seat(self, seat: int) -> None:
        self.query_one(f"#seat-{'ab'[seat]}", RadioButton).value = True

    def action_level(self, n: int) -> None:
        self.query_one(f"#level-{LEVEL_CHOICES[n - 1]}", RadioButton).value = True

    def action_deal(self, how: str) -> None:
        self.query_one(f"#deal-{how}", RadioButton).value = True

    @on(RadioSet.Changed, "#deal")
    def deal_changed(self) -> None:
        self.query_one("#seed", Input).disabled = not self.query_one(
            "#deal-seed", RadioButton
        ).value

    @on(RadioSet.Changed, "#level")
    def level_changed(self) -> None:
        self.query_one("#think", Input).disabled = self.chosen_level() not in TIMED

    def chosen_level(self) -> str:
        for name in LEVEL_CHOICES:
            if self.query_one(f"#level-{name}", RadioButton).value:
                return name
        return "cmcts"

    def choice(self) -> NewGame | str:
        """The game chosen, or what is wrong with it."""
        seat = 1 if self.query_one("#seat-b", RadioButton).value else 0
        name = self.chosen_level()
        think = parse_seconds(self.query_one("#think", Input).value)
        if isinstance(think, str):
            if name in TIMED:
                return think
            think = self.think
        seed: int | None = None
        if self.query_one("#deal-seed", RadioButton).value:
            typed = parse_seed(self.query_one("#seed", Input).value)
            if isinstance(typed, str):
                return typed
            seed = typed
        expansions = GAME_CHOICES[self.chosen_game()][0]
        return NewGame(seat, opponent_level(name, think), think, seed, expansions)

    def action_start(self) -> None:
        chosen = self.choice()
        if isinstance(chosen, str):
            self.show_error(chosen)
            return
        self.start(chosen)

    @on(Button.Pressed, "#new-start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#new-back")
    def back_pressed(self) -> None:
        self.back()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_start()


class FileScreen(MenuScreen):
    """A saved game to load or a record to review: from the list, or a path typed."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        purpose: str,
        done: Callable[[Path], str | None],
        back: Callable[[], None],
        games: list[Path] | None = None,
    ) -> None:
        super().__init__(name=purpose)
        self.purpose = purpose
        self.done = done
        self.back = back
        self.games = known_games() if games is None else games

    def compose(self) -> ComposeResult:
        title = tr("Load a saved game") if self.purpose == "load" else tr("Review a game record")
        with Vertical(classes="menu"):
            yield Label(title, classes="menu-title")
            if self.games:
                yield Label(tr("Saved games found (Enter or a click opens one):"))
                yield OptionList(*[Option(_dated(p)) for p in self.games], id="games")
            else:
                where = _shown(user_data_dir())
                yield Label(tr("No saved game found here or in {place}.", place=where))
            yield Label(tr("Or type a path and press Enter:"))
            yield Input(placeholder="duel-game.json", id="path")
            with Horizontal(classes="buttons"):
                yield Button(tr("Back (Escape)"), id="file-back")
            yield Static(id="error")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.games:
            self.query_one("#games", OptionList).focus()
        else:
            self.query_one("#path", Input).focus()

    def action_back(self) -> None:
        self.back()

    @on(Button.Pressed, "#file-back")
    def back_pressed(self) -> None:
        self.back()

    def open(self, path: Path) -> None:
        problem = self.done(path)
        if problem:
            self.show_error(problem)

    @on(OptionList.OptionSelected)
    def picked(self, event: OptionList.OptionSelected) -> None:
        self.open(self.games[event.option_index])

    @on(Input.Submitted)
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.show_error(tr("Type the path of a saved game (a .json file)."))
            return
        self.open(Path(os.path.expanduser(text)))
