"""The full-screen game of ``duel play --expansions pantheon``, driven headless with Textual's
Pilot: a whole game by the move list and by typed moves, and the hand-over screen."""

from __future__ import annotations

import asyncio
import re
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


def mid_game(expansions: tuple[str, ...], age: int, seed: int = 11) -> XGameControl:
    """A game against random up to a few decisions into ``age``, A's moves random too (the
    Pantheon's activations taken when they come, so that Divinities are on the table)."""
    import random

    control = XGameControl(expansions, ("human", "random"), seed=seed, notify=lambda _: None)
    rng = random.Random(5)
    count = 0
    while True:
        player = control.advance()
        assert player == 0
        if control.state.age == age:
            count += 1
            if count > 3:
                return control
        moves = control.view(player).legal_moves()
        bold = [m for m in moves if m.kind in ("activate", "wonder")]
        control.play(rng.choice(bold or moves) if rng.random() < 0.5 else rng.choice(moves))


def screen_text(app: XApp) -> list[str]:
    """The screen's rows as a player sees them (whatever a scroll would bring is not there)."""
    import html

    from tests.test_app import svg_text

    return [html.unescape(row) for row in svg_text(app.export_screenshot())]


SMALL_CASES = [
    (exps, age, size)
    for size in [(80, 24), (120, 40)]
    for exps, age in [(("pantheon",), 2), (("agora",), 2), (("pantheon", "agora"), 3)]
]


@pytest.mark.parametrize(
    ("expansions", "age", "size"),
    SMALL_CASES,
    ids=[f"{'+'.join(e)}-age{a}-{w}x{h}" for e, a, (w, h) in SMALL_CASES],
)
def test_the_table_is_in_sight_without_scrolling(expansions, age, size):
    """At 80x24 (and 120x40) both players' coins and points, the military track, every card
    of the structure one can take (whole names), the Pantheon's spaces and the Senate's
    Chambers are on the screen at once; the moves are under or beside the table, or on F3."""
    from duel.app.text.xboard import _track, compact_board_lines
    from duel.expansions.agora import CHAMBERS
    from duel.expansions.components import space_price

    control = mid_game(expansions, age)
    view = control.view(0)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            text = "\n".join(screen_text(app))
            city = control.state.cities
            for player in (0, 1):
                coins = city[player].coins
                word = "coin" if coins == 1 else "coins"
                assert f"{'AB'[player]}: {coins} {word}" in text
                assert f" · {view.score(player).total} VP" in text
            # The military track and the looting tokens left, whole (in either form).
            assert _track(view, gap="") in text or _track(view) in text
            lines = compact_board_lines(view, size[0] - 1)
            takeable = [
                cell for line in lines for cell in line.strip().split(" | ") if cell.startswith("*")
            ]
            assert takeable and all(cell in text for cell in takeable)
            assert all("…" not in cell for cell in takeable)  # whole names
            if view.pantheon:  # the six spaces, each with both prices
                for n in range(1, 7):  # in the short form or the long one
                    a, b = space_price(0, n), space_price(1, n)
                    assert f"A {a}c B {b}c" in text or f"A pays {a}, B pays {b}" in text
            if view.agora:
                assert "Senate" in text
                for chamber in CHAMBERS:
                    assert re.search(rf"{chamber.chamber} \({chamber.points} VP\) +A ", text)
            board = app.query_one("#board-scroll")
            assert board.max_scroll_y == 0  # nothing of the table below the screen
            moves = app.query_one("#moves")
            if not moves.display:  # the moves on F3, in place of the table, and back
                await pilot.press("f3")
                await pilot.pause()
                assert moves.display and not board.display
                assert "  1  " in "\n".join(screen_text(app))
                await pilot.press("f3")
                await pilot.pause()
                assert board.display
            else:
                assert moves.region.height >= 3
                assert "  1  " in "\n".join(screen_text(app))

    asyncio.run(scenario())


def test_at_80x24_the_moves_list_plays_and_f4_shows_the_long_table():
    control = mid_game(("pantheon",), 2)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "Pantheon (activate from Age II" not in "\n".join(screen_text(app))
            await pilot.press("f4")
            await pilot.pause()
            assert "Pantheon (activate from Age II" in "\n".join(screen_text(app))
            await pilot.press("f4")
            await pilot.pause()
            before = len(control.moves)
            app.query_one("#moves").focus()
            await pilot.press("enter")
            await settle(app, pilot)
            assert len(control.moves) > before
            # The log keeps its last line: the random player's move.
            assert app.lines[-1].startswith("B plays")
            assert app.lines[-1][:40] in "\n".join(screen_text(app))

    asyncio.run(scenario())


def test_below_80x24_one_line_asks_for_a_larger_terminal():
    control = XGameControl(("agora",), ("human", "random"), seed=4)

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(79, 24)) as pilot:
            await settle(app, pilot)
            assert "at least 80x24" in "\n".join(screen_text(app))
            await pilot.resize_terminal(80, 24)
            await settle(app, pilot)
            await pilot.pause()
            assert "at least 80x24" not in "\n".join(screen_text(app))
            assert "pick" in "\n".join(screen_text(app))

    asyncio.run(scenario())


@pytest.mark.parametrize("expansions", [("pantheon",), ("agora",), ("pantheon", "agora")])
def test_the_short_table_fits_80_columns_and_keeps_the_opponents_secrets(expansions):
    """Through random games: every line of the short table of A's view fits 79 cells (80 less
    the scroll bar), and a Divinity B seated face down is never named on it."""
    import random

    from rich.cells import cell_len

    from duel.app.text.xboard import compact_board_lines
    from duel.expansions import new_xgame

    rng = random.Random(1)
    hidden_seen = 0
    for _ in range(3):
        state = new_xgame(expansions)
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            view = state.view(0)
            for room in (0, 18):
                lines = compact_board_lines(view, 79, room)
                assert all(cell_len(line) <= 79 for line in lines), lines
            text = "\n".join(compact_board_lines(view, 79))
            for space in state.spaces if state.pantheon else ():
                if space and space.owner == 1 and not space.face_up and space.divinity:
                    hidden_seen += 1
                    assert space.divinity not in text
            state = state.apply(rng.choice(state.legal_moves()))
    if "pantheon" in expansions:
        assert hidden_seen  # the case was met
