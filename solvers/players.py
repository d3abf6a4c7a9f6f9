"""AI players for 7 Wonders Duel at three levels, for ``duel play`` and ``duel match``.

``make_player(level, seed=..., time_per_move=...)`` returns an object with ``choose(state)``
that answers at every decision node (play, draft, progress tokens, The Great Library, destroy,
The Mausoleum, choosing who starts the next Age). Levels:

* ``random``: a uniformly random legal move.
* ``greedy``: the move whose resulting position has the best heuristic evaluation
  (:func:`solvers.search.evaluate`, one ply, no look-ahead); ties broken at random.
* ``search``: expectiminimax (:mod:`solvers.search`) for ``time_per_move`` seconds, with the
  learned value (:mod:`solvers.value`) at its horizon. In Age III endgames small enough to
  enumerate it first tries an exact solve with part of its time. ``search:N`` uses a budget of
  N nodes per move instead of a clock (reproducible), and ``search:Ss`` S seconds (for example
  ``search:0.5s``).
* ``search-v1``: the same search with the hand-made evaluation
  (:func:`solvers.search.evaluate`): the fixed baseline the project measures its progress
  against (``search-v1:N``, ``search-v1:Ss`` as above).

All players are deterministic for a given seed, except that the clock decides how deep
``search`` gets with a time budget.

>>> import random
>>> from duel import new_game
>>> state = new_game()
>>> while state.is_chance():
...     state = state.apply(state.random_move(random.Random(1)), check=False)
>>> make_player("greedy", seed=1).choose(state) in state.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from duel.moves import Move
from duel.state import State
from solvers.search import Limit, analyse, evaluate, exact_feasible

LEVELS = ("random", "greedy", "search", "search-v1")

__all__ = ["LEVELS", "GreedyPlayer", "RandomPlayer", "SearchPlayer", "make_player"]


class UnknownLevelError(ValueError):
    """A player level that does not exist."""


def _decision_check(state: State) -> None:
    if state.is_terminal() or state.is_chance():
        raise ValueError(f"no decision to take here ({state.describe()})")


class RandomPlayer:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        _decision_check(state)
        return state.random_move(self.rng)


class GreedyPlayer:
    """One ply: the move leading to the best evaluation for the mover (``value_fn``, default
    the hand-made :func:`~solvers.search.evaluate`)."""

    name = "greedy"

    def __init__(self, seed: int = 0, value_fn: Callable[[State], float] | None = None) -> None:
        self.rng = random.Random(seed)
        self.value_fn = value_fn if value_fn is not None else evaluate

    def choose(self, state: State) -> Move:
        _decision_check(state)
        moves = state.legal_moves()
        sign = 1.0 if state.to_move == 0 else -1.0
        best_value = -2.0
        best: list[Move] = []
        value_fn = self.value_fn
        for m in moves:
            v = sign * value_fn(state.apply(m, check=False))
            if v > best_value + 1e-12:
                best_value, best = v, [m]
            elif v > best_value - 1e-12:
                best.append(m)
        return best[int(self.rng.random() * len(best))]


class SearchPlayer:
    """Expectiminimax under a time or node budget per move."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float | None = 1.0,
        nodes: int | None = None,
        value_fn: Callable[[State], float] | None = None,
    ) -> None:
        self.seed = seed
        self.time_per_move = time_per_move
        self.nodes = nodes
        self.value_fn = value_fn  # None: the search's default evaluation
        self.last_info = None

    def choose(self, state: State) -> Move:
        _decision_check(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if self.nodes is not None:
            if exact_feasible(state, 7):
                info = analyse(
                    state,
                    Limit(nodes=self.nodes // 2),
                    exact=True,
                    seed=self.seed,
                    value_fn=self.value_fn,
                )
                if info.exact and info.best_move is not None:
                    self.last_info = info
                    return info.best_move
            info = analyse(
                state, Limit(nodes=self.nodes), seed=self.seed, margin=False, value_fn=self.value_fn
            )
        else:
            budget = self.time_per_move or 1.0
            start = time.perf_counter()
            if exact_feasible(state, 7):
                info = analyse(
                    state,
                    Limit(time=0.6 * budget),
                    exact=True,
                    seed=self.seed,
                    margin=False,
                    value_fn=self.value_fn,
                )
                if info.exact and info.best_move is not None:
                    self.last_info = info
                    return info.best_move
            left = max(0.05, budget - (time.perf_counter() - start))
            info = analyse(
                state, Limit(time=left), seed=self.seed, margin=False, value_fn=self.value_fn
            )
        self.last_info = info
        return info.best_move if info.best_move is not None else moves[0]


def _value_fn(version: str) -> Callable[[State], float]:
    if version == "search-v1":
        return evaluate
    from solvers.value import value

    return value


def make_player(level: str, *, seed: int = 0, time_per_move: float = 1.0):
    """A player for ``level`` ("random", "greedy", "search", "search:N", "search:Ss", and the
    same forms of "search-v1")."""
    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer(seed)
    name, colon, budget = key.partition(":")
    if name in ("search", "search-v1"):
        value_fn = _value_fn(name)
        if not colon:
            return SearchPlayer(seed, time_per_move=time_per_move, value_fn=value_fn)
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if seconds > 0:
                    return SearchPlayer(seed, time_per_move=seconds, value_fn=value_fn)
            else:
                nodes = int(budget)
                if nodes > 0:
                    return SearchPlayer(seed, time_per_move=None, nodes=nodes, value_fn=value_fn)
        except ValueError:
            pass
        raise UnknownLevelError(
            f"bad search budget {budget!r}: use {name}:N (nodes) or {name}:Ss (seconds)"
        )
    raise UnknownLevelError(
        f"unknown player level {level!r}: expected one of {', '.join(LEVELS)} "
        "(or search:N nodes, search:Ss seconds)"
    )
