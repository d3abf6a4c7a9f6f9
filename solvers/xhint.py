"""Hints for expansion games: the moves worth playing for the player to move, from their own view,
with win chances that mean what they say.

In this order (:func:`xhint`):

1. **Decided by the rules.** A move that ends the game (a military, science or political
   supremacy, or the last card of Age III) is said at once at its exact value, "wins now" (100%),
   "loses now" (0%) or "shared victory now" (50%), as the base game's hint says it
   (:func:`duel.solvers.search.decided_analysis`, :func:`duel.solvers.spread.value_text`). When a
   move wins now, or every legal move ends the game, there is nothing to search.
2. **Exact** in Age III with few cards left (:func:`duel.solvers.xendgame.try_solve`): the
   expectiminimax from the mover's view, given half the hint's time (or its node budget); only a
   search that finished is shown as exact.
3. **The estimate** otherwise: the ``cmcts`` level's search (:class:`duel.solvers.xcmcts.
   XCMctsPlayer`) from the mover's view, for the hint's time or ``nodes`` iterations. Only the
   moves the search tried are listed (most visited first), each value passed through the
   calibration map of its expansion set (:mod:`duel.solvers.xhint_calibration`, fitted on
   self-play outcomes); a move in the list that ends the game keeps its exact value. Without the
   compiled search the Python ``mcts`` answers, uncalibrated.

**Fair play.** Every stage reads ``state.view(state.to_move)``: the opponent's face-down
Divinity, unseen Conspiracies and the decks are not in what is searched (chance nodes there,
with the probabilities of what the player cannot rule out).

The words go through ``tr`` (a program passes its own translation function; the messages are
the app's catalog's: :func:`hint_lines`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from duel.expansions import XMove, XState
from duel.solvers.search import ENDINGS
from duel.solvers.spread import english, pct
from duel.solvers.xendgame import DEFAULT_NODES, try_solve

PLAYER_NAMES = ("A", "B")
#: The hint's time when neither time nor nodes is given.
DEFAULT_SECONDS = 2.0


@dataclass(frozen=True)
class XHintMove:
    """One move of a hint: ``value`` is the win chance shown (the mover's P(win) + P(shared)/2),
    ``raw`` the search's own value (None where exact), ``bound`` ``exact`` or ``estimate``,
    ``ends_game`` ``win``/``loss``/``shared`` for a move that ends the game."""

    move: XMove
    value: float
    visits: int = 0
    raw: float | None = None
    bound: str = "estimate"
    ends_game: str | None = None


@dataclass(frozen=True)
class XHint:
    """A hint: its moves, best first, and how they were found (``engine``: ``rules``, ``exact``,
    ``cmcts`` or ``mcts``; ``work``: iterations or nodes)."""

    player: int
    moves: tuple[XHintMove, ...]
    engine: str
    work: int
    seconds: float
    calibrated: bool = False

    @property
    def exact(self) -> bool:
        return self.engine in ("rules", "exact")

    def to_json(self) -> dict:
        return {
            "player": PLAYER_NAMES[self.player],
            "engine": self.engine,
            "exact": self.exact,
            "calibrated": self.calibrated,
            "work": self.work,
            "seconds": round(self.seconds, 3),
            "moves": [
                {
                    "move": str(m.move),
                    "win_chance": round(m.value, 4),
                    "visits": m.visits,
                    "bound": m.bound,
                    **({"raw": round(m.raw, 4)} if m.raw is not None else {}),
                    **({"ends_game": m.ends_game} if m.ends_game else {}),
                }
                for m in self.moves
            ],
        }


def ending_moves(view: XState) -> dict[XMove, float]:
    """The moves at decision ``view`` that end the game at once, each with its exact value for
    the mover: 1 (wins now), 0 (loses now), 1/2 (shared)."""
    if view.is_terminal() or view.is_chance():
        return {}
    mover = view.to_move
    out = {}
    for move in view.legal_moves():
        after = view.apply(move, check=False)
        if after.is_terminal():
            winner = after.winner
            out[move] = 1.0 if winner == mover else 0.0 if winner in (0, 1) else 0.5
    return out


def _own_view(state: XState) -> XState:
    return state if getattr(state, "observer", None) is not None else state.view(state.to_move)


def xhint(
    state: XState,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    top: int = 3,
    seed: int = 0,
    exact_nodes: int = DEFAULT_NODES,
) -> XHint:
    """The hint for the player to move in ``state`` (see the module): ``nodes`` iterations of the
    search if given (then deterministic), else ``seconds`` (default :data:`DEFAULT_SECONDS`)."""
    view = _own_view(state)
    if view.is_chance() or view.is_terminal():
        raise ValueError(f"a hint needs a decision ({view.describe()})")
    start = time.perf_counter()
    top = max(1, top)
    mover = view.to_move
    ending = ending_moves(view)
    legal = view.legal_moves()
    if ending and (max(ending.values()) == 1.0 or len(ending) == len(legal)):
        ranked = sorted(ending.items(), key=lambda mv: -mv[1])[:top]
        moves = tuple(XHintMove(m, v, 0, None, "exact", ENDINGS[v]) for m, v in ranked)
        return XHint(mover, moves, "rules", len(legal), time.perf_counter() - start)
    if seconds is None and nodes is None:
        seconds = DEFAULT_SECONDS
    exact = try_solve(
        view,
        nodes=exact_nodes,
        seconds=None if seconds is None else seconds / 2,
    )
    if exact is not None:
        moves = tuple(
            XHintMove(m, v, 0, None, "exact", ENDINGS[ending[m]] if m in ending else None)
            for m, v in exact.moves[:top]
        )
        return XHint(mover, moves, "exact", exact.nodes, time.perf_counter() - start)
    left = None if seconds is None else max(0.05, seconds - (time.perf_counter() - start))
    return _estimate(view, ending, left, nodes, top, seed, start)


def _estimate(
    view: XState,
    ending: dict[XMove, float],
    seconds: float | None,
    nodes: int | None,
    top: int,
    seed: int,
    start: float,
) -> XHint:
    from duel.solvers.xcmcts import AVAILABLE

    if AVAILABLE:
        from duel.solvers.xcmcts import XCMctsPlayer
        from duel.solvers.xhint_calibration import calibrate, load_calibration, set_name

        engine = XCMctsPlayer(iterations=nodes, seconds=None if nodes else seconds, seed=seed)
        found = engine.analyse(view)
        work, name = engine.last_iterations, "cmcts"
        calibrated = set_name(view.expansions) in load_calibration()
        shown = [(m, n, calibrate(v, view.expansions), v) for m, n, v in found if n > 0]
    else:
        from duel.solvers.xplayers import search

        result = search(view, iterations=nodes, seconds=None if nodes else seconds, seed=seed)
        ranked = sorted(result.moves, key=lambda m: (m[1], m[2]), reverse=True)
        work, name, calibrated = result.iterations, "mcts", False
        shown = [(m, n, v, v) for m, n, v in ranked if n > 0]
    moves = tuple(
        XHintMove(m, ending[m], n, raw, "exact", ENDINGS[ending[m]])
        if m in ending
        else XHintMove(m, value, n, raw)
        for m, n, value, raw in shown[:top]
    )
    return XHint(view.to_move, moves, name, work, time.perf_counter() - start, calibrated)


def value_text(m: XHintMove, hint: XHint, tr=english) -> str:
    """``57.1% estimate``, ``57.1% exact``, ``100.0% wins now`` (``loses now``, ``shared victory
    now``), in the base game's words."""
    if m.ends_game == "win":
        return tr("{value} wins now", value=pct(m.value))
    if m.ends_game == "loss":
        return tr("{value} loses now", value=pct(m.value))
    if m.ends_game == "shared":
        return tr("{value} shared victory now", value=pct(m.value))
    if m.bound == "exact":
        return tr("{value} exact", value=pct(m.value))
    return tr("{value} estimate", value=pct(m.value))


def hint_lines(
    view: XState,
    seconds: float | None,
    top: int,
    seed: int = 0,
    nodes: int | None = None,
    *,
    tr=english,
    move_text=str,
) -> tuple[list[str], dict]:
    """The hint as lines and as JSON (the expansion hint of ``duel hint`` and of the app:
    ``move_text`` writes a move for the player, ``tr`` translates)."""
    hint = xhint(view, seconds=seconds, nodes=nodes, top=top, seed=seed)
    if hint.engine == "rules":
        note = tr("exact")
    elif hint.engine == "exact":
        note = tr("exact (the solver finished)")
    else:
        note = tr(
            "Monte Carlo tree search, {n} simulated games in {time} s; estimates",
            n=f"{hint.work:,}",
            time=f"{hint.seconds:.1f}",
        )
    player = PLAYER_NAMES[hint.player]
    lines = [tr("Best moves for {player} ({note}):", player=player, note=note)]
    for rank, m in enumerate(hint.moves, 1):
        visits = f"  ({m.visits:,})" if m.visits else ""
        lines.append(f"  {rank}. {move_text(m.move):50} {value_text(m, hint, tr)}{visits}")
    data = {"position": view.describe(), **hint.to_json()}
    # the keys the expansion hint's JSON had before (iterations: the search's work)
    data["iterations"] = hint.work
    return lines, data
