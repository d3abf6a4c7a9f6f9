"""Players and hints for games with expansions (:mod:`duel.expansions`): ``random``, ``greedy``,
``mcts`` and ``cmcts``, each reading only its own player's view.

``cmcts`` (the default, :data:`DEFAULT_XLEVEL`) is the compiled expansion search
(:class:`duel.solvers.xcmcts.XCMctsPlayer`, over the compiled core ``duel._xcore``): the
strongest expansion player, and the engine of the expansion hints
(:mod:`duel.solvers.xhint`) and review (:mod:`duel.solvers.xreview`). ``mcts`` below is the
pure-Python open-loop MCTS over :class:`~duel.expansions.XState` through its public API alone:
kept unchanged as a fixed baseline level (the strength matches of
``benchmarks/xstrength.py`` measure ``cmcts`` against it), and the fallback when the compiled
modules are not built.

**Fair play.** A player is given the game's referee state by the game controller, but looks only
at ``state.view(player)``: the opponent's face-down Divinity and the card they put back on a
deck are chance outcomes there, each card the player cannot rule out equally likely
(``CHANCE_MODEL``). So the search's choice depends on the player's information only (a test
changes the opponent's hidden cards and checks that the move does not change).

**Search.** ``mcts`` is an open-loop Monte Carlo tree search over the view, as the base game's
``mcts`` (``solvers/mcts.py``): a node is a sequence of decisions from the root, every descent
samples the chance outcomes afresh with their exact probabilities, arms are keyed by the move and
count their availability, selection is UCB1 over availability (an arm never tried first), a new
leaf is judged by a short playout (a wonder, a build or an activation preferred to a discard)
then :func:`evaluate`, and the move played is the most visited.

>>> import random
>>> from duel.expansions import new_xgame
>>> state, rng = new_xgame(("pantheon",)), random.Random(2)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> move = XMctsPlayer(seed=1, iterations=30).choose(state)
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from duel.expansions import XMove, XState

#: How a playout weighs the kinds of move (a discard is rarely the best move).
PLAYOUT_WEIGHTS = {"wonder": 4.0, "build": 3.0, "activate": 2.0, "discard": 0.6}
#: Score points per unit of the logistic's argument in :func:`evaluate`.
POINTS_SCALE = 8.0
PLAYOUT_PLIES = 12
XLEVELS = ("random", "greedy", "mcts", "cmcts")
#: The largest iteration budget a level may ask for (the compiled search's counters are 64-bit;
#: this is far beyond any search that ends in a day).
MAX_ITERATIONS = 10_000_000_000
#: The largest time budget, in seconds (a day), as the base game's levels.
MAX_SECONDS = 86_400.0


def evaluate(state: XState) -> float:
    """P(A wins) estimated from the position: the score sheets' difference, the Conflict pawn's
    distance to a capital and the science symbols each side has."""
    if state.is_terminal():
        return 1.0 if state.winner == 0 else 0.0 if state.winner == 1 else 0.5
    a, b = state.score(0).total, state.score(1).total
    margin = (a - b) / POINTS_SCALE
    pawn = state.pawn
    if abs(pawn) >= 6:
        margin += 0.8 * (1 if pawn > 0 else -1)
    elif abs(pawn) >= 3:
        margin += 0.25 * (1 if pawn > 0 else -1)
    science = len(state.cities[0].science) - len(state.cities[1].science)
    margin += 0.15 * science
    for player, sign in ((0, 1), (1, -1)):
        if len(state.cities[player].science) >= 5:
            margin += 0.6 * sign
    return 1.0 / (1.0 + math.exp(-margin))


def _mover_value(state: XState, value_a: float, player: int) -> float:
    return value_a if player == 0 else 1.0 - value_a


def playout_move(state: XState, rng: random.Random) -> XMove:
    """A move of the playout policy: a chance outcome with its probability, else a legal move
    drawn with :data:`PLAYOUT_WEIGHTS`."""
    if state.is_chance():
        return state.sample_chance(rng)
    moves = state.legal_moves()
    weights = [PLAYOUT_WEIGHTS.get(m.kind, 1.0) for m in moves]
    return rng.choices(moves, weights)[0]


class XRandomPlayer:
    """A uniformly random legal move."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: XState) -> XMove:
        return state.view(state.to_move).random_move(self.rng)


class XGreedyPlayer:
    """The move whose resulting position :func:`evaluate` likes best for the mover (chance
    outcomes after the move are averaged over a few samples)."""

    def __init__(self, seed: int = 0, samples: int = 4) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, state: XState) -> XMove:
        view = state.view(state.to_move)
        player = view.to_move
        best, best_value = None, -1.0
        for move in view.legal_moves():
            after = view.apply(move, check=False)
            value = 0.0
            for _ in range(self.samples if after.is_chance() else 1):
                s = after
                while s.is_chance():
                    s = s.apply(s.sample_chance(self.rng), check=False)
                value += evaluate(s)
            value = _mover_value(view, value / (self.samples if after.is_chance() else 1), player)
            if value > best_value + 1e-12:
                best, best_value = move, value
        assert best is not None, "a decision node has a legal move"
        return best


@dataclass
class _Arm:
    visits: int = 0
    avail: int = 0
    value_a: float = 0.0
    child: dict = field(default_factory=dict)


@dataclass
class XSearchResult:
    """The root's arms (move, visits, mean value for the mover) and the iterations run."""

    moves: list[tuple[XMove, int, float]]
    iterations: int
    seconds: float

    @property
    def best_move(self) -> XMove:
        return max(self.moves, key=lambda m: (m[1], m[2]))[0]


def search(
    state: XState,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    c: float = 0.7,
    plies: int = PLAYOUT_PLIES,
) -> XSearchResult:
    """Open-loop MCTS from ``state.view(mover)`` (see the module docstring)."""
    root = state.view(state.to_move) if state.observer is None else state
    if root.is_chance() or root.is_terminal():
        raise ValueError(f"a search starts at a decision ({root.describe()})")
    rng = random.Random(seed)
    tree: dict = {}
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    done = 0
    while (iterations is None or done < iterations) and (
        deadline is None or time.perf_counter() < deadline
    ):
        _descend(root, tree, rng, c, plies)
        done += 1
    player = root.to_move
    legal = set(root.legal_moves())
    moves = [
        (move, arm.visits, _mover_value(root, arm.value_a / max(1, arm.visits), player))
        for move, arm in tree.items()
        if move in legal
    ]
    return XSearchResult(moves, done, time.perf_counter() - start)


def _descend(root: XState, tree: dict, rng: random.Random, c: float, plies: int) -> None:
    state, node, path = root, tree, []
    while True:
        while state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
        if state.is_terminal():
            value = evaluate(state)
            break
        moves = state.legal_moves()
        player = state.to_move
        best, best_score = None, -1.0
        for move in moves:
            arm = node.get(move)
            if arm is None:
                arm = node[move] = _Arm()
            arm.avail += 1
            if arm.visits == 0:
                score = 1e9 + rng.random()
            else:
                q = _mover_value(state, arm.value_a / arm.visits, player)
                score = q + c * math.sqrt(math.log(arm.avail) / arm.visits)
            if score > best_score:
                best, best_score = move, score
        arm = node[best]
        path.append(arm)
        state = state.apply(best, check=False)
        if arm.visits == 0:
            value = _playout(state, rng, plies)
            break
        node = arm.child
    for arm in path:
        arm.visits += 1
        arm.value_a += value


def _playout(state: XState, rng: random.Random, plies: int) -> float:
    decisions = 0
    while not state.is_terminal() and decisions < plies:
        if not state.is_chance():
            decisions += 1
        state = state.apply(playout_move(state, rng), check=False)
    while state.is_chance():
        state = state.apply(state.sample_chance(rng), check=False)
    return evaluate(state)


class XMctsPlayer:
    """:func:`search` for ``seconds`` (or ``iterations``) per decision; the most visited move."""

    def __init__(
        self, seed: int = 0, seconds: float | None = 1.0, iterations: int | None = None
    ) -> None:
        self.seed = seed
        self.seconds = None if iterations is not None else seconds
        self.iterations = iterations
        self.moves_played = 0

    def choose(self, state: XState) -> XMove:
        self.moves_played += 1
        moves = state.view(state.to_move).legal_moves()
        if len(moves) == 1:
            return moves[0]
        result = search(
            state,
            iterations=self.iterations,
            seconds=self.seconds,
            seed=self.seed * 100_003 + self.moves_played,
        )
        return result.best_move


def compiled_available() -> bool:
    """Whether the compiled expansion search (``cmcts``) is built."""
    from duel.solvers import xcmcts

    return xcmcts.AVAILABLE


def default_xlevel() -> str:
    """The default AI level of expansion games: ``cmcts`` where it is built, else ``mcts``."""
    return "cmcts" if compiled_available() else "mcts"


#: The default AI level of expansion games (see :func:`default_xlevel`).
DEFAULT_XLEVEL = default_xlevel()


class XCompiledPlayer:
    """The ``cmcts`` level: :class:`duel.solvers.xcmcts.XCMctsPlayer` searching the mover's own
    view for ``seconds`` (or ``iterations``) a decision, ``knobs`` passed on to it.

    :meth:`analyse` gives ``[(move, visits, value)]``, most visited first, ``value`` the mover's
    P(win) + P(shared)/2 in [0, 1]; a decision with one legal move is played without a search.
    """

    def __init__(
        self,
        seed: int = 0,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        **knobs: float,
    ) -> None:
        from duel.solvers.xcmcts import XCMctsPlayer

        if iterations is None and seconds is None:
            raise ValueError("cmcts needs iterations or seconds")
        self.seed = seed
        self.seconds = None if iterations is not None else seconds
        self.iterations = iterations
        self.knobs = dict(knobs)
        self.engine = XCMctsPlayer(
            iterations=iterations, seconds=self.seconds, seed=seed, **self.knobs
        )

    def analyse(self, state: XState) -> list[tuple[XMove, int, float]]:
        """The root's arms for the player to move, searched on their view (see the class)."""
        return list(self.engine.analyse(state))

    def choose(self, state: XState) -> XMove:
        moves = state.view(state.to_move).legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self.engine.choose(state)


def _knobs(text: str, level: str) -> dict[str, float]:
    """``key=value,key=value`` after a ``cmcts`` budget (the compiled player's knobs are
    numbers; it refuses an unknown one)."""
    knobs: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, equals, value = item.partition("=")
        try:
            if not equals or not key.isidentifier():
                raise ValueError
            knobs[key] = float(value)
        except ValueError:
            raise ValueError(
                f"bad cmcts option {item!r} in {level!r}: expected key=number"
            ) from None
    return knobs


def parse_budget(level: str, budget: str) -> tuple[float | None, int | None]:
    """(seconds, iterations) of a level's budget: ``2s`` or ``500`` (``(None, None)`` if none);
    a clear ValueError for anything else or out of range."""
    if not budget:
        return None, None
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if 0 < seconds <= MAX_SECONDS:  # NaN fails both
                return seconds, None
        else:
            count = int(budget)
            if 0 < count <= MAX_ITERATIONS:
                return None, count
    except ValueError:
        pass
    raise ValueError(
        f"bad budget {budget!r} in {level!r}: use :N (iterations, 1 to {MAX_ITERATIONS:,}) or "
        f":Ss (seconds, more than 0 and at most {MAX_SECONDS:,.0f})"
    )


def make_xplayer(level: str, *, seed: int = 0, time_per_move: float = 1.0):
    """A player of expansion games: ``random``, ``greedy``, ``mcts`` or ``cmcts`` (``mcts:2s`` or
    ``mcts:500`` iterations override the time; ``cmcts`` also takes the compiled player's knobs
    after its budget, ``cmcts:1s:exploration=0.8``, as the base game's levels do).

    >>> make_xplayer("mcts:0.5s").seconds
    0.5
    """
    name, _, rest = level.partition(":")
    budget, _, options = rest.partition(":")
    if name not in XLEVELS:
        raise ValueError(
            f"unknown level {level!r} for expansion games: expected {', '.join(XLEVELS)}"
        )
    if options and name != "cmcts":
        raise ValueError(f"only cmcts takes options (got {level!r})")
    if name in ("random", "greedy"):
        if rest:
            raise ValueError(f"the {name} level takes no budget (got {level!r})")
        return XRandomPlayer(seed) if name == "random" else XGreedyPlayer(seed)
    seconds, iterations = parse_budget(level, budget)
    if iterations is None and seconds is None:
        seconds = time_per_move
    if name == "mcts":
        if iterations is not None:
            return XMctsPlayer(seed, iterations=iterations)
        return XMctsPlayer(seed, seconds=seconds)
    if not compiled_available():
        raise ValueError(
            "cmcts: the compiled expansion search is not built (pip install -e .); "
            "mcts plays without it"
        )
    return XCompiledPlayer(seed, seconds=seconds, iterations=iterations, **_knobs(options, level))


def play_xgame(players: tuple, state: XState, rng: random.Random) -> XState:
    """Play to the end: chance drawn with ``rng`` (the dealer), each decision by its player."""
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            move = players[state.to_move].choose(state)
        state = state.apply(move, check=False)
    return state
