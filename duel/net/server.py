"""The game server (``duel host``, ``duel server``): WebSocket connections, each on one seat of
one table, the referee's moves sent to each seat as that seat may see them.

What a connection may do, and what stops a stranger or a broken client (``docs/protocol.md``,
"Limits"):

* it must say ``hello`` with a join code within :attr:`Limits.hello_seconds`, else it is
  closed; a wrong code is answered after a pause, and an address that keeps guessing is
  turned away for a while;
* a code names one seat: a move is always played for the connection's own seat, so nobody can
  act for the other seat; a spectator's code plays nothing;
* frames over :data:`~duel.net.protocol.MAX_FRAME` bytes, frames that are not the protocol's
  JSON, and more messages than the rate limit allows are refused with an ``error`` (a
  connection that keeps breaking the rules is closed); keepalive pings close dead connections;
* a browser page cannot connect on its visitor's behalf (connections with an ``Origin`` header
  are refused unless the host allows that origin);
* an error in one connection is that connection's: the server and the other games go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from duel.net.protocol import MAX_FRAME, ProtocolError, decode, encode, error, normal_code
from duel.net.referee import SEATS, Table

log = logging.getLogger("duel.net")


@dataclass
class Limits:
    """What one connection may do (tests make the times short)."""

    hello_seconds: float = 10.0
    #: Messages a second on average, and the burst allowed above it.
    rate: float = 5.0
    burst: float = 20.0
    #: Rule-breaking messages a connection may send before it is closed.
    strikes: int = 5
    #: A wrong code is answered after this pause; an address with this many wrong codes in
    #: :attr:`guess_window` seconds is refused until the window has passed.
    wrong_code_pause: float = 1.0
    wrong_codes: int = 10
    guess_window: float = 60.0
    max_connections: int = 256
    #: Keepalive: a ping every ``ping_seconds``; no pong within as long closes the connection.
    ping_seconds: float = 20.0


@dataclass
class Seated:
    """A connection on a seat: what it has been sent so far."""

    ws: ServerConnection
    table: Table
    seat: str
    sent: int = 0


@dataclass
class _Bucket:
    tokens: float
    stamp: float = field(default_factory=time.monotonic)

    def take(self, rate: float, burst: float) -> bool:
        now = time.monotonic()
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class GameServer:
    """Many tables in one process, each saved in ``folder`` after every move."""

    def __init__(
        self,
        folder: Path,
        *,
        limits: Limits | None = None,
        origins: list[str] | None = None,
        say: Callable[[str], None] = lambda text: None,
    ) -> None:
        self.folder = folder
        self.limits = limits or Limits()
        self.origins = origins or []
        self.say = say
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, tuple[Table, str]] = {}
        self.seated: dict[str, list[Seated]] = {}
        self.ai_tasks: dict[str, asyncio.Task] = {}
        self.clock_timers: dict[str, asyncio.TimerHandle] = {}
        self.players: dict[tuple[str, int], Any] = {}
        self.wrong: dict[str, list[float]] = {}
        self.connections = 0
        self.server: WsServer | None = None
        #: What the hostile-input tests and the benchmark read: counts by error code.
        self.refused: dict[str, int] = {}

    # --- tables ---------------------------------------------------------------------------------
    def add(self, table: Table) -> Table:
        """Open ``table`` for its codes (saved first, so a restart finds it)."""
        if table.path is None:
            table.path = self.folder / f"table-{table.id}.json"
        if not table.moves:
            table.deal()
        table.save()
        self.tables[table.id] = table
        for seat, code in table.codes.items():
            self.codes[code] = (table, seat)
        self.seated.setdefault(table.id, [])
        if self.server is not None:  # serving already: its AI and its clock start now
            self.schedule(table)
        return table

    def resume(self) -> list[Table]:
        """Every table saved in the folder (a restart): the games go on from their last move."""
        found = []
        for path in sorted(self.folder.glob("table-*.json")):
            try:
                table = Table.load(path)
            except (OSError, ValueError, KeyError, TypeError, IndexError) as problem:
                self.say(f"{path}: not resumed ({problem})")
                continue
            found.append(self.add(table))
        return found

    # --- the server -----------------------------------------------------------------------------
    async def start(self, host: str, port: int, *, tls: ssl.SSLContext | None = None) -> int:
        """Listen; the port (a free one if ``port`` is 0)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        origins: list[str | None] = [None, *self.origins]
        self.server = await serve(
            self.handle,
            host,
            port,
            ssl=tls,
            max_size=MAX_FRAME * 16,  # the library's hard cap; MAX_FRAME is checked below
            max_queue=8,
            origins=origins,  # type: ignore[arg-type]
            ping_interval=self.limits.ping_seconds,
            ping_timeout=self.limits.ping_seconds,
            open_timeout=self.limits.hello_seconds,
            close_timeout=2,
            logger=log,
        )
        for table in self.tables.values():
            self.schedule(table)
        return self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        for task in self.ai_tasks.values():
            task.cancel()
        for timer in self.clock_timers.values():
            timer.cancel()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def handle(self, ws: ServerConnection) -> None:
        if self.connections >= self.limits.max_connections:
            await self._refuse(ws, "busy")
            return
        self.connections += 1
        seated: Seated | None = None
        try:
            seated = await self._hello(ws)
            if seated is not None:
                await self._serve(seated)
        except ConnectionClosed:
            pass
        except Exception:  # one connection's failure is its own: log it, keep serving
            log.exception("connection failed")
            with contextlib.suppress(Exception):
                await ws.close(1011, "internal error")
        finally:
            self.connections -= 1
            if seated is not None:
                self._leave(seated)

    async def _refuse(
        self, ws: ServerConnection, code: str, *, close: int = 1008, detail: str = ""
    ) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1
        with contextlib.suppress(ConnectionClosed):
            await ws.send(error(code, detail))
            await ws.close(close, code)

    def _guessing(self, address: str) -> bool:
        now = time.monotonic()
        if len(self.wrong) > 10_000:  # many addresses guessing: forget the stale ones
            window = self.limits.guess_window
            self.wrong = {a: t for a, t in self.wrong.items() if t and now - t[-1] < window}
        recent = [t for t in self.wrong.get(address, []) if now - t < self.limits.guess_window]
        self.wrong[address] = recent
        return len(recent) >= self.limits.wrong_codes

    async def _hello(self, ws: ServerConnection) -> Seated | None:
        try:
            frame = await asyncio.wait_for(ws.recv(), self.limits.hello_seconds)
        except TimeoutError:
            await self._refuse(ws, "timeout")
            return None
        try:
            message = self._decode(frame)
        except ProtocolError as problem:
            await self._refuse(
                ws, problem.code, close=_close_code(problem.code), detail=str(problem)
            )
            return None
        if message["type"] != "hello":
            await self._refuse(ws, "hello-first")
            return None
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        guessing = self._guessing(address)
        found = None if guessing else self.codes.get(normal_code(message["code"]))
        if found is None:
            self.wrong.setdefault(address, []).append(time.monotonic())
            await asyncio.sleep(self.limits.wrong_code_pause)
            await self._refuse(ws, "bad-code")
            return None
        table, seat = found
        seated = Seated(ws, table, seat)
        if seat in SEATS:  # a seat has one connection: the newest (the old one may be dead)
            for old in [s for s in self.seated[table.id] if s.seat == seat]:
                self.seated[table.id].remove(old)
                asyncio.ensure_future(self._refuse(old.ws, "replaced", close=1000))
        self.seated[table.id].append(seated)
        await ws.send(encode(self.welcome(seated)))
        self._presence(table)
        return seated

    def _decode(self, frame: str | bytes) -> dict:
        if len(frame) > MAX_FRAME:
            raise ProtocolError("too-big")
        return decode(frame)

    async def _serve(self, seated: Seated) -> None:
        ws = seated.ws
        bucket = _Bucket(self.limits.burst)
        strikes = 0
        async for frame in ws:
            problem: tuple[str, dict] | None = None
            if not bucket.take(self.limits.rate, self.limits.burst):
                problem = ("rate", {})
            else:
                try:
                    message = self._decode(frame)
                except ProtocolError as bad:
                    problem = (bad.code, {"detail": str(bad)})
                else:
                    problem = self._act(seated, message)
            if problem is None:
                continue
            code, fields = problem
            self.refused[code] = self.refused.get(code, 0) + 1
            detail = fields.pop("detail", "")
            await ws.send(error(code, detail, **fields))
            if code not in ("illegal", "stale", "not-your-turn"):
                strikes += 1
            if code == "too-big" or strikes >= self.limits.strikes:
                await ws.close(_close_code(code), code)
                return

    def _act(self, seated: Seated, message: dict) -> tuple[str, dict] | None:
        kind = message["type"]
        if kind == "ping":
            asyncio.ensure_future(self._send(seated, {"type": "pong"}))
            return None
        if kind == "hello":
            return ("bad-message", {"detail": "hello was said already"})
        if seated.seat not in SEATS:
            return ("spectator", {})
        table = seated.table
        player = SEATS.index(seated.seat)
        if kind == "resign":
            if table.over:
                return ("over", {})
            table.resign(player)
            self.changed(table)
            return None
        refused = table.play(player, message["ply"], message["move"])
        if refused is not None:
            if refused[0] == "over":
                self.changed(table)  # a flag that fell just now: tell everyone
            elif refused[0] == "stale":
                seated.sent = 0  # resend the whole game: the client's is behind
                self._update(seated)
            return refused
        self.changed(table)
        return None

    def _leave(self, seated: Seated) -> None:
        table_seated = self.seated.get(seated.table.id, [])
        if seated in table_seated:
            table_seated.remove(seated)
            self._presence(seated.table)

    # --- telling the seats ----------------------------------------------------------------------
    def welcome(self, seated: Seated) -> dict[str, Any]:
        table = seated.table
        moves = table.seen_by(seated.seat)
        seated.sent = len(moves)
        return {
            "type": "welcome",
            "game": table.id,
            "seat": seated.seat,
            "expansions": list(table.expansions),
            "players": list(table.seats),
            "clock": None if table.clock is None else [table.clock.initial, table.clock.increment],
            "hints": table.hints,
            **self._status(table, moves, 0),
        }

    def _status(self, table: Table, moves: list[str], start: int) -> dict[str, Any]:
        to_move = table.to_move()
        status: dict[str, Any] = {
            "from": start,
            "moves": moves[start:],
            "to_move": None if to_move is None else SEATS[to_move],
            "clocks": table.clocks(),
            "connected": [
                any(s.seat == seat for s in self.seated.get(table.id, [])) or table.is_ai(i)
                for i, seat in enumerate(SEATS)
            ],
            "result": table.result,
        }
        if table.over:
            status["record"] = table.record()
        return status

    def _update(self, seated: Seated) -> None:
        moves = seated.table.seen_by(seated.seat)
        start = min(seated.sent, len(moves))
        seated.sent = len(moves)
        message = {"type": "update", **self._status(seated.table, moves, start)}
        asyncio.ensure_future(self._send(seated, message))

    async def _send(self, seated: Seated, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            await seated.ws.send(encode(message))

    def _presence(self, table: Table) -> None:
        for seated in list(self.seated.get(table.id, [])):
            self._update(seated)

    def changed(self, table: Table) -> None:
        """The table moved on: tell every seat, then let the AI or the clock act."""
        for seated in list(self.seated.get(table.id, [])):
            self._update(seated)
        self.schedule(table)

    def schedule(self, table: Table) -> None:
        """The AI's move if an AI is to move, and the check for a flag falling."""
        timer = self.clock_timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        player = table.to_move()
        if player is None:
            return
        if table.is_ai(player) and table.id not in self.ai_tasks:
            self.ai_tasks[table.id] = asyncio.ensure_future(self._ai_move(table, player))
        clocks = table.clocks()
        if clocks is not None:
            loop = asyncio.get_running_loop()
            self.clock_timers[table.id] = loop.call_later(
                clocks[player] + 0.05, self._check_flag, table
            )

    def _check_flag(self, table: Table) -> None:
        self.clock_timers.pop(table.id, None)
        if table.flag_fallen() is not None:
            self.changed(table)
        elif not table.over:
            self.schedule(table)

    def _player(self, table: Table, player: int) -> Any:
        key = (table.id, player)
        if key not in self.players:
            self.players[key] = make_player(table, player)
        return self.players[key]

    async def _ai_move(self, table: Table, player: int) -> None:
        try:
            ply = len(table.moves)
            ai = self._player(table, player)
            view = table.state.view(player) if table.expansions else table.state
            move = await asyncio.to_thread(ai.choose, view)
            still = not table.over and len(table.moves) == ply and table.to_move() == player
            if still and table.state.why_illegal(move) is None:
                table.commit(move)
        except Exception:
            log.exception("AI move failed on table %s", table.id)
        finally:
            self.ai_tasks.pop(table.id, None)
        self.changed(table)


def make_player(table: Table, player: int) -> Any:
    """The strongest player for an AI seat: cmcts in the base game (the level given, with the
    table's time a move), the expansion player (MCTS) in the expansions."""
    seed = secrets.randbits(48)
    level = table.seats[player]
    if table.expansions:
        from duel.solvers.xplayers import make_xplayer

        return make_xplayer(level, seed=seed, time_per_move=table.think)
    from duel.solvers.players import make_player as make_base_player

    return make_base_player(level, seed=seed, time_per_move=table.think)


def _close_code(code: str) -> int:
    return 1009 if code == "too-big" else 1008


def tls_context(certificate: Path, key: Path | None) -> ssl.SSLContext:
    """The server's TLS context from a certificate (and its key, if in another file)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certificate, key)
    return context


async def run_server(
    server: GameServer,
    host: str,
    port: int,
    *,
    tls: ssl.SSLContext | None = None,
    ready: Callable[[int], None] | None = None,
) -> None:
    """Serve until cancelled (Ctrl-C)."""
    bound = await server.start(host, port, tls=tls)
    if ready is not None:
        ready(bound)
    try:
        await asyncio.Future()
    finally:
        await server.close()
