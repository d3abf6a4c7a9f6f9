"""The network game over real sockets on 127.0.0.1 (no mock of the transport): whole games
between scripted clients with random disconnects, the server killed (kill -9) and started
again, what each client receives checked for what it should not know, the referee's
refusals, and the clock.

``benchmarks/net_games.py`` plays the same games by the hundred.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from duel.net.client import Connection
from duel.net.referee import Table
from duel.net.scripted import check_messages, free_port, play_table, server_process
from duel.net.server import GameServer, Limits

#: The scripted clients play as fast as the server answers: no rate limit for them.
FAST = Limits(rate=10_000, burst=10_000, wrong_code_pause=0.01)
VARIANTS = [(), ("pantheon",), ("agora",), ("agora", "pantheon")]


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 120))


async def started(folder: Path, limits: Limits = FAST) -> tuple[GameServer, str]:
    server = GameServer(folder, limits=limits)
    port = await server.start("127.0.0.1", 0)
    return server, f"ws://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """A game of each kind (base, Pantheon, Agora, both) played at once by scripted clients
    that drop their connection after about one move in twenty, and a spectator each."""
    folder = tmp_path_factory.mktemp("tables")

    async def main():
        server, url = await started(folder)
        tables = [server.add(Table.new(e, ("human", "human"))) for e in VARIANTS]
        seen = await asyncio.gather(
            *(
                play_table(url, t.codes, rng=random.Random(i), drop_chance=0.05)
                for i, t in enumerate(tables)
            )
        )
        await server.close()
        return list(zip(tables, seen, strict=True))

    return run(main())


def test_every_game_ends_with_one_record_on_the_server_and_every_client(games):
    for table, seen in games:
        assert table.over and table.result["how"] in ("military", "science", "civilian")
        saved = Table.load(table.path)  # the server's file: the same game
        assert saved.record() == table.record()
        for seat, connection in seen.items():
            assert connection.record == table.record(), (table.expansions, seat)
    assert sum(c.reconnects for _, seen in games for c in seen.values()) > 0  # drops happened


def test_no_client_receives_what_it_should_not_know(games):
    checked = 0
    for table, seen in games:
        for seat, connection in seen.items():
            assert check_messages(table, seat, connection) == [], (table.expansions, seat)
            checked += len(connection.received)
    assert checked > 500


def test_the_record_is_the_projects_format(games):
    from duel.expansions.record import XRecord
    from duel.record import GameRecord

    (base, _), (pantheon, _) = games[:2]
    assert GameRecord.from_json(base.record()).final_state() == base.state
    assert XRecord.from_json(pantheon.record()).final_state() == pantheon.state


def test_a_leak_would_be_found(games):
    """The fair-play check is not vacuous: another seat's messages, or a code in a message,
    are caught."""
    table, seen = games[1]  # Pantheon: each seat has private Divinities
    a, b = seen["A"], seen["B"]
    saved = a.received
    a.received = b.received  # A given B's messages: B's private Divinities
    assert any("view" in p or "sees it" in p for p in check_messages(table, "A", a))
    spy = Connection("", "")
    spy.received = [{"type": "update", "from": 0, "moves": [], "note": table.codes["B"]}]
    assert check_messages(table, "A", spy) == ["A, message 1 (update): another seat's code"]
    a.received = saved


def test_the_server_killed_mid_game_resumes_and_the_clients_reconnect(tmp_path):
    port = free_port()
    tables = [Table.new(e, ("human", "human")) for e in ((), ("agora", "pantheon"))]
    for table in tables:
        table.path = tmp_path / f"table-{table.id}.json"
        table.deal()
        table.save()
    process = server_process(tmp_path, port)
    url = f"ws://127.0.0.1:{port}"

    async def main():
        games = [
            asyncio.ensure_future(play_table(url, t.codes, rng=random.Random(i)))
            for i, t in enumerate(tables)
        ]
        nonlocal process
        while True:  # mid-game: once both have moved on
            await asyncio.sleep(0.05)
            counts = [len(Table.load(t.path).moves) for t in tables]
            if all(c > 60 for c in counts):
                break
        process.send_signal(signal.SIGKILL)
        process.wait()
        process = await asyncio.to_thread(server_process, tmp_path, port)
        # A game put in the folder while the server runs (duel host --add) is served too.
        added = Table.new(("pantheon",), ("human", "human"))
        added.path = tmp_path / f"table-{added.id}.json"
        added.deal()
        added.save()
        await asyncio.sleep(1.5)  # duel server looks at its folder every second
        late = await play_table(url, added.codes, rng=random.Random(9))
        assert late["A"].record == Table.load(added.path).record() is not None
        return await asyncio.gather(*games), counts

    try:
        played, counts = run(main())
    finally:
        process.kill()
        process.wait()
    for table, seen in zip(tables, played, strict=True):
        final = Table.load(table.path)
        assert final.over and len(final.moves) > 60
        for seat, connection in seen.items():
            assert connection.record == final.record(), seat
            assert connection.reconnects >= 1, seat  # it came back on its own
            assert check_messages(final, seat, connection) == [], seat


@pytest.mark.parametrize("expansions", [(), ("pantheon",)], ids=["base", "pantheon"])
def test_an_ai_seat_plays_on_the_server_from_its_own_view(tmp_path, expansions, monkeypatch):
    import duel.net.server as server_module

    looked: list = []
    real = server_module.make_player

    def watched(table, player):
        ai = real(table, player)
        choose = ai.choose

        def choosing(state):
            looked.append(getattr(state, "observer", "public"))
            return choose(state)

        ai.choose = choosing
        return ai

    monkeypatch.setattr(server_module, "make_player", watched)

    async def main():
        server, url = await started(tmp_path)
        table = server.add(Table.new(expansions, ("human", "random")))
        seen = await play_table(url, {"A": table.codes["A"]}, rng=random.Random(4))
        await server.close()
        return table, seen["A"]

    table, a = run(main())
    assert table.over and a.record == table.record()
    assert looked and set(looked) == ({1} if expansions else {"public"})  # B's view only


def test_the_strongest_player_for_an_ai_seat():
    from duel.net.cli import _seat

    assert _seat("ai", ()) in ("cmcts", "search", "random")  # cmcts where it is built
    assert _seat("ai", ("pantheon",)) in ("cmcts", "mcts")  # cmcts where it is built
    assert _seat(None, ()) == "human"


def test_tls_when_the_host_gives_a_certificate(tmp_path):
    """A self-signed certificate: a client that trusts it plays; one that does not is told
    why and does not retry."""
    import shutil
    import ssl

    from duel.net.scripted import play_seat
    from duel.net.server import tls_context

    if shutil.which("openssl") is None:
        pytest.skip("openssl makes the test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )

    async def main():
        server = GameServer(tmp_path / "tables", limits=FAST)
        port = await server.start("127.0.0.1", 0, tls=tls_context(cert, key))
        table = server.add(Table.new((), ("human", "human")))
        url = f"wss://127.0.0.1:{port}"
        trusting = ssl.create_default_context(cafile=str(cert))
        seen = await asyncio.gather(
            *(play_seat(url, table.codes[s], rng=random.Random(s), tls=trusting) for s in "AB")
        )
        stranger = Connection(url, table.codes["A"], ssl.create_default_context())
        await asyncio.wait_for(stranger.run(), 10)
        await server.close()
        return table, seen, stranger

    table, seen, stranger = run(main())
    assert table.over and all(c.record == table.record() for c in seen)
    assert stranger.fatal is not None and stranger.fatal.startswith("TLS:")


def test_a_failed_save_leaves_the_game_going_on(tmp_path):
    table = Table.new((), ("human", "human"))
    table.path = tmp_path / "gone" / "table.json"  # a folder that does not exist
    table.deal()
    assert table.play(table.to_move(), len(table.moves), str(table.state.legal_moves()[0])) is None
    assert table.save_error and len(table.moves) > 9  # the move is played, the error kept
    table.path = tmp_path / "table.json"
    table.commit(table.state.legal_moves()[0])
    assert Table.load(table.path).moves == table.moves and table.save_error == ""


def test_duel_host_add_prints_a_code_per_seat_and_one_for_spectators(tmp_path):
    duel = Path(sys.executable).parent / "duel"
    out = subprocess.run(
        [str(duel), "host", "--add", "--folder", str(tmp_path), "--b", "random", "--clock",
         "10+5", "--expansions", "pantheon", "--port", "9999"],
        capture_output=True, text=True, env={**os.environ, "LANGUAGE": "en"}, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    [path] = tmp_path.glob("table-*.json")
    table = Table.load(path)
    assert table.seats == ("human", "random") and table.clock is not None
    assert path.stat().st_mode & 0o777 == 0o600  # the codes are the owner's
    assert "duel join " in out.stdout and table.codes["A"] in out.stdout
    assert table.codes["spectator"] in out.stdout
    assert table.codes["B"] not in out.stdout  # an AI seat has no code to give
    assert "B: the AI (random)" in out.stdout
    bad = subprocess.run(
        [str(duel), "host", "--add", "--folder", str(tmp_path), "--clock", "ten"],
        capture_output=True, text=True, env={**os.environ, "LANGUAGE": "en"}, timeout=60,
    )
    assert bad.returncode == 2 and "minutes+seconds" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    "name", ["duel.net.protocol", "duel.net.referee", "duel.net.client", "duel.net.seat"]
)
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_every_expansion_move_reads_back_so_every_record_does():
    """The record the players receive is read by duel review: every move's notation must read
    back (a moved Decree's did not: 'move decree Green waiver from 3 to 6')."""
    from duel.expansions import XMove
    from duel.expansions.record import XRecord
    from duel.expansions.state import new_game, observe

    for seed in range(12):
        state, moves = new_game(("agora", "pantheon")), []
        rng = random.Random(seed)
        while not state.is_terminal():
            move = state.random_move(rng)
            for player in (0, 1):
                seen = observe(state, move, player)
                assert XMove.parse(str(seen)) == seen, str(seen)
            moves.append(move)
            state = state.apply(move)
        record = XRecord(("agora", "pantheon"), tuple(moves), {})
        assert XRecord.from_json(record.to_json()).final_state() == state
    assert XMove.parse("move decree Green waiver from 3 to 6").args == (3, "Green waiver", 6)
