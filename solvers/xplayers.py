"""Players and hints for games with expansions (:mod:`duel.expansions`): ``random``, ``greedy``
and ``mcts``, each reading only its own player's view.

The compiled search of the base game (``cmcts``) does not know the expansions' rules; these
players work on :class:`~duel.expansions.XState` through its public API alone, so they play
Pantheon (and later Agora) as soon as the engine does.

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
XLEVELS = ("random", "greedy", "mcts")


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


def make_xplayer(level: str, *, seed: int = 0, time_per_move: float = 1.0):
    """A player of expansion games: ``random``, ``greedy`` or ``mcts`` (``mcts:2s`` or
    ``mcts:500`` iterations override the time)."""
    name, _, budget = level.partition(":")
    if name == "random":
        return XRandomPlayer(seed)
    if name == "greedy":
        return XGreedyPlayer(seed)
    if name == "mcts":
        if budget.endswith("s"):
            return XMctsPlayer(seed, seconds=float(budget[:-1]))
        if budget:
            return XMctsPlayer(seed, iterations=int(budget))
        return XMctsPlayer(seed, seconds=time_per_move)
    raise ValueError(f"unknown level {level!r} for expansion games: expected {', '.join(XLEVELS)}")


def play_xgame(players: tuple, state: XState, rng: random.Random) -> XState:
    """Play to the end: chance drawn with ``rng`` (the dealer), each decision by its player."""
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            move = players[state.to_move].choose(state)
        state = state.apply(move, check=False)
    return state
