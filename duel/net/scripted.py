"""A scripted client: plays one seat with random legal moves of its own view, and can drop its
connection at random (the tests and ``benchmarks/net_games.py`` play whole games with it).

Each message it receives can be checked by ``inspect`` (the fair-play check); the connection
keeps every one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import ssl
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from duel.net.client import Connection, SeatGame
from duel.net.referee import wire


async def play_seat(
    url: str,
    code: str,
    *,
    rng: random.Random,
    drop_chance: float = 0.0,
    inspect: Callable[[Connection, dict[str, Any]], None] | None = None,
    timeout: float = 120.0,
    pace: float = 0.0,
    tls: ssl.SSLContext | None = None,
) -> Connection:
    """Play the seat of ``code`` to the end of the game (the connection, its record filled);
    TimeoutError if the game does not end within ``timeout`` seconds."""
    wake = asyncio.Event()
    connection = Connection(url, code, tls, keep_received=True, stop_when_over=True)
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
            if pace:
                await asyncio.sleep(pace)
            if await connection.play(ply, wire(move)):
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



async def play_table(
    url: str,
    codes: dict[str, str],
    *,
    rng: random.Random,
    drop_chance: float = 0.0,
    timeout: float = 120.0,
    pace: float = 0.0,
) -> dict[str, Connection]:
    """Both seats (scripted) and a spectator follow one game to its end."""
    seats = [s for s in ("A", "B", "spectator") if s in codes]
    played = await asyncio.gather(
        *(
            play_seat(
                url,
                codes[seat],
                rng=random.Random(rng.random()),
                drop_chance=drop_chance if seat != "spectator" else 0.0,
                timeout=timeout,
                pace=pace,
            )
            for seat in seats
        )
    )
    return dict(zip(seats, played, strict=True))


def free_port() -> int:
    """A TCP port of 127.0.0.1 free just now (for a server started next)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_process(folder: Path, port: int) -> subprocess.Popen[str]:
    """``duel server`` on ``folder`` in a process of its own (killable as a real server is),
    returned once it listens on 127.0.0.1:``port``."""
    duel = Path(sys.executable).parent / "duel"
    command = [str(duel), "server", "--folder", str(folder), "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--bind", "127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "LANGUAGE": "en"},
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("Listening on"):
            return process
    raise RuntimeError(f"duel server did not start (exit {process.wait()})")


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def check_messages(table: Any, seat: str, connection: Connection) -> list[str]:
    """What ``seat`` should not have received, message by message, checked against the
    referee's ``table`` (its moves and states): an empty list when the seat saw only its view.

    * no message names a seed, or a code other than the seat's own;
    * no record before the result;
    * the base game: a Great Library draw shows its three tokens only to the player who
      chooses among them, and only once drawn; to anyone else it shows up with the choice,
      as ``draw X, ?, ?``;
    * the expansions: after every message, the game rebuilt from the moves received is the
      referee's state as this seat may see it (``XState.view``), no more (a spectator's moves
      are every move as the player who did not make it saw it).
    """
    from duel.expansions.state import observe
    from duel.moves import Kind

    problems: list[str] = []
    own = table.codes.get(seat, "")
    others = [c for s, c in table.codes.items() if c != own]
    player = {"A": 0, "B": 1}.get(seat)
    texts: list[str] = []
    view = SeatGame(table.expansions, seat) if table.expansions and player is not None else None
    for number, message in enumerate(connection.received):
        where = f"{seat}, message {number + 1} ({message.get('type')})"
        text = json.dumps(message)
        if "seed" in _keys(message):
            problems.append(f"{where}: a seed")
        problems += [f"{where}: another seat's code" for code in others if code in text]
        if message.get("record") is not None and message.get("result") is None:
            problems.append(f"{where}: the record before the end")
        if "moves" not in message or message.get("type") == "error":
            continue
        start = message["from"]
        texts = texts[:start] + list(message["moves"])
        if len(texts) > len(table.moves):
            problems.append(f"{where}: more moves than the referee played")
            continue
        if table.expansions:
            for i in range(start, len(texts)):
                before, move = table.states[i], table.moves[i]
                who = player if player is not None else 1 - before.to_move
                if texts[i] != wire(observe(before, move, who)):
                    problems.append(f"{where}: move {i + 1} is not as this seat sees it")
            if view is not None:
                view.update(texts)
                if view.state != table.states[len(texts)].view(player):
                    problems.append(f"{where}: the game received is not this seat's view")
            continue
        for i in range(start, len(texts)):
            move = table.moves[i]
            if move.kind is not Kind.LIBRARY_DRAW:
                if texts[i] != str(move):
                    problems.append(f"{where}: move {i + 1} differs from the referee's")
                continue
            chooser = table.states[i + 1].to_move
            if player != chooser and "?" not in texts[i]:
                problems.append(f"{where}: The Great Library's draw shown to the other seat")
            if player != chooser and i + 1 >= len(texts):
                problems.append(f"{where}: The Great Library's draw sent before the choice")
    return problems
