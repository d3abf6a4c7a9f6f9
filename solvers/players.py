"""AI players for 7 Wonders Duel, for ``duel play`` and ``duel match``.

``make_player(level, seed=..., time_per_move=...)`` returns an object with ``choose(state)``
that answers at every decision node (play, draft, progress tokens, The Great Library, destroy,
The Mausoleum, choosing who starts the next Age). Levels:

* ``random``: a uniformly random legal move.
* ``greedy``: the move whose resulting position has the best heuristic evaluation
  (:func:`solvers.search.evaluate`, one ply, no look-ahead); ties broken at random.
* ``search``: expectiminimax (:mod:`solvers.search`) for ``time_per_move`` seconds. In Age III
  endgames small enough to enumerate it first tries an exact solve with part of its time.
  ``search:N`` uses a budget of N nodes per move instead of a clock (reproducible), and
  ``search:Ss`` S seconds (for example ``search:0.5s``).
* ``cmcts``: the compiled open-loop MCTS (:class:`CMctsPlayer`, needs the C extensions):
  full-game playouts with a scored policy, a prior from the same scores, exact Age III
  endgames. ``cmcts:N`` uses N iterations per move (reproducible), ``cmcts:Ss`` S seconds. The
  environment variable ``CMCTS`` (``key=value,...``, see :class:`CMctsConfig`) overrides its
  knobs, for measuring.

All players are deterministic for a given seed, except that the clock decides how far
``search`` and ``cmcts`` get with a time budget.

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
from dataclasses import dataclass, fields, replace

from duel.moves import Kind, Move
from duel.state import PRESENT, TAKEN, UNSEEN, State
from solvers.search import Limit, analyse, evaluate, exact_feasible

LEVELS = ("random", "greedy", "search", "cmcts")

__all__ = [
    "LEVELS",
    "CMctsConfig",
    "CMctsPlayer",
    "GreedyPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
]


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
    """One ply: the move leading to the best evaluation for the mover."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        _decision_check(state)
        moves = state.legal_moves()
        sign = 1.0 if state.to_move == 0 else -1.0
        best_value = -2.0
        best: list[Move] = []
        for m in moves:
            v = sign * evaluate(state.apply(m, check=False))
            if v > best_value + 1e-12:
                best_value, best = v, [m]
            elif v > best_value - 1e-12:
                best.append(m)
        return best[int(self.rng.random() * len(best))]


class SearchPlayer:
    """Expectiminimax under a time or node budget per move."""

    name = "search"

    def __init__(
        self, seed: int = 0, time_per_move: float | None = 1.0, nodes: int | None = None
    ) -> None:
        self.seed = seed
        self.time_per_move = time_per_move
        self.nodes = nodes
        self.last_info = None

    def choose(self, state: State) -> Move:
        _decision_check(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if self.nodes is not None:
            if exact_feasible(state, 7):
                info = analyse(state, Limit(nodes=self.nodes // 2), exact=True, seed=self.seed)
                if info.exact and info.best_move is not None:
                    self.last_info = info
                    return info.best_move
            info = analyse(state, Limit(nodes=self.nodes), seed=self.seed, margin=False)
        else:
            budget = self.time_per_move or 1.0
            start = time.perf_counter()
            if exact_feasible(state, 7):
                info = analyse(
                    state, Limit(time=0.6 * budget), exact=True, seed=self.seed, margin=False
                )
                if info.exact and info.best_move is not None:
                    self.last_info = info
                    return info.best_move
            left = max(0.05, budget - (time.perf_counter() - start))
            info = analyse(state, Limit(time=left), seed=self.seed, margin=False)
        self.last_info = info
        return info.best_move if info.best_move is not None else moves[0]


def make_player(level: str, *, seed: int = 0, time_per_move: float = 1.0):
    """A player for ``level`` ("random", "greedy", "search", "search:N", "search:Ss", "cmcts",
    "cmcts:N", "cmcts:Ss")."""
    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer(seed)
    if key == "search":
        return SearchPlayer(seed, time_per_move=time_per_move)
    if key == "cmcts":
        return CMctsPlayer(seed, time_per_move=time_per_move)
    if key.startswith("cmcts:"):
        budget = key.split(":", 1)[1]
        try:
            if budget.endswith("s") and float(budget[:-1]) > 0:
                return CMctsPlayer(seed, time_per_move=float(budget[:-1]))
            if int(budget) > 0:
                return CMctsPlayer(seed, time_per_move=None, iterations=int(budget))
        except ValueError:
            pass
        raise UnknownLevelError(
            f"bad cmcts budget {budget!r}: use cmcts:N (iterations) or cmcts:Ss (seconds)"
        )
    if key.startswith("search:"):
        budget = key.split(":", 1)[1]
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if seconds > 0:
                    return SearchPlayer(seed, time_per_move=seconds)
            else:
                nodes = int(budget)
                if nodes > 0:
                    return SearchPlayer(seed, time_per_move=None, nodes=nodes)
        except ValueError:
            pass
        raise UnknownLevelError(
            f"bad search budget {budget!r}: use search:N (nodes) or search:Ss (seconds)"
        )
    raise UnknownLevelError(
        f"unknown player level {level!r}: expected one of {', '.join(LEVELS)} "
        "(or search:N nodes, search:Ss seconds, cmcts:N iterations, cmcts:Ss seconds)"
    )


def decisions_between(
    before: State, after: State, first: Move | None = None, limit: int = 400
) -> list[Move] | None:
    """The decisions played from ``before`` to ``after`` (chance outcomes left out), or None if
    none is found within ``limit`` positions tried, or the Age changed in between (or it is
    still the draft, whose wonder reveals make the search too wide).

    ``first`` forces the first decision (the player's own move: two discards in either order
    reach the same position, and the tree needs the order). A player that only sees positions
    uses it to follow the game in its search tree. Chance
    outcomes are those ``after`` shows (a slot turned face up shows its card, or the card was
    taken since); a decision must take a card whose slot is empty in ``after``.

    >>> import random
    >>> from duel import new_game
    >>> s = new_game()
    >>> while s.is_chance() or s.phase == "draft":
    ...     s = s.apply(s.random_move(random.Random(1)) if s.is_chance() else s.legal_moves()[0])
    >>> m = s.legal_moves()[0]
    >>> t = s.apply(m)
    >>> while t.is_chance():
    ...     t = t.apply(t.random_move(random.Random(2)))
    >>> decisions_between(s, t) == [m] == decisions_between(s, t, first=m)
    True
    """
    if before.age != after.age or after.age == 0:
        return None
    target, present = after.pyramid, after.fields[PRESENT]
    unseen_after = after.fields[UNSEEN]
    budget = [limit]

    def walk(st: State, path: list[Move]) -> list[Move] | None:
        if st == after:
            return path
        budget[0] -= 1
        if budget[0] < 0 or st.is_terminal() or st.age != after.age:
            return None
        if st.is_chance():
            for m, _ in st.chance_weights()[0]:
                if m.kind == Kind.REVEAL_CARD:
                    card, shown = m & 0xFF, target[(m >> 8) & 0xFF]
                    if shown >= 0 and shown != card:
                        continue
                    if shown == TAKEN and unseen_after >> card & 1:
                        continue
                found = walk(st.apply(m, check=False), path)
                if found is not None:
                    return found
            return None
        slots = {c: i for i, c in enumerate(st.pyramid) if c >= 0}
        for m in st.legal_moves():
            if m.kind in (Kind.BUILD, Kind.DISCARD, Kind.WONDER):
                slot = slots.get(m & 0xFF)
                if slot is not None and present >> slot & 1:
                    continue
            found = walk(st.apply(m, check=False), [*path, m])
            if found is not None:
                return found
        return None

    if first is None:
        return walk(before, [])
    return walk(before.apply(first, check=False), [first])


@dataclass(frozen=True)
class CMctsConfig:
    """Knobs of the compiled MCTS (``solvers._cmcts.Tree``); the defaults are the measured best.

    ``from_string("rollout=4,prior=value")`` overrides fields (the ``CMCTS`` environment variable
    of :class:`CMctsPlayer` uses it, for measuring). Fields:

    * ``c``, ``fpu``: exploration constant; first-play urgency (an unvisited arm's value is the
      parent's minus ``fpu``) under PUCT.
    * ``uct``: UCB1 over availability counts (unvisited arms first) instead of PUCT.
    * ``prior``: ``policy`` (softmax of the rollout policy's move scores / ``prior_temperature``),
      ``value`` (one-ply hand-made evaluation), ``static`` or ``uniform``.
    * ``rollout``: plies of playout before the evaluation judges the leaf; -1 plays to the end
      of the game (the value is then the game's result), -2 to the end of the Age.
    * ``policy``: ``scored`` (cheap move scores, randomised greedy, see solvers/csrc/rollout.h) or
      ``kind`` (wonder 1/2, build 0.35, discard 0.15, uniformly within the kind); ``eps``,
      ``noise``, ``deny``, ``military`` (weight of the pawn pressure in a shield's value),
      ``modes`` (0: one plan; 1: each simulated player normal or science at random; 2: a
      bandit per player at the root over normal / science / military) tune ``scored``.
    * ``exact_cards``: in Age III with at most this many cards left, try the exact solver first
      (with at most 60% of the time, MCTS after it if it did not finish); -1 picks the number
      from the time per move (measured at load 8: 7 cards take 0.01-0.3 s, 8 cards 0.05-1 s);
      0 never.
    * ``reuse``: keep the subtree of the moves played (found by :func:`decisions_between`)
      from one decision to the next instead of starting afresh.

    >>> CMctsConfig.from_string("rollout=4,modes=2").modes
    2
    """

    c: float = 1.0
    fpu: float = 0.1
    uct: bool = False
    prior: str = "policy"
    prior_temperature: float = 2.0
    rollout: int = -1
    policy: str = "scored"
    eps: float = 0.1
    noise: float = 3.0
    deny: float = 0.3
    military: float = 1.0
    modes: int = 1
    exact_cards: int = -1
    reuse: bool = True

    @classmethod
    def from_string(cls, text: str, base: CMctsConfig | None = None) -> CMctsConfig:
        """``base`` (the defaults if None) with the ``key=value`` pairs of ``text`` applied."""
        types = {f.name: f.type for f in fields(cls)}
        changes: dict = {}
        for item in filter(None, (x.strip() for x in text.split(","))):
            key, _, value = item.partition("=")
            if key not in types:
                raise ValueError(
                    f"unknown cmcts option {key!r}: expected one of {', '.join(types)}"
                )
            kind = types[key]
            try:
                if kind == "bool":
                    changes[key] = value.lower() in ("1", "true", "yes", "on")
                elif kind == "int":
                    changes[key] = int(value)
                elif kind == "float":
                    changes[key] = float(value)
                else:
                    changes[key] = value
            except ValueError:
                raise ValueError(f"bad value {value!r} for cmcts option {key!r}") from None
        return replace(base or cls(), **changes)

    def tree_options(self) -> dict:
        """The keyword arguments of ``solvers._cmcts.Tree``."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in ("exact_cards", "reuse")
        }


class CMctsPlayer:
    """The compiled MCTS (solvers/csrc/cmcts_module.c) under a time or iteration budget.

    The player sees positions, not the moves between them: it finds the decisions played since
    its last move (:func:`decisions_between`) and keeps that subtree (``reuse``). With a clock it
    uses ``time_per_move`` less 6 ms; small Age III endgames (``exact_cards``) are first solved
    exactly with at most 60% of the budget.
    """

    name = "cmcts"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float | None = 1.0,
        iterations: int | None = None,
        config: CMctsConfig | None = None,
    ) -> None:
        import os

        try:
            from solvers._cmcts import Tree
        except ImportError:
            raise UnknownLevelError(
                "the cmcts level needs the compiled extension solvers._cmcts "
                "(pip install -e . with a C compiler)"
            ) from None

        try:
            self.config = CMctsConfig.from_string(os.environ.get("CMCTS", ""), config)
        except ValueError as e:
            raise UnknownLevelError(f"CMCTS environment variable: {e}") from None
        self.tree = Tree(seed=seed, **self.config.tree_options())
        self.seed = seed
        self.time_per_move = time_per_move
        self.iterations = iterations
        self.last_info = None
        self._played: tuple[State, Move] | None = None  # the tree's root and our move there

    def _follow(self, state: State) -> None:
        """Move the tree's root to ``state`` along the decisions played since our last move,
        or start a fresh tree if they cannot be found."""
        played, self._played = self._played, None
        path = None
        if played is not None and self.config.reuse:
            path = decisions_between(played[0], state, first=played[1])
        if not path or path[0] != played[1]:
            self.tree.reset()
            return
        for move in path:  # our move first, then everything played since
            if not self.tree.advance(int(move)):
                return  # advance() reset the tree

    def _exact_cards(self) -> int:
        cards = self.config.exact_cards
        if cards >= 0:
            return cards
        if self.iterations is not None:
            return 0
        budget = self.time_per_move or 1.0
        return 6 if budget < 0.1 else 7 if budget < 0.5 else 8 if budget < 2.5 else 9

    def choose(self, state: State) -> Move:
        from duel.core import CoreState

        _decision_check(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        start = time.perf_counter()
        budget = self.time_per_move or 1.0
        if exact_feasible(state, self._exact_cards()):
            limit = (
                Limit(nodes=self.iterations)
                if self.iterations is not None
                else Limit(time=0.6 * budget)
            )
            info = analyse(state, limit, exact=True, seed=self.seed, margin=False)
            if info.exact and info.best_move is not None:
                self.last_info = info
                return info.best_move
        self._follow(state)
        core = CoreState.from_state(state)
        if self.iterations is not None:
            result = self.tree.search(core, iterations=self.iterations)
        else:
            # the whole budget but the few ms of Python around the search
            left = budget - 0.006 - (time.perf_counter() - start)
            result = self.tree.search(core, seconds=max(0.01, left))
        self.last_info = result
        best = Move(max(result["moves"], key=lambda m: (m[1], m[2]))[0])
        self._played = (state, best)
        return best
