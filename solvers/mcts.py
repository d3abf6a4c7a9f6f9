"""Monte Carlo tree search for 7 Wonders Duel over the public-information state.

The reference implementation of the ``mcts`` player (a later step ports the loop to C, so the
algorithm is a handful of small module-level functions over plain lists).

Information sets
----------------
The engine's :class:`~duel.state.State` holds public information only: a face-down card is not in
the state but decided by a chance node with its exact probability. The search reads nothing else,
so its move and value depend on public information only.

Tree (open loop)
----------------
A tree node stands for a sequence of **decisions** from the root, not for a state: each descent
starts from the root state and, whenever the game reaches a chance node (a card turned face up,
The Great Library's draw, the Age's opening deal), samples one outcome with its exact probability
(``State.sample_chance``) and carries on in the same node. So every descent sees a freshly sampled
deal, and statistics are shared across deals instead of being split over dozens of reveal outcomes
per card taken. The state reached at a node differs between descents, and so do its legal moves:

* an **arm** (edge) is keyed by the move itself (card, action and wonder; a card lies in one slot
  only, so this is MCTS-BR's "card and slot" key), or with ``key="slot"`` by (action, pyramid slot,
  wonder), which also shares statistics between the different cards a reveal can put in a slot;
* each arm counts its **availability** (descents in which it was legal), which stands for the
  parent's visit count in the selection formula (as in information-set MCTS).

Selection is PUCT, ``q + c * P * sqrt(avail) / (1 + n)``, with ``q`` the arm's mean value for
the player to move and, for arms never tried, the node's mean value minus ``fpu`` ("first play
urgency"), and ``P`` the prior mixed with a uniform share ``prior_mix`` (so that no arm starves).
The prior (:func:`prior_weight`) is by default one ply of look-ahead: the odds of the
mover's value after the move ("value"); "static" is a softmax of the move-ordering score of
:mod:`duel.solvers.search` (cheaper, weaker); "uniform" gives every legal arm the same prior.

Values and evaluation
---------------------
Every value is **P(A wins) + P(shared) / 2** in ``[0, 1]``; each arm stores the sum of the values
backed up through it and the player to move reads it from their own side (``1 - q`` for B), so
the mover can differ between descents of one node (a science pair grants a token choice) without
harm. Terminal positions are exact. A new leaf is judged by a **rollout** of ``rollout`` decision
plies (default 4; ``None``: to the end of the game; ``"age"``: to the end of the Age) with the
heuristic policy of MCTS-BR (a wonder with probability 1/2, a build 0.35, a discard 0.15, among
those legal; other decisions uniformly), chance sampled exactly, then ``value_fn`` (default:
:func:`default_value_fn`: the learned value when ``duel.solvers.value`` provides one, else
:func:`duel.solvers.search.evaluate`).

Move choice and limits
----------------------
The move with the most visits (ties: the better mean). A search stops after ``iterations``
descents (reproducible for a seed) or at a deadline (the clock is read after each descent, and a
descent is short, so the player stays within its time). :class:`Tree` keeps the tree between the
moves of a game: it finds the decisions played since the last search among its arms
(:func:`locate`) and reuses the subtree below them.

>>> import random
>>> from duel import new_game
>>> state = new_game()
>>> rng = random.Random(1)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> result = search(state, iterations=200, seed=1)
>>> result.best_move in state.legal_moves(), 0.0 <= result.value_a <= 1.0, result.iterations
(True, True, 200)
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from duel.moves import GUILD_SLOT_MASKS, Kind, Move
from duel.solvers.search import _static_score as move_score
from duel.solvers.search import evaluate, terminal_value
from duel.state import (
    AGE,
    DEAL_GUILDS,
    GAME_OVER,
    GUILD_SLOTS,
    PHASE,
    PLAY,
    PRESENT,
    PYRAMID,
    REVEAL_CARDS,
    TO_MOVE,
    UNSEEN,
    State,
)

__all__ = [
    "Config",
    "MctsResult",
    "Tree",
    "default_value_fn",
    "rollout_value",
    "search",
]

ValueFn = Callable[[State], float]

# --- node layout: a node is a plain list (no per-node objects; mirrors a C struct) ------------
KEYS, MOVES, VISITS, VALUE_A, AVAIL, WEIGHT, CHILDREN, INDEX, NODE_N, NODE_W = range(10)
# A memo of the last state seen at the node (compared by identity): its legal arms, moves and
# prior total, and the states after each arm's move. It hits at the root on every descent and
# below it whenever no chance intervened, saving move generation and apply().
MEMO_STATE, MEMO_ARMS, MEMO_MOVES, MEMO_WEIGHT, MEMO_AFTER = range(10, 15)

_BUILD, _DISCARD, _WONDER = int(Kind.BUILD), int(Kind.DISCARD), int(Kind.WONDER)
_SLOT_KEY = 1 << 24  # slot keys live above every move code


def new_node() -> list:
    """An empty node: parallel arm lists, the key -> arm index, and the node's own totals."""
    return [[], [], [], [], [], [], [], {}, 0, 0.0, None, None, None, 0.0, None]


@dataclass(frozen=True)
class Config:
    """The knobs of the search (see the module docstring).

    ``c``: exploration constant of PUCT. ``fpu``: value subtracted from the node's mean for arms
    never tried. ``prior``: "static", "value" or "uniform" and ``prior_temperature`` its
    temperature (see :func:`prior_weight`). ``rollout``: decision plies of the rollout (0: the value
    function at the leaf at once; ``None``: to the end of the game; "age": to the end of the
    Age). ``key``: "move" or "slot" (how arms are keyed). ``init_visits``: with the "value"
    prior, each new arm starts with this many virtual visits of its one-ply value.
    ``prior_mix``: share of a uniform prior mixed into the prior (a floor for every arm).
    """

    c: float = 1.0
    fpu: float = 0.1
    prior: str = "value"
    prior_temperature: float = 1.0
    rollout: int | str | None = 4
    key: str = "move"
    init_visits: float = 0.0
    prior_mix: float = 0.03

    def __post_init__(self) -> None:
        if self.prior not in ("value", "static", "uniform"):
            raise ValueError(f"prior must be value, static or uniform, not {self.prior!r}")
        if self.key not in ("move", "slot"):
            raise ValueError(f"key must be move or slot, not {self.key!r}")
        if not (self.rollout is None or self.rollout == "age" or isinstance(self.rollout, int)):
            raise ValueError(f"rollout must be a number of plies, 'age' or None: {self.rollout!r}")
        if self.c < 0 or self.prior_temperature <= 0 or self.init_visits < 0:
            raise ValueError("c and init_visits must be >= 0, prior_temperature > 0")
        if not 0.0 <= self.prior_mix <= 1.0:
            raise ValueError(f"prior_mix must be in [0, 1], not {self.prior_mix}")


@dataclass(frozen=True)
class MoveStat:
    """One root arm: its move, visits and mean value for the player to move at the root."""

    move: Move
    visits: int
    value: float


@dataclass(frozen=True)
class MctsResult:
    """The answer of one search: the move, P(A wins) after it, and statistics."""

    best_move: Move | None
    value_a: float
    iterations: int
    seconds: float
    moves: tuple[MoveStat, ...] = ()
    reused: int = 0  # visits the root already had from earlier searches
    extra: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Iterations per second."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


# --- value function ---------------------------------------------------------------------------
_VALUE_NAMES = ("value_fn", "win_probability", "value", "predict", "evaluate")


def default_value_fn() -> ValueFn:
    """The learned value of ``duel.solvers.value`` when it exists, else the hand-made evaluation.

    ``duel.solvers.value`` may expose the function as any of ``value_fn``, ``win_probability``,
    ``value``, ``predict`` or ``evaluate`` (a callable ``State -> P(A wins)``).
    """
    try:
        module = importlib.import_module("duel.solvers.value")
    except ImportError:
        return evaluate
    for name in _VALUE_NAMES:
        fn = getattr(module, name, None)
        if callable(fn) and not isinstance(fn, type):
            return fn
    return evaluate


# --- rollouts ---------------------------------------------------------------------------------
def rollout_policy(state: State, rng: random.Random) -> Move:
    """MCTS-BR's heuristic: a wonder (1/2), a build (0.35) or a discard (0.15), uniformly among
    the legal moves of that kind (falling back to the other kinds); other decisions uniformly."""
    moves = state.legal_moves()
    if state.fields[PHASE] != PLAY:
        return moves[int(rng.random() * len(moves))]
    r = rng.random()
    want = _WONDER if r < 0.5 else _BUILD if r < 0.85 else _DISCARD
    picked = [m for m in moves if m >> 16 == want]
    if not picked and want == _WONDER:
        picked = [m for m in moves if m >> 16 == _BUILD]
    if not picked:
        picked = [m for m in moves if m >> 16 == _DISCARD] or moves
    return picked[int(rng.random() * len(picked))]


def rollout_value(
    state: State, rng: random.Random, plies: int | str | None, value_fn: ValueFn
) -> float:
    """P(A wins) of ``state`` after a rollout of ``plies`` decisions (see :class:`Config`)."""
    f = state.fields
    age = f[AGE]
    left = 1 << 30 if plies is None or plies == "age" else int(plies)
    stop_at_age = plies == "age"
    while f[PHASE] != GAME_OVER:
        if state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
        else:
            if left <= 0 or (stop_at_age and f[AGE] != age):
                return value_fn(state)
            left -= 1
            state = state.apply(rollout_policy(state, rng), check=False)
        f = state.fields
    return terminal_value(state)


# --- the tree -----------------------------------------------------------------------------------
def arm_key(state: State, move: int, key: str) -> int:
    """The arm key of ``move``: the move itself, or (action, slot, wonder) in slot mode."""
    if key == "move" or move >> 16 > _WONDER:
        return move
    slot = state.fields[PYRAMID].index(move & 0xFF)
    return _SLOT_KEY | (move & ~0xFF) | slot


def prior_weight(state: State, move: int, config: Config, value_fn: ValueFn) -> tuple[float, float]:
    """Unnormalised prior of an arm (normalised over the arms legal at each visit), and the
    value P(A wins) after the move when the prior computed it (else -1).

    "static": ``exp(score / prior_temperature)`` of the move-ordering score; "value": the odds
    ``v / (1 - v)`` of the mover's value after the move, to the power ``1 / prior_temperature``
    (one ply of look-ahead, like the ``greedy`` player); "uniform": 1.
    """
    if config.prior == "uniform":
        return 1.0, -1.0
    if config.prior == "value":
        v_a = value_fn(state.apply(move, check=False))
        v = 1.0 - v_a if state.fields[TO_MOVE] == 1 else v_a
        v = min(max(v, 1e-6), 1.0 - 1e-6)
        return (v / (1.0 - v)) ** (1.0 / config.prior_temperature), v_a
    return math.exp(min(40.0, move_score(move) / config.prior_temperature)), -1.0


def add_arm(node: list, key: int, move: int, prior: tuple[float, float], init: float) -> int:
    """Append an arm with ``prior`` (weight, value or -1) to ``node``; its index. With a value
    and ``init`` > 0 the arm starts with ``init`` virtual visits of that value."""
    weight, v_a = prior
    i = len(node[KEYS])
    node[KEYS].append(key)
    node[MOVES].append(move)
    if init > 0 and v_a >= 0:
        node[VISITS].append(init)
        node[VALUE_A].append(init * v_a)
    else:
        node[VISITS].append(0)
        node[VALUE_A].append(0.0)
    node[AVAIL].append(0)
    node[WEIGHT].append(weight)
    node[CHILDREN].append(None)
    node[INDEX][key] = i
    return i


def select(node: list, state: State, config: Config, value_fn: ValueFn) -> tuple[int, Move]:
    """PUCT over the arms legal in ``state``; counts their availability. (arm index, move)."""
    visits, value_a, avail, weight = node[VISITS], node[VALUE_A], node[AVAIL], node[WEIGHT]
    if node[MEMO_STATE] is state:
        arms, moves, total_weight = node[MEMO_ARMS], node[MEMO_MOVES], node[MEMO_WEIGHT]
        for i in arms:
            avail[i] += 1
    else:
        index = node[INDEX]
        key = config.key
        moves = state.legal_moves()
        arms = []
        total_weight = 0.0
        for m in moves:
            k = m if key == "move" else arm_key(state, m, key)
            i = index.get(k)
            if i is None:
                prior = prior_weight(state, m, config, value_fn)
                i = add_arm(node, k, m, prior, config.init_visits)
            avail[i] += 1
            total_weight += weight[i]
            arms.append(i)
        node[MEMO_STATE], node[MEMO_ARMS], node[MEMO_MOVES] = state, arms, moves
        node[MEMO_WEIGHT], node[MEMO_AFTER] = total_weight, {}
    mover_b = state.fields[TO_MOVE] == 1
    n_node = node[NODE_N]
    parent_q = node[NODE_W] / n_node if n_node else 0.5
    if mover_b:
        parent_q = 1.0 - parent_q
    fpu = parent_q - config.fpu
    # P = (1 - mix) * weight / total + mix / arms: a floor, so that no legal arm is starved by a
    # near-zero prior (a one-ply value can call the only winning move hopeless)
    mix = config.prior_mix
    c_weight = config.c * (1.0 - mix) / total_weight
    c_floor = config.c * mix / len(arms)
    best_score = -1e300
    best = 0
    for j, i in enumerate(arms):
        n = visits[i]
        if n:
            q = value_a[i] / n
            if mover_b:
                q = 1.0 - q
        else:
            q = fpu
        s = q + (c_weight * weight[i] + c_floor) * math.sqrt(avail[i]) / (1 + n)
        if s > best_score:
            best_score, best = s, j
    return arms[best], moves[best]


def descend(
    root: list,
    state: State,
    rng: random.Random,
    config: Config,
    value_fn: ValueFn,
) -> None:
    """One iteration: select down the tree, expand one node, evaluate it, back the value up."""
    path = []
    node = root
    while True:
        i, move = select(node, state, config, value_fn)
        path.append((node, i))
        after = node[MEMO_AFTER]  # select() left the memo on this very state
        nxt = after.get(i)
        if nxt is None:
            nxt = after[i] = state.apply(move, check=False)
        state = nxt
        while state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
        if state.fields[PHASE] == GAME_OVER:
            value = terminal_value(state)
            break
        child = node[CHILDREN][i]
        if child is None:
            node[CHILDREN][i] = new_node()
            value = rollout_value(state, rng, config.rollout, value_fn)
            break
        node = child
    backup(path, value)


def backup(path: list, value: float) -> None:
    """Add ``value`` (P(A wins)) to every arm and node on the path."""
    for node, i in path:
        node[VISITS][i] += 1
        node[VALUE_A][i] += value
        node[NODE_N] += 1
        node[NODE_W] += value


def root_result(
    root: list, state: State, config_key: str, iterations: int, seconds: float, reused: int
) -> MctsResult:
    """The most visited legal arm at the root (ties: the better mean) and the statistics."""
    mover_b = state.to_move == 1
    stats = []
    index = root[INDEX]
    key = config_key
    for m in state.legal_moves():
        i = index.get(arm_key(state, m, key))
        n = root[VISITS][i] if i is not None else 0
        q = root[VALUE_A][i] / n if n else 0.5
        stats.append(MoveStat(Move(m), n, 1.0 - q if mover_b else q))
    stats.sort(key=lambda s: (-s.visits, -s.value))
    best = stats[0] if stats else None
    value_a = 0.5 if best is None else 1.0 - best.value if mover_b else best.value
    return MctsResult(
        best.move if best else None, value_a, iterations, seconds, tuple(stats), reused
    )


LOCATE_BUDGET = 500  # states tried when looking for the new root
GC_RESERVE = 0.05  # share of a timed search kept for the garbage collection at its end


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Run a search with the cyclic garbage collector paused, then collect its garbage.

    A tree is acyclic lists, so the collector would only re-scan it; but the allocations still
    count, and a collection of the whole heap (100 ms and more in a large process) would fall on
    whoever allocates next. So the heap that existed before the search is frozen (the collector
    ignores it), the collector is paused, and at the end one collection scans only what the search
    allocated, inside the search's own time; then everything is as before.
    """
    was_enabled = gc.isenabled()
    freeze = gc.get_freeze_count() == 0  # a caller's own frozen objects are left alone
    if freeze:
        gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.collect()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


def locate(node: list, state: State, target: State, key: str, budget: list[int]) -> list | None:
    """The node reached from ``node`` (at ``state``) by the decisions that led to ``target``.

    Depth-first over the arms of the tree that have a child node; chance outcomes are those that
    agree with ``target`` (a card revealed in a slot still shows there, or is no longer unseen).
    Cards taken from the pyramid never come back within an Age, which prunes the search.
    """
    if state == target:
        return node
    f, t = state.fields, target.fields
    if budget[0] <= 0 or f[PHASE] == GAME_OVER:
        return None
    budget[0] -= 1
    same_age = f[AGE] == t[AGE]
    if same_age and t[PRESENT] & ~f[PRESENT]:
        return None  # target still has a card that is gone here
    if state.is_chance():
        for m in consistent_outcomes(state, target, same_age):
            found = locate(node, state.apply(m, check=False), target, key, budget)
            if found is not None:
                return found
        return None
    index, children = node[INDEX], node[CHILDREN]
    for m in state.legal_moves():
        i = index.get(m if key == "move" else arm_key(state, m, key))
        if i is None or children[i] is None:
            continue
        found = locate(children[i], state.apply(m, check=False), target, key, budget)
        if found is not None:
            return found
    return None


def consistent_outcomes(state: State, target: State, same_age: bool) -> list[Move]:
    """The chance outcomes at ``state`` that can lead to ``target``."""
    t = target.fields
    phase = state.fields[PHASE]
    if phase == DEAL_GUILDS and same_age:  # the guild backs are public: one deal agrees
        return [
            m
            for m, _ in state.chance_weights()[0]
            if GUILD_SLOT_MASKS[m & 0xFFFF] == t[GUILD_SLOTS]
        ]
    outcomes = [m for m, _ in state.chance_weights()[0]]
    if not same_age or phase != REVEAL_CARDS:
        return outcomes
    shown = t[PYRAMID][Move(outcomes[0]).slot]
    if shown >= 0:
        return [m for m in outcomes if m & 0xFF == shown]
    return [m for m in outcomes if not t[UNSEEN] >> (m & 0xFF) & 1]


class Tree:
    """A search tree kept between the moves of one game (tree reuse).

    ``search(state, ...)`` grows the tree from ``state``. When the game has gone on from the
    last root, :meth:`follow` (called by ``search``) finds the decisions played in between among
    the tree's arms and keeps the subtree below them; otherwise the tree starts afresh.
    """

    def __init__(
        self, config: Config | None = None, value_fn: ValueFn | None = None, seed: int = 0
    ) -> None:
        self.config = config or Config()
        self.value_fn = value_fn or default_value_fn()
        self.rng = random.Random(seed)
        self.root = new_node()
        self.root_state: State | None = None

    def reset(self) -> None:
        self.root = new_node()
        self.root_state = None

    def follow(self, state: State) -> bool:
        """Move the root down to ``state`` if the game went there from the root state along
        arms of the tree (:func:`locate`); else start a fresh tree. True if the tree was kept."""
        if self.root_state is not None:
            if self.root_state == state:
                return True
            node = locate(self.root, self.root_state, state, self.config.key, [LOCATE_BUDGET])
            if node is not None:
                self.root, self.root_state = node, state
                return True
        self.reset()
        return False

    def search(
        self,
        state: State,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> MctsResult:
        """Grow the tree from ``state`` for ``iterations`` descents or ``seconds``; the answer."""
        if state.is_chance() or state.is_terminal():
            raise ValueError(f"no decision to take here ({state.describe()})")
        start = time.perf_counter()  # finding the new root counts in the time too
        self.follow(state)
        self.root_state = state
        root = self.root
        reused = root[NODE_N]
        located = time.perf_counter()
        # The collection at the end of the search (see collector_paused) is part of the move's
        # time: a small share of the budget is kept for it.
        deadline = start + (1.0 - GC_RESERVE) * seconds if seconds is not None else None
        limit = iterations if iterations is not None else 1 << 62
        if iterations is None and seconds is None:
            limit = 1000
        config, value_fn, rng = self.config, self.value_fn, self.rng
        done = 0
        with collector_paused():
            while done < limit:
                descend(root, state, rng, config, value_fn)
                done += 1
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            searched = time.perf_counter()
        result = root_result(root, state, config.key, done, time.perf_counter() - start, reused)
        result.extra.update(locate_s=located - start, collect_s=time.perf_counter() - searched)
        return result


def search(
    state: State,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    config: Config | None = None,
    value_fn: ValueFn | None = None,
) -> MctsResult:
    """One search from a fresh tree (see :class:`Tree` to keep the tree between moves)."""
    tree = Tree(config, value_fn, seed)
    return tree.search(state, iterations=iterations, seconds=seconds)
