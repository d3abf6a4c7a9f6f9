"""The full-screen game of ``duel play --expansions pantheon``, driven headless with Textual's
Pilot: a whole game by the move list and by typed moves, and the hand-over screen."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.geometry import Region

from duel.app.control.xgame import XGameControl
from duel.app.screen.xapp import HandOver, XApp

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


def test_duel_play_with_expansions_opens_the_full_screen_and_a_signal_keeps_the_game(
    tmp_path, monkeypatch
):
    """The command on a terminal: the full-screen app (not the line mode); a kill leaves the
    game saved, and the exit says where."""
    import os
    import signal
    import sys
    from pathlib import Path

    import pexpect

    from duel.app.control.xsaves import read_save

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", "--expansions", "pantheon"]
        + ["--b", "random", "--seed", "4"],
        cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30, dimensions=(45, 130),
    )
    child.expect("pick")  # the draft's moves in the list of the full-screen app
    child.send("1\r")
    child.expect("plays")  # the random player answered: the moves are saved
    child.kill(signal.SIGTERM)
    child.expect("Continue it with: duel play --load")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signal.SIGTERM
    (save,) = (tmp_path / "wonders-duel").glob("duel-xgame-*.json")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where the child kept the key
    record, key = read_save(save)
    assert key is not None and any(str(m).startswith("pick") for m in record.moves)


def test_the_hint_shows_its_heading_and_each_move_on_a_line_of_its_own():
    control = XGameControl(("pantheon",), ("human", "random"), seed=5, think=0.05)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("f2")
            await settle(app, pilot)
            heading, *moves = app.lines
            assert heading.startswith("Best moves for A")
            assert [line.lstrip()[:3] for line in moves] == ["1. ", "2. "]
            shown = app.query_one("#log").render_lines(Region(0, 0, 80, 3))
            assert "Best moves for A" in "".join(s.text for s in shown[0])
            assert [("".join(s.text for s in line)).lstrip()[:3] for line in shown[1:]] == [
                "1. ",
                "2. ",
            ]

    asyncio.run(scenario())
