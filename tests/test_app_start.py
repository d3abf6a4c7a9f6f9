"""The start screen of the full-screen app (issue 24): ``duel play`` with no option opens it; a
new game (seat, opponent, time, fair deal or seed), a saved game from the list or a path, a
review, quit; keys and the mouse; Escape back; bad input is a line on the screen."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp, InfoScreen
from duel.app.screen.start import (
    LEVEL_CHOICES,
    Choice,
    Choices,
    FileScreen,
    NewGameScreen,
    StartScreen,
    known_games,
)
from tests.test_app import settle, svg_text

pytestmark = pytest.mark.terminal


def start_app() -> DuelApp:
    return DuelApp(
        None, think=0.1, hint_nodes=100, chance_nodes=0, review_level="greedy", review_workers=1
    )


def saved_game(path, moves: int = 12) -> GameController:
    game = GameController(["human", "random"], Dealer(seed=4))
    game.set_players()
    while len(game.moves) < moves:
        game.push(game.deal() if game.state.is_chance() else game.state.legal_moves()[0])
    game.save(path)
    return game


def test_a_new_game_by_keys_seat_level_and_seed():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            for key in "hsu":  # the game's keys are off on the menus
                await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, StartScreen) and len(app.screen_stack) == 2
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("escape")  # back
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            await pilot.press("n", "b", "2", "d", "enter")
            await settle(app, pilot)
            assert app.game.kinds == ["greedy", "human"]
            assert app.game.dealer.seed == 1 and not app.game.dealer.fair
            assert not app.starting and app.game.moves  # dealt, and greedy picked as A
            assert any(line.startswith("7 Wonders Duel: A (greedy)") for line in app.log_lines)

    asyncio.run(scenario())


def test_the_defaults_are_a_fair_game_against_cmcts_and_clicks_work():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.click("#start-new")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            choice = screen.choice()
            assert choice.seat == 0 and choice.level == "cmcts:0.1s" and choice.seed is None
            await pilot.click("#level-random")
            await pilot.click("#new-start")
            await settle(app, pilot)
            assert app.game.kinds == ["human", "random"] and app.game.dealer.fair

    asyncio.run(scenario())


def radio_rows(app: DuelApp) -> dict[str, list[tuple[str, str]]]:
    """The radio sets of the New game dialog as a screen capture shows them, without colour:
    each set's row as (marker, label) pairs, such as ("(•)", "4 cmcts")."""
    rows = svg_text(app.export_screenshot())
    firsts = {"game": "base game", "seat": "A", "level": "1 random", "deal": "fair"}
    found = {}
    for name, first in firsts.items():
        marked = [r for r in rows if re.search(r"\([• ]\) " + re.escape(first) + " ", r)]
        assert len(marked) == 1, f"no row of the {name} set with (•) and ( ) markers: {rows}"
        row = marked[0]
        parts = re.split(r"(\([• ]\)) ", row.strip("█"))[1:]
        pairs = zip(parts[::2], parts[1::2], strict=True)
        found[name] = [(marker, words.strip()) for marker, words in pairs]
    return found


def highlighted(app: DuelApp, radio_set: Choices) -> list[str]:
    """The buttons of ``radio_set`` drawn highlighted (the keyboard cursor), read from the
    screen: those whose label's background is not the set's own (its last column, which no
    button reaches)."""
    plain = app.screen.get_style_at(radio_set.region.right - 1, radio_set.region.y).bgcolor
    return [
        button.id
        for button in radio_set.query(Choice)
        if app.screen.get_style_at(button.region.x + 4, button.region.y).bgcolor != plain
    ]


def test_the_chosen_button_of_each_radio_set_is_marked_in_characters_and_has_the_cursor():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewGameScreen)

            async def check(chosen: dict[str, str]) -> None:
                await pilot.pause()
                rows = radio_rows(app)
                for name, label in chosen.items():
                    markers = dict((words, marker) for marker, words in rows[name])
                    assert markers[label] == "(•)", (name, rows[name])
                    others = {m for words, m in markers.items() if words != label}
                    assert others == {"( )"}, (name, rows[name])
                    radio_set = screen.query_one(f"#{name}", Choices)
                    button = radio_set.pressed_button
                    assert button is not None and str(button.label) == label
                    assert highlighted(app, radio_set) == [button.id], name

            await check({"game": "base game", "seat": "A", "level": "4 cmcts", "deal": "fair"})
            assert [words for _, words in radio_rows(app)["level"]] == [
                f"{i} {name}" for i, name in enumerate(LEVEL_CHOICES, 1)
            ]
            await pilot.press("2", "b", "d", "e")
            await check({"game": "Pantheon", "seat": "B", "level": "2 greedy", "deal": "seeded"
                         " (reproducible, not fair play)"})
            await pilot.press("1", "a", "f")
            await check({"game": "Pantheon", "seat": "A", "level": "1 random", "deal": "fair"})

    asyncio.run(scenario())


def test_bad_time_and_seed_are_a_line_on_the_screen():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            screen = app.screen
            screen.query_one("#think").value = "soon"
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen
            assert "number of seconds" in str(screen.query_one("#error").render())
            screen.query_one("#think").value = "2"
            await pilot.pause(0.3)  # a button pressed stays "active" a moment, deaf to Enter
            await pilot.press("d")
            screen.query_one("#seed").value = "-3"
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen
            assert "seed" in str(screen.query_one("#error").render())

    asyncio.run(scenario())


def test_load_lists_the_saves_it_knows_and_takes_a_typed_path(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    saved = saved_game(tmp_path / "duel-game.json")
    (tmp_path / "notes.json").write_text("{}")  # not a game: not listed
    assert [path.name for path in known_games()] == ["duel-game.json"]

    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("l")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FileScreen) and len(screen.games) == 1
            await pilot.press("tab")  # to the path
            for key in "nowhere.json":
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen
            assert "Could not load" in str(screen.query_one("#error").render())
            screen.query_one("#games").focus()
            await pilot.press("enter")  # the listed game
            await settle(app, pilot)
            assert app.game.moves[: len(saved.moves)] == saved.moves
            assert app.game.kinds == ["human", "random"]
            assert any(line.startswith("Loaded ") for line in app.log_lines)

    asyncio.run(scenario())


def test_quit_from_the_start_screen():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        assert app.return_value == 0 and app.left

    asyncio.run(scenario())


def test_a_new_game_keeps_the_game_before(tmp_path, monkeypatch):
    """Nothing is lost: a game replaced by another (a what-if) is autosaved first."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def scenario():
        game = GameController(["human", "random"], Dealer(seed=2))
        game.set_players()
        app = DuelApp(game, think=0.1, chance_nodes=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert game.dirty and game.moves
            other = GameController(["human", "random"], Dealer(seed=3))
            other.set_players()
            app.start_game(other, ["another game"])
            await settle(app, pilot)
            assert list((tmp_path / "wonders-duel").glob("duel-autosave-*.json"))
            assert any("The game before was saved" in line for line in app.log_lines)
            assert not isinstance(app.screen, (StartScreen, InfoScreen))

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("args", "start"),
    [
        ([], True),
        (["--think", "2"], True),
        (["--seed", "1"], False),
        (["--a", "human"], False),
        (["--b", "greedy"], False),
        (["--line"], False),
        (["--load", "x.json"], False),
    ],
)
def test_duel_play_opens_the_start_screen_only_without_options(monkeypatch, args, start):
    """On a terminal the command chooses: the start screen, the app on a game set up from the
    options, or (``--line``) the line mode."""
    from duel.app.cli import main as cli
    from duel.app.line import play as line
    from duel.app.screen import app as screen

    ran = []
    monkeypatch.setattr(cli, "on_a_terminal", lambda: True)
    monkeypatch.setattr(screen, "run_app", lambda game, **options: ran.append(game) or 0)
    monkeypatch.setattr(line, "open_game", lambda seats, **options: SimpleNamespace(game="set up"))
    monkeypatch.setattr(line, "run_game", lambda seats, **options: ran.append("line mode") or 0)
    result = CliRunner().invoke(cli.app, ["play", *args])
    assert result.exit_code == 0, result.output
    assert ran == [None if start else "line mode" if "--line" in args else "set up"]
