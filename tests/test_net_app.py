"""The full-screen apps on a network seat (``duel join``), driven with Textual's pilot against a
real server on 127.0.0.1: the seat's move goes to the server, the opponent's comes back onto
the board, the clocks show, and hints are refused when the host did not allow them."""

from __future__ import annotations

import asyncio
import time

import pytest

from duel.app.screen.app import Dialog
from duel.net.client import Connection, ThreadedConnection
from duel.net.referee import Clock, Table, wire
from duel.net.screens import NetDuelApp, NetXApp, RemoteXControl
from duel.net.seat import RemoteSeat
from duel.net.server import GameServer

pytestmark = pytest.mark.terminal


async def _until(condition, timeout: float = 60.0, pilot=None) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the condition never held")
        if pilot is not None:
            await pilot.pause(0.05)
        else:
            await asyncio.sleep(0.05)


def _dialog(app) -> str:
    return (app.screen.name or "") if isinstance(app.screen, Dialog) else ""


async def _setup(folder, expansions):
    server = GameServer(folder)
    port = await server.start("127.0.0.1", 0)
    table = server.add(Table.new(expansions, ("human", "human"), clock=Clock(600, 5)))
    url = f"ws://127.0.0.1:{port}"
    net = ThreadedConnection(url, table.codes["A"]).start()
    assert await asyncio.to_thread(net.wait_welcome)
    b = Connection(url, table.codes["B"])
    runner = asyncio.ensure_future(b.run())
    return server, table, net, b, runner


async def _b_moves(table: Table, b: Connection) -> None:
    """B plays its first legal move whenever it is B's turn (the opponent of the app)."""
    while table.result is None:
        if b.my_turn and len(b.moves) == len(table.moves):
            await b.play(len(b.moves), wire(table.state.view(1).legal_moves()[0]
                                            if table.expansions else table.state.legal_moves()[0]))
        await asyncio.sleep(0.05)


def test_the_base_games_app_plays_through_the_server(tmp_path):
    async def main():
        server, table, net, b, runner = await _setup(tmp_path, ())
        seat = RemoteSeat(net)
        app = NetDuelApp(seat, think=0.1, delay=0.0)
        opponent = asyncio.ensure_future(_b_moves(table, b))
        async with app.run_test(size=(100, 32)) as pilot:
            await _until(lambda: app.screen is not app.screen_stack[0], pilot=pilot)
            status = str(app.header(100))
            assert "▶A 9:" in status and "B 10:00" in status  # the clocks, A's running
            await pilot.press("1")  # the draft's first wonder
            await _until(lambda: len(table.moves) > 10 and table.to_move() == 0, pilot=pilot)
            await _until(lambda: len(app.game.moves) == len(table.moves), pilot=pilot)
            assert app.game.moves == table.moves  # B's pick came back onto the board
            # The app opens the draft's dialog after a refresh: wait for it, not a fixed time
            # (a key pressed before it opens goes to the board, and the dialog opens after).
            await _until(lambda: _dialog(app) == "draft", pilot=pilot)
            await pilot.press("escape")
            await _until(lambda: len(app.screen_stack) == 1, pilot=pilot)
            refused = len(app.notices)
            await pilot.press("h")
            await _until(lambda: len(app.notices) > refused, pilot=pilot)
            assert "Hints and analysis are off" in app.notices[-1]
            await pilot.press("c")  # the draft's dialog again: Ctrl-R resigns from it too
            await _until(lambda: _dialog(app) == "draft", pilot=pilot)
            await pilot.press("ctrl+r")  # resign: asked first
            await _until(lambda: app.screen.name == "resign", pilot=pilot)
            await pilot.press("ctrl+r")  # asked once
            await pilot.pause(0.1)
            assert [s.name for s in app.screen_stack].count("resign") == 1
            await pilot.press("enter")
            await _until(lambda: table.result is not None, pilot=pilot)
            assert table.result["winner"] == "B" and table.result["how"] == "resign"
            await _until(lambda: app.screen.name == "over", pilot=pilot)  # the end, said
            app.exit()
        opponent.cancel()
        net.close()
        b.close()
        await runner
        await server.close()

    asyncio.run(asyncio.wait_for(main(), 180))


def test_the_expansions_app_plays_through_the_server(tmp_path):
    async def main():
        server, table, net, b, runner = await _setup(tmp_path, ("pantheon",))
        seat = RemoteSeat(net)
        app = NetXApp(RemoteXControl(seat))
        opponent = asyncio.ensure_future(_b_moves(table, b))
        async with app.run_test(size=(100, 32)) as pilot:
            await _until(lambda: app.player == 0, pilot=pilot)
            await pilot.pause(1.1)
            assert "▶A 9:" in str(app.query_one("#clock").render())
            start = len(table.moves)
            await pilot.press("1", "enter")  # the first move in the list
            await _until(lambda: len(table.moves) > start + 1 and app.player == 0, pilot=pilot)
            assert table.moves[start].kind == "pick"
            await pilot.press("f2")
            await pilot.pause(0.2)
            assert "Hints and analysis are off" in str(app.query_one("#log").render())
            app.query_one("#entry").value = "resign"
            await pilot.press("enter")
            await _until(lambda: table.result is not None, pilot=pilot)
            assert table.result["winner"] == "B" and table.result["how"] == "resign"
            app.exit()
        opponent.cancel()
        net.close()
        b.close()
        await runner
        await server.close()

    asyncio.run(asyncio.wait_for(main(), 180))
