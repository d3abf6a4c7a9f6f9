"""AI players for 7 Wonders Duel at three levels, for ``duel play`` and ``duel match``.

``make_player(level, seed=..., time_per_move=...)`` returns an object with ``choose(state)``
that answers at every decision node (play, draft, progress tokens, The Great Library, destroy,
The Mausoleum, choosing who begins Age II or III). Levels:

* ``random``: a uniformly random legal move.
* ``greedy``: the move whose resulting position has the best heuristic evaluation
  (:func:`duel.solvers.search.evaluate`, one ply, no look-ahead); ties broken at random.
* ``search``: expectiminimax (:mod:`duel.solvers.search`) for ``time_per_move`` seconds, with the
  learned value (:mod:`duel.solvers.value`) at its horizon. In Age III endgames small enough to
  enumerate it first tries an exact solve with part of its time. ``search:N`` uses a budget of
  N nodes per move instead of a clock (reproducible), and ``search:Ss`` S seconds (for example
  ``search:0.5s``).
* ``search-v1``: the same search with the hand-made evaluation
  (:func:`duel.solvers.search.evaluate`): the fixed baseline the project measures its progress
  against (``search-v1:N``, ``search-v1:Ss`` as above).
* ``mcts``: Monte Carlo tree search (:mod:`duel.solvers.mcts`), 1 s per move by default;
  ``mcts:N`` N iterations per move (reproducible), ``mcts:Ss`` S seconds.
* ``cmcts``: the compiled open-loop MCTS (:class:`CMctsPlayer`, needs the C extensions):
  full-game playouts with MCTS-BR's plan policy, a learned prior fitted to its own search's
  visits, leaves valued by playout and learned value mixed, the move of best lower confidence
  bound, exact Age III endgames, tree reuse (``docs/strength.md``). ``cmcts:N`` N iterations
  per move, ``cmcts:Ss`` S seconds; ``cmcts:Ss:key=value,...`` overrides its knobs
  (:class:`CMctsConfig`), as the environment variable ``CMCTS`` does for every ``cmcts``
  player, for measuring.
* ``cmcts-v1`` to ``cmcts-v4``: fixed baselines of the round-robin
  (:data:`CMCTS_BASELINES`), ``cmcts`` as it was before its learned value was retrained on its
  own games (v1), before it picked its move by a lower confidence bound (v2), before its
  prior was fitted to its search's visits (v3) and before the second generation of value and
  prior with what each side can take now (v4), with budgets as ``cmcts``.

All players are deterministic for a given seed, except that the clock decides how far
``search`` and ``mcts`` get with a time budget. :func:`parse_level` is the one parser of level
names (``duel play``, ``duel match`` and the benchmarks use it).

>>> import random
>>> from duel import new_game
>>> state = new_game()
>>> while state.is_chance():
...     state = state.apply(state.random_move(random.Random(1)), check=False)
>>> make_player("greedy", seed=1).choose(state) in state.legal_moves()
True
"""

from __future__ import annotations

import difflib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from duel.moves import Move
from duel.quote import quoted
from duel.solvers.cmcts_player import (
    MAX_SECONDS,
    CMctsConfig,
    CMctsPlayer,
    UnknownLevelError,
    decision_check,
    decisions_between,
)
from duel.solvers.search import MAX_NODES, Limit, analyse, evaluate, exact_feasible
from duel.state import State

LEVELS = (
    "random",
    "greedy",
    "search",
    "search-v1",
    "mcts",
    "cmcts",
    "cmcts-v1",
    "cmcts-v2",
    "cmcts-v3",
    "cmcts-v4",
    "hint",
)
#: The fixed ``cmcts`` baselines: their :class:`CMctsConfig` overrides of today's defaults.
CMCTS_BASELINES = {
    # before the value taught by its own games
    "cmcts-v1": "value=search,pick=visits,prior_value=,mix_lambda=0.3",
    # 2026-11-25: the most visited move
    "cmcts-v2": "value=cmcts,pick=visits,prior_value=,mix_lambda=0.3",
    # 2026-11-27: the prior is the value's own
    "cmcts-v3": "value=cmcts,prior_value=,mix_lambda=0.3",
    # 2026-11-28: the first generation's value and prior, over the 98 features before what
    # each side can take now, a leaf 0.3 of the value
    "cmcts-v4": "value=cmcts,prior_value=cmcts-prior,mix_lambda=0.3",
}
#: Share of the mcts player's time given to an exact endgame solve before MCTS.
EXACT_SHARE = 0.4

__all__ = [
    "CMCTS_BASELINES",
    "LEVELS",
    "CMctsConfig",
    "CMctsPlayer",
    "GreedyPlayer",
    "Level",
    "MctsPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "decisions_between",
    "make_player",
    "parse_level",
]


class RandomPlayer:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        decision_check(state)
        return state.random_move(self.rng)


class GreedyPlayer:
    """One ply: the move leading to the best evaluation for the mover (``value_fn``, default
    the hand-made :func:`~duel.solvers.search.evaluate`)."""

    name = "greedy"

    def __init__(self, seed: int = 0, value_fn: Callable[[State], float] | None = None) -> None:
        self.rng = random.Random(seed)
        self.value_fn = value_fn if value_fn is not None else evaluate

    def choose(self, state: State) -> Move:
        decision_check(state)
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
    """Expectiminimax under a time or node budget per move; ``value_fn`` is its horizon
    evaluation (None: the search's default, the hand-made :func:`~duel.solvers.search.evaluate`)."""

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
        self.value_fn = value_fn
        self.last_info = None

    def choose(self, state: State) -> Move:
        decision_check(state)
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


class MctsPlayer:
    """Monte Carlo tree search (:mod:`duel.solvers.mcts`) under a time or iteration budget per move.

    The tree is kept between moves (:class:`duel.solvers.mcts.Tree` finds the moves played in
    between among its arms). In Age III endgames with at most ``exact_cards`` cards left the
    player first tries an exact solve (:mod:`duel.solvers.search`) with 40% of its time, as the
    ``search`` level does (0: never).
    """

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float | None = 1.0,
        iterations: int | None = None,
        config=None,
        value_fn=None,
        exact_cards: int = 7,
    ) -> None:
        from duel.solvers.mcts import Tree

        self.seed = seed
        self.time_per_move = time_per_move
        self.iterations = iterations
        self.exact_cards = exact_cards
        self.tree = Tree(config, value_fn, seed)
        self.last_info = None

    def choose(self, state: State) -> Move:
        decision_check(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        from duel.solvers.mcts import collector_paused

        start = time.perf_counter()
        budget = self.time_per_move or 1.0
        if self.exact_cards and exact_feasible(state, self.exact_cards):
            if self.iterations is not None:
                limit = Limit(nodes=20 * self.iterations)
            else:
                limit = Limit(time=EXACT_SHARE * budget)
            with collector_paused():  # its garbage is collected inside this move's time
                info = analyse(state, limit, exact=True, seed=self.seed, margin=False)
            if info.best_move is not None and (
                info.exact
                or (self.iterations is None and time.perf_counter() - start > 0.8 * budget)
            ):  # solved, or (the clock being late) no time left for MCTS
                self.last_info = info
                return info.best_move
        if self.iterations is not None:
            result = self.tree.search(state, iterations=self.iterations)
        else:
            result = self.tree.search(state, seconds=budget - (time.perf_counter() - start))
        self.last_info = result
        move = result.best_move if result.best_move is not None else moves[0]
        return move


@dataclass(frozen=True)
class Level:
    """A parsed player level: its name and budget (seconds or a count of nodes/iterations)."""

    name: str
    seconds: float | None = None
    count: int | None = None
    options: str = ""  # cmcts only: CMctsConfig overrides, "key=value,..."


_BUDGETED = ("search", "search-v1", "mcts", "cmcts", "hint", *CMCTS_BASELINES)


def parse_level(text: str) -> Level:
    """Parse a level: ``random``, ``greedy``, ``search``, ``search-v1`` or ``mcts``, the last
    three with an optional budget ``:N`` (nodes or iterations) or ``:Ss`` (seconds).

    >>> parse_level("mcts:0.5s"), parse_level("search:2000").count
    (Level(name='mcts', seconds=0.5, count=None, options=''), 2000)

    ``cmcts`` takes :class:`CMctsConfig` overrides after its budget (for measuring one
    setting against another in a match):

    >>> parse_level("cmcts:0.2s:pick=lcb")
    Level(name='cmcts', seconds=0.2, count=None, options='pick=lcb')
    >>> parse_level("cmcts:0.2s").seconds, parse_level("cmcts").seconds
    (0.2, None)

    A typo gets the nearest level (:mod:`difflib`):

    >>> try:
    ...     parse_level("cmtcs:1s")
    ... except UnknownLevelError as error:
    ...     print(str(error).split(":")[0] + ":" + str(error).split(":")[1])
    unknown level 'cmtcs:1s' (did you mean cmcts?)
    """
    name, has_budget, rest = text.strip().partition(":")
    name = name.lower()
    budget, _, options = rest.lower().partition(":")
    if options:
        if name != "cmcts" and name not in CMCTS_BASELINES:
            raise UnknownLevelError(f"only cmcts takes options (got {quoted(text)})")
        options = rest.partition(":")[2]  # as written: a weights file's path keeps its case
        try:
            CMctsConfig.from_string(options)
        except ValueError as e:
            raise UnknownLevelError(str(e)) from None
    if name not in LEVELS:
        close = difflib.get_close_matches(name, LEVELS, n=1)
        guess = f" (did you mean {close[0]}?)" if close else ""
        raise UnknownLevelError(
            f"unknown level {quoted(text)}{guess}: expected one of {', '.join(LEVELS)}"
            " (every level but random and greedy takes :N for a count or :Ss for seconds)"
        )
    if not has_budget:
        return Level(name)
    what = "nodes" if name.startswith("search") else "iterations"
    if name in _BUDGETED:
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if 0 < seconds <= MAX_SECONDS:  # NaN fails both
                    return Level(name, seconds=seconds, options=options)
            else:
                count = int(budget)
                if 0 < count <= MAX_NODES:
                    return Level(name, count=count, options=options)
        except ValueError:
            pass
        raise UnknownLevelError(
            f"bad {name} budget {quoted(budget)}: use {name}:N ({what}, 1 to {MAX_NODES:,})"
            f" or {name}:Ss (seconds, more than 0 and at most {MAX_SECONDS:,.0f})"
        )
    raise UnknownLevelError(f"the {name} level takes no budget (got {quoted(text)})")


def make_player(level: str, *, seed: int = 0, time_per_move: float = 1.0):
    """A player for ``level`` (see :func:`parse_level`); ``time_per_move`` unless the level
    names its own budget."""
    parsed = parse_level(level)
    if parsed.name == "random":
        return RandomPlayer(seed)
    if parsed.name == "greedy":
        return GreedyPlayer(seed)
    seconds = parsed.seconds if parsed.seconds is not None else time_per_move
    if parsed.name == "mcts":
        if parsed.count is not None:
            return MctsPlayer(seed, time_per_move=None, iterations=parsed.count)
        return MctsPlayer(seed, time_per_move=seconds)
    if parsed.name == "hint":
        # the default hint's engine on one thread; its own budget (time_per_move is not used)
        from duel.solvers.hint import HintPlayer

        return HintPlayer(seed, iterations=parsed.count, seconds=parsed.seconds)
    if parsed.name == "cmcts" or parsed.name in CMCTS_BASELINES:
        config = CMctsConfig.from_string(CMCTS_BASELINES.get(parsed.name, ""))
        config = CMctsConfig.from_string(parsed.options, config)
        if parsed.count is not None:
            player = CMctsPlayer(seed, time_per_move=None, iterations=parsed.count, config=config)
        else:
            player = CMctsPlayer(seed, time_per_move=seconds, config=config)
        player.name = parsed.name
        return player
    if parsed.name == "search-v1":
        value_fn: Callable[[State], float] = evaluate
    else:
        from duel.solvers.value import value as value_fn
    if parsed.count is not None:
        player = SearchPlayer(seed, time_per_move=None, nodes=parsed.count, value_fn=value_fn)
    else:
        player = SearchPlayer(seed, time_per_move=seconds, value_fn=value_fn)
    player.name = parsed.name
    return player
