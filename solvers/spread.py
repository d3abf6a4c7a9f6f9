"""How much a sampled value depends on the sample: the same search with other sampling seeds.

Where a chance node has too many outcomes the search averages over a few drawn ones
(:mod:`solvers.search`, "Sampling"), so its value is an estimate whose error nobody sees. This
module measures it honestly by replication: each root move's value is computed again, to the same
depth, by independent searches that differ only in the seed of the chance sampling. The spread of
those values (their range, and mean) is the sampling uncertainty of the reported figure. It says
nothing about the evaluation's own bias at the search horizon, which no resampling can show.

>>> import random
>>> from duel import new_game
>>> from solvers.search import Limit, analyse
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
from duel.state import State
from solvers.search import DEFAULT_MEMORY, INF_DEPTH, SearchAborted, Searcher

__all__ = ["Spread", "sampling_spread", "summary"]


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
    :func:`solvers.search.analysis`) once per seed, with a full window so each value is exact
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
