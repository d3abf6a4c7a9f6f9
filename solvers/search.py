"""Expectiminimax search for 7 Wonders Duel: hints, and exact endgame solutions.

The search works on the engine's :class:`~duel.state.State`, which holds only public information:
a face-down card is not in the state but decided by a chance node with its exact probability. So
whatever this module computes depends on public information only.

Value
-----
Every value is **the probability that player A wins, a shared victory counting as one half**
(``P(A wins) + P(shared) / 2``), in ``[0, 1]``. Player A maximises it and player B minimises it
(B's own value is ``1 - value``). This is the quantity the move choice maximises. At a cut-off
(depth-limited search) the heuristic evaluation below stands in for it, mapped into ``(0, 1)``.

The secondary figure, reported by exact solves, is the **expected final point margin** (A's
civilian score minus B's, counted at the end of the game however it ends) when both players
follow the solver's win-maximising moves. It is not maximised: it describes the line the solver
chose (among moves with the same win probability the first in search order is kept).

Search
------
* Expectiminimax: decision nodes take the max (A) or min (B); chance nodes take the expectation
  over ``state.chance_weights()`` (exact probabilities).
* Alpha-beta (fail-soft) at decision nodes; Ballard's **Star1** pruning at chance nodes, using the
  value bounds ``0 <= value <= 1``: after some outcomes are searched, the window passed to the
  next one is derived from what the remaining outcomes can still contribute, and the node is cut
  as soon as the expectation cannot re-enter ``(alpha, beta)``.
* A transposition table keyed by the state itself (equal states hash alike), storing a lower and
  an upper bound, the remaining depth they hold for, and the best move. Bounds that do not depend
  on any depth cut-off are stored as exact for every depth.
* Move ordering: the table's best move first, then (at least three plies from the horizon)
  children by their heuristic evaluation, elsewhere by a static a-priori score; chance outcomes
  by decreasing probability.
* Iterative deepening (depth = decision plies; chance nodes cost no depth) under a time, node or
  depth limit; the answer is the last completed iteration. With a node limit the result depends
  only on the position, the limit and the seed: it is reproducible.
* Exact mode: iterative deepening until an iteration reaches the end of the game on every line
  (no heuristic value used anywhere); the value is then exact.
* Sampling: where a chance node has more outcomes than ``chance_width``, ``chance_samples``
  outcomes are drawn with their probabilities (a seeded generator keyed by the state, so the same
  node always gets the same sample) and the node averages over that sample. Any result that
  used sampling says so (``sampled``, ``samples``) and its value is an estimate. Hints do this by
  default (an Age's opening deal has dozens of outcomes per card); exact mode samples only when
  the position is too far from the end to enumerate (see :func:`exact_feasible`).

Evaluation (cut-off positions)
------------------------------
An estimated final point margin ``m`` (A minus B) is computed and mapped to a win probability by
a logistic curve, ``1 / (1 + exp(-m / T))``, with ``T`` = 7, 5, 3 points in Ages I, II, III (the
later the Age, the surer a lead). ``m`` is the sum of:

* **points**: the civilian score difference if the game ended now (cards, guilds, wonders,
  tokens, coins // 3, military track);
* **military threat**: the leader gains ``1.5 * (lead - 4) ** 2`` points for a lead of 5 or more
  spaces (at 9 the game is over), so a pawn close to the capital weighs heavily;
* **science threat**: 5 different symbols count 10 points (one more wins), 4 count 3;
* **coins**: each coin is worth 1/3 point in the score; on top of that 0.15 (Age I), 0.1 (Age II)
  or 0.05 (Age III) per coin for the buying power;
* **economy**: per unit of fixed production 1 (raw) or 1.3 (manufactured) for the first two of
  a resource and 0.3 beyond, 1 (raw) or 1.2 (manufactured) per "one of" producer, 0.7 per
  resource bought at a fixed price of 1; all times 1, 1, 0.7, 0.25 in Ages I, II, III (end of
  game: 0) since production only pays for future builds;
* **wonders**: 1.5 points per wonder still buildable (fewer than seven built) before Age III,
  0.75 in Age III;
* **pending tokens**: a player choosing a progress token (a science pair, The Great Library)
  gains 4 points;
* **tempo**: the player about to move gains 0.5.

>>> from duel import new_game
>>> import random
>>> from duel.solvers.search import Limit, analyse
>>> rng = random.Random(0)
>>> state = new_game()
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> info = analyse(state, Limit(nodes=300), seed=1)
>>> 0.0 <= info.value.a <= 1.0 and info.best_move in state.legal_moves()
True
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice

from duel.catalog import CARDS, COLOR_MASK, WONDERS
from duel.moves import Kind, Move
from duel.state import (
    AGE,
    BASE,
    BUILT,
    CHANCE_PHASES,
    CHOOSE_TOKEN,
    CITY,
    COINS,
    ECON,
    GAME_OVER,
    LIBRARY_CHOOSE,
    MILITARY_POINTS,
    PAWN,
    PHASE,
    PRESENT,
    SCIENCE,
    TO_MOVE,
    TOKEN_POINTS,
    TOKENS_HELD,
    WINNER,
    WONDER_POINTS,
    WONDERS_OWNED,
    State,
    card_points,
    guild_points,
    total_points,
)

__all__ = [
    "AnalysisInfo",
    "Limit",
    "MoveInfo",
    "PovValue",
    "SearchAborted",
    "Searcher",
    "analyse",
    "analysis",
    "evaluate",
    "exact_feasible",
    "EXACT_CARDS_C",
    "EXACT_CARDS_PYTHON",
    "C_SEARCH",
    "expectimax",
    "margin_estimate",
]

INF_DEPTH = 1 << 20
#: Expected values are sums of products, so two searches of one position may bound it by floats
#: an ulp apart; a window between them is too narrow for the sums of a chance node to tell apart
#: (an empty window makes a fail-high read as a fail-low). An exact search widens a window
#: narrower than this to it: sound for a fail-soft search (a value outside the wider window is a
#: bound beyond the narrow one too, a value inside it is exact).
MIN_WINDOW = 1e-12
#: Default memory budget of one search, in bytes (``--memory`` on the command line).
DEFAULT_MEMORY = 512 * 1024 * 1024


def default_threads() -> int:
    """Threads for an exact solve asked for by a user (``duel analyze --exact``, the endgame
    benchmark): one per core of this machine, at most 64. The API's own default stays 1, which
    keeps node counts reproducible."""
    import os

    return max(1, min(os.cpu_count() or 1, 64))

#: Bytes one table entry keeps alive, position included (measured with tracemalloc: about
#: 1.2-1.7 KB in Age I-II searches; rounded up so the budget holds).
ENTRY_BYTES = 2048


def _drop_oldest_half(cache: dict) -> None:
    """Forget the older half of a cache (dicts keep insertion order)."""
    for key in list(islice(cache, len(cache) // 2)):
        del cache[key]
_BLUE = COLOR_MASK["blue"]
_GREEN = COLOR_MASK["green"]
_YELLOW = COLOR_MASK["yellow"]
_PURPLE = COLOR_MASK["purple"]
_PLAIN_POINTS = _BLUE | _GREEN | _YELLOW
_TEMPERATURE = (7.0, 7.0, 5.0, 3.0)
_COIN_BONUS = (0.15, 0.15, 0.1, 0.05)
_WONDER_BONUS = (1.5, 1.5, 1.5, 0.75)


# --- evaluation ---------------------------------------------------------------------------------
#: The military threat term of the margin, by pawn position.
_THREAT = [
    1.5 * (p - 4) ** 2 if p >= 5 else -1.5 * (-p - 4) ** 2 if p <= -5 else 0.0
    for p in range(-9, 10)
]
_SCIENCE_THREAT = (0.0, 0.0, 0.0, 0.0, 3.0, 10.0, 10.0, 10.0)
_A, _B = BASE


_TOKEN_PHASES = (CHOOSE_TOKEN, LIBRARY_CHOOSE)
_PRODUCTION_WEIGHT = (1.0, 1.0, 0.7, 0.25)
_ECON_MASK = (1 << 24) - 1  # production, "one of" producers, fixed trading prices
_production_cache: dict[int, float] = {}


def _production_value(econ: int) -> float:
    """Points-worth of a city's economy (before the Age weight): per unit of fixed production
    1 (raw) or 1.3 (manufactured) for the first two of a resource and 0.3 beyond, 1 or 1.2 per
    "one of" producer, 0.7 per resource bought at a fixed price of 1."""
    value = _production_cache.get(econ)
    if value is None:
        value = 0.0
        for r in range(5):
            units = (econ >> (3 * r)) & 7
            value += (1.0 if r < 3 else 1.3) * min(units, 2) + 0.3 * max(0, units - 2)
        value += 1.0 * ((econ >> 15) & 3) + 1.2 * ((econ >> 17) & 3)
        value += 0.7 * ((econ >> 19) & 31).bit_count()
        _production_cache[econ] = value
    return value


def _margin(f) -> float:
    """Heuristic margin, A minus B, of a running game (fields ``f``)."""
    ca, cb = f[_A + CITY], f[_B + CITY]
    pa, pb = f[_A + COINS], f[_B + COINS]
    pawn = f[PAWN] + 9
    m = (
        card_points(ca & _PLAIN_POINTS)
        - card_points(cb & _PLAIN_POINTS)
        + WONDER_POINTS[f[_A + BUILT]]
        - WONDER_POINTS[f[_B + BUILT]]
        + TOKEN_POINTS[f[_A + TOKENS_HELD]]
        - TOKEN_POINTS[f[_B + TOKENS_HELD]]
        + MILITARY_POINTS[0][pawn]
        - MILITARY_POINTS[1][pawn]
        + pa // 3
        - pb // 3
        + _THREAT[pawn]
        + _SCIENCE_THREAT[f[_A + SCIENCE].bit_count()]
        - _SCIENCE_THREAT[f[_B + SCIENCE].bit_count()]
    )
    if (ca | cb) & _PURPLE:
        m += guild_points(f, ca) - guild_points(f, cb)
    age = f[AGE]
    m += _COIN_BONUS[age] * (pa - pb)
    m += _PRODUCTION_WEIGHT[age] * (
        _production_value(f[_A + ECON] & _ECON_MASK) - _production_value(f[_B + ECON] & _ECON_MASK)
    )
    if (f[_A + BUILT] | f[_B + BUILT]).bit_count() < 7:
        owned = f[_A + WONDERS_OWNED].bit_count() - f[_B + WONDERS_OWNED].bit_count()
        m += _WONDER_BONUS[age] * owned
    bonus = 4.5 if f[PHASE] in _TOKEN_PHASES else 0.5  # a token to choose (4) + tempo (0.5)
    return m + bonus if f[TO_MOVE] == 0 else m - bonus


def margin_estimate(state: State) -> float:
    """Heuristic final point margin, A minus B (see the module docstring)."""
    f = state.fields
    if f[PHASE] == GAME_OVER:
        return float(total_points(f, 0) - total_points(f, 1))
    return _margin(f)


def terminal_value(state: State) -> float:
    w = state.fields[WINNER]
    return 1.0 if w == 0 else 0.0 if w == 1 else 0.5


def evaluate(state: State) -> float:
    """Heuristic value of a position: estimated P(A wins) + P(shared) / 2, in (0, 1)."""
    f = state.fields
    if f[PHASE] == GAME_OVER:
        return terminal_value(state)
    x = _margin(f) / _TEMPERATURE[f[AGE]]
    if x > 30:
        x = 30.0
    elif x < -30:
        x = -30.0
    return 1.0 / (1.0 + math.exp(-x))


#: Cards left in Age III up to which an exact solve enumerates every chance outcome, by search
#: path: the compiled search on two threads solved all 20 measured 16-card positions within
#: 100 s (median 5-13 s) and half of the 18-card ones within 60 s (benchmarks/endgames.py,
#: docs/search.md); the Python reference takes 7-40 s at 10. What a solve will likely take is
#: said before it starts (duel.app.text.endgame.solve_time_note).
EXACT_CARDS_PYTHON = 10
EXACT_CARDS_C = 16


def exact_feasible(state: State, max_cards: int | None = None) -> bool:
    """True when an exact solve can enumerate every chance outcome: Age III with at most
    ``max_cards`` cards left in the pyramid, or the game already over.

    ``max_cards`` defaults to the limit of the fastest search available
    (:data:`EXACT_CARDS_C` where the compiled search is built, else :data:`EXACT_CARDS_PYTHON`).

    >>> from duel import new_game
    >>> exact_feasible(new_game())
    False
    """
    if max_cards is None:
        max_cards = EXACT_CARDS_C if C_SEARCH else EXACT_CARDS_PYTHON
    f = state.fields
    if f[PHASE] == GAME_OVER:
        return True
    return f[AGE] == 3 and f[PRESENT].bit_count() <= max_cards


#: What a game-ending move means for the player who makes it, by its value for that player.
ENDINGS = {1.0: "win", 0.0: "loss", 0.5: "shared"}


def ending_moves(state: State) -> dict[Move, float]:
    """The moves at decision ``state`` that end the game at once (military or science supremacy,
    or the last card of Age III), each with its exact value for the player who makes it: 1 (wins
    now), 0 (loses now) or 1/2 (a shared victory). A move that ends the game needs no search, so
    every analysis says so at once (issue 64).

    >>> from duel import new_game
    >>> ending_moves(new_game())  # the setup: chance, no decision
    {}
    """
    if state.is_terminal() or state.is_chance():
        return {}
    mover = state.to_move
    out: dict[Move, float] = {}
    for move in state.legal_moves():
        after = state.apply(move, check=False)
        if after.is_terminal():
            v = terminal_value(after)
            out[Move(move)] = v if mover == 0 else 1.0 - v
    return out


def decided_analysis(state: State, top: int = 3, seed: int = 0) -> AnalysisInfo | None:
    """The analysis of a decision whose value needs no search: a move wins at once, or every
    legal move ends the game. Its moves are the game-ending ones, best first (their values
    exact, ``ends_game`` set), ``exact`` is True and ``extra["engine"]`` is ``"rules"``. None
    when the position needs a search (the game-ending moves, if any, all lose or share).
    """
    start = time.perf_counter()
    ending = ending_moves(state)
    if not ending:
        return None
    if max(ending.values()) < 1.0 and len(ending) < len(state.legal_moves()):
        return None
    ranked = sorted(ending.items(), key=lambda mv: -mv[1])  # stable: ties in legal-move order
    moves = tuple(MoveInfo(m, v, (m,), "exact", ENDINGS[v]) for m, v in ranked[: max(1, top)])
    best = moves[0].value
    value_a = best if state.to_move == 0 else 1.0 - best
    return AnalysisInfo(
        PovValue(value_a, state.to_move),
        moves[0].pv,
        1,
        len(ending),
        max(time.perf_counter() - start, 1e-9),
        True,
        False,
        None,
        moves,
        seed=seed,
        extra={"engine": "rules", "finished": True, "ends_game": True},
    )


def mark_ending_moves(info: AnalysisInfo, state: State) -> AnalysisInfo:
    """``info`` with each listed move that ends the game given its exact value and
    ``ends_game`` (a search's value of such a move may be an estimate, e.g. 0.5% for a loss)."""
    ending = ending_moves(state)
    if not ending or not info.moves:
        return info
    moves = tuple(
        replace(m, value=ending[m.move], bound="exact", ends_game=ENDINGS[ending[m.move]])
        if m.move in ending
        else m
        for m in info.moves
    )
    return replace(info, moves=moves)


# --- the public result types -----------------------------------------------------------------
#: The largest node or iteration budget a user may ask for: far beyond any search that ends in
#: hours (the largest exact solves take a few hundred million nodes), and within the compiled
#: searches' 64-bit counters.
MAX_NODES = 10_000_000_000
#: The deepest search a user may ask for, in plies (a whole game has fewer).
MAX_DEPTH = 500


@dataclass(frozen=True)
class Limit:
    """When to stop searching, as in python-chess: any of time (seconds), nodes, depth (plies).

    With only ``nodes`` (and/or ``depth``) the search is deterministic."""

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None


@dataclass(frozen=True)
class PovValue:
    """A value with its point of view. ``a`` is P(A wins) + P(shared)/2; ``turn`` is the player
    to move at the analysed position; ``margin`` (exact solves only) the expected point margin
    A minus B."""

    a: float
    turn: int
    margin: float | None = None

    def pov(self, player: int) -> float:
        """The value for ``player`` (0 = A, 1 = B)."""
        return self.a if player == 0 else 1.0 - self.a

    @property
    def relative(self) -> float:
        """The value for the player to move."""
        return self.pov(self.turn)

    @property
    def b(self) -> float:
        return 1.0 - self.a

    def margin_pov(self, player: int) -> float | None:
        if self.margin is None:
            return None
        return self.margin if player == 0 else -self.margin


@dataclass(frozen=True)
class MoveInfo:
    """One root move with its value for the player to move and its principal variation."""

    move: Move
    value: float | None  # None: a move the search did not look at ("unsearched")
    pv: tuple[Move, ...]
    bound: str = "exact"  # "exact", "upper" (at most this), "lower", "unsearched"
    #: The move ends the game at once: "win", "loss" or "shared" for the player to move (its
    #: value is then exactly 1, 0 or 1/2); None otherwise. See :func:`ending_moves`.
    ends_game: str | None = None

    def to_dict(self) -> dict:
        d = {
            "move": str(self.move),
            "value": self.value,
            "bound": self.bound,
            "pv": [str(m) for m in self.pv],
        }
        if self.ends_game is not None:
            d["ends_game"] = self.ends_game
        return d


@dataclass(frozen=True)
class AnalysisInfo:
    """The result of an analysis (one per completed iteration while it runs)."""

    value: PovValue
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    time: float
    exact: bool
    sampled: bool
    samples: int | None
    moves: tuple[MoveInfo, ...] = ()
    complete: bool = True
    seed: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0

    @property
    def best_move(self) -> Move | None:
        return self.moves[0].move if self.moves else None

    @property
    def multipv(self) -> tuple[MoveInfo, ...]:
        return self.moves

    def __getitem__(self, key: str):
        """python-chess style access: info["score"], info["pv"], info["depth"], ..."""
        return self.to_dict(raw=True)[key]

    def to_dict(self, raw: bool = False) -> dict:
        d = {
            "value": self.value.relative,
            "value_a": self.value.a,
            "pov": "to move",
            "turn": "AB"[self.value.turn],
            "margin_a": self.value.margin,
            "score": self.value,
            "pv": self.pv if raw else [str(m) for m in self.pv],
            "depth": self.depth,
            "nodes": self.nodes,
            "nps": self.nps,
            "time": round(self.time, 4),
            "exact": self.exact,
            "sampled": self.sampled,
            "samples": self.samples,
            "seed": self.seed,
            "backend": self.extra.get("backend"),
            "moves": list(self.moves) if raw else [m.to_dict() for m in self.moves],
        }
        if not raw:
            del d["score"]
        return d


class SearchAborted(Exception):
    """Raised inside the search when the limit is reached."""


# --- the searcher ------------------------------------------------------------------------------
_STATIC_ORDER: dict[int, float] = {}


def _static_score(move: int) -> float:
    """Cheap a-priori interest of a move (ordering only)."""
    score = _STATIC_ORDER.get(move)
    if score is None:
        kind = move >> 16
        card = CARDS[move & 0xFF] if kind in (Kind.BUILD, Kind.MAUSOLEUM) else None
        if card is not None:
            score = card.points + 2 * card.shields + (3 if card.science else 0) + card.coins / 3
            score += 3 if card.color == "purple" else 0
        elif kind == Kind.WONDER:
            w = WONDERS[(move >> 8) & 0xFF]
            score = w.points + 3 * w.shields + (2 if w.extra_turn else 0) + 1
        elif kind == Kind.DISCARD:
            score = -1.0
        else:
            score = 0.0
        _STATIC_ORDER[move] = score
    return score


class Searcher:
    """One search: its transposition table, counters and settings.

    ``chance_width``: chance nodes with more outcomes are sampled (``None``: never).
    ``chance_samples``: outcomes drawn at a sampled chance node.
    ``memory``: the budget in bytes for everything the search keeps (default
    :data:`DEFAULT_MEMORY`). It sets how many positions the tables hold (:data:`ENTRY_BYTES`
    each, measured). A full transposition table keeps its most valuable quarter-less part: exact
    entries, entries of the current iteration and deep entries first (see :meth:`_make_room`);
    the evaluation and chance caches drop their oldest half.
    ``value_fn``: the evaluation at the horizon and for move ordering, a function of a state
    returning P(A wins) + P(shared)/2 (default :func:`evaluate`; :func:`duel.solvers.value.value` is
    the learned one).
    """

    def __init__(
        self,
        *,
        seed: int = 0,
        chance_width: int | None = 6,
        chance_samples: int = 3,
        memory: int = DEFAULT_MEMORY,
        value_fn: Callable[[State], float] | None = None,
    ) -> None:
        self.seed = seed
        # The horizon evaluation: the hand-made evaluate() (the search-v1 baseline) unless told.
        self.value_fn = value_fn if value_fn is not None else evaluate
        self.chance_width = chance_width
        self.chance_samples = chance_samples
        self.memory = memory
        self.tt: dict[State, list] = {}
        entries = max(1000, memory // ENTRY_BYTES)
        self.tt_limit = entries * 7 // 10
        self.eval_limit = entries * 2 // 10
        self.chance_limit = entries // 10
        self.generation = 0  # one per iteration: entries of older iterations are replaced first
        self.replacements = 0  # times a full table made room
        self.eval_cache: dict[State, float] = {}
        self.chance_cache: dict[State, list[tuple[int, float]]] = {}
        self.nodes = 0
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.min_depth = INF_DEPTH  # lowest remaining depth at which a terminal was reached
        self.checkpoint = 1024  # node count at which limits and progress are next checked
        self.on_progress: Callable[[int], None] | None = None
        self.cut_count = 0  # heuristic values used (depth cut-offs, depth-limited TT entries)
        self.sampled_count = 0

    # -- helpers ----------------------------------------------------------------------------
    def _eval(self, state: State) -> float:
        v = self.eval_cache.get(state)
        if v is None:
            v = self.value_fn(state)
            if len(self.eval_cache) >= self.eval_limit:
                _drop_oldest_half(self.eval_cache)
            self.eval_cache[state] = v
        return v

    def _outcomes(
        self, state: State
    ) -> tuple[bool, list[tuple[tuple[Move, ...], float, State | None]]]:
        """Chance outcomes, most probable first, as (sampled, [(moves, probability, child)]).

        Exact: one outcome per chance move (``child`` is None: apply ``moves[0]``). Sampled (more
        than ``chance_width`` outcomes): ``chance_samples`` draws, each following the chance
        nodes that come next (an Age's opening deal is one draw of the whole deal) to the next
        decision; ``child`` is the state reached and the probability the draw frequency.
        """
        got = self.chance_cache.get(state)
        if got is not None:
            return got
        weights, total = state.chance_weights()
        if self.chance_width is not None and len(weights) > self.chance_width:
            rng = random.Random(hash((self.seed, hash(state))))
            drawn: dict[State, list] = {}
            n = self.chance_samples
            for _ in range(n):
                path = []
                child = state
                while child.is_chance():
                    m = child.sample_chance(rng)
                    path.append(m)
                    child = child.apply(m, check=False)
                slot = drawn.get(child)
                if slot is None:
                    drawn[child] = [tuple(path), 1]
                else:
                    slot[1] += 1
            outcomes = [(path, c / n, child) for child, (path, c) in drawn.items()]
            outcomes.sort(key=lambda o: -o[1])
            got = (True, outcomes)
        else:
            ordered = sorted(weights, key=lambda mw: (-mw[1], mw[0]))
            got = (False, [((m,), w / total, None) for m, w in ordered])
        if len(self.chance_cache) >= self.chance_limit:
            _drop_oldest_half(self.chance_cache)
        self.chance_cache[state] = got
        return got

    def _tick(self) -> None:
        """Called when ``nodes`` reaches ``checkpoint``: limits, progress, next checkpoint."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchAborted
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchAborted
        if self.on_progress is not None:
            self.on_progress(self.nodes)
        step = 1024 if self.deadline is not None or self.on_progress is not None else 1 << 30
        self.checkpoint = self.nodes + step
        if self.node_limit is not None and self.node_limit < self.checkpoint:
            self.checkpoint = self.node_limit

    def set_limits(self, node_limit: int | None, deadline: float | None) -> None:
        self.node_limit = node_limit
        self.deadline = deadline
        self.checkpoint = self.nodes

    @staticmethod
    def _static_order(moves, first, maximise):
        """Children in search order without generating them: table move, then a priori."""
        if len(moves) > 1:
            moves = sorted(moves, key=_static_score, reverse=True)
        if first is not None and moves[0] != first and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return [(0.0, m, None) for m in moves]

    def _ordered(self, state: State, moves: list[Move], first: int | None, maximise: bool):
        """Children in search order: the table move, then by heuristic value."""
        children = []
        ev = self._eval
        for m in moves:
            child = state.apply(m, check=False)
            key = ev(child) + 0.001 * _static_score(m) * (1 if maximise else -1)
            if m == first:
                key = 2.0 if maximise else -2.0
            children.append((key, m, child))
        children.sort(key=lambda kmc: kmc[0], reverse=maximise)
        return children

    # -- the recursive search (values are P(A wins) + shared/2) --------------------------------
    def search(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes >= self.checkpoint:
            self._tick()
        f = state.fields
        phase = f[PHASE]
        if phase == GAME_OVER:
            if depth < self.min_depth:
                self.min_depth = depth
            w = f[WINNER]
            return 1.0 if w == 0 else 0.0 if w == 1 else 0.5
        if depth <= 0:
            self.cut_count += 1
            return self._eval(state)
        entry = self.tt.get(state)
        best_move = None
        if entry is not None:
            e_depth, lo, hi, best_move, _ = entry
            if e_depth >= depth:
                if lo >= beta or hi <= alpha or lo == hi:
                    if e_depth < INF_DEPTH:
                        self.cut_count += 1
                    return lo if lo >= beta or lo == hi else hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        if depth >= INF_DEPTH // 2 and beta - alpha < MIN_WINDOW:
            mid = 0.5 * (alpha + beta)
            alpha, beta = mid - 0.5 * MIN_WINDOW, mid + 0.5 * MIN_WINDOW
        cuts_before = self.cut_count
        alpha0, beta0 = alpha, beta
        if phase in CHANCE_PHASES:
            value = self._chance(state, depth, alpha, beta)
            move = None
        elif depth == 1:
            value, move = self._frontier(state, f[TO_MOVE] == 0, alpha, beta)
        else:
            value, move = self._decision(state, depth, alpha, beta, best_move, f[TO_MOVE] == 0)
        stored_depth = depth if self.cut_count != cuts_before else INF_DEPTH
        if entry is not None and entry[0] == stored_depth:
            lo, hi = entry[1], entry[2]
        else:
            lo, hi = 0.0, 1.0
        if value <= alpha0:
            hi = min(hi, value) if entry is not None and entry[0] == stored_depth else value
        elif value >= beta0:
            lo = max(lo, value) if entry is not None and entry[0] == stored_depth else value
        else:
            lo = hi = value
        if lo > hi:  # inconsistent float noise: trust the new result
            lo = hi = value
        if len(self.tt) >= self.tt_limit:
            self._make_room()
        self.tt[state] = [
            stored_depth,
            lo,
            hi,
            move if move is not None else best_move,
            self.generation,
        ]
        return value

    def _make_room(self) -> None:
        """Replace the least valuable quarter of a full table (not clear-when-full).

        Value order: entries that hold to the end of the game (exact, ``INF_DEPTH``), then those
        of the current iteration, then the deepest. Sorting is O(n log n) once per n/4 inserts.
        """
        self.replacements += 1
        gen = self.generation
        keep = sorted(
            self.tt.items(), key=lambda kv: (kv[1][0] == INF_DEPTH, kv[1][4] == gen, kv[1][0])
        )[len(self.tt) // 4 :]
        self.tt = dict(keep)

    def _decision(self, state, depth, alpha, beta, first, maximise):
        moves = state.legal_moves()
        if (
            len(moves) > 1
            and depth >= 3
            and (depth < INF_DEPTH // 2 or state.fields[PRESENT].bit_count() >= 7)
        ):
            order = self._ordered(state, moves, first, maximise)
        else:
            order = self._static_order(moves, first, maximise)
        best_move = None
        search = self.search
        if maximise:
            best = -1.0
            for _, m, child in order:
                if child is None:
                    child = state.apply(m, check=False)
                v = search(child, depth - 1, alpha, beta)
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        else:
            best = 2.0
            for _, m, child in order:
                if child is None:
                    child = state.apply(m, check=False)
                v = search(child, depth - 1, alpha, beta)
                if v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        return best, best_move

    def _frontier(self, state, maximise, alpha, beta):
        """A decision node one ply above the horizon: its children are evaluated in place."""
        best_move = None
        best = -1.0 if maximise else 2.0
        self.cut_count += 1
        count = 0
        value_fn = None if self.value_fn is evaluate else self.value_fn
        for m in state.legal_moves():
            count += 1
            child = state.apply(m, check=False)
            cf = child.fields
            if cf[PHASE] == GAME_OVER:
                w = cf[WINNER]
                v = 1.0 if w == 0 else 0.0 if w == 1 else 0.5
            elif value_fn is not None:  # leaves are rarely met twice, so no cache
                v = value_fn(child)
            else:  # evaluate() inlined
                x = _margin(cf) / _TEMPERATURE[cf[AGE]]
                v = 1.0 / (1.0 + math.exp(-x if x > -30.0 else 30.0))
            if maximise:
                if v > best:
                    best, best_move = v, m
                    if v >= beta:
                        break
            elif v < best:
                best, best_move = v, m
                if v <= alpha:
                    break
        self.nodes += count
        if self.nodes >= self.checkpoint:
            self._tick()
        return best, best_move

    def _chance(self, state, depth, alpha, beta):
        """Star1: expectation with window-derived bounds (values lie in [0, 1])."""
        sampled, outcomes = self._outcomes(state)
        if sampled:
            self.sampled_count += 1
        acc = 0.0
        rest = 1.0
        search = self.search
        for path, p, child in outcomes:
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            a_i = (alpha - acc - rest) / p  # child values must exceed this to keep hope
            b_i = (beta - acc) / p
            if child is None:
                child = state.apply(path[0], check=False)
            v = search(child, depth, a_i if a_i > 0.0 else 0.0, b_i if b_i < 1.0 else 1.0)
            acc += p * v
            if v <= a_i:
                return acc + rest  # an upper bound, <= alpha
            if v >= b_i:
                return acc  # a lower bound, >= beta
        return acc

    # -- principal variation ------------------------------------------------------------------
    def _pv_entry(self, state: State) -> list | None:
        """The table entry the principal variation follows at ``state`` (None: stop there)."""
        return self.tt.get(state)

    def principal_variation(self, state: State, limit: int = 40) -> list[Move]:
        """Table moves from ``state``; at chance nodes the most probable outcome."""
        pv: list[Move] = []
        seen = set()
        while len(pv) < limit and not state.is_terminal() and state not in seen:
            seen.add(state)
            if state.is_chance():
                path, _, child = self._outcomes(state)[1][0]
                pv.extend(path)
                state = child if child is not None else state.apply(path[0], check=False)
                continue
            entry = self._pv_entry(state)
            if entry is None or entry[3] is None:
                break
            pv.append(Move(entry[3]))
            state = state.apply(entry[3], check=False)
        return pv

    # -- expected margin under the solver's policy ------------------------------------------
    def policy_margin(self, state: State, node_budget: int) -> float | None:
        """Expected final margin (A minus B) when both sides play the solved moves (exact mode)."""
        stop = self.nodes + node_budget
        memo: dict[State, float] = {}

        def walk(s: State) -> float:
            got = memo.get(s)
            if got is not None:
                return got
            if self.nodes > stop:
                raise SearchAborted
            f = s.fields
            if f[PHASE] == GAME_OVER:
                r = float(total_points(f, 0) - total_points(f, 1))
            elif s.is_chance():
                r = sum(
                    p * walk(child if child is not None else s.apply(path[0], check=False))
                    for path, p, child in self._outcomes(s)[1]
                )
            else:
                self.search(s, INF_DEPTH, 0.0, 1.0)  # exact value and move (mostly from the table)
                r = walk(s.apply(self.tt[s][3], check=False))
            memo[s] = r
            return r

        saved = self.node_limit
        self.set_limits(None if saved is None else max(saved, stop + 1), self.deadline)
        try:
            return walk(state)
        except (SearchAborted, RecursionError):
            return None
        finally:
            self.set_limits(saved, self.deadline)


# --- the compiled searcher ----------------------------------------------------------------------
def _load_csearch():
    from duel import core

    if not core.AVAILABLE:
        return None
    try:
        from duel.solvers import _csearch
    except ImportError:
        return None
    return _csearch


_csearch = _load_csearch()
#: True when the compiled search (solvers/csrc) is built and the C core is not disabled.
C_SEARCH = _csearch is not None


class _CTable:
    """The compiled searcher's table seen as the dict of :class:`Searcher` (for the root)."""

    def __init__(self, owner: CSearcher) -> None:
        self._owner = owner

    def get(self, state: State, default=None):
        entry = self._owner._c.probe(self._owner.core(state))
        if entry is None:
            return default
        depth, lo, hi, move, gen = entry
        return [depth, lo, hi, None if move is None else Move(move), gen]

    def __getitem__(self, state: State) -> list:
        entry = self.get(state)
        if entry is None:
            raise KeyError(state)
        return entry

    def __setitem__(self, state: State, entry: list) -> None:
        depth, lo, hi, move = entry[:4]
        self._owner._c.store(self._owner.core(state), depth, lo, hi, move)

    def __contains__(self, state: State) -> bool:
        return self.get(state) is not None

    def __len__(self) -> int:
        return self._owner._c.stores


class CSearcher(Searcher):
    """:class:`Searcher` whose recursive search runs in C (``solvers/csrc``).

    The same algorithm node for node; the table is a fixed array sized from ``memory`` (32-byte
    entries in 64-byte buckets, see ``solvers/csrc/csearch/tt.h``), so the budget holds by
    construction. The root, iterative deepening, principal variation and expected margin stay in
    Python.

    ``threads`` > 1 runs each exact solve (depth >= ``INF_DEPTH // 2``) on that many threads
    sharing the table (Lazy SMP; the GIL is released meanwhile): the same exact value, found
    sooner on several cores; ``nodes`` is then the sum over the threads, and node counts vary
    from run to run. Depth-limited searches (hints) always run on the calling thread alone.

    >>> CSearcher(chance_width=None, threads=2).threads  # doctest: +SKIP
    2
    """

    _delegated = (
        "nodes",
        "cut_count",
        "sampled_count",
        "min_depth",
        "generation",
        "on_progress",
        "threads",
    )

    def __init__(
        self,
        *,
        seed: int = 0,
        chance_width: int | None = 6,
        chance_samples: int = 3,
        memory: int = DEFAULT_MEMORY,
        threads: int = 1,
    ) -> None:
        assert _csearch is not None
        from duel.core import CoreState

        self._core_state = CoreState
        # The Python side keeps only the root's caches: a small share of the budget.
        python_share = min(memory // 8, 16 * 1024 * 1024)
        object.__setattr__(
            self,
            "_c",
            _csearch.Searcher(
                seed=seed,
                chance_width=-1 if chance_width is None else chance_width,
                chance_samples=chance_samples,
                memory=max(4096, memory - python_share),
                threads=threads,
            ),
        )
        super().__init__(
            seed=seed,
            chance_width=chance_width,
            chance_samples=chance_samples,
            memory=max(python_share, 1000 * ENTRY_BYTES),
        )
        self.memory = memory  # the whole budget: C table plus the Python share

    def __setattr__(self, name: str, value) -> None:
        if name in self._delegated:
            setattr(self._c, name, value)
        elif name == "tt":
            pass  # the table lives in C
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        if name in CSearcher._delegated:
            return getattr(self._c, name)
        if name == "tt":
            return _CTable(self)
        raise AttributeError(name)

    def core(self, state: State):
        return self._core_state.from_state(state)

    def _eval(self, state: State) -> float:
        return self._c.evaluate(self.core(state))

    def set_limits(self, node_limit: int | None, deadline: float | None) -> None:
        super().set_limits(node_limit, deadline)
        seconds = -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())
        self._c.set_limits(-1 if node_limit is None else node_limit, seconds)

    def search(self, state: State, depth: int, alpha: float, beta: float) -> float:
        object.__setattr__(self, "_last_depth", depth)
        try:
            return self._c.search(self.core(state), min(depth, INF_DEPTH), alpha, beta)
        except _csearch.Aborted:
            raise SearchAborted from None

    def _pv_entry(self, state: State) -> list | None:
        """As the base class; after an exact solve, positions the C search solved without the
        table (its last cards) are solved again here to continue the line: a few nodes."""
        entry = self.tt.get(state)
        if entry is None and self.__dict__.get("_last_depth", 0) >= INF_DEPTH // 2:
            self.search(state, INF_DEPTH - 1, 0.0, 1.0)
            entry = self.tt.get(state)
        return entry


def new_searcher(
    *,
    seed: int = 0,
    chance_width: int | None = 6,
    chance_samples: int = 3,
    memory: int = DEFAULT_MEMORY,
    value_fn: Callable[[State], float] | None = None,
    threads: int = 1,
) -> Searcher:
    """The fastest searcher available: compiled where built (it evaluates with the hand-made
    :func:`evaluate`), else, or with another ``value_fn``, the Python reference.

    ``threads`` is the compiled searcher's threads per exact solve (see :class:`CSearcher`); the
    Python reference has one thread whatever it says."""
    if value_fn is not None and value_fn is not evaluate:
        return Searcher(
            seed=seed,
            chance_width=chance_width,
            chance_samples=chance_samples,
            memory=memory,
            value_fn=value_fn,
        )
    if C_SEARCH:
        return CSearcher(
            seed=seed,
            chance_width=chance_width,
            chance_samples=chance_samples,
            memory=memory,
            threads=threads,
        )
    return Searcher(
        seed=seed, chance_width=chance_width, chance_samples=chance_samples, memory=memory
    )


# --- the analysis API ---------------------------------------------------------------------------
class NoLegalMoveError(ValueError):
    """A decision node without any legal move: no game reaches one, so nothing to search."""


def _root_search(
    searcher: Searcher, state: State, depth: int, top: int
) -> tuple[float, list[MoveInfo]]:
    """Search every root move; exact values for the best ``top``, bounds for the rest."""
    player = state.to_move
    maximise = player == 0
    moves = state.legal_moves()
    if not moves:  # defensive: loaders reject such positions (duel.position.check_playable)
        raise NoLegalMoveError(f"no legal move at this decision ({state.describe()})")
    if top == 1 and depth >= INF_DEPTH // 2 and isinstance(searcher, CSearcher):
        # An exact solve wanting only the best move: the root itself is searched in C, with the
        # win/loss tests and the exact-solve ordering there (see solvers/csrc); its table entry
        # holds the best move.
        value_a = searcher.search(state, depth, 0.0, 1.0)
        best_move = searcher.tt[state][3]
        if best_move is not None:
            value = value_a if maximise else 1.0 - value_a
            child = state.apply(best_move, check=False)
            pv = (Move(best_move), *searcher.principal_variation(child))
            return value_a, [MoveInfo(Move(best_move), value, pv, "exact")]
    entry = searcher.tt.get(state)
    first = entry[3] if entry is not None else None
    if len(moves) > 1:
        order = searcher._ordered(state, moves, first, maximise)
    else:
        order = [(0.0, m, state.apply(m, check=False)) for m in moves]
    results: list[tuple[float, str, Move]] = []  # (value for the mover, bound, move)
    cuts_before = searcher.cut_count
    for _, m, child in order:
        exact_values = sorted((v for v, b, _ in results if b == "exact"), reverse=True)
        threshold = exact_values[top - 1] if len(exact_values) >= top else 0.0
        searcher.nodes += 1
        if maximise:
            v_a = searcher.search(child, depth - 1, threshold, 1.0)
            v = v_a
        else:
            v_a = searcher.search(child, depth - 1, 0.0, 1.0 - threshold)
            v = 1.0 - v_a
        bound = "exact" if v > threshold or threshold == 0.0 else "upper"
        results.append((v, bound, m))
    # stable: best value first, ties in search order
    ranked = sorted(range(len(results)), key=lambda i: -results[i][0] - (results[i][1] == "exact"))
    infos = []
    for i in ranked:
        v, bound, m = results[i]
        child = state.apply(m, check=False)
        infos.append(MoveInfo(m, v, tuple([m] + searcher.principal_variation(child)), bound))
    best = infos[0]
    value_a = best.value if maximise else 1.0 - best.value
    stored = depth if searcher.cut_count != cuts_before else INF_DEPTH
    searcher.tt[state] = [stored, value_a, value_a, best.move, searcher.generation]
    return value_a, infos


def analysis(
    state: State,
    limit: Limit | None = None,
    *,
    top: int = 1,
    multipv: int | None = None,
    exact: bool = False,
    seed: int = 0,
    chance_width: int | None = None,
    chance_samples: int | None = None,
    margin: bool = True,
    searcher: Searcher | None = None,
    on_progress: Callable[[int], None] | None = None,
    memory: int | None = None,
    value_fn: Callable[[State], float] | None = None,
    threads: int = 1,
) -> Iterator[AnalysisInfo]:
    """Iterative deepening, yielding an :class:`AnalysisInfo` after every completed depth.

    The last one yielded is the answer. ``exact=True`` deepens until no line is cut by the depth
    (the value is then exact unless chance was sampled, which ``sampled`` reports). Sampling:
    by default hints sample chance nodes with more than 6 outcomes (3 draws); exact mode
    enumerates every outcome when :func:`exact_feasible` and otherwise samples 4 draws at chance
    nodes with more than 4 outcomes. ``value_fn`` replaces the horizon evaluation (see
    :class:`Searcher`). ``threads`` > 1 runs the exact pass of an exact solve on that many
    threads with the compiled search (:class:`CSearcher`; a given ``searcher`` keeps its own);
    the value is the same.
    """
    limit = limit or Limit()
    top = max(1, multipv if multipv is not None else top)
    compiled = isinstance(searcher, CSearcher) if searcher is not None else C_SEARCH
    if chance_width is None and chance_samples is None:
        if exact:
            cards = EXACT_CARDS_C if compiled else EXACT_CARDS_PYTHON
            feasible = exact_feasible(state, cards)
            chance_width, chance_samples = (None, 4) if feasible else (4, 4)
        else:
            chance_width, chance_samples = 6, 3
    else:
        chance_width = chance_width if chance_width is not None else 6
        chance_samples = chance_samples or 3
    s = searcher or new_searcher(
        seed=seed,
        chance_width=chance_width,
        chance_samples=chance_samples,
        memory=memory or DEFAULT_MEMORY,
        # An exact solve needs no evaluation but to order moves: the compiled path is faster
        # with the hand-made one than the Python path with any other.
        value_fn=None if exact else value_fn,
        threads=threads,
    )
    backend = {"backend": "c" if isinstance(s, CSearcher) else "python", "memory": s.memory}
    if exact and searcher is None and isinstance(s, CSearcher) and not exact_feasible(state, 10):
        s._c.huge_pages()  # a long solve ahead: a faster table, at the price of touching it all
    start = time.perf_counter()
    s.nodes = 0
    s.on_progress = on_progress
    s.set_limits(limit.nodes, start + limit.time if limit.time is not None else None)
    max_depth = limit.depth if limit.depth is not None else (INF_DEPTH - 1 if exact else 200)
    turn = state.to_move
    if state.is_terminal():
        v = terminal_value(state)
        yield AnalysisInfo(
            PovValue(v, turn, float(total_points(state.fields, 0) - total_points(state.fields, 1))),
            (),
            0,
            0,
            0.0,
            True,
            False,
            None,
            seed=seed,
            extra=dict(backend),
        )
        return
    depth = 0
    yielded = False
    last: AnalysisInfo | None = None
    # Exact solves of small endgames: one shallow pass for a first answer, then straight to the
    # end of the game (shallow iterations' heuristic bounds would not help the exact pass).
    jump = exact and chance_width is None and limit.depth is None
    while depth < max_depth:
        depth = INF_DEPTH - 1 if jump and depth == 1 else depth + 1
        s.generation += 1
        cuts_before = s.cut_count
        sampled_before = s.sampled_count
        s.min_depth = INF_DEPTH
        # The search allocates many acyclic objects (states, table entries): the cyclic garbage
        # collector would only re-scan them, so it is paused during each iteration.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            if state.is_chance():
                value_a = s.search(state, depth, 0.0, 1.0)
                moves: list[MoveInfo] = []
                pv = tuple(s.principal_variation(state))
            else:
                value_a, moves = _root_search(s, state, depth, top)
                pv = moves[0].pv
        except (SearchAborted, RecursionError):
            if gc_was_enabled:
                gc.enable()
            if last is not None:
                # The deepest completed iteration, with the work done since counted in.
                elapsed = max(time.perf_counter() - start, 1e-9)
                extra = dict(last.extra, interrupted_depth=depth)
                yield replace(last, nodes=s.nodes, time=elapsed, extra=extra)
            break
        finally:  # an interrupt (KeyboardInterrupt) must not leave the process without it
            if gc_was_enabled:
                gc.enable()
        finished = s.cut_count == cuts_before
        sampled = s.sampled_count != sampled_before
        elapsed = time.perf_counter() - start
        m = None
        if finished and margin:
            m = s.policy_margin(state, node_budget=max(20_000, s.nodes // 2))
        reported_depth = depth
        if depth >= INF_DEPTH // 2:  # to the end: the longest line searched, in plies
            reported_depth = depth - s.min_depth if s.min_depth < INF_DEPTH else len(pv)
        info = AnalysisInfo(
            PovValue(value_a, turn, m),
            pv,
            reported_depth,
            s.nodes,
            max(elapsed, 1e-9),
            finished and not sampled,
            sampled,
            chance_samples if sampled else None,
            tuple(moves[:top]) if moves else (),
            complete=True,
            seed=seed,
            extra={"finished": finished, **backend},
        )
        yielded = True
        last = info
        yield info
        if finished:
            break  # every line reached the end of the game: deeper search changes nothing
        no_limit = limit.depth is None and limit.nodes is None and limit.time is None
        if not exact and no_limit and depth >= 4:
            break  # no limit at all: a quick default
    if not yielded:
        # Not even depth 1 finished: fall back on the evaluation of each move.
        elapsed = max(time.perf_counter() - start, 1e-9)
        moves = []
        if not state.is_chance():
            mover = state.to_move
            scored = []
            for mv in state.legal_moves():
                v = s.value_fn(state.apply(mv, check=False))
                scored.append((v if mover == 0 else 1.0 - v, mv))
            scored.sort(key=lambda vm: -vm[0])
            moves = [MoveInfo(mv, v, (mv,), "estimate") for v, mv in scored[:top]]
        v_a = s.value_fn(state)
        yield AnalysisInfo(
            PovValue(v_a, turn, None),
            moves[0].pv if moves else (),
            0,
            s.nodes,
            elapsed,
            False,
            False,
            None,
            tuple(moves),
            complete=False,
            seed=seed,
            extra=dict(backend),
        )


def analyse(
    state: State,
    limit: Limit | None = None,
    *,
    top: int = 1,
    multipv: int | None = None,
    exact: bool = False,
    seed: int = 0,
    on_info: Callable[[AnalysisInfo], None] | None = None,
    **options,
) -> AnalysisInfo:
    """Analyse ``state`` within ``limit``; the result of the deepest completed iteration.

    ``on_info`` is called with each intermediate result (python-chess's ``analysis()`` stream is
    :func:`analysis`). ``top``/``multipv`` asks for that many best moves with exact values."""
    last = None
    for info in analysis(state, limit, top=top, multipv=multipv, exact=exact, seed=seed, **options):
        last = info
        if on_info is not None:
            on_info(info)
    assert last is not None
    return last


# --- reference: plain expectimax without pruning (for tests) -------------------------------------
def expectimax(state: State, memo: dict | None = None) -> float:
    """Exact value by brute force: no pruning, no ordering, every chance outcome. Tiny endgames."""
    memo = {} if memo is None else memo
    got = memo.get(state)
    if got is not None:
        return got
    if state.is_terminal():
        v = terminal_value(state)
    elif state.is_chance():
        weights, total = state.chance_weights()
        v = sum(w * expectimax(state.apply(m, check=False), memo) for m, w in weights) / total
    else:
        values = [expectimax(state.apply(m, check=False), memo) for m in state.legal_moves()]
        v = max(values) if state.to_move == 0 else min(values)
    memo[state] = v
    return v
