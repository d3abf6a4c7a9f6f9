"""Live analysis, as lichess's local analysis: one position searched in the background while the
player thinks, read as it deepens, stopped the moment a move is played.

An :class:`AnalysisSession` is the control (start, read, stop) and has no display: the app's
panel (:mod:`duel.app.text.analysis`) polls :meth:`AnalysisSession.read` and draws it. The
search is the hint's own entry point, :func:`duel.solvers.hint.hint_analysis`, called again and
again with a doubling iteration budget (the same seed, so each answer is the hint's at that
budget, and any improvement to the hint reaches the panel unchanged): the values settle as the
budget grows, and in an Age III endgame small enough the exact solver answers and the session
says "exact" and stops, there being nothing left to learn.

The search runs in a process of its own (one core: the trees of a hint run one after the
other), so :meth:`AnalysisSession.stop` ends it at once, whatever budget it was at, and the
cores the opponent's AI thinks on stay free when the app pauses the session for its turn.
The process is told the position by its moves in notation (a record holds no face-down card:
the session knows what the player knows, nothing more).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from duel.moves import Move

__all__ = ["AnalysisLine", "AnalysisSession", "Snapshot", "budgets"]

#: The first budget (iterations over the hint's trees) and the last: from a fraction of a
#: second to about a minute on one core.
FIRST = 500
LAST = 512_000


def budgets(first: int = FIRST, last: int = LAST) -> list[int]:
    """The doubling budgets a session searches with.

    >>> budgets(500, 4000)
    [500, 1000, 2000, 4000]
    """
    out = [first]
    while out[-1] * 2 <= last:
        out.append(out[-1] * 2)
    return out


@dataclass(frozen=True)
class AnalysisLine:
    """One move of the analysis: its value for the player to move (None: not searched) and
    the expected line after it, in notation."""

    move: str
    value: float | None
    line: tuple[str, ...] = ()


@dataclass(frozen=True)
class Snapshot:
    """What the session knows so far: the best moves at the last budget searched."""

    ply: int
    iterations: int
    seconds: float
    engine: str
    exact: bool
    value_a: float
    player: int
    moves: tuple[AnalysisLine, ...]
    done: bool = False  #: the last budget searched, or solved exactly: no more to come
    history: tuple[tuple[int, float], ...] = field(default_factory=tuple)  # (iterations, best)


def _line(pv: Sequence[Move], limit: int = 6) -> list[str]:
    """The line after a move, up to the first chance event: what a search samples there is
    not what will be dealt, and the player is not told a card before it is revealed."""
    out = []
    for move in pv[1 : limit + 1]:
        if move.is_chance:
            break
        out.append(str(move))
    return out


def _search_loop(conn: Any, notation: list[str], seed: int, top: int, steps: list[int]) -> None:
    """The analysing process: the position from its moves, then each budget in turn, a
    snapshot sent after each (a dict: plain data through the pipe)."""
    from duel.record import GameRecord, Replay
    from duel.solvers.hint import hint_analysis

    state = Replay.of(GameRecord.from_json({"moves": notation})).states[-1]
    start = time.perf_counter()
    best: list[tuple[int, float]] = []
    for k, iterations in enumerate(steps):
        info = hint_analysis(state, iterations=iterations, top=top, seed=seed)
        value = info.moves[0].value if info.moves else None
        if value is not None:
            best.append((iterations, value))
        moves = [(str(m.move), m.value, _line(m.pv)) for m in info.moves]
        exact = bool(info.exact)
        conn.send(
            {
                "iterations": iterations,
                "seconds": time.perf_counter() - start,
                "engine": str(info.extra.get("engine", "")),
                "exact": exact,
                "value_a": info.value.a,
                "moves": moves,
                "done": exact or k == len(steps) - 1,
                "history": best,
            }
        )
        if exact:
            return


class AnalysisSession:
    """One position's live analysis (see the module): :meth:`start`, :meth:`read` as often as
    wanted, :meth:`stop` when the position changes."""

    def __init__(
        self,
        moves: Sequence[Move],
        player: int,
        *,
        seed: int = 0,
        top: int = 3,
        steps: Sequence[int] | None = None,
    ) -> None:
        self.notation = [str(m) for m in moves]
        self.ply = len(self.notation)
        self.player = player
        self.seed = seed
        self.top = top
        self.steps = list(steps or budgets())
        self.latest: Snapshot | None = None
        self.stopped = False
        self._process: Any = None
        self._conn: Any = None

    @property
    def running(self) -> bool:
        return self._process is not None and not self.stopped and not self.finished

    @property
    def finished(self) -> bool:
        return self.latest is not None and self.latest.done

    def start(self) -> None:
        """Start the search in its process (spawned: safe beside the app's threads)."""
        import multiprocessing

        from duel.solvers.batch import start_resource_tracker

        start_resource_tracker()  # a full-screen app holds stderr (file number -1)
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe(duplex=False)
        process = context.Process(
            target=_search_loop,
            args=(child, self.notation, self.seed, self.top, self.steps),
            daemon=True,
        )
        process.start()
        child.close()
        self._process, self._conn = process, parent

    def read(self) -> Snapshot | None:
        """The newest snapshot (None before the first budget is searched)."""
        conn = self._conn
        if conn is None or self.stopped:
            return self.latest
        try:
            while conn.poll():
                self.latest = self._snapshot(conn.recv())
        except (EOFError, OSError):
            self._conn = None  # the process ended (solved, or the last budget searched)
        return self.latest

    def _snapshot(self, data: dict[str, Any]) -> Snapshot:
        lines = tuple(AnalysisLine(m, v, tuple(line)) for m, v, line in data["moves"])
        return Snapshot(
            self.ply,
            data["iterations"],
            data["seconds"],
            data["engine"],
            data["exact"],
            data["value_a"],
            self.player,
            lines,
            data["done"],
            tuple(tuple(h) for h in data["history"]),
        )

    def stop(self) -> None:
        """Stop at once: the process is ended whatever it was doing."""
        self.stopped = True
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is not None:
            if process.is_alive():
                process.terminate()
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join()

    def wait(self, timeout: float) -> Snapshot | None:
        """Read until a new snapshot comes or ``timeout`` seconds pass (tests, scripts)."""
        before = self.latest
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.read()
            if found is not before or self._conn is None:
                return found
            time.sleep(0.02)
        return self.latest
