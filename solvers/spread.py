"""How much a sampled value depends on the sample: the same search with other sampling seeds.

Where a chance node has too many outcomes the search averages over a few drawn ones
(:mod:`duel.solvers.search`, "Sampling"), so its value is an estimate whose error nobody sees. This
module measures it honestly by replication: each root move's value is computed again, to the same
depth, by independent searches that differ only in the seed of the chance sampling. The spread of
those values (their range, and mean) is the sampling uncertainty of the reported figure. It says
nothing about the evaluation's own bias at the search horizon, which no resampling can show.

>>> import random
>>> from duel import new_game
>>> from duel.solvers.search import Limit, analyse
>>> state, rng = new_game(), random.Random(0)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> info = analyse(state, Limit(depth=1), top=2, seed=0)
>>> spread = sampling_spread(state, [m.move for m in info.moves], depth=1, seeds=[1, 2])
>>> spread.seeds, [0.0 <= v <= 1.0 for v in spread.values[info.moves[0].move]]
((1, 2), [True, True])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from duel.moves import Move
from duel.solvers.search import (
    DEFAULT_MEMORY,
    INF_DEPTH,
    AnalysisInfo,
    Limit,
    SearchAborted,
    Searcher,
    analyse,
    decided_analysis,
    exact_feasible,
)
from duel.state import State

__all__ = [
    "EXTRA_SEEDS",
    "Spread",
    "advise",
    "chance_settings",
    "measure_spread",
    "pct",
    "sampling_spread",
    "search_stats",
    "summary",
    "value_text",
]

#: Sampling seeds measured besides the main search's, for the uncertainty of sampled values.
EXTRA_SEEDS = 2


@dataclass(frozen=True)
class Spread:
    """Values of root moves (for the player to move) under independent sampling seeds.

    ``values[move]`` lists one value per finished seed, in the order of ``seeds``; a seed whose
    search ran out of time is left out of ``seeds`` and of every list."""

    seeds: tuple[int, ...]
    values: dict[Move, list[float]] = field(default_factory=dict)
    nodes: int = 0
    time: float = 0.0


def sampling_spread(
    state: State,
    moves: list[Move],
    *,
    depth: int,
    seeds: list[int],
    chance_width: int | None = 6,
    chance_samples: int = 3,
    node_limit: int | None = None,
    deadline: float | None = None,
    memory: int | None = None,
) -> Spread:
    """Search each of ``moves`` from ``state`` to ``depth`` (decision plies, counted as in
    :func:`duel.solvers.search.analysis`) once per seed, with a full window so each value is exact
    for that sample. ``node_limit`` bounds each seed's search (reproducible); ``deadline``
    (``time.perf_counter()``) stops the whole measurement, keeping the seeds already finished.
    ``memory``: each seed's search budget in bytes (default: ``DEFAULT_MEMORY``)."""
    start = time.perf_counter()
    mover = state.to_move
    done: list[int] = []
    values: dict[Move, list[float]] = {m: [] for m in moves}
    nodes = 0
    for seed in seeds:
        searcher = Searcher(
            seed=seed,
            chance_width=chance_width,
            chance_samples=chance_samples,
            memory=memory or DEFAULT_MEMORY,
        )
        searcher.set_limits(node_limit, deadline)
        found = {}
        try:
            for move in moves:
                child = state.apply(move, check=False)
                v_a = 0.5
                # Iterative deepening fills the table with good move orders for the last pass.
                steps = [depth - 1] if depth >= INF_DEPTH // 2 else range(0, depth)
                for d in steps:
                    v_a = searcher.search(child, d, 0.0, 1.0)
                found[move] = v_a if mover == 0 else 1.0 - v_a
        except (SearchAborted, RecursionError):
            nodes += searcher.nodes
            break
        nodes += searcher.nodes
        done.append(seed)
        for move, v in found.items():
            values[move].append(v)
    return Spread(tuple(done), values, nodes, time.perf_counter() - start)


def summary(values: list[float]) -> tuple[float, float, float]:
    """(mean, lowest, highest) of the values.

    >>> summary([0.5, 0.6, 0.4])
    (0.5, 0.4, 0.6)
    """
    return (sum(values) / len(values), min(values), max(values))


def pct(value: float) -> str:
    """A value as a percentage with one decimal: ``pct(0.5712)`` is ``'57.1%'``."""
    return f"{100 * value:.1f}%"


def chance_settings(state: State, exact: bool) -> tuple[int | None, int]:
    """(chance_width, chance_samples) as :func:`duel.solvers.search.analysis` chooses them."""
    if exact:
        return (None, 4) if exact_feasible(state) else (4, 4)
    return 6, 3


def measure_spread(
    state: State,
    info: AnalysisInfo,
    limit: Limit,
    chance: tuple[int | None, int],
    deadline: float | None,
    memory: int | None = None,
) -> Spread | None:
    """Re-run the root moves' searches of ``info`` with :data:`EXTRA_SEEDS` other sampling
    seeds; the main search's own values count as one more sample. None when nothing was
    sampled (the values do not depend on a seed)."""
    if not info.sampled or not info.moves:
        return None
    moves = [m.move for m in info.moves]
    # A search that reached the end of the game everywhere is repeated to the end too.
    depth = INF_DEPTH - 1 if info.extra.get("finished") else info.depth
    spread = sampling_spread(
        state,
        moves,
        depth=depth,
        seeds=[info.seed + k for k in range(1, EXTRA_SEEDS + 1)],
        chance_width=chance[0],
        chance_samples=chance[1],
        node_limit=limit.nodes,
        deadline=deadline,
        memory=memory,
    )
    for m in info.moves:
        if m.bound == "exact":
            spread.values[m.move].insert(0, m.value)
    return spread


def advise(
    state: State, limit: Limit, *, top: int = 3, seed: int = 0, memory: int | None = None
) -> tuple[AnalysisInfo, Spread | None]:
    r"""The best moves and how sure they are, as ``duel hint`` and ``duel play``'s hint give
    them. Where the compiled MCTS is built (and no depth is asked for) the strongest player
    answers (:func:`duel.solvers.hint.hint_analysis`: calibrated win chances, their range over
    independent searches in ``info.extra["spread"]``, exact small endgames; ``limit.nodes``
    counts its iterations, an empty limit is its calibrated budget) and the Spread is None.
    Otherwise the expectiminimax search: with a clock, half the time searches and half
    measures the sampling spread, so ``limit.time`` stays the total (an empty limit: 2 s).

    >>> import random
    >>> from duel import new_game
    >>> state, rng = new_game(), random.Random(0)
    >>> while state.is_chance() or state.phase != "play":
    ...     state = state.apply(state.random_move(rng), check=False)
    >>> info, spread = advise(state, Limit(nodes=300), top=2)
    >>> import re
    >>> bool(re.fullmatch(r"\S+% (exact|estimate.*|\(range .* (samplings|searches)\))",
    ...                   value_text(info, info.moves[0], spread)))
    True
    """
    from duel.solvers.hint import cmcts_available, hint_analysis

    if limit.depth is None and cmcts_available():
        info = hint_analysis(
            state, iterations=limit.nodes, seconds=limit.time, top=top, seed=seed, memory=memory
        )
        return info, None
    if not state.is_chance():
        decided = decided_analysis(state, top, seed)
        if decided is not None:  # a move ends the game: "wins now", with no search
            return decided, None
    if limit == Limit():
        limit = Limit(time=2.0)
    chance = chance_settings(state, exact=False)
    start = time.perf_counter()
    main = Limit(limit.time / 2, limit.nodes, limit.depth) if limit.time else limit
    info = analyse(
        state,
        main,
        top=top,
        seed=seed,
        chance_width=chance[0],
        chance_samples=chance[1],
        memory=memory,
    )
    deadline = start + limit.time if limit.time else None
    return info, measure_spread(state, info, limit, chance, deadline, memory)


def english(msgid: str, /, **values: object) -> str:
    """The solvers' words as they are: ``msgid`` formatted. A program passes its own
    translation function instead (``tr=``), so that the solvers import no program."""
    return msgid.format(**values) if values else msgid


def value_text(info: AnalysisInfo, m, spread: Spread | None, tr=english) -> str:
    """A root move's value in words: ``57.1% exact``, ``57.1% (range 52.0-61.3% over 3
    samplings)``, ``57.1% estimate``, and from the MCTS hint engine ``57.1% (range 52.0-61.3%
    over 3 searches)``, ``100.0% wins now`` (``loses now``, ``shared victory now``) for a move
    that ends the game, or ``not searched`` for a move no search looked at (no value);
    ``m`` is one of ``info.moves``; ``tr`` translates and formats (see :func:`english`)."""
    if m.value is None:
        return tr("not searched")
    ending = getattr(m, "ends_game", None)
    if ending == "win":
        return tr("{value} wins now", value=pct(m.value))
    if ending == "loss":
        return tr("{value} loses now", value=pct(m.value))
    if ending == "shared":
        return tr("{value} shared victory now", value=pct(m.value))
    if info.exact and m.bound == "estimate":  # an exact answer's next moves, from the estimate
        return tr("{value} estimate", value=pct(m.value))
    if info.extra.get("engine") == "cmcts":
        values = info.extra["spread"].get(str(m.move), [])
        if len(values) >= 2:
            return tr(
                "{value} (range {low}-{high} over {n} searches)",
                value=pct(m.value),
                low=f"{100 * min(values):.1f}",
                high=pct(max(values)),
                n=len(values),
            )
        return tr(
            "{value} (seen by {n} of {trees} searches)",
            value=pct(m.value),
            n=len(values),
            trees=info.extra["trees"],
        )
    if m.bound not in ("exact", "estimate"):
        return tr("{value} at most", value=pct(m.value))
    if info.exact:
        return tr("{value} exact", value=pct(m.value))
    values = spread.values.get(m.move, []) if spread is not None else []
    if len(values) >= 2:
        mean, low, high = summary(values)
        return tr(
            "{value} (range {low}-{high} over {n} samplings)",
            value=pct(mean),
            low=f"{100 * low:.1f}",
            high=pct(high),
            n=len(values),
        )
    if info.sampled:
        return tr("{value} estimate (sampled chance, spread not measured)", value=pct(m.value))
    return tr("{value} estimate", value=pct(m.value))


def search_stats(info: AnalysisInfo, spread: Spread | None = None) -> list[str]:
    """The search's figures for a verbose display (not for a player's first look): depth,
    nodes, speed, how chance was handled, the backend; and the spread's samplings. From the
    MCTS hint engine: its trees, iterations, speed, the calibration and the raw values. The
    engine that answered is named (``engine: cmcts``, ``exact`` or ``search``)."""
    engine = info.extra.get("engine", "search")
    if engine == "cmcts":
        return _mcts_stats(info)
    text = f"depth {info.depth}, {info.nodes:,} nodes in {info.time:.2f} s ({info.nps:,} nodes/s)"
    if info.sampled:
        text += (
            f"; chance sampled ({info.samples} draws per chance node, seed {info.seed}):"
            " values are estimates"
        )
    elif info.exact:
        text += "; exact (every line searched to the end of the game)"
    else:
        text += "; heuristic evaluation at the search horizon"
    backend = info.extra.get("backend")
    if backend is not None:
        text += "; compiled search" if backend == "c" else "; Python search"
    if engine == "exact":
        text += "; engine: the exact solver"
    else:
        text += "; engine: search (expectiminimax)"
    lines = [text]
    if spread is not None:
        lines.append(
            f"spread: {len(spread.seeds)} more samplings (seeds"
            f" {', '.join(map(str, spread.seeds)) or 'none finished'}),"
            f" {spread.nodes:,} nodes in {spread.time:.2f} s"
        )
    return lines


def _mcts_stats(info: AnalysisInfo) -> list[str]:
    extra = info.extra
    cal = extra.get("calibration") or {}
    text = (
        f"engine: cmcts (compiled MCTS), {extra['trees']} independent trees (seeds"
        f" {', '.join(map(str, extra['tree_seeds']))}), {info.nodes:,} iterations in"
        f" {info.time:.2f} s ({info.nps:,} iterations/s); {extra['stage']}; "
    )
    if extra["calibrated"]:
        text += f"values calibrated (map fitted at {cal.get('iterations') or '?'} iterations"
        if cal.get("stale"):
            text += (
                "; fitted for other cmcts settings: refit it"
                " (python -m duel.solvers.hint_calibration --help)"
            )
        text += ")"
    else:
        text += "raw values (not calibrated)"
    raw = ", ".join(
        f"{move} {100 * v:.1f}% ({extra['visits'][move]:,} visits)"
        for move, v in extra["raw"].items()
        if v is not None
    )
    return [text, f"before calibration: {raw}"]
