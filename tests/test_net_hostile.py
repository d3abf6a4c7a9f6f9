"""Hostile and broken clients against a real server on 127.0.0.1: each is refused with a clear
error, the server goes on, and a game played at the same time ends as if nothing happened.

Run with ``-s`` to see what each connection got (the list in the issue's closing note).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from duel.net.protocol import MAX_FRAME, encode
from duel.net.referee import Table
from duel.net.scripted import check_messages, play_table
from duel.net.server import GameServer, Limits

LIMITS = Limits(
    hello_seconds=0.5, rate=20, burst=20, strikes=3, wrong_code_pause=0.05, wrong_codes=50
)


async def exchange(url: str, frames: list, *, origin: str | None = None, wait: float = 0.6):
    """Send ``frames`` (text, bytes, or a dict to encode) and collect the answers until the
    server closes or ``wait`` seconds pass: (error codes received, close code or None)."""
    errors: list[str] = []
    closed = None
    try:
        async with connect(url, origin=origin, max_size=None, open_timeout=5) as ws:  # type: ignore[arg-type]
            for frame in frames:
                try:
                    await ws.send(encode(frame) if isinstance(frame, dict) else frame)
                except ConnectionClosed:
                    break
            try:
                while True:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), wait))
                    if answer["type"] == "error":
                        errors.append(answer["code"])
                        assert answer["message"]  # a sentence, not only a code
            except ConnectionClosed as closing:
                closed = closing.rcvd.code if closing.rcvd else 1006
            except TimeoutError:
                pass
    except InvalidStatus as refused:
        return [f"HTTP {refused.response.status_code}"], None
    return errors, closed


def hello(code: str) -> dict:
    return {"type": "hello", "code": code}


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    """The hostile connections, run while a game is played on the same server."""
    folder = tmp_path_factory.mktemp("hostile")
    got: dict[str, tuple[list[str], int | None]] = {}

    async def main():
        server = GameServer(folder, limits=LIMITS)
        port = await server.start("127.0.0.1", 0)
        url = f"ws://127.0.0.1:{port}"
        fast = GameServer(folder / "fast", limits=Limits(rate=10_000, burst=10_000))
        fast_port = await fast.start("127.0.0.1", 0)
        # The game that must not notice: on the limited server (its moves are paced).
        game_table = server.add(Table.new(("pantheon",), ("human", "human")))
        game = asyncio.ensure_future(
            play_table(url, game_table.codes, rng=random.Random(5), pace=0.06)
        )
        table = server.add(Table.new((), ("human", "human")))
        a, b, spectator = table.codes["A"], table.codes["B"], table.codes["spectator"]
        ply = len(table.moves)
        legal = str(table.state.legal_moves()[0])
        other = "B" if table.to_move() == 0 else "A"
        mover = a if table.to_move() == 0 else b
        waiter = b if mover == a else a
        cases = {
            "malformed JSON as the first message": ["{not json"],
            "malformed JSON after hello": [hello(mover), "{not json", '"a string"'],
            "JSON nested 30,000 deep": [hello(mover), "[" * 30_000 + "]" * 30_000],
            f"oversized frame ({2 * MAX_FRAME} bytes)": [hello(mover), "x" * (2 * MAX_FRAME)],
            "binary frame": [hello(mover), b"\x00\x01\x02"],
            "another protocol version": ['{"v": 99, "type": "hello", "code": "x"}'],
            "unknown message type": [hello(mover), {"type": "take-seat", "seat": "A"}],
            "a move before hello": [{"type": "move", "ply": ply, "move": legal}],
            "wrong code": [hello("AAAA-BBBB-CCCC")],
            "code not a code": [hello("' OR 1=1 --")],
            "a move for the other seat": [
                hello(waiter),
                {"type": "move", "ply": ply, "move": legal, "seat": other},
            ],
            "a spectator's move": [hello(spectator), {"type": "move", "ply": ply, "move": legal}],
            "an illegal move": [hello(mover), {"type": "move", "ply": ply, "move": "build Baths"}],
            "not a move": [hello(mover), {"type": "move", "ply": ply, "move": "fly to the moon"}],
            "a move for a past position": [
                hello(mover),
                {"type": "move", "ply": max(ply - 1, 0), "move": legal},
            ],
            "hello twice": [hello(mover), hello(mover)],
            "a flood (300 messages at once)": [hello(spectator)] + [{"type": "ping"}] * 300,
            "a silent connection": [],
        }
        for name, frames in cases.items():
            closes = EXPECTED[name][1] is not None  # it ends at the close: no time lost waiting
            got[name] = await exchange(url, frames, wait=5.0 if closes else 0.6)
        got["a web page's connection (Origin header)"] = await exchange(
            url, [hello(mover)], origin="http://evil.example"
        )
        # Guessing codes: after the limit, even the right code is refused from that address.
        fast.limits.wrong_codes, fast.limits.wrong_code_pause = 5, 0.01
        guessed = fast.add(Table.new((), ("human", "human")))
        for _ in range(5):
            await exchange(f"ws://127.0.0.1:{fast_port}", [hello("AAAA-BBBB-CCCC")], wait=0.5)
        got["the right code after 5 wrong guesses"] = await exchange(
            f"ws://127.0.0.1:{fast_port}", [hello(guessed.codes["A"])], wait=0.5
        )
        seen = await game
        # The server still serves: the table's seat joins and plays its legal move.
        got["a legal move after all that"] = await exchange(
            url, [hello(mover), {"type": "move", "ply": ply, "move": legal}], wait=0.5
        )
        after = len(table.moves)
        await server.close()
        await fast.close()
        return game_table, seen, table, ply, after

    game_table, seen, table, ply, after = asyncio.run(main())
    width = max(map(len, got))
    for name, (errors, closed) in got.items():
        shown = ", ".join(dict.fromkeys(errors)) or "-"
        closing = f"  (closed {closed})" if closed else ""
        print(f"{name:{width}}  {shown}{closing}")
    return got, game_table, seen, table, ply, after


EXPECTED = {
    "malformed JSON as the first message": ("bad-json", 1008),
    "malformed JSON after hello": ("bad-json", None),
    "JSON nested 30,000 deep": ("bad-json", None),
    f"oversized frame ({2 * MAX_FRAME} bytes)": ("too-big", 1009),
    "binary frame": ("bad-json", None),
    "another protocol version": ("bad-version", 1008),
    "unknown message type": ("bad-message", None),
    "a move before hello": ("hello-first", 1008),
    "wrong code": ("bad-code", 1008),
    "code not a code": ("bad-code", 1008),
    "a move for the other seat": ("not-your-turn", None),
    "a spectator's move": ("spectator", None),
    "an illegal move": ("illegal", None),
    "not a move": ("illegal", None),
    "a move for a past position": ("stale", None),
    "hello twice": ("bad-message", None),
    "a flood (300 messages at once)": ("rate", 1008),
    "a silent connection": ("timeout", 1008),
    "a web page's connection (Origin header)": ("HTTP 403", None),
    "the right code after 5 wrong guesses": ("bad-code", 1008),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_hostile_input_is_refused_with_a_clear_error(outcome, name):
    got = outcome[0]
    code, closed = EXPECTED[name]
    errors, was_closed = got[name]
    assert code in errors, (name, errors)
    if closed is not None:
        assert was_closed == closed, (name, was_closed)


def test_the_game_beside_them_is_unaffected(outcome):
    _, game_table, seen, table, ply, after = outcome
    assert game_table.over
    for seat, connection in seen.items():
        assert connection.record == game_table.record()
        assert check_messages(game_table, seat, connection) == []
    # Nothing the hostile connections sent was played; the legal move at the end was.
    assert after == ply + 1 + sum(1 for m in table.moves[ply + 1 :] if m.is_chance)


def test_an_illegal_move_is_refused_with_the_engines_reason():
    from duel.moves import Move

    table = Table.new((), ("human", "human"))
    table.deal()
    refused = table.play(table.to_move(), len(table.moves), "build Baths")
    assert refused is not None and refused[0] == "illegal"
    assert refused[1]["reason"] == table.state.why_illegal(Move.parse("build Baths"))
    assert "template" in refused[1]  # the client says it in its own language
