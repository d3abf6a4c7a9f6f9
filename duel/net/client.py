"""A client's side of the network game: the connection (it reconnects on its own) and the game
as its seat sees it.

* :class:`Connection` (asyncio): says hello with the join code, keeps what the server sent
  (the moves as this seat may see them, whose move it is, the clocks, the result and the
  record), sends moves, and when the connection drops (a closed laptop, a lost network, the
  server restarted) connects again after a pause that doubles up to :data:`MAX_BACKOFF`.
* :class:`SeatGame`: the states of the game as the seat sees them, from those moves: the base
  game's public state, the expansions' view of the seat (``XState.view``).
* :class:`ThreadedConnection`: the connection on a thread of its own, for the apps, which wait
  on it with :meth:`~ThreadedConnection.wait_change`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from duel.expansions.state import new_game as new_xgame
from duel.net.protocol import MAX_FRAME, ProtocolError, decode, encode, normal_code
from duel.net.referee import unwire
from duel.record import FORMAT, VERSION, GameRecord

MIN_BACKOFF = 0.25
MAX_BACKOFF = 8.0
#: What the server may send, with the fields each needs.
SERVER_MESSAGES: dict[str, dict[str, type]] = {
    "welcome": {"seat": str, "from": int},
    "update": {"from": int},
    "error": {"code": str, "message": str},
    "pong": {},
}
#: Errors after which connecting again cannot help.
FATAL = ("bad-code", "bad-version", "replaced", "busy")


def server_url(address: str, *, tls: bool) -> str:
    """``HOST[:PORT]`` (or a ``ws://`` / ``wss://`` URL) as the URL to connect to.

    >>> server_url("example.org", tls=False), server_url("10.0.0.2:9000", tls=True)
    ('ws://example.org:8765', 'wss://10.0.0.2:9000')
    """
    if "://" in address:
        return address
    host, _, port = address.rpartition(":") if address.count(":") == 1 else (address, "", "")
    host = host or address
    return f"{'wss' if tls else 'ws'}://{host}:{port or 8765}"


@dataclass
class Connection:
    """One seat's connection to the server (see the module's help)."""

    url: str
    code: str
    tls: ssl.SSLContext | None = None
    on_change: Callable[[], None] = lambda: None
    #: Filled from the server's messages.
    seat: str = ""
    game: str = ""
    expansions: tuple[str, ...] = ()
    players: tuple[str, str] = ("human", "human")
    clock: tuple[float, float] | None = None
    hints: bool = False
    #: The moves as the server sent them (the notation; the expansions' ``[kind, args...]``).
    moves: list[Any] = field(default_factory=list)
    to_move: str | None = None
    clocks: list[float] | None = None
    clocks_at: float = 0.0
    connected: list[bool] = field(default_factory=lambda: [False, False])
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    #: The server's errors, newest last (code, English sentence, the other fields).
    errors: list[tuple[str, str, dict]] = field(default_factory=list)
    #: "connecting", "online", "offline" (reconnecting) or "closed".
    link: str = "connecting"
    fatal: str | None = None
    #: Every message received, as decoded (the fair-play tests read them).
    received: list[dict[str, Any]] = field(default_factory=list)
    keep_received: bool = False
    reconnects: int = 0
    #: Unexpected failures of the connection (each followed by a reconnect).
    problems: list[str] = field(default_factory=list)
    ws: ClientConnection | None = None
    stop_when_over: bool = False
    _closing: bool = False

    # --- what the seat sees ---------------------------------------------------------------------
    @property
    def player(self) -> int | None:
        return {"A": 0, "B": 1}.get(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.result is None and self.to_move is not None and self.to_move == self.seat

    def clocks_now(self) -> list[float] | None:
        """The clocks as the server sent them, the running one counted down since."""
        if self.clocks is None:
            return None
        left = list(self.clocks)
        if self.to_move in ("A", "B") and self.result is None:
            i = "AB".index(self.to_move)
            left[i] = max(0.0, left[i] - (time.monotonic() - self.clocks_at))
        return left

    # --- the connection -------------------------------------------------------------------------
    async def run(self) -> None:
        """Connect, and again after each drop, until :meth:`close`, a fatal error, or (with
        ``stop_when_over``) the end of the game."""
        backoff = MIN_BACKOFF
        while not self._closing and self.fatal is None:
            try:
                async with connect(
                    self.url,
                    ssl=self.tls,
                    max_size=MAX_FRAME * 16,
                    open_timeout=10,
                    ping_interval=20,
                    ping_timeout=20,
                    close_timeout=2,
                ) as ws:
                    self.ws = ws
                    await ws.send(encode({"type": "hello", "code": normal_code(self.code)}))
                    async for frame in ws:
                        self._receive(frame)
                        if self.link == "online":
                            backoff = MIN_BACKOFF
                        if self.stop_when_over and self.record is not None:
                            self._closing = True
                            await ws.close()
                            break
            except InvalidURI as problem:
                self.fatal = str(problem)
            except ssl.SSLCertVerificationError as problem:
                self.fatal = f"TLS: {problem.verify_message}"
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                pass
            except Exception as problem:  # anything else: logged, and tried again like a drop
                self.problems.append(repr(problem))
            finally:
                self.ws = None
            if self._closing or self.fatal is not None:
                break
            self.link = "offline"
            self.on_change()
            await asyncio.sleep(backoff * (0.5 + random.random()))
            backoff = min(backoff * 2, MAX_BACKOFF)
            self.reconnects += 1
        self.link = "closed"
        self.on_change()

    def _receive(self, frame: str | bytes) -> None:
        try:
            message = decode(frame, expected=SERVER_MESSAGES)
        except ProtocolError as problem:
            self.errors.append(("bad-message", str(problem), {}))
            return
        if self.keep_received:
            self.received.append(message)
        kind = message["type"]
        if kind == "error":
            fields = {k: v for k, v in message.items() if k not in ("v", "type", "code", "message")}
            self.errors.append((message["code"], message["message"], fields))
            if message["code"] in FATAL:
                self.fatal = message["code"]
        elif kind == "welcome":
            self.seat = message["seat"]
            self.game = str(message.get("game", ""))
            self.expansions = tuple(message.get("expansions") or ())
            players = message.get("players") or ["human", "human"]
            self.players = (str(players[0]), str(players[1]))
            clock = message.get("clock")
            self.clock = None if clock is None else (float(clock[0]), float(clock[1]))
            self.hints = bool(message.get("hints"))
            self.moves = []
            self._status(message)
            self.link = "online"
        elif kind == "update":
            self._status(message)
        self.on_change()

    def _status(self, message: dict[str, Any]) -> None:
        start = message["from"]
        moves = list(message.get("moves") or [])
        if start > len(self.moves):  # a gap: cannot happen with a server that follows the protocol
            self.errors.append(("bad-message", "moves missing", {}))
            return
        self.moves = self.moves[:start] + moves
        self.to_move = message.get("to_move")
        self.clocks = message.get("clocks")
        self.clocks_at = time.monotonic()
        self.connected = list(message.get("connected") or [False, False])
        self.result = message.get("result")
        if message.get("record") is not None:
            self.record = message["record"]

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` if connected (False if not: the app says so and the player tries
        again once the connection is back)."""
        if self.ws is None:
            return False
        try:
            await self.ws.send(encode(message))
        except ConnectionClosed:
            return False
        return True

    async def play(self, ply: int, move: Any) -> bool:
        return await self.send({"type": "move", "ply": ply, "move": move})

    def close(self) -> None:
        self._closing = True
        if self.ws is not None:
            asyncio.ensure_future(self.ws.close())

    async def drop(self) -> None:
        """Lose the connection abruptly, as a lost network does (the tests' disconnects)."""
        if self.ws is not None:
            self.ws.transport.abort()


class SeatGame:
    """The states of the game as a seat sees them, rebuilt from the moves it was sent."""

    def __init__(self, expansions: tuple[str, ...], seat: str) -> None:
        self.expansions = expansions
        self.player = {"A": 0, "B": 1}.get(seat)
        self.texts: list[Any] = []
        self.moves: list[Any] = []
        self.states: list[Any] = [self._start()]

    def _start(self) -> Any:
        if self.expansions:
            start = new_xgame(self.expansions)
            return start.view(self.player) if self.player is not None else start
        from duel.state import new_game

        return new_game()

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def playable(self) -> bool:
        """Whether the seat has a board (a spectator of an expansion game sees moves only)."""
        return not self.expansions or self.player is not None

    def update(self, texts: list[Any]) -> bool:
        """Follow the server's list; whether anything before the end changed (a reset)."""
        if texts[: len(self.texts)] == self.texts:
            new = texts[len(self.texts) :]
            reset = False
        else:
            self.texts, self.moves, self.states = [], [], [self._start()]
            new, reset = texts, True
        if not self.playable:
            self.texts = list(texts)
            return reset
        if self.expansions:
            for item in new:
                move = unwire(self.expansions, item)
                self.states.append(self.state.apply(move, check=False))
                self.moves.append(move)
        elif any("?" in text for text in new):
            # The record reader turns "draw Law, ?, ?" into a draw the chosen token completes.
            record = GameRecord.from_json({"format": FORMAT, "version": VERSION, "moves": texts})
            self.moves = list(record.moves)
            self.states = record.states()
        else:
            for text in new:
                move = unwire((), text)
                self.states.append(self.state.apply(move))
                self.moves.append(move)
        self.texts = list(texts)
        return reset


class ThreadedConnection:
    """A :class:`Connection` on its own thread and event loop, for the apps (which are not
    asyncio code): every change wakes :meth:`wait_change`."""

    def __init__(self, url: str, code: str, tls: ssl.SSLContext | None = None) -> None:
        self.changes = threading.Condition()
        self.version = 0
        self.connection = Connection(url, code, tls, on_change=self._changed)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="duel-net", daemon=True)

    def start(self) -> ThreadedConnection:
        self.thread.start()
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(self.connection.run())

    def _changed(self) -> None:
        with self.changes:
            self.version += 1
            self.changes.notify_all()

    def wait_change(self, seen: int, timeout: float) -> int:
        """Wait until the version is past ``seen`` (or ``timeout`` seconds); the version."""
        with self.changes:
            self.changes.wait_for(lambda: self.version != seen, timeout)
            return self.version

    def wait_welcome(self, timeout: float = 15.0) -> bool:
        """Wait for the first welcome (or a fatal error); whether the seat is known."""
        end = time.monotonic() + timeout
        seen = -1
        while not self.connection.seat and self.connection.fatal is None:
            left = end - time.monotonic()
            if left <= 0:
                return False
            seen = self.wait_change(seen, left)
        return bool(self.connection.seat)

    def call(self, coroutine: Any) -> Any:
        """Run a coroutine of the connection on its loop and wait (a few seconds at most)."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(10)
        except Exception:
            return False

    def play(self, ply: int, move: Any) -> bool:
        return self.call(self.connection.play(ply, move))

    def resign(self) -> bool:
        return self.call(self.connection.send({"type": "resign"}))

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.connection.close)
        self.thread.join(3)
