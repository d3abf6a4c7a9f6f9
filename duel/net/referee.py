"""One game as the server keeps it: the true state, what each seat may see of it, the clock and
the save written after every move.

A :class:`Table` is the referee. It deals every chance event from the operating system's
randomness (``random.SystemRandom``, the engine's exact probabilities, no seed to leak), checks
every move with the engine (an illegal one is refused with the engine's reason), and gives each
seat only its view:

* the base game's state is public except The Great Library's draw: the drawer sees the three
  tokens, the other seat and the spectators see nothing until the choice is made, and then
  ``draw Law, ?, ?`` (the record format's redacted draw);
* in the expansions each seat's moves go through :func:`duel.expansions.state.observe` (the
  opponent's Divinity seated face down, the cards drawn in private stay hidden); a spectator
  sees every move as the player who did not make it saw it.

The table's file holds the referee's moves (never sent to a client), the join codes, the
clocks and the result; it is written atomically after every move, so a server killed at any
moment resumes from its last move.

>>> table = Table.new((), ("random", "random"))
>>> table.deal()
>>> len(table.moves) > 0, table.state.is_chance()
(True, False)
>>> all(Table.from_json(table.to_json()).moves[i] == m for i, m in enumerate(table.moves))
True
"""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from duel.expansions import XMove
from duel.expansions.record import XRecord
from duel.expansions.state import new_game as new_xgame
from duel.expansions.state import observe
from duel.files import write_atomically
from duel.moves import PLAYER_NAMES, Kind, Move, MoveParseError
from duel.net.protocol import CODE_ALPHABET
from duel.reason import Reason
from duel.record import GameRecord
from duel.state import new_game

FILE_FORMAT = "duel-net-table"
FILE_VERSION = 1
SEATS = ("A", "B")
#: A game has about 150 moves with chance; a table with far more is not a game.
MAX_MOVES = 2000
_DEALER = random.SystemRandom()


def new_code() -> str:
    """A join code: 12 letters and digits from the OS's randomness (about 59 bits)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return "-".join(letters[i : i + 4] for i in range(0, 12, 4))


@dataclass
class Clock:
    """A time control: ``initial`` seconds each, ``increment`` added after each move."""

    initial: float
    increment: float

    @staticmethod
    def parse(text: str) -> Clock:
        """``10+5``: 10 minutes each and 5 seconds a move (ValueError if it is not one).

        >>> Clock.parse("10+5"), Clock.parse("0.5+0").initial
        (Clock(initial=600.0, increment=5.0), 30.0)
        """
        minutes, plus, seconds = text.strip().partition("+")
        try:
            initial, increment = float(minutes) * 60, float(seconds or 0)
        except ValueError:
            raise ValueError(f"{text!r}: a clock is minutes+seconds, such as 10+5") from None
        ok = 0 < initial <= 24 * 3600 and 0 <= increment <= 3600
        if not ok or (plus and not seconds):
            raise ValueError(f"{text!r}: a clock is minutes+seconds, such as 10+5")
        return Clock(initial, increment)

    def text(self) -> str:
        return f"{self.initial / 60:g}+{self.increment:g}"


@dataclass
class Table:
    """One game on the server (see the module's help)."""

    id: str
    expansions: tuple[str, ...]
    seats: tuple[str, str]  # "human" or an AI level
    codes: dict[str, str]  # "A", "B", "spectator" -> code
    clock: Clock | None = None
    hints: bool = False
    think: float = 1.0
    moves: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    #: Seconds left on each clock at the start of the current decision.
    remaining: list[float] = field(default_factory=lambda: [0.0, 0.0])
    #: When the current decision started (``time.monotonic()``).
    turn_started: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    path: Path | None = None
    save_error: str = ""

    # --- making and saving ------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        expansions: tuple[str, ...],
        seats: tuple[str, str],
        *,
        clock: Clock | None = None,
        hints: bool = False,
        think: float = 1.0,
        folder: Path | None = None,
    ) -> Table:
        table = cls(
            id=secrets.token_hex(8),
            expansions=tuple(sorted(expansions)),
            seats=seats,
            codes={"A": new_code(), "B": new_code(), "spectator": new_code()},
            clock=clock,
            hints=hints,
            think=think,
        )
        table.states = [new_xgame(table.expansions) if table.expansions else new_game()]
        if clock is not None:
            table.remaining = [clock.initial, clock.initial]
        if folder is not None:
            table.path = folder / f"table-{table.id}.json"
        return table

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.result is not None

    def parse(self, data: Any) -> Any:
        """A move from a client or the file (ValueError or MoveParseError if it is not one):
        the notation, or the expansions' ``[kind, args...]``."""
        return unwire(self.expansions, data)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FILE_FORMAT,
            "version": FILE_VERSION,
            "id": self.id,
            "expansions": list(self.expansions),
            "seats": list(self.seats),
            "codes": self.codes,
            "clock": None if self.clock is None else [self.clock.initial, self.clock.increment],
            "hints": self.hints,
            "think": self.think,
            "moves": [wire(m) for m in self.moves],
            "remaining": self.remaining,
            "result": self.result,
            "created": self.created,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], path: Path | None = None) -> Table:
        """A table from its file (ValueError if the file is not one)."""
        if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
            raise ValueError("not a table of duel host")
        clock = data.get("clock")
        table = cls(
            id=str(data["id"]),
            expansions=tuple(data["expansions"]),
            seats=(data["seats"][0], data["seats"][1]),
            codes=dict(data["codes"]),
            clock=None if clock is None else Clock(float(clock[0]), float(clock[1])),
            hints=bool(data.get("hints")),
            think=float(data.get("think", 1.0)),
            remaining=[float(x) for x in data["remaining"]],
            result=data.get("result"),
            created=str(data.get("created", "")),
            path=path,
        )
        state = new_xgame(table.expansions) if table.expansions else new_game()
        table.states = [state]
        for item in data["moves"]:
            move = table.parse(item)
            state = state.apply(move)
            table.moves.append(move)
            table.states.append(state)
        return table

    @classmethod
    def load(cls, path: Path) -> Table:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")), path)

    def save(self) -> bool:
        """Write the table atomically (an interrupted write keeps the file before), readable by
        its owner only (it holds the codes); whether it was written. A failure (a full disk)
        leaves the game going on in memory: the next move's save writes it all."""
        if self.path is None:
            return True
        new = not self.path.exists()
        try:
            write_atomically(self.path, json.dumps(self.to_json()) + "\n")
            if new:
                self.path.chmod(0o600)
        except OSError as error:
            self.save_error = str(error)
            return False
        self.save_error = ""
        return True

    # --- who may do what --------------------------------------------------------------------
    def seat_of(self, code: str) -> str | None:
        """``A``, ``B`` or ``spectator`` for a join code of this table, else None (compared in
        constant time: a code cannot be guessed a letter at a time)."""
        for seat, known in self.codes.items():
            if secrets.compare_digest(known.encode(), code.encode()):
                return seat
        return None

    def to_move(self) -> int | None:
        """The seat that decides now (None: chance, or the game is over)."""
        state = self.state
        if self.over or state.is_terminal() or state.is_chance():
            return None
        return state.to_move

    def is_ai(self, player: int) -> bool:
        return self.seats[player] != "human"

    # --- the clock --------------------------------------------------------------------------
    def clocks(self, now: float | None = None) -> list[float] | None:
        """Seconds left on each clock now (None without a clock)."""
        if self.clock is None:
            return None
        left = list(self.remaining)
        player = self.to_move()
        if player is not None:
            now = time.monotonic() if now is None else now
            left[player] -= now - self.turn_started
        return [round(max(x, 0.0), 2) for x in left]

    def flag_fallen(self, now: float | None = None) -> int | None:
        """The seat whose time ran out (the game is then over), else None."""
        clocks = self.clocks(now)
        player = self.to_move()
        if clocks is None or player is None or clocks[player] > 0:
            return None
        self.finish(1 - player, "time")
        return player

    # --- playing ----------------------------------------------------------------------------
    def _push(self, move: Any) -> None:
        self.states.append(self.state.apply(move, check=False))
        self.moves.append(move)

    def deal(self) -> None:
        """Deal every chance event now pending, from the OS's randomness; the game ends here
        if the state is terminal."""
        while not self.over and self.state.is_chance():
            self._push(self.state.sample_chance(_DEALER))
        if not self.over and self.state.is_terminal():
            state = self.state
            winner = "shared" if state.winner not in (0, 1) else SEATS[state.winner]
            self.finish_with(winner, state.victory)
        self.turn_started = time.monotonic()

    def play(self, player: int, ply: int, text: Any) -> tuple[str, dict[str, Any]] | None:
        """Play ``text`` (a move in the notation or :func:`wire`'s form) for ``player``, chosen
        at ``ply`` moves; None if it is played, else an error code of the protocol and its
        fields (the engine's reason for an illegal move)."""
        if self.over:
            return "over", {}
        if self.flag_fallen() is not None:
            return "over", {}
        if self.to_move() != player:
            return "not-your-turn", {}
        if ply != len(self.moves):
            return "stale", {}
        try:
            move = self.parse(text)
        except (ValueError, MoveParseError, TypeError) as error:
            return "illegal", reason_fields(str(error))
        state = self.state
        reason = state.why_illegal(move)
        if reason is not None:
            return "illegal", reason_fields(reason)
        self.commit(move)
        return None

    def commit(self, move: Any) -> None:
        """Play a checked decision: the clock, the move, the chance events after it, the save."""
        player = self.state.to_move
        if self.clock is not None:
            used = time.monotonic() - self.turn_started
            self.remaining[player] = self.remaining[player] - used + self.clock.increment
        self._push(move)
        self.deal()
        self.save()

    def resign(self, player: int) -> None:
        if not self.over:
            self.finish(1 - player, "resign")

    def finish(self, winner: int, how: str) -> None:
        if self.clock is not None:
            self.remaining = self.clocks() or self.remaining
        self.finish_with(SEATS[winner], how)

    def finish_with(self, winner: str, how: str) -> None:
        state = self.state
        scores = None
        if state.is_terminal() or self.expansions:
            scores = [state.score(0).total, state.score(1).total]
        self.result = {"winner": winner, "how": how, "scores": scores}
        self.save()

    # --- what each seat sees ----------------------------------------------------------------
    def seen_by(self, seat: str) -> list[Any]:
        """The moves as ``seat`` (A, B or spectator) may see them (:func:`wire`'s form)."""
        player = SEATS.index(seat) if seat in SEATS else None
        if self.expansions:
            out = []
            for before, move in zip(self.states, self.moves, strict=False):
                who = player if player is not None else 1 - before.to_move
                out.append(wire(observe(before, move, who)))
            return out
        out = []
        for i, move in enumerate(self.moves):
            if move.kind is Kind.LIBRARY_DRAW and self.states[i + 1].to_move != player:
                if i + 1 == len(self.moves):
                    break  # not chosen yet: nothing of it is shown
                out.append(GameRecord((move, self.moves[i + 1])).notation()[0])
            else:
                out.append(str(move))
        return out

    def record(self) -> dict[str, Any]:
        """The finished game in the project's record format (a base game's Library draw keeps
        only the chosen token; a draw left unchosen at a loss on time is left out)."""
        moves = list(self.moves)
        if not self.expansions and moves and moves[-1].kind is Kind.LIBRARY_DRAW:
            moves.pop()
        metadata = {
            "program": "duel host",
            "players": {"A": self.seats[0], "B": self.seats[1]},
            "fair": True,
            "dealer": "fair play: every hidden card is dealt from the operating system's"
            " randomness when revealed",
            "created": self.created,
            "result": self.result,
        }
        if self.clock is not None:
            metadata["clock"] = self.clock.text()
        if self.expansions:
            return XRecord(self.expansions, tuple(moves), metadata).to_json()
        return GameRecord(tuple(moves), metadata).to_json()

    def describe(self) -> str:
        what = " + ".join(e.capitalize() for e in self.expansions) or "7 Wonders Duel"
        seats = ", ".join(f"{PLAYER_NAMES[p]} {self.seats[p]}" for p in (0, 1))
        clock = f", clock {self.clock.text()}" if self.clock else ""
        return f"{what} ({seats}{clock})"


def wire(move: Any) -> str | list:
    """A move as the protocol and the table's file carry it: the base game's notation; in
    the expansions ``[kind, args...]`` (exact for every move: some expansion moves' notation
    does not read back).

    >>> wire(XMove("move_decree", (3, "Green waiver", 6)))
    ['move_decree', 3, 'Green waiver', 6]
    """
    if isinstance(move, XMove):
        return [move.kind, *(_listed(a) for a in move.args)]
    return str(move)


def unwire(expansions: tuple[str, ...], data: Any) -> Any:
    """The move that :func:`wire` gave (ValueError or MoveParseError if it is not one).

    >>> unwire(("agora",), wire(XMove("keep", (None, None, None)))) == XMove("keep", (None,) * 3)
    True
    """
    if not expansions:
        if not isinstance(data, str):
            raise ValueError("a base game's move is its notation")
        return Move.parse(data)
    if isinstance(data, str):
        return XMove.parse(data)
    if not (isinstance(data, list) and data and isinstance(data[0], str)):
        raise ValueError("an expansion move is [kind, args...]")
    return XMove(data[0], tuple(_tupled(a) for a in data[1:]))


def _listed(value: Any) -> Any:
    return [_listed(v) for v in value] if isinstance(value, (tuple, list, frozenset)) else value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    if value is None or isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a move's argument: {str(value)[:40]!r}")


def reason_fields(reason: str) -> dict[str, Any]:
    """An engine's reason as the ``illegal`` error's fields: the English sentence, and its
    template and values when they are plain data (the client translates them)."""
    fields: dict[str, Any] = {"reason": str(reason)}
    if isinstance(reason, Reason):
        try:
            json.dumps(reason.values)
        except (TypeError, ValueError):
            return fields
        if all(isinstance(v, (str, int, float)) for v in reason.values.values()):
            fields["template"] = reason.template
            fields["values"] = reason.values
    return fields
