"""Exact expansion endgames (solvers/xendgame.py): the pruned, tabled expectiminimax agrees with
plain expectiminimax in exact fractions, stops at its budget, and reads only the mover's view."""

import random

import pytest

from duel import xcore
from duel.solvers.xendgame import (
    NodeBudgetExceeded,
    brute_force,
    cards_left,
    solve,
    try_solve,
    worth_trying,
)

pytestmark = [
    pytest.mark.expansions,
    pytest.mark.skipif(not xcore.AVAILABLE, reason="the compiled core is not built"),
]

SETS = [("pantheon",), ("agora",), ("agora", "pantheon")]


def _age3(expansions, seed, cards):
    state, rng = xcore.new_game(expansions), random.Random(seed)
    while not (state.age == 3 and cards_left(state) <= cards and not state.is_chance()):
        state = state.apply(state.random_move(rng), check=False)
        if state.is_terminal():
            return None
    return state


# (set, seed, cards) whose brute force takes well under a second
SMALL = [(e, seed, cards) for e in SETS for seed in (0, 1, 4) for cards in (2, 3)]


@pytest.mark.parametrize(("expansions", "seed", "cards"), SMALL)
def test_the_solver_agrees_with_brute_force(expansions, seed, cards):
    state = _age3(expansions, seed, cards)
    if state is None:
        pytest.skip("the game ended before")
    exact = brute_force(state)
    if len(exact) > 40:
        pytest.skip("too wide for brute force")
    solved = solve(state, nodes=1_000_000)
    assert {m for m, _ in solved.moves} == set(exact)
    for move, value in solved.moves:
        assert value == pytest.approx(float(exact[move]), abs=1e-12)
    assert solved.value == pytest.approx(float(max(exact.values())))


def test_a_chance_node_is_averaged_with_its_exact_probabilities():
    # some small position has a value strictly between 0 and 1: chance was averaged
    inner = []
    for seed in range(12):
        state = _age3(("agora", "pantheon"), seed, 2)
        if state is not None:
            inner += [v for v in brute_force(state).values() if 0 < v < 1]
    assert inner


def test_the_budget_stops_the_search_and_try_solve_falls_back():
    state = _age3(("agora", "pantheon"), 0, 8)
    with pytest.raises(NodeBudgetExceeded):
        solve(state, nodes=50)
    assert try_solve(state, nodes=50, max_cards=8) is None
    assert not worth_trying(_age3(("pantheon",), 0, 8), max_cards=6)
