"""The ``cmcts`` player: the compiled open-loop MCTS (``duel.solvers._cmcts``), its knobs
(:class:`CMctsConfig`), its memory and time budgets and how it ranks its moves.

Below :mod:`duel.solvers.players` (the level factory) so that the players built on the cmcts
search (the hint's, :mod:`duel.solvers.hint`) import it without a cycle.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, fields, replace

from duel.moves import Kind, Move
from duel.quote import quoted
from duel.solvers.search import Limit, analyse, exact_feasible, new_searcher
from duel.state import PRESENT, TAKEN, UNSEEN, State


class UnknownLevelError(ValueError):
    """A player level that does not exist."""


def decision_check(state: State) -> None:
    """Refuse a terminal or chance state: a player only answers decisions."""
    if state.is_terminal() or state.is_chance():
        raise ValueError(f"no decision to take here ({state.describe()})")


#: The longest think a budget may name, in seconds (a day): more is a typo, and a float such as
#: 1e308 would overflow the tree's arena size (:func:`tree_memory`).
MAX_SECONDS = 86_400.0


def decisions_between(
    before: State,
    after: State,
    first: Move | None = None,
    limit: int = 400,
) -> list[Move] | None:
    """The decisions played from ``before`` to ``after``, or None if none is found within
    ``limit`` positions tried, or the Age changed in between (or it is still the draft, whose
    wonder reveals make the search too wide).

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


#: CMctsConfig fields the player uses itself (not options of ``_cmcts.Tree``).
_PLAYER_ONLY = (
    "exact_cards",
    "reuse",
    "threads",
    "value",
    "prior_value",
    "pick",
    "pick_share",
    "pick_z",
    "arena_rate",
)


@dataclass(frozen=True)
class CMctsConfig:
    """Knobs of the compiled MCTS (``duel.solvers._cmcts.Tree``); the defaults: the measured best.

    ``from_string("rollout=4,prior=value")`` overrides fields (the ``CMCTS`` environment variable
    of :class:`CMctsPlayer` uses it, for measuring). Fields:

    * ``c``, ``fpu``: exploration constant; first-play urgency (an unvisited arm's value is the
      parent's minus ``fpu``) under PUCT.
    * ``uct``: UCB1 over availability counts (unvisited arms first) instead of PUCT.
    * ``prior``: ``policy`` (softmax of the rollout policy's move scores / ``prior_temperature``),
      ``value`` (one-ply hand-made evaluation), ``learned`` (one-ply learned value,
      :mod:`duel.solvers.value`), ``static`` or ``uniform``.
    * ``rollout``: plies of playout before the evaluation judges the leaf; -1 plays to the end
      of the game (the value is then the game's result), -2 to the end of the Age.
    * ``policy``: ``plans`` (MCTS-BR's playout policy as its author describes it: a random card
      and kind, a science plan for half the simulated players, Age I economy first; see
      solvers/csrc/rollout.h), ``scored`` (cheap move scores, randomised greedy) or ``kind``
      (wonder 1/2, build 0.35, discard 0.15, uniformly within the kind); ``eps``,
      ``noise``, ``deny``, ``military`` (weight of the pawn pressure in a shield's value),
      ``modes`` (0: one plan; 1: each simulated player normal or science at random; 2: a
      bandit per player at the root over normal / science / military) tune ``scored``.
    * ``leaf``: how a new leaf is judged: ``playout`` (the playout above), ``value`` (the learned
      value of the leaf, no playout) or ``mix`` (``(1 - mix_lambda)`` times the playout's result
      plus ``mix_lambda`` times the learned value of the leaf, as in AlphaGo).
    * ``evaluation``: what judges the position where a cut playout stops (``rollout`` >= 0 or
      -2): ``heuristic`` (the hand-made evaluation) or ``learned``.
    * ``exact_cards``: in Age III with at most this many cards left, try the exact solver first
      (with at most :data:`EXACT_TIME_SHARE` of the time, MCTS after it if it did not finish);
      -1 picks the number from the time per move by measured solve times
      (:func:`exact_cards_for_time`); 0 never.
    * ``value``: the learned value's weights: ``cmcts2`` (``data/models/value_cmcts2.json``:
      the feature table with what each side can take now, fitted to 4,600 games of
      ``cmcts-v4``), ``cmcts`` (``data/models/value_cmcts.json``, the first generation;
      ``cmcts-v2`` to ``cmcts-v4`` play with it), ``search`` (``data/models/value.json``, the
      ``search`` level's; ``cmcts-v1`` plays with it) or the path of a weights file (for
      measuring a newly trained value).
    * ``prior_value`` (empty: ``value``'s): the weights of the learned prior (``prior=learned``)
      when they are not the value's: ``cmcts2-prior`` (``data/models/prior_cmcts2.json``,
      fitted to the root visits of the same 4,600 games), ``cmcts-prior`` (``cmcts-v4``'s,
      ``data/models/prior_cmcts.json``, fitted by ``python -m duel.solvers.train fit-prior``),
      or the names ``value`` takes (empty: ``cmcts-v3``'s prior, the value's own).
    * ``age_horizon``: the tree stops where a new Age is dealt (a playout judges from there), as
      MCTS-BR's does: the next Age's pyramid differs at every descent.
    * ``block_science``: in ``plans`` playouts, a player takes (or else discards) an accessible
      card that would give the opponent a 5th or 6th different science symbol.
    * ``threads``: independent trees searched at once on that many cores (root parallelism:
      each tree has its own seed; the root statistics are summed). 1 by default.
    * ``reuse``: keep the subtree of the moves played (found by :func:`decisions_between`)
      from one decision to the next instead of starting afresh.
    * ``pick``: which root move is played: ``lcb`` (the default: the best lower confidence
      bound of the mean, ``q - pick_z * 0.5 / sqrt(n)``, a game's result having a standard
      deviation of at most 0.5), ``visits`` (the most visited) or ``value`` (the best mean
      among the moves with at least ``pick_share`` of the top move's visits, as MCTS-BR
      picks). While the values are close the most visited move is the prior's; the bound
      follows what the playouts show, more firmly the longer the search, which is what makes a
      longer think stronger (:func:`rank_moves`).
    * ``arena_rate`` (0: :data:`_ITERATIONS_PER_SECOND`): the iterations a second the tree's
      arena is sized for under a clock (:func:`tree_memory`); a tree that fills its arena stops
      growing for the rest of the move (docs/journal/longer-thinks.md, "The tree's arena"). A
      larger rate only reserves address space: the pages are touched as the tree grows.

    >>> CMctsConfig.from_string("rollout=4,modes=2").modes
    2
    """

    c: float = 1.0
    fpu: float = 0.1
    uct: bool = False
    prior: str = "learned"
    prior_temperature: float = 2.0
    rollout: int = -1
    policy: str = "plans"
    eps: float = 0.1
    noise: float = 3.0
    deny: float = 0.3
    military: float = 1.0
    modes: int = 1
    leaf: str = "mix"
    mix_lambda: float = 0.5
    evaluation: str = "heuristic"
    exact_cards: int = -1
    value: str = "cmcts2"
    prior_value: str = "cmcts2-prior"
    reuse: bool = True
    age_horizon: bool = False
    block_science: bool = False
    threads: int = 1
    pick: str = "lcb"
    pick_share: float = 0.1
    pick_z: float = 2.0
    arena_rate: int = 0

    @classmethod
    def from_string(cls, text: str, base: CMctsConfig | None = None) -> CMctsConfig:
        """``base`` (the defaults if None) with the ``key=value`` pairs of ``text`` applied."""
        types = {f.name: f.type for f in fields(cls)}
        changes: dict = {}
        for item in filter(None, (x.strip() for x in text.split(","))):
            key, _, value = item.partition("=")
            if key not in types:
                raise ValueError(
                    f"unknown cmcts option {quoted(key)}: expected one of {', '.join(types)}"
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
                raise ValueError(
                    f"bad value {quoted(value)} for cmcts option {quoted(key)}"
                ) from None
        return replace(base or cls(), **changes)

    def uses_learned_value(self) -> bool:
        """Whether the tree needs the learned value's weights.

        >>> CMctsConfig().uses_learned_value()
        True
        >>> CMctsConfig(leaf="playout", prior="policy").uses_learned_value()
        False
        """
        return self.leaf != "playout" or self.evaluation == "learned" or self.prior == "learned"

    def tree_options(self) -> dict:
        """The keyword arguments of ``duel.solvers._cmcts.Tree`` (with the shipped learned value's
        weights when an option uses it: ``data/models/value.json`` stays their one source)."""
        options = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in _PLAYER_ONLY
        }
        if self.uses_learned_value():
            from duel.solvers.value import named_model

            options["value_weights"] = named_model(self.value).flat_weights()
            if self.prior_value and self.prior == "learned":
                options["prior_weights"] = named_model(self.prior_value).flat_weights()
        return options


#: The arena of a ``cmcts`` tree: at least the compiled default, 256 MB (about 650,000 nodes).
TREE_MEMORY = 256 << 20
#: Bytes per node of the arena (a node and the 12 arms set aside for it), and the iterations a
#: second a timed player's arena is sized for. A tree grows by about one node an iteration; the
#: player runs about 30,000 a second in the wonder draft, 40,000-46,000 in Age I, 97,000 in Age II
#: and 170,000-230,000 in Age III (up to 480,000 in one search), so at 70,000 its arena is full in
#: some searches from 2 s a move (half of them at 10 s), and the tree stops growing there. An
#: arena sized for Age III's rate scored 17/40 against it at 3 s a move
#: (docs/journal/longer-thinks.md, "The tree's arena"): not the player's default until a longer
#: match says otherwise.
_NODE_BYTES, _ITERATIONS_PER_SECOND = 408, 70_000
#: The rate a tree that starts afresh (a hint's) is sized for: Age III's, so it never stops
#: growing before its time is up. Only the pages the tree touches are used.
FRESH_TREE_ITERATIONS_PER_SECOND = 350_000


def _memory_ceiling() -> int:
    """A quarter of the machine's memory, or no ceiling where that cannot be read."""
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return 1 << 62
    if pages <= 0 or page_size <= 0:
        return 1 << 62
    return pages * page_size // 4


def tree_memory(
    seconds: float | None, iterations: int | None, rate: int = 0, trees: int = 1
) -> int:
    """The arena of one of ``trees`` trees for one move's think: room for 1.5 times the nodes it
    will add (the rest for the subtree kept from earlier moves), at least :data:`TREE_MEMORY`,
    and at most a quarter of the machine's memory over all the trees, so a long think on a small
    machine cannot ask for more than it has. ``rate``: iterations a second (0:
    :data:`_ITERATIONS_PER_SECOND`). Only the pages the tree touches are used, so a large arena
    costs nothing until the tree fills it.

    >>> tree_memory(1.0, None) == TREE_MEMORY, tree_memory(10.0, None) >> 20
    (True, 408)
    >>> tree_memory(None, 100_000) == TREE_MEMORY, tree_memory(3.0, None, rate=350_000) >> 20
    (True, 612)
    """
    per_second = rate or _ITERATIONS_PER_SECOND
    expected = iterations if iterations else int(min(seconds or 0.0, MAX_SECONDS) * per_second)
    wanted = max(TREE_MEMORY, int(1.5 * expected * _NODE_BYTES))
    return min(wanted, max(TREE_MEMORY, _memory_ceiling() // max(1, trees)))


def _search_trees(trees: list, core, limit: dict) -> dict:
    """Search independent trees at once (the C search releases the GIL) and sum their root
    statistics: visits add up, a move's value is the visit-weighted mean of its values."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(trees)) as pool:
        results = list(pool.map(lambda tree: tree.search(core, **limit), trees))
    visits: dict[int, int] = {}
    value_sum: dict[int, float] = {}
    for result in results:
        for move, n, value in result["moves"]:
            visits[move] = visits.get(move, 0) + n
            value_sum[move] = value_sum.get(move, 0.0) + n * value
    return {
        "iterations": sum(r["iterations"] for r in results),
        "seconds": max(r["seconds"] for r in results),
        "reused": sum(r["reused"] for r in results),
        "moves": [(move, n, value_sum[move] / n if n else 0.5) for move, n in visits.items()],
        "nodes": sum(r["nodes"] for r in results),
        "arms": sum(r["arms"] for r in results),
    }


#: The ways :func:`rank_moves` orders the root moves (``CMctsConfig.pick``).
PICKS = ("lcb", "visits", "value")


def rank_moves(
    moves: list[tuple[int, int, float]], config: CMctsConfig
) -> list[tuple[int, int, float]]:
    """The search's ``(move, visits, mover's value)`` rows, best first by ``config.pick`` (see
    :class:`CMctsConfig`): the player plays the first, the hints show them in this order.

    >>> rows = [(1, 900, 0.50), (2, 600, 0.56), (3, 5, 0.90)]
    >>> [[m for m, _, _ in rank_moves(rows, CMctsConfig(pick=p))] for p in ("visits", "lcb")]
    [[1, 2, 3], [2, 1, 3]]
    """
    if config.pick == "visits":
        return sorted(moves, key=lambda m: (-m[1], -m[2], m[0]))
    if config.pick == "value":
        enough = config.pick_share * max((m[1] for m in moves), default=0)
        return sorted(moves, key=lambda m: (m[1] < enough or not m[1], -m[2], -m[1], m[0]))
    if config.pick == "lcb":

        def bound(m: tuple[int, int, float]) -> float:
            return m[2] - config.pick_z * 0.5 / math.sqrt(m[1]) if m[1] else -math.inf

        return sorted(moves, key=lambda m: (-bound(m), -m[1], m[0]))
    raise ValueError(f"unknown pick {quoted(config.pick)}: expected one of {', '.join(PICKS)}")


def pick_move(moves: list[tuple[int, int, float]], config: CMctsConfig) -> int:
    """The root move to play: the first of :func:`rank_moves`.

    >>> rows = [(1, 900, 0.50), (2, 600, 0.56), (3, 5, 0.90)]
    >>> [pick_move(rows, CMctsConfig(pick=p)) for p in ("visits", "value", "lcb")]
    [1, 2, 2]
    """
    return rank_moves(moves, config)[0][0]


#: How long the exact solver takes on the Age III positions ``cmcts`` reaches, by cards left in
#: the pyramid: the 80th percentile on one thread, the time a player is told a solve will likely
#: take (:func:`exact_p80_seconds`). Seconds: 32-38 positions per row of 40 ``cmcts:2000`` games
#: (``benchmarks/exact_budget.py --games 40 --first-seed 9400 --threads 1 --limit 8``, load
#: 1.2-1.8, 2026-11-27; ``benchmarks/results/exact_budget_2026-11-27.txt``). Nodes, the rule of
#: an iteration budget (:func:`exact_cards_for_nodes`): 38 positions per row of the run of
#: 2026-11-25 (limit 4-8 s, load 1.5-3.3; ``benchmarks/results/exact_budget.txt``).
EXACT_P80_SECONDS = {8: 0.006, 9: 0.040, 10: 0.266, 11: 0.199, 12: 0.891, 13: 5.518}
EXACT_P80_NODES = {8: 11_000, 9: 42_000, 10: 146_000, 11: 700_000, 12: 2_750_000, 13: 9_000_000}
#: What a timed ``cmcts`` move leaves of its budget for the Python around the search (finding
#: the best arm, building the move): about 0.2 ms measured, so 1.5 ms keeps every move within
#: its budget while using over 98% of it at 0.1 s per move.
TIME_MARGIN = 0.0015
#: Share of a move's time an exact solve may take before MCTS gets the rest.
EXACT_TIME_SHARE = 0.6
#: How much faster a solve runs on two threads or more (docs/search.md: 1.4x-2.1x).
EXACT_THREADS_SPEEDUP = 1.4


#: As :data:`EXACT_P80_SECONDS`, from 14 cards, where solves run on two threads (``duel
#: analyze --exact`` uses every core): the 80th percentile on two threads, in seconds, of 25
#: positions at 14 and 16 cards and 15 at 15 (``benchmarks/endgames.py``'s two sets of 10, seeds
#: 500 and 600, one set at 15 cards; and 5 per row of ``cmcts:2000`` games,
#: ``benchmarks/exact_budget.py --threads 2 --min-cards 14 --max-cards 16 --limit 120``, where
#: two of five 16-card solves ran past 120 s); the 2-core machine with nothing else running,
#: 2026-11-26 (``benchmarks/results/exact_budget_14_16.txt``).
EXACT_P80_SECONDS_2_THREADS = {14: 6.1, 15: 25.8, 16: 39.7}
#: The medians the solve rule reads (:func:`exact_cards_for_time`). One thread, up to 14 cards:
#: 32-38 positions per row of 40 ``cmcts:2000`` games (``benchmarks/exact_budget.py --games 40
#: --first-seed 9400 --threads 1 --limit 8``, load 1.2-1.8, 2026-11-27;
#: ``benchmarks/results/exact_budget_2026-11-27.txt``; at 14 cards 25 of 38 finished within the
#: 8 s limit, so the median is a measured time). Two threads, beyond: the pooled 15 and 25
#: positions of :data:`EXACT_P80_SECONDS_2_THREADS`. Those pool easier endgame-curve positions
#: with five of ``cmcts`` games, whose medians alone were 11.2 and 31.6 s: from 15 cards the
#: reach is optimistic, and no screen has measured it (a solve that fails leaves the search the
#: other 40% of the move).
EXACT_P50_SECONDS = {8: 0.003, 9: 0.014, 10: 0.107, 11: 0.104, 12: 0.321, 13: 1.241, 14: 3.506}
EXACT_P50_SECONDS_2_THREADS = {15: 6.60, 16: 9.06}


def _measured_seconds(
    cards: int, threads: int, one_thread: dict[int, float], two_threads: dict[int, float]
) -> float | None:
    """A measured solve time for ``cards`` on ``threads``: the one-thread table where it has the
    size, else the two-thread one, each carried to the other thread count by
    :data:`EXACT_THREADS_SPEEDUP`; 0 below the tables, None beyond them."""
    if cards in one_thread:
        seconds = one_thread[cards]
        return seconds / EXACT_THREADS_SPEEDUP if threads > 1 else seconds
    if cards in two_threads:
        seconds = two_threads[cards]
        return seconds if threads > 1 else seconds * EXACT_THREADS_SPEEDUP
    return 0.0 if cards < min(one_thread) else None


def exact_p80_seconds(cards: int, threads: int = 1) -> float | None:
    """The measured 80th percentile of an exact solve's time with ``cards`` left in the pyramid
    on ``threads``: :data:`EXACT_P80_SECONDS` (one thread) up to 13 cards,
    :data:`EXACT_P80_SECONDS_2_THREADS` from 14, each carried to the other thread count by
    :data:`EXACT_THREADS_SPEEDUP`; 0 below the tables (a few thousand nodes), None beyond them.
    What a player is told a solve will likely take.

    >>> exact_p80_seconds(12), exact_p80_seconds(5), exact_p80_seconds(30)
    (0.891, 0.0, None)
    """
    return _measured_seconds(cards, threads, EXACT_P80_SECONDS, EXACT_P80_SECONDS_2_THREADS)


def exact_p50_seconds(cards: int, threads: int = 1) -> float | None:
    """The measured median of an exact solve's time: :data:`EXACT_P50_SECONDS` (one thread) up
    to 14 cards, :data:`EXACT_P50_SECONDS_2_THREADS` beyond, as :func:`exact_p80_seconds`.

    >>> exact_p50_seconds(12), exact_p50_seconds(16, 2), exact_p50_seconds(17)
    (0.321, 9.06, None)
    """
    return _measured_seconds(cards, threads, EXACT_P50_SECONDS, EXACT_P50_SECONDS_2_THREADS)


def exact_cards_for_time(seconds: float, threads: int = 1) -> int:
    """Age III cards left up to which the exact solve is tried first with ``seconds`` to think:
    the most cards up to which every solve size finishes within :data:`EXACT_TIME_SHARE` of the
    time at least half the time (:func:`exact_p50_seconds`). The one rule of the ``cmcts``
    player and the hints.

    A median, not a safer percentile: a solve that runs out of its share leaves the search the
    rest of the time, and a solve that finishes gives the exact move. Against the 80th
    percentile's rule, one card short, the median's reach lost less per move on average at 0.2,
    1 and 3 s (one player thread) and no decision was worse
    (docs/journal/2026-11-27-halving-and-exact-leaves.md, "The exact reach by the median"); the
    other times and the two-thread reaches follow from the table unscreened.

    >>> [exact_cards_for_time(t) for t in (0.05, 0.2, 1.0, 3.0, 10.0)]
    [9, 11, 12, 13, 14]
    """
    allowed = EXACT_TIME_SHARE * seconds
    cards = 7
    while True:
        needed = exact_p50_seconds(cards + 1, threads)
        if needed is None or needed > allowed:
            return cards
        cards += 1


def exact_cards_for_nodes(nodes: int) -> int:
    """The same rule for a node budget (reproducible hints): the most cards whose solve takes at
    most ``nodes`` nodes four times in five (:data:`EXACT_P80_NODES`).

    >>> exact_cards_for_nodes(600_000), exact_cards_for_nodes(3_000_000)
    (10, 12)
    """
    fitting = [n for n, k in EXACT_P80_NODES.items() if k <= nodes]
    return max(fitting, default=7)


class CMctsPlayer:
    """The compiled MCTS (solvers/csrc/cmcts_module.c) under a time or iteration budget.

    The player sees positions, not the moves between them: it finds the decisions played since
    its last move (:func:`decisions_between`) and keeps that subtree (``reuse``). With a clock it
    uses ``time_per_move`` less :data:`TIME_MARGIN`; Age III endgames that the exact solver
    likely finishes in time (``exact_cards``) are first solved exactly with at most
    :data:`EXACT_TIME_SHARE` of the budget.
    """

    name = "cmcts"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float | None = 1.0,
        iterations: int | None = None,
        config: CMctsConfig | None = None,
    ) -> None:
        from duel import core

        try:
            if not core.AVAILABLE:
                raise ImportError
            from duel.solvers._cmcts import Tree
        except ImportError:
            raise UnknownLevelError(
                "the cmcts level needs the compiled core and duel.solvers._cmcts "
                "(pip install -e . with a C compiler, and DUEL_PURE unset)"
            ) from None

        try:
            self.config = CMctsConfig.from_string(os.environ.get("CMCTS", ""), config)
        except ValueError as e:
            raise UnknownLevelError(f"CMCTS environment variable: {e}") from None
        if not 1 <= self.config.threads <= 64:
            raise UnknownLevelError("cmcts threads must be 1 to 64")
        if self.config.arena_rate < 0:
            raise UnknownLevelError("cmcts arena_rate must be 0 (the default) or more")
        if self.config.pick not in PICKS:
            raise UnknownLevelError(
                f"cmcts pick must be one of {', '.join(PICKS)}, not {quoted(self.config.pick)}"
            )
        memory = tree_memory(time_per_move, iterations, rate=self.config.arena_rate)
        options = {**self.config.tree_options(), "memory": memory}
        self.seed = seed
        self._exact_searcher = None
        if self.config.threads > 1:  # the arena budget is shared between the trees
            options["memory"] = max(1 << 20, options["memory"] // self.config.threads)
        self.arena_bytes = options["memory"]  # each tree's
        try:
            self.trees = [Tree(seed=seed + 7919 * i, **options) for i in range(self.config.threads)]
        except ValueError as e:  # a bad option value: one line, not a traceback
            raise UnknownLevelError(f"cmcts options: {e}") from None
        self.tree = self.trees[0]
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
        for tree in self.trees:
            if not path or path[0] != played[1]:
                tree.reset()
                continue
            for move in path:  # our move first, then everything played since
                if not tree.advance(int(move)):
                    break  # advance() reset the tree

    def _exact_cards(self) -> int:
        cards = self.config.exact_cards
        if cards >= 0:
            return cards
        if self.iterations is not None:
            return 0
        return exact_cards_for_time(self.time_per_move or 1.0)

    def _solver(self):
        """The exact searcher, kept for the whole game: its table still holds what an earlier
        solve proved (exact values stay true), so a solve that ran out of time a move ago
        makes the next one shorter. Made at the first Age III endgame."""
        if self._exact_searcher is None:
            self._exact_searcher = new_searcher(seed=self.seed, chance_width=None, chance_samples=4)
        return self._exact_searcher

    def choose(self, state: State) -> Move:
        from duel.core import CoreState

        decision_check(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_info = None  # nothing searched: no stale answer of an earlier move
            return moves[0]
        start = time.perf_counter()
        budget = self.time_per_move or 1.0
        if exact_feasible(state, self._exact_cards()):
            limit = (
                Limit(nodes=self.iterations)
                if self.iterations is not None
                else Limit(time=EXACT_TIME_SHARE * budget)
            )
            info = analyse(
                state, limit, exact=True, seed=self.seed, margin=False, searcher=self._solver()
            )
            if info.exact and info.best_move is not None:
                self.last_info = info
                return info.best_move
        self._follow(state)
        core = CoreState.from_state(state)
        if self.iterations is not None:
            limit = {"iterations": self.iterations}
        else:
            # the whole budget but the few ms of Python around the search
            left = budget - TIME_MARGIN - (time.perf_counter() - start)
            limit = {"seconds": max(0.01, left)}
        if len(self.trees) == 1:
            result = self.tree.search(core, **limit)
        else:
            result = _search_trees(self.trees, core, limit)
        self.last_info = result
        best = Move(pick_move(result["moves"], self.config))
        self._played = (state, best)
        return best
