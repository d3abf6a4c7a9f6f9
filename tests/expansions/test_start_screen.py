"""The expansions on the start screen of ``duel play`` (issue 61): a new game of Pantheon, Agora
or both, a saved expansion game listed and continued, an expansion record reviewed; the app
hands an expansion game over to its own table (:class:`duel.app.screen.start.HandOff`)."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from duel.app.control.xgame import XGameControl
from duel.app.screen.app import DuelApp
from duel.app.screen.start import (
    FileScreen,
    HandOff,
    NewGame,
    NewGameScreen,
    known_games,
    run_hand_off,
)
from duel.app.screen.xreview import XReviewScreen
from duel.expansions import new_xgame
from duel.expansions.record import XRecord

pytestmark = [pytest.mark.terminal, pytest.mark.expansions]


def start_app() -> DuelApp:
    return DuelApp(
        None, think=0.1, hint_nodes=100, chance_nodes=0, review_level="greedy", review_workers=1
    )


def test_a_new_agora_game_by_keys_is_handed_to_its_table():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("e", "e", "b", "1", "d", "enter")  # Agora, seat B, random, seed 1
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    game = app.hand_off.game
    assert game == NewGame(1, "random", 0.1, 1, ("agora",))
    assert game.kinds == ["random", "human"]


def test_keys_pressed_at_once_step_through_the_games():
    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            screen = app.screen
            for _ in range(3):  # faster than the radio set's messages
                screen.action_next_game()
            assert screen.choice().expansions == ("agora", "pantheon")
            screen.action_next_game()
            assert screen.choice().expansions == ()

    asyncio.run(scenario())


def test_the_searching_levels_stand_for_the_expansion_search():
    from duel.solvers.xplayers import DEFAULT_XLEVEL

    expected = ["human", f"{DEFAULT_XLEVEL}:2s"]  # cmcts where it is built
    assert NewGame(0, "cmcts:2s", 2.0, None, ("pantheon",)).kinds == expected
    assert NewGame(0, "cmcts:2s", 2.0, None).kinds == ["human", "cmcts:2s"]


def test_the_hand_off_starts_or_continues_the_expansion_game(monkeypatch, tmp_path):
    calls = []

    def fake_play_xgame(expansions, seats, **options):
        calls.append((expansions, seats, options))
        return 0

    monkeypatch.setattr("duel.app.screen.xapp.play_xgame", fake_play_xgame)
    run_hand_off(HandOff(game=NewGame(0, "greedy", 1.0, 7, ("agora", "pantheon"))))
    run_hand_off(HandOff(path=tmp_path / "save.json"))
    (expansions, seats, options), (_, _, loaded) = calls
    assert expansions == ("agora", "pantheon") and seats == ("human", "greedy")
    assert options["seed"] == 7
    assert loaded["load"] == tmp_path / "save.json"


def _saved_expansion_game(tmp_path) -> XGameControl:
    control = XGameControl(
        ("agora",),
        ("human", "random"),
        seed=3,
        record=tmp_path / "xgame.json",
        notify=lambda _: None,
    )
    while len(control.moves) < 40:
        player = control.advance()
        control.play(control.view(player).legal_moves()[0])
    return control


def test_load_lists_an_expansion_save_and_hands_it_over(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    _saved_expansion_game(tmp_path)
    assert [p.name for p in known_games()] == ["xgame.json"]

    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, FileScreen)
            await pilot.press("enter")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.hand_off.path.resolve() == tmp_path / "xgame.json"


def test_review_opens_an_expansion_record_move_by_move(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    state, moves, rng = new_xgame(("pantheon",)), [], random.Random(1)
    while len(moves) < 50:
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    XRecord(("pantheon",), tuple(moves)).save(tmp_path / "pantheon.json")
    monkeypatch.setattr("duel.app.screen.xreview.ITERATIONS", 5)

    async def scenario():
        app = start_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, FileScreen)
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, XReviewScreen)
            deadline = time.monotonic() + 60
            while "Reviewed" not in str(screen.query_one("#xreview-status").render()):
                assert time.monotonic() < deadline
                await pilot.pause(0.1)
            assert screen.judged  # values shown next to the moves
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, XReviewScreen)

    asyncio.run(scenario())
