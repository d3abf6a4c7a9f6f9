"""The full-screen game of ``duel play --expansions pantheon``, driven headless with Textual's
Pilot: a whole game by the move list and by typed moves, and the hand-over screen."""

from __future__ import annotations

import asyncio
import time

import pytest

from duel.app.xplay import XGameControl
from duel.app.xscreen import HandOver, XApp

pytestmark = [pytest.mark.expansions, pytest.mark.terminal]


async def settle(app: XApp, pilot) -> None:
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.busy:
            return


def test_a_whole_game_by_the_list_and_by_typing(tmp_path):
    control = XGameControl(("pantheon",), ("human", "random"), seed=3, record=tmp_path / "g.json")

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(140, 50)) as pilot:
            for turn in range(400):
                await settle(app, pilot)
                if control.state.is_terminal():
                    break
                assert app.player == 0
                if turn % 2:
                    app.query_one("#moves").focus()
                    await pilot.press("enter")
                else:
                    await pilot.press("1", "enter")
            await settle(app, pilot)
            assert control.state.is_terminal()
            assert "Game over" in "\n".join(app.lines)

    asyncio.run(scenario())
    assert (tmp_path / "g.json").exists()


def test_a_bad_move_is_said_and_the_game_goes_on():
    control = XGameControl(("pantheon",), ("human", "random"), seed=4)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(140, 50)) as pilot:
            await settle(app, pilot)
            await pilot.press(*"build nothing", "enter")
            await settle(app, pilot)
            assert any("no card named" in line for line in app.lines)
            assert app.player == 0

    asyncio.run(scenario())


def test_two_humans_get_the_hand_over_screen():
    control = XGameControl(("pantheon",), ("human", "human"), seed=2)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(140, 50)) as pilot:
            seen = False
            for _ in range(6):
                await settle(app, pilot)
                if isinstance(app.screen, HandOver):
                    seen = True
                    assert str(app.screen_stack[0].query_one("#board").content) == ""
                    await pilot.press("enter")
                    continue
                await pilot.press("1", "enter")
            assert seen

    asyncio.run(scenario())
