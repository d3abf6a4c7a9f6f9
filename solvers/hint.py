"""Hints from the strongest player: the compiled MCTS (``cmcts``), with calibrated win chances.

:func:`hint_analysis` answers "what should I play here, and how likely am I to win?" with the
same result type as :func:`duel.solvers.search.analyse` (an
:class:`~duel.solvers.search.AnalysisInfo`), so every program shows it the same way. In this
order (docs/hints.md):

0. **A move that ends the game** is said at once, exact, without a search
   (:func:`~duel.solvers.search.decided_analysis`: "wins now", "loses now").
1. **Exact**: in an Age III endgame whose exact solve will likely finish in the hint's budget
   (the measured solve times by cards left), the exact expectiminimax of
   :mod:`duel.solvers.search` solves the position; if it finishes, the values are exact
   (perfect play by both sides, every deal enumerated) and ``info.exact`` is True. They are not
   calibrated: they are the game's value, not an estimate. With the default budget it runs after
   the estimate below, which is streamed meanwhile (``on_estimate``); with a clock it runs first.
2. **cmcts** (where the compiled core is built): ``trees`` independent searches of the compiled
   open-loop MCTS (:class:`duel.solvers._cmcts.Tree`, configured by
   :class:`duel.solvers.cmcts_player.CMctsConfig`, the ``cmcts`` level's settings), each with
   its own seed and an equal share of the budget. Moves are ranked as the ``cmcts`` player picks
   its move (:func:`duel.solvers.cmcts_player.rank_moves`, over the visits summed over the trees); a
   move's raw value is its mean playout result over all those visits (P(win) + P(shared)/2 for
   the player to move). The raw value of an MCTS root is not a probability one can trust (it
   averages playouts by a noisy policy), so it is passed through the **calibration map**
   (``data/models/hint_calibration.json``, fitted by ``python -m duel.solvers.hint_calibration``):
   per stage (draft, Age I, II, III) ``p = sigmoid(a * logit(raw) + b)``. The uncertainty shown
   is the range of the calibrated values over the independent trees: how much the answer
   depends on the search's own luck (it is not an error bar against the truth; the calibration
   table in ``docs/strength.md`` is that). The line is the most-visited path of the tree with
   the most visits for that move (:meth:`duel.solvers._cmcts.Tree.principal_line`).
3. **search** (the pure path, ``DUEL_PURE=1`` or no C compiler): today's expectiminimax hint,
   :func:`duel.solvers.search.analyse`. ``info.extra["engine"]`` says which path answered.

Public information only: a :class:`~duel.state.State` holds no face-down or removed card, the
trees are seeded from ``seed`` alone and never from the global generator, so with an iteration
budget the same public position gets the same hint.

>>> import random
>>> from duel import new_game
>>> state, rng = new_game(), random.Random(0)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> info = hint_analysis(state, iterations=600, top=2, seed=1)
>>> info.best_move in state.legal_moves(), 0.0 < info.moves[0].value < 1.0
(True, True)
>>> info.extra["engine"] in ("cmcts", "search")
True
"""

from __future__ import annotations

import bisect
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from duel import data
from duel.moves import Move
from duel.solvers.cmcts_player import (
    EXACT_TIME_SHARE,
    FRESH_TREE_ITERATIONS_PER_SECOND,
    exact_cards_for_nodes,
    exact_cards_for_time,
    tree_memory,
)
from duel.solvers.features import stage
from duel.solvers.search import (
    AnalysisInfo,
    Limit,
    MoveInfo,
    PovValue,
    analyse,
    decided_analysis,
    default_threads,
    exact_feasible,
    mark_ending_moves,
)
from duel.state import State

__all__ = [
    "CALIBRATION_PATH",
    "DEFAULT_EXACT_SECONDS",
    "DEFAULT_ITERATIONS",
    "MAP_ITERATIONS",
    "TREES",
    "Calibration",
    "cmcts_available",
    "default_calibration",
    "HintPlayer",
    "hint_analysis",
    "release_exact_table",
]

#: Where the shipped calibration map lives inside the ``duel.data`` package.
CALIBRATION_PATH = "models/hint_calibration.json"
#: Independent trees per hint (their spread is the uncertainty shown).
TREES = 3
#: The default budget of ``duel hint``'s estimate (iterations over all trees; reproducible: the
#: same position gets the same hint): 16,000 a tree, where ``cmcts``'s own doubling ladder
#: stops paying (docs/journal/longer-thinks.md: 16,000 against 8,000 scored 0.540, 32,000
#: against 16,000 0.480). At 6,000 (2,000 a tree) the default hint as a player scored 63 of 100
#: against MCTS-BR at 1 s where ``cmcts`` at 0.2 s (one tree of about 25,000) scored 82
#: (docs/hints.md, "The default hint as a player"). About 0.5 s on an idle core.
DEFAULT_ITERATIONS = 48_000
#: The budget the shipped map's per-stage part was fitted at (its ``meta["iterations"]``), and
#: the self-play budget of :mod:`duel.solvers.hint_calibration`; a larger search goes through
#: the map's budget layer (:meth:`Calibration.budget_params`), whose fitted rows (120,000,
#: 200,000, 900,000) bracket :data:`DEFAULT_ITERATIONS` with this one.
MAP_ITERATIONS = 6000
#: ``CMctsConfig`` settings whose default changed after they were added, with the value they
#: had when they were added: a map fitted before a setting existed was fitted with that value
#: (the others were added at the default they still have).
SETTINGS_BEFORE_THEY_EXISTED = {"pick": "visits", "prior_value": ""}
#: Raw values are clipped to this distance from 0 and 1 before the logit.
_CLIP = 0.005
STAGE_NAMES = ("draft", "Age I", "Age II", "Age III")


@dataclass(frozen=True)
class Calibration:
    """The monotone map from a raw MCTS root value to a win probability, per stage:
    ``sigmoid(a * logit(raw) + b)`` with ``(a, b) = params[stage]`` (``a > 0``: monotone).

    >>> Calibration(((2.0, 0.0),) * 4)(0.5, 1)
    0.5
    >>> round(Calibration(((2.0, 0.0),) * 4)(0.75, 1), 3)
    0.9
    """

    params: tuple[tuple[float, float], ...]
    meta: dict = field(default_factory=dict)
    #: then a pooled monotone correction: (x, y) knots, increasing in both, linear between them
    #: and towards (0, 0) and (1, 1); empty: none (the Platt map alone).
    knots: tuple[tuple[float, float], ...] = ()
    #: then, for a search larger than the map's own budget, a budget layer: ``(iterations, a, b)``
    #: rows, ``p' = sigmoid(a * logit(p) + b)``, fitted on positions hinted at that budget
    #: (a longer search gives sharper raw values); see :meth:`budget_params`.
    budgets: tuple[tuple[int, float, float], ...] = ()
    #: then a budget layer of one stage: ``(stage_index, iterations, a, b)`` rows, read as
    #: :attr:`budgets` are, for that stage alone (Age III's map on exact labels, fitted on
    #: values of the default budget, where the stage map of 6,000 iterations stays the identity).
    stage_budgets: tuple[tuple[int, int, float, float], ...] = ()

    def __call__(self, raw: float, stage_index: int, iterations: int | None = None) -> float:
        a, b = self.params[stage_index]
        p = self.correct(_sigmoid(a * _logit(raw) + b))
        if iterations is None:
            return p
        for a, b in (
            self.budget_params(iterations),
            self.stage_budget_params(stage_index, iterations),
        ):
            if (a, b) != (1.0, 0.0):
                p = _sigmoid(a * _logit(p) + b)
        return p

    def stage_budget_params(self, stage_index: int, iterations: int) -> tuple[float, float]:
        """The ``(a, b)`` of ``stage_index``'s own budget layer at ``iterations`` (the identity
        where the stage has none).

        >>> cal = Calibration(((1.0, 0.0),) * 4, {"iterations": 6000},
        ...                   stage_budgets=((3, 48000, 1.7, 0.05),))
        >>> cal.stage_budget_params(3, 6000), cal.stage_budget_params(3, 48000)
        ((1.0, 0.0), (1.7, 0.05))
        >>> cal.stage_budget_params(2, 48000)
        (1.0, 0.0)
        """
        rows = tuple((n, a, b) for s, n, a, b in self.stage_budgets if s == stage_index)
        return self.budget_params(iterations, rows)

    def budget_params(
        self, iterations: int, rows: tuple[tuple[int, float, float], ...] | None = None
    ) -> tuple[float, float]:
        """The budget layer's ``(a, b)`` for a search of ``iterations``: the identity up to the
        map's own budget, the fitted rows at theirs, linear in ``log(iterations)`` between them
        and the last row's beyond it. ``rows``: another layer's (default :attr:`budgets`).

        >>> layer = ((100000, 3.0, 0.2),)
        >>> cal = Calibration(((1.0, 0.0),) * 4, {"iterations": 1000}, budgets=layer)
        >>> cal.budget_params(500), cal.budget_params(100000), cal.budget_params(10**7)
        ((1.0, 0.0), (3.0, 0.2), (3.0, 0.2))
        >>> tuple(round(x, 3) for x in cal.budget_params(10000))
        (2.0, 0.1)
        """
        base = int(self.meta.get("iterations", MAP_ITERATIONS))
        rows = self.budgets if rows is None else rows
        points = [(base, 1.0, 0.0), *(row for row in sorted(rows) if row[0] > base)]
        if iterations <= base or len(points) == 1:
            return 1.0, 0.0
        for (n0, a0, b0), (n1, a1, b1) in zip(points, points[1:], strict=False):
            if iterations <= n1:
                t = math.log(iterations / n0) / math.log(n1 / n0)
                return a0 + t * (a1 - a0), b0 + t * (b1 - b0)
        return points[-1][1], points[-1][2]

    def correct(self, p: float) -> float:
        """The pooled correction of a per-stage Platt value ``p``.

        >>> Calibration(((1.0, 0.0),) * 4, knots=((0.4, 0.3), (0.6, 0.7))).correct(0.5)
        0.5
        >>> Calibration(((1.0, 0.0),) * 4, knots=((0.4, 0.3), (0.6, 0.7))).correct(0.2)
        0.15
        """
        if not self.knots:
            return p
        xs = (0.0, *(x for x, _ in self.knots), 1.0)
        ys = (0.0, *(y for _, y in self.knots), 1.0)
        i = max(1, min(bisect.bisect_left(xs, p), len(xs) - 1))
        x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
        return y0 if x1 <= x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)

    def to_json(self) -> dict:
        return {
            "format": "wonders-duel hint calibration v1",
            "model": (
                "p = 1 / (1 + exp(-(a * logit(raw) + b))), per stage, then the knots (pooled),"
                " then for a larger search the budget layer at its iterations (log-interpolated)"
            ),
            "stages": {
                name: {"a": round(a, 6), "b": round(b, 6)}
                for name, (a, b) in zip(STAGE_NAMES, self.params, strict=True)
            },
            "knots": [[round(x, 6), round(y, 6)] for x, y in self.knots],
            "budgets": [
                {"iterations": n, "a": round(a, 6), "b": round(b, 6)} for n, a, b in self.budgets
            ],
            "stage_budgets": {
                STAGE_NAMES[stage]: [
                    {"iterations": n, "a": round(a, 6), "b": round(b, 6)}
                    for s, n, a, b in self.stage_budgets
                    if s == stage
                ]
                for stage in sorted({row[0] for row in self.stage_budgets})
            },
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, obj: dict) -> Calibration:
        stages = obj["stages"]
        params = tuple((float(stages[n]["a"]), float(stages[n]["b"])) for n in STAGE_NAMES)
        if any(not a > 0 for a, _ in params):
            raise ValueError("a calibration map must be increasing (a > 0 in every stage)")
        knots = tuple((float(x), float(y)) for x, y in obj.get("knots", ()))
        points = ((0.0, 0.0), *knots, (1.0, 1.0))
        if any(x1 < x0 or y1 < y0 for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False)):
            raise ValueError("a calibration map must be increasing (knots in order, in 0..1)")
        rows = obj.get("budgets", ())
        budgets = tuple(sorted((int(r["iterations"]), float(r["a"]), float(r["b"])) for r in rows))
        stage_budgets = tuple(
            sorted(
                (STAGE_NAMES.index(name), int(r["iterations"]), float(r["a"]), float(r["b"]))
                for name, stage_rows in obj.get("stage_budgets", {}).items()
                for r in stage_rows
            )
        )
        if any(not a > 0 for _, a, _ in budgets) or any(not r[2] > 0 for r in stage_budgets):
            raise ValueError("a calibration map must be increasing (a > 0 at every budget)")
        return cls(params, obj.get("meta", {}), knots, budgets, stage_budgets)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def _logit(p: float) -> float:
    p = min(max(p, _CLIP), 1.0 - _CLIP)
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


_default: Calibration | None = None


def default_calibration() -> Calibration:
    """The shipped map (loaded once)."""
    global _default
    if _default is None:
        _default = Calibration.from_json(data.load(CALIBRATION_PATH))
    return _default


def cmcts_available() -> bool:
    """True where the compiled MCTS can run (the compiled core built, ``DUEL_PURE`` unset)."""
    from duel import core

    if not core.AVAILABLE:
        return False
    try:
        import duel.solvers._cmcts  # noqa: F401
    except ImportError:
        return False
    return True


def hint_stage(state: State) -> int:
    """0 for the setup and the draft, 1..3 for Ages I..III (the calibration's stages).

    >>> from duel import new_game
    >>> hint_stage(new_game())
    0
    """
    return stage(state.fields)[0]


#: An iteration budget's exact stage may search this many nodes per MCTS iteration (one
#: thread, reproducible): used when a caller gives ``iterations`` alone.
EXACT_NODES_PER_ITERATION = 500
#: ``duel hint``'s default: the estimate (:data:`DEFAULT_ITERATIONS`, reproducible, about half
#: a second) and, in Age III, the exact solve for up to this many seconds on every core. The
#: estimate is shown (streamed) first and Ctrl-C keeps it, so the time is what a player may
#: wait for the game's true value, not what every hint costs: most solves of 14 cards or fewer
#: end in a few seconds. 25 s because that is what nine in ten 14-card positions of strong play
#: need (29 of 32 measured at the quiet machine's rate; 8 s, the default until 2026-12-03,
#: reached 24 or 25 of 32; docs/hints.md, "The default time").
DEFAULT_EXACT_SECONDS = 25.0
#: Beyond the exact stage's reach in Age III, the default hint (and a timed one of a second or
#: more) still tries the exact solve on this many nodes, one thread, 64 MB (under half a second
#: on an idle core): a decided position is often proved at once by the solver's win/loss tests
#: (of the first six 16-card positions of strong play judged, two in 25 and 1.3M nodes, which
#: the estimate showed as 3.2% and 6.3% for a loss), and a node budget keeps it reproducible.
PROBE_NODES = 2_000_000
PROBE_MEMORY = 64 << 20


@dataclass(frozen=True)
class _ExactPlan:
    """How a hint's exact stage runs: a node limit on one thread (reproducible) or a time
    limit on ``threads``."""

    limit: Limit
    threads: int


def _exact_plan(
    state: State,
    iterations: int | None,
    seconds: float | None,
    exact_seconds: float | None,
    exact_cards: int | None,
    threads: int,
    exact_nodes: int | None = None,
    earlier: float = 0.0,
) -> _ExactPlan | None:
    """The exact stage to run first, or None where it would likely not finish in its budget
    (the measured solve times by cards left:
    :func:`~duel.solvers.cmcts_player.exact_cards_for_time`,
    :func:`~duel.solvers.cmcts_player.exact_cards_for_nodes`). ``earlier``: seconds the calls before
    this one spent on the same position (the kept table goes on from their work)."""
    if exact_nodes is not None:
        cards = exact_cards_for_nodes(exact_nodes) if exact_cards is None else exact_cards
        if not cards or not exact_feasible(state, cards):
            return None
        return _ExactPlan(Limit(nodes=exact_nodes), 1)
    if exact_seconds is not None:
        limit, think = Limit(time=exact_seconds), exact_seconds / EXACT_TIME_SHARE
    elif seconds is not None:
        limit, think = Limit(time=seconds), seconds + earlier
    else:
        nodes = EXACT_NODES_PER_ITERATION * (iterations or 0)
        cards = exact_cards_for_nodes(nodes) if exact_cards is None else exact_cards
        if not cards or not exact_feasible(state, cards):
            return None
        # A node budget keeps the hint reproducible (the node count of a threaded solve is not,
        # so it runs on one thread).
        return _ExactPlan(Limit(nodes=nodes), 1)
    cards = exact_cards_for_time(think, threads) if exact_cards is None else exact_cards
    if not cards or not exact_feasible(state, cards):
        return None
    return _ExactPlan(limit, threads)


class _KeptSearcher:
    """The exact stage's searcher, kept for the next call on the same position: the app's live
    analysis asks again with a larger budget while the player thinks, and each call goes on
    from the table the last one filled (every bound an interrupted exact solve stored holds)."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.searcher = None
        # one solve at a time on the kept table (the app may ask from a worker thread)
        self.lock = threading.Lock()
        # the position the last timed calls were about, and the seconds they were given in all
        self.asked_key: State | None = None
        self.asked = 0.0

    def ask(self, state: State, seconds: float) -> float:
        """Count a timed call of ``seconds`` on ``state``; the seconds the calls before it on the
        same position were given in all (0 for a new position)."""
        if self.asked_key != state:
            self.asked_key, self.asked = state, 0.0
        earlier, self.asked = self.asked, self.asked + seconds
        return earlier

    def get(self, state: State, threads: int, memory: int | None):
        key = (state, threads, memory)
        if self.key != key:
            self.searcher = None  # the old table's memory goes before the new one is taken
            self.searcher = _new_exact_searcher(state, threads, memory)
            self.key = key
        return self.searcher

    def release(self) -> None:
        with self.lock:
            self.key, self.searcher = None, None
            self.asked_key, self.asked = None, 0.0


_kept = _KeptSearcher()


def _new_exact_searcher(state: State, threads: int, memory: int | None, long: bool = True):
    """A searcher for an exact solve of ``state`` (every chance outcome enumerated); ``long``:
    the solve may be long (the table then on huge pages, touched whole)."""
    from duel.solvers.search import DEFAULT_MEMORY, CSearcher, new_searcher

    searcher = new_searcher(
        chance_width=None, chance_samples=4, memory=memory or DEFAULT_MEMORY, threads=threads
    )
    if long and isinstance(searcher, CSearcher) and not exact_feasible(state, 10):
        searcher._c.huge_pages()  # a long solve ahead, as analysis() does for its own
    return searcher


def release_exact_table() -> None:
    """Free the table the last hint's exact stage kept for a next call on its position."""
    _kept.release()


def _exact_stage(
    state: State, plan: _ExactPlan, top: int, seed: int, memory: int | None
) -> AnalysisInfo | None:
    """The exact values at ``state`` within ``plan``, or None if the solve did not finish:
    first the best move alone (the compiled root, with its win/loss tests: the cheapest solve),
    then, with what is left of the limit, the next ``top - 1`` moves' exact values on the same
    table. Where that second pass does not finish, the answer has the best move alone. A node
    budget gets a fresh table (the answer then depends on the budget alone); a clock, the kept
    one."""
    if plan.limit.time is None:
        searcher = _new_exact_searcher(state, 1, memory, long=plan.limit.nodes > PROBE_NODES)
        return _exact_passes(state, plan, top, seed, searcher)
    with _kept.lock:
        return _exact_passes(state, plan, top, seed, _kept.get(state, plan.threads, memory))


def _exact_passes(
    state: State, plan: _ExactPlan, top: int, seed: int, searcher
) -> AnalysisInfo | None:
    """:func:`_exact_stage`'s two passes on ``searcher``."""
    from dataclasses import replace

    start = time.perf_counter()
    options = {"exact": True, "seed": seed, "margin": False, "searcher": searcher}
    first = analyse(state, plan.limit, top=1, **options)
    if not (first.exact and first.moves):
        return None
    if top <= 1 or len(state.legal_moves()) == 1:
        return first
    if plan.limit.time is not None:
        left = plan.limit.time - (time.perf_counter() - start)
        if left <= 0.01:
            return first
        rest = Limit(time=left)
    else:
        rest = Limit(nodes=max(1, plan.limit.nodes - first.nodes))
    full = analyse(state, rest, top=top, **options)
    if full.exact and full.moves and abs(full.moves[0].value - first.moves[0].value) < 1e-9:
        return replace(full, nodes=first.nodes + full.nodes, time=time.perf_counter() - start)
    return replace(first, time=time.perf_counter() - start)


def hint_analysis(
    state: State,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    top: int = 3,
    seed: int = 0,
    trees: int = TREES,
    exact_cards: int | None = None,
    exact_seconds: float | None = None,
    exact_nodes: int | None = None,
    calibration: Calibration | None = None,
    calibrate: bool = True,
    memory: int | None = None,
    on_estimate: Callable[[AnalysisInfo], None] | None = None,
    threads: int | None = None,
) -> AnalysisInfo:
    """The best ``top`` moves at ``state`` (a decision) by the strongest available engine.

    In this order: a move that ends the game is said at once (``decided_analysis``: "wins now",
    exact, no search); else the estimate (the calibrated compiled MCTS, or the search on the pure
    path), passed to ``on_estimate`` as soon as it is ready; then, in an Age III endgame whose
    exact solve will likely finish in its budget, the exact solve, whose answer replaces the
    estimate when it finishes (``info.exact``; ``info.extra["estimate"]`` keeps the estimate's
    value of the best move).

    Budget: the default (neither ``iterations`` nor ``seconds``) is ``duel hint``'s:
    :data:`DEFAULT_ITERATIONS` for the estimate and up to ``exact_seconds``
    (:data:`DEFAULT_EXACT_SECONDS`) for the exact solve, on every core. ``iterations`` alone:
    reproducible, the exact stage gets a node budget on one thread (unless ``exact_seconds`` is
    given). ``exact_nodes``: the exact stage's budget in nodes on one thread instead (the
    default hint with a reproducible exact stage: tests and benchmarks on a loaded machine).
    ``seconds``: the thinking time in all, for the app's live analysis which calls again with
    growing budgets (its earlier answers are the estimate shown meanwhile): where the exact
    stage will likely finish it runs first, on every core, with
    :data:`~duel.solvers.cmcts_player.EXACT_TIME_SHARE` of the time, and answers at once when it
    finishes; the estimate gets the rest otherwise. Each call goes on from the exact table the
    last call on the same position filled, so the answer turns exact while the player thinks
    (:func:`release_exact_table` frees it). ``exact_cards``: try the exact solve with at most
    this many cards left (default: from the budget and the measured solve times; 0: never).
    ``calibrate=False`` reports the raw MCTS values (for fitting the map). ``memory``: bytes for
    the exact table, and for all the trees together (default: each tree's arena sized for its
    share of the budget by :func:`~duel.solvers.cmcts_player.tree_memory`). ``threads``: the exact
    stage's threads on a clock (default: every core, :func:`default_threads`); a player in a
    match with one game per core gives 1 (:class:`HintPlayer`).
    """
    if state.is_terminal() or state.is_chance():
        raise ValueError(f"no decision to take here ({state.describe()})")
    decided = decided_analysis(state, top, seed)
    if decided is not None:
        return decided
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
        if exact_seconds is None and exact_nodes is None:
            exact_seconds = DEFAULT_EXACT_SECONDS
    start = time.perf_counter()
    threads = default_threads() if threads is None else threads
    if not 1 <= threads <= 64:
        raise ValueError(f"threads must be 1 to 64, not {threads}")
    # A clock in all: the app asks again while the player thinks; the cards rule counts the
    # seconds given to this position so far, so the exact stage starts once they add up to the
    # solve's likely time, and each call after that goes on from the kept table.
    earlier = _kept.ask(state, seconds) if seconds is not None and exact_seconds is None else 0.0
    plan = _exact_plan(
        state, iterations, seconds, exact_seconds, exact_cards, threads, exact_nodes, earlier
    )
    if plan is not None and seconds is not None and exact_seconds is None:
        # A clock in all (the app's live analysis): the exact stage first, with
        # EXACT_TIME_SHARE of it; the estimate gets the rest where the solve does not finish.
        limit = Limit(time=EXACT_TIME_SHARE * seconds)
        exact = _exact_stage(state, _ExactPlan(limit, plan.threads), top, seed, memory)
        if exact is not None:
            return mark_ending_moves(_with_engine(exact, "exact"), state)
        left = max(0.01, seconds - (time.perf_counter() - start))
        estimate = _estimate(state, None, left, top, seed, trees, calibration, calibrate, memory)
        return _with_extra(mark_ending_moves(estimate, state), exact_stage="unfinished")
    if plan is None and exact_cards != 0 and hint_stage(state) == 3:
        default = exact_seconds is not None or exact_nodes is not None
        if default or (seconds is not None and seconds >= 1.0):
            probe = _ExactPlan(Limit(nodes=PROBE_NODES), 1)
            proved = _exact_stage(state, probe, top, seed, PROBE_MEMORY)
            if proved is not None:
                return mark_ending_moves(_with_engine(proved, "exact"), state)
    estimate = _estimate(
        state, iterations, seconds, top, seed, trees, calibration, calibrate, memory
    )
    estimate = mark_ending_moves(estimate, state)
    if plan is None:
        return estimate
    if plan.limit.time is not None:
        # a solve on a clock may take a while: the estimate is shown meanwhile
        estimate = _with_extra(
            estimate, exact_stage={"seconds": plan.limit.time, "threads": plan.threads}
        )
        if on_estimate is not None:
            on_estimate(estimate)
    exact = _exact_stage(state, plan, top, seed, memory)
    if exact is None:
        return _with_extra(estimate, exact_stage="unfinished")
    return _merge(state, exact, estimate, top, time.perf_counter() - start)


def _merge(
    state: State, exact: AnalysisInfo, estimate: AnalysisInfo, top: int, elapsed: float
) -> AnalysisInfo:
    """The exact answer, with the estimate's next moves after its exactly valued ones (marked
    ``estimate``) where the exact stage valued fewer than ``top``."""
    from dataclasses import replace

    moves = list(exact.moves)
    known = {m.move for m in moves}
    for m in estimate.moves:
        if len(moves) >= top:
            break
        if m.move not in known and m.value is not None:
            moves.append(replace(m, bound="estimate"))
    best = estimate.moves[0] if estimate.moves else None
    extra = {
        **exact.extra,
        "engine": "exact",
        "estimate": None if best is None else {"move": str(best.move), "value": best.value},
    }
    info = replace(exact, moves=tuple(moves), time=elapsed, extra=extra)
    return mark_ending_moves(info, state)


def _estimate(
    state: State,
    iterations: int | None,
    seconds: float | None,
    top: int,
    seed: int,
    trees: int,
    calibration: Calibration | None,
    calibrate: bool,
    memory: int | None,
) -> AnalysisInfo:
    """The estimate: the calibrated compiled MCTS, or the search on the pure path."""
    start = time.perf_counter()
    if not cmcts_available():
        limit = Limit(time=max(0.05, seconds)) if seconds is not None else Limit(nodes=iterations)
        return _with_engine(analyse(state, limit, top=top, seed=seed, memory=memory), "search")
    share = max(1, trees)
    if memory is not None:
        tree_bytes = max(1 << 16, memory // share)
    else:  # each tree's arena sized for its share of the think: a fresh tree, at Age III's rate
        tree_bytes = tree_memory(
            None if seconds is None else seconds / share,
            None if iterations is None else iterations // share,
            rate=FRESH_TREE_ITERATIONS_PER_SECOND,
            trees=share,
        )
    options = {"memory": tree_bytes}
    return _cmcts_hint(
        state, iterations, seconds, top, seed, trees, calibration, calibrate, start, options
    )


def _with_extra(info: AnalysisInfo, **extra) -> AnalysisInfo:
    from dataclasses import replace

    return replace(info, extra={**info.extra, **extra})


def _with_engine(info: AnalysisInfo, engine: str) -> AnalysisInfo:
    from dataclasses import replace

    return replace(info, extra={**info.extra, "engine": engine})


@dataclass
class _Arm:
    visits: int = 0
    value: float = 0.0  # sum of the raw values for the mover, over all visits
    per_tree: list[tuple[int, float]] = field(default_factory=list)  # (visits, mean) per tree


def _cmcts_hint(
    state: State,
    iterations: int | None,
    seconds: float | None,
    top: int,
    seed: int,
    trees: int,
    calibration: Calibration | None,
    calibrate: bool,
    start: float,
    options: dict,
) -> AnalysisInfo:
    from duel.core import CoreState
    from duel.solvers._cmcts import Tree
    from duel.solvers.cmcts_player import CMctsConfig, rank_moves

    config = CMctsConfig()
    core = CoreState.from_state(state)
    trees = max(1, trees)
    arms: dict[int, _Arm] = {}
    searched = []
    done = 0
    for k in range(trees):
        # Each tree gets its share of what is left, so a slow first tree does not starve the rest.
        tree = Tree(seed=seed * 1_000_003 + k, **config.tree_options(), **options)
        if iterations is not None:
            result = tree.search(core, iterations=max(1, iterations // trees))
        else:
            left = seconds - (time.perf_counter() - start)
            result = tree.search(core, seconds=max(0.005, left / (trees - k)))
        done += result["iterations"]
        searched.append((tree, result))
        for move, visits, value in result["moves"]:
            arm = arms.setdefault(move, _Arm())
            arm.visits += visits
            arm.value += visits * value
            if visits:
                arm.per_tree.append((visits, value))
    rows = [(m, a.visits, a.value / a.visits if a.visits else 0.0) for m, a in arms.items()]
    ranked = [(m, arms[m]) for m, _, _ in rank_moves(rows, config)]  # as the player picks
    st = hint_stage(state)
    cal = (calibration or default_calibration()) if calibrate else None

    def shown(raw: float) -> float:
        return cal(raw, st, done) if cal is not None else raw

    moves: list[MoveInfo] = []
    spread: dict[str, list[float]] = {}
    raw_values: dict[str, float] = {}
    visits: dict[str, int] = {}
    # A hint shows what it searched: a move no tree looked at is left out, not listed without
    # a value.
    for move, arm in [(m, a) for m, a in ranked if a.visits][: max(1, top)]:
        key = str(Move(move))
        raw = arm.value / arm.visits
        # The line of the tree that looked at this move the most.
        best_tree = max(
            searched, key=lambda tr: next((v for m, v, _ in tr[1]["moves"] if m == move), 0)
        )[0]
        line = tuple(Move(m) for m in best_tree.principal_line(core, first=move, seed=seed))
        moves.append(MoveInfo(Move(move), shown(raw), line or (Move(move),), "estimate"))
        spread[key] = [shown(v) for _, v in arm.per_tree]
        raw_values[key] = raw
        visits[key] = arm.visits
    best = moves[0]
    value_a = best.value if state.to_move == 0 else 1.0 - best.value
    elapsed = max(time.perf_counter() - start, 1e-9)
    extra = {
        "engine": "cmcts",
        "backend": "c",
        "trees": trees,
        "tree_seeds": [seed * 1_000_003 + k for k in range(trees)],
        "calibrated": cal is not None,
        "stage": STAGE_NAMES[st],
        "raw": raw_values,
        "visits": visits,
        "spread": spread,
        "config": asdict(config),
    }
    if cal is not None:
        extra["calibration"] = {k: cal.meta.get(k) for k in ("iterations", "games", "brier")}
        extra["calibration"]["budget_layer"] = [round(x, 4) for x in cal.budget_params(done)]
        extra["calibration"]["stage_budget_layer"] = [
            round(x, 4) for x in cal.stage_budget_params(st, done)
        ]
        # A map fitted on another player's values is stale (the rollout policy, which also
        # changes them, leaves no trace here: the docs say to refit after changing it).
        # A setting added after the fit counts as the default it then had.
        fitted = cal.meta.get("cmcts_config")
        before = {**asdict(CMctsConfig()), **SETTINGS_BEFORE_THEY_EXISTED}
        extra["calibration"]["stale"] = fitted is not None and any(
            fitted.get(key, before[key]) != value for key, value in extra["config"].items()
        )
    return AnalysisInfo(
        PovValue(value_a, state.to_move),
        best.pv,
        len(best.pv),
        done,
        elapsed,
        False,
        True,
        None,
        tuple(moves),
        seed=seed,
        extra=extra,
    )


class HintPlayer:
    """The default hint as a player: at each decision the move :func:`hint_analysis` recommends
    first, with the exact stage on ``threads`` (1 by default: a match plays one game per core,
    so the hint's default "every core" would take the other game's core).

    The budget is the hint's: none is ``duel hint``'s default (:data:`DEFAULT_ITERATIONS` for the
    estimate, up to :data:`DEFAULT_EXACT_SECONDS` of exact solve in Age III, the 2M-node probe
    beyond its reach); ``iterations`` alone is reproducible (the exact stage on a node budget);
    ``seconds`` is the app's live analysis's clock. The ``hint`` level of
    :func:`duel.solvers.players.make_player` (``hint``, ``hint:N``, ``hint:Ss``) makes one.
    ``last_info`` is the analysis of the last move chosen.
    """

    name = "hint"

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        threads: int = 1,
    ) -> None:
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.threads = threads
        self.last_info: AnalysisInfo | None = None

    def choose(self, state: State) -> Move:
        if state.is_terminal() or state.is_chance():
            raise ValueError(f"no decision to take here ({state.describe()})")
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_info = None
            return moves[0]
        info = hint_analysis(
            state,
            iterations=self.iterations,
            seconds=self.seconds,
            top=1,
            seed=self.seed,
            threads=self.threads,
        )
        self.last_info = info
        if info.best_move is None:  # (never: a decision has a move)
            return moves[0]
        return info.best_move
