"""The clock of a network game, on a real server on 127.0.0.1: a loss on time decided by the
server, the increment, and a clock that keeps running while its player is disconnected."""

from __future__ import annotations

import asyncio
import time

import pytest

from duel.net.client import Connection
from duel.net.referee import Clock, Table, wire
from duel.net.server import GameServer


async def _until(condition, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the condition never held")
        await asyncio.sleep(0.02)


async def _seat(url: str, code: str) -> tuple[Connection, asyncio.Future]:
    connection = Connection(url, code)
    runner = asyncio.ensure_future(connection.run())
    await _until(lambda: connection.seat != "")
    return connection, runner


def _game(tmp_path, clock: Clock):
    async def start():
        server = GameServer(tmp_path)
        port = await server.start("127.0.0.1", 0)
        table = server.add(Table.new((), ("human", "human"), clock=clock))
        return server, table, f"ws://127.0.0.1:{port}"

    return start


def test_clock_parse():
    assert Clock.parse("10+5") == Clock(600.0, 5.0)
    assert Clock.parse("3") == Clock(180.0, 0.0)
    for bad in ("", "x+1", "10+", "-1+0", "0+5", "10+-1", "inf+0", "nan+1"):
        with pytest.raises(ValueError):
            Clock.parse(bad)


def test_a_loss_on_time_is_decided_by_the_server(tmp_path):
    async def main():
        server, table, url = await _game(tmp_path, Clock(1.0, 0.0))()
        a, run_a = await _seat(url, table.codes["A"])
        b, run_b = await _seat(url, table.codes["B"])
        await _until(lambda: a.result is not None and b.result is not None and b.record)
        for connection in (a, b):
            connection.close()
        await asyncio.gather(run_a, run_b)
        await server.close()
        return table, a, b

    table, a, b = asyncio.run(main())
    assert table.result == {"winner": "B", "how": "time", "scores": table.result["scores"]}
    assert a.result == b.result == table.result
    assert a.record == b.record == Table.load(table.path).record()
    assert a.record["metadata"]["result"]["how"] == "time"
    assert a.clocks is not None and a.clocks[0] == 0.0 and a.clocks[1] == 1.0


def test_the_increment_is_added_after_each_move(tmp_path):
    async def main():
        server, table, url = await _game(tmp_path, Clock(5.0, 3.0))()  # 5 s + 3 s a move
        a, run_a = await _seat(url, table.codes["A"])
        moved = len(a.moves)
        before = a.clocks_now()
        await a.play(moved, wire(table.state.legal_moves()[0]))
        await _until(lambda: len(a.moves) > moved)
        after = a.clocks
        a.close()
        await run_a
        await server.close()
        return before, after

    before, after = asyncio.run(main())
    assert before is not None and after is not None
    used = before[0] - (after[0] - 3.0)
    # 5 s, less the time used, plus 3 s (the client counts down from the server's figure)
    assert after[0] > 5.0 and -0.1 <= used < 2.0
    assert 4.5 < after[1] <= 5.0  # B's clock has just started


def test_a_disconnected_players_clock_keeps_running(tmp_path):
    async def main():
        server, table, url = await _game(tmp_path, Clock(2.5, 0.0))()  # 2.5 s
        a, run_a = await _seat(url, table.codes["A"])
        a.close()  # A leaves on its move
        await run_a
        await asyncio.sleep(1.0)
        back, run_back = await _seat(url, table.codes["A"])  # the same code, 1 s later
        on_return = list(back.clocks or [])
        back.close()  # and away again: the flag falls with nobody connected
        await run_back
        await _until(lambda: table.result is not None)
        b, run_b = await _seat(url, table.codes["B"])
        b.close()
        await run_b
        await server.close()
        return table, on_return, b

    table, on_return, b = asyncio.run(main())
    assert on_return[0] <= 1.5  # the second away was counted
    assert table.result is not None and table.result["how"] == "time"
    assert table.result["winner"] == "B"
    assert b.result == table.result and b.record == table.record()  # told on joining
