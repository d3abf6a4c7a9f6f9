"""What every client view of a network game shares: the seat's connection, its game rebuilt from
the server's moves, the clocks and the sentences about the link, the hints and the result.

The views (:mod:`duel.net.screens` full screen, :mod:`duel.net.line` line by line) read this
and never the connection's messages themselves.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from duel.app.control.saves import user_data_dir
from duel.app.i18n import tr
from duel.files import write_atomically
from duel.moves import PLAYER_NAMES
from duel.net.client import SeatGame, ThreadedConnection


def clock_text(seconds: float) -> str:
    """``9:58``, or ``0:07.3`` under 10 seconds (as lichess shows a clock).

    >>> clock_text(598.2), clock_text(7.34), clock_text(3725)
    ('9:58', '0:07.3', '1:02:05')
    """
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class RemoteSeat:
    """A seat (or a spectator) of a game on a server, followed from the connection's thread."""

    def __init__(self, net: ThreadedConnection) -> None:
        self.net = net
        connection = net.connection
        self.game = SeatGame(connection.expansions, connection.seat)
        self.version = -1
        self.lock = threading.Lock()
        self.record_path: Path | None = None
        #: Where the record goes (``duel join --record``); None: the data folder.
        self.record_target: Path | None = None
        self.closing = False
        self.follow()

    @property
    def connection(self):
        return self.net.connection

    @property
    def player(self) -> int | None:
        return self.game.player

    def follow(self) -> bool:
        """Bring the game up to the server's moves; whether the moves before changed."""
        with self.lock:
            return self.game.update(list(self.connection.moves))

    def wait(self, timeout: float) -> None:
        """Wait for the next message (or ``timeout`` seconds), then follow it."""
        self.version = self.net.wait_change(self.version, timeout)
        self.follow()

    @property
    def over(self) -> bool:
        return self.connection.result is not None

    def my_decision(self) -> bool:
        """Whether the seat decides now, on the server and in the game followed."""
        state = self.game.state
        return (
            self.connection.my_turn
            and self.connection.link == "online"
            and len(self.game.texts) == len(self.connection.moves)
            and not state.is_chance()
            and not state.is_terminal()
            and state.to_move == self.player
        )

    # --- sentences --------------------------------------------------------------------------
    def seat_text(self) -> str:
        seat = self.connection.seat
        if seat in ("A", "B"):
            return tr("You play {player}.", player=seat)
        return tr("You are watching (a spectator).")

    def hints_text(self) -> str:
        if self.connection.hints:
            return tr("Hints and analysis are allowed for both players by the host.")
        return tr("Hints and analysis are off: the host did not allow them in this game.")

    def clocks_text(self) -> str:
        clocks = self.connection.clocks_now()
        if clocks is None:
            return ""
        running = self.connection.to_move if self.connection.result is None else None
        parts = []
        for i, name in enumerate(PLAYER_NAMES):
            mark = "▶" if running == name else " "
            parts.append(f"{mark}{name} {clock_text(clocks[i])}")
        return " ".join(parts)

    def link_text(self) -> str:
        """The connection and the opponent's, in a few words (empty when all is well)."""
        connection = self.connection
        if connection.fatal is not None:
            return tr("Disconnected: {why}", why=self.error_text(connection.fatal))
        if connection.link != "online":
            return tr("Connection lost: reconnecting...")
        if self.player is not None and not connection.connected[1 - self.player]:
            other = PLAYER_NAMES[1 - self.player]
            return tr("{player} is disconnected (the clock still runs).", player=other)
        return ""

    def error_text(self, code: str) -> str:
        """The newest error of ``code`` as the server said it, translated."""
        from duel.net.protocol import ERRORS

        for known, english, fields in reversed(self.connection.errors):
            if known == code:
                if code == "illegal" and "template" in fields:
                    from duel.app.i18n import tr_reason
                    from duel.reason import Reason

                    reason = Reason(fields["template"], **fields.get("values", {}))
                    return tr(ERRORS["illegal"], reason=tr_reason(reason))
                if code in ERRORS and not fields:
                    return tr(ERRORS[code])
                return english
        return tr(ERRORS[code]) if code in ERRORS else code

    def result_text(self) -> str:
        result = self.connection.result
        if result is None:
            return ""
        winner, how = result.get("winner"), result.get("how")
        scores = result.get("scores")
        if winner == "shared":
            said = tr("Shared victory")
        elif how == "time":
            said = tr("{player} wins on time", player=winner)
        elif how == "resign":
            said = tr("{player} wins: the opponent resigned", player=winner)
        else:
            said = tr("{player} wins ({victory})", player=winner, victory=tr(str(how)))
        if scores:
            said += tr(", {a} to {b}", a=scores[0], b=scores[1])
        return tr("Game over: {result}.", result=said)

    # --- the record -------------------------------------------------------------------------
    def save_record(self, path: Path | None = None) -> Path | None:
        """Write the finished game's record (the server's, the same for both players) once."""
        record: dict[str, Any] | None = self.connection.record
        if record is None:
            return None
        if self.record_path is not None and path is None:
            return self.record_path
        default = user_data_dir() / f"duel-net-{self.connection.game[:8]}.json"
        place = path or self.record_target or default
        try:
            place.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(place, json.dumps(record, indent=1) + "\n")
        except OSError:
            return None
        self.record_path = place
        return place

    def review_text(self) -> str:
        place = self.save_record()
        if place is None:
            return tr("Could not write the record.")
        return tr("The game's record: {place} (review it with: duel review {place})", place=place)
