"""The search keeps within its memory budget, replacing table entries rather than growing."""

from __future__ import annotations

import random
import tracemalloc

from duel import new_game
from duel.solvers.search import ENTRY_BYTES, Limit, Searcher, analyse
from duel.state import State


def _age2_position() -> State:
    rng = random.Random(7)
    state = new_game()
    while state.is_chance() or state.age < 2:
        state = state.apply(state.random_move(rng), check=False)
    for _ in range(4):
        state = state.apply(state.random_move(rng), check=False)
    while state.is_chance():
        state = state.apply(state.random_move(rng), check=False)
    return state


def test_peak_memory_stays_under_a_small_budget() -> None:
    state = _age2_position()
    # 3 MB and 30,000 nodes (was 6 MB and 60,000: the same nodes per MB, half the CPU): the
    # table's limit (1,075 entries) is above the 1,000-entry floor and it still replaces.
    budget = 3 * 1024 * 1024
    analyse(state, Limit(nodes=20_000), seed=1)  # warm the engine's own price tables first
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        searcher = Searcher(seed=1, memory=budget)
        info = analyse(state, Limit(nodes=30_000), seed=1, searcher=searcher)
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()
    assert info.best_move in state.legal_moves()
    assert searcher.replacements > 0, "the budget never bound: the test would prove nothing"
    assert len(searcher.tt) <= searcher.tt_limit
    assert peak <= budget, f"peak {peak / 1e6:.1f} MB over the {budget / 1e6:.1f} MB budget"


def test_budget_sets_table_sizes() -> None:
    small, large = Searcher(memory=8 * 2**20), Searcher(memory=64 * 2**20)
    assert abs(large.tt_limit - 8 * small.tt_limit) <= 8
    assert small.tt_limit + small.eval_limit + small.chance_limit <= 8 * 2**20 // ENTRY_BYTES


def test_replacement_keeps_exact_and_current_entries() -> None:
    searcher = Searcher(memory=1000 * ENTRY_BYTES)  # the floor: 1000 entries, 700 in the table
    state = _age2_position()
    searcher.generation = 2
    exact_key = state
    searcher.tt[exact_key] = [1 << 20, 0.5, 0.5, None, 0]  # exact, from an old iteration
    rng = random.Random(3)
    s = state
    while len(searcher.tt) < searcher.tt_limit:
        s = s.apply(s.random_move(rng), check=False)
        if s.is_terminal():
            s = state.apply(state.random_move(rng), check=False)
        searcher.tt.setdefault(s, [1, 0.0, 1.0, None, 1])  # shallow, old
    searcher._make_room()
    assert exact_key in searcher.tt
    assert len(searcher.tt) == searcher.tt_limit - searcher.tt_limit // 4
