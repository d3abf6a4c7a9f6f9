"""The expansion review's judge (solvers/xreview.py) on the compiled search: a missed win is a
blunder against the win, the move played is valued even when the search never tried it, and the
values are win chances."""

import random

import pytest

from duel import xcore
from duel.expansions import new_xgame
from duel.solvers.xhint import ending_moves
from duel.solvers.xreview import MARKS, judge

pytestmark = [
    pytest.mark.expansions,
    pytest.mark.skipif(not xcore.AVAILABLE, reason="the compiled core is not built"),
]


def _first(expansions, predicate, seeds=range(60)):
    for seed in seeds:
        state, rng = new_xgame(expansions), random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance() and predicate(state):
                return state
            state = state.apply(state.random_move(rng), check=False)
    pytest.skip("no such position")


def test_a_missed_win_now_is_judged_against_the_win():
    def missable(s):
        ending = ending_moves(s.view(s.to_move))
        return any(v == 1.0 for v in ending.values()) and len(ending) < len(s.legal_moves())

    state = _first(("agora", "pantheon"), missable)
    ending = ending_moves(state.view(state.to_move))
    other = next(m for m in state.legal_moves() if m not in ending)
    value, best, best_value = judge(state, other, iterations=300, seconds=None, seed=1)
    assert ending[best] == 1.0 and best_value == 1.0
    win = judge(state, best, iterations=300, seconds=None, seed=1)
    assert win[0] == 1.0 and win[2] == 1.0


def test_values_are_win_chances_and_every_move_is_valued():
    state = _first(("agora",), lambda s: s.phase == "play" and s.age == 1)
    for move in state.legal_moves()[:6]:
        value, best, best_value = judge(state, move, iterations=60, seconds=None, seed=2)
        assert 0.0 <= value <= 1.0 and 0.0 <= best_value <= 1.0
        assert best in state.legal_moves()
    assert MARKS[0] == (0.20, "??")
