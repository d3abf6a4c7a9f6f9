"""A scripted client: plays one seat with random legal moves of its own view, and can drop its
connection at random (the tests and ``benchmarks/net_games.py`` play whole games with it).

Each message it receives can be checked by ``inspect`` (the fair-play check); the connection
keeps every one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from duel.net.client import Connection, SeatGame


async def play_seat(
    url: str,
    code: str,
    *,
    rng: random.Random,
    drop_chance: float = 0.0,
    inspect: Callable[[Connection, dict[str, Any]], None] | None = None,
    timeout: float = 120.0,
) -> Connection:
    """Play the seat of ``code`` to the end of the game (the connection, its record filled);
    TimeoutError if the game does not end within ``timeout`` seconds."""
    wake = asyncio.Event()
    connection = Connection(url, code, keep_received=True, stop_when_over=True)
    connection.on_change = wake.set
    runner = asyncio.ensure_future(connection.run())
    game: SeatGame | None = None
    sent: tuple[int, int] | None = None
    checked = errors = 0
    end = asyncio.get_running_loop().time() + timeout
    try:
        while not runner.done():
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"seat {connection.seat or '?'}: the game did not end")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), min(left, 1.0))
            wake.clear()
            if inspect is not None:
                for message in connection.received[checked:]:
                    inspect(connection, message)
                checked = len(connection.received)
            if connection.record is not None or not connection.seat:
                continue
            if game is None:
                game = SeatGame(connection.expansions, connection.seat)
            game.update(connection.moves)
            if not connection.my_turn or connection.link != "online":
                continue
            ply = len(connection.moves)
            if len(connection.errors) > errors:  # refused (too fast, stale): choose again
                errors = len(connection.errors)
                sent = None
                await asyncio.sleep(0.2)
            if sent == (ply, connection.reconnects):
                continue  # sent already on this connection: wait for the server
            state = game.state
            if state.is_chance() or state.is_terminal() or state.to_move != game.player:
                continue
            move = rng.choice(state.legal_moves())
            if await connection.play(ply, str(move)):
                sent = (ply, connection.reconnects)
            if rng.random() < drop_chance:
                await connection.drop()
        await runner
    finally:
        connection.close()
        if not runner.done():
            runner.cancel()
    if inspect is not None:
        for message in connection.received[checked:]:
            inspect(connection, message)
    return connection

