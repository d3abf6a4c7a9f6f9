"""The expansion hint (solvers/xhint.py): decided moves said as such, exact where the endgame
solver finishes, else the compiled search's searched moves with calibrated values, all from the
mover's view."""

import random

import pytest

from duel import xcore
from duel.expansions import new_xgame
from duel.expansions.table import Space
from duel.solvers.xendgame import brute_force, cards_left
from duel.solvers.xhint import ending_moves, hint_lines, xhint

pytestmark = [
    pytest.mark.expansions,
    pytest.mark.skipif(not xcore.AVAILABLE, reason="the compiled core is not built"),
]


def _positions(expansions, predicate, seeds=range(40)):
    for seed in seeds:
        state, rng = new_xgame(expansions), random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance() and predicate(state):
                yield state
                break
            state = state.apply(state.random_move(rng), check=False)


def test_a_move_that_wins_at_once_is_said_wins_now():
    def wins(s):
        return any(v == 1.0 for v in ending_moves(s.view(s.to_move)).values())

    state = next(_positions(("agora", "pantheon"), wins))
    hint = xhint(state, seconds=5)
    assert hint.engine == "rules" and hint.exact
    assert hint.moves[0].value == 1.0 and hint.moves[0].ends_game == "win"
    lines, data = hint_lines(state.view(state.to_move), 5, 3)
    assert "100.0% wins now" in lines[1] and data["moves"][0]["ends_game"] == "win"


def test_a_last_card_that_loses_is_said_loses_now():
    def loses(s):
        ending = ending_moves(s.view(s.to_move))
        legal = s.legal_moves()
        return len(ending) == len(legal) and max(ending.values()) == 0.0

    state = next(_positions(("pantheon",), loses, range(200)))
    lines, data = hint_lines(state.view(state.to_move), 5, 3)
    assert all("0.0% loses now" in line for line in lines[1:])
    assert data["engine"] == "rules"


def test_few_cards_left_in_age_three_are_exact_and_match_brute_force():
    state = next(
        _positions(("agora", "pantheon"), lambda s: s.age == 3 and cards_left(s) <= 3, range(3))
    )
    hint = xhint(state, nodes=500, top=10)
    if hint.engine == "rules":
        pytest.skip("decided by the rules")
    assert hint.engine == "exact"
    exact = brute_force(state)
    assert {m.move for m in hint.moves} <= set(exact)
    for m in hint.moves:
        assert m.bound == "exact" and m.value == pytest.approx(float(exact[m.move]))


def test_the_estimate_lists_only_searched_moves_with_probabilities():
    state = next(_positions(("agora",), lambda s: s.phase == "play" and s.age == 2))
    hint = xhint(state, nodes=300, top=50)
    assert hint.engine == "cmcts" and hint.work == 300 and hint.calibrated  # the shipped map
    assert hint.moves and all(m.visits > 0 for m in hint.moves)
    assert all(0.0 <= m.value <= 1.0 and m.bound == "estimate" for m in hint.moves)
    assert [m.visits for m in hint.moves] == sorted((m.visits for m in hint.moves), reverse=True)
    lines, _ = hint_lines(state.view(state.to_move), None, 3, nodes=300)
    assert "300 simulated games" in lines[0] and "not searched" not in "".join(lines)


def test_the_hint_reads_only_the_movers_view():
    def hidden(s):
        return s.phase == "play" and any(sp and not sp.face_up for sp in s.spaces)

    s = next(_positions(("pantheon",), hidden))
    index = next(i for i, sp in enumerate(s.spaces) if sp and not sp.face_up)
    seated = s.spaces[index]
    s = s._copy()
    s.to_move = 1 - seated.owner
    s = s._freeze()
    others = [d for d in s.unaccounted(seated.mythology) if d != seated.divinity]
    if not others:
        pytest.skip("no other card of that deck is unaccounted")
    changed = s._copy()
    spaces = list(changed.spaces)
    spaces[index] = Space(others[0], seated.mythology, seated.owner, False)
    changed.spaces = tuple(spaces)
    changed = changed._freeze()
    assert changed != s
    assert xhint(s, nodes=400, seed=5).moves == xhint(changed, nodes=400, seed=5).moves


def test_an_exact_solve_past_its_budget_leaves_the_estimate():
    state = next(
        _positions(("agora", "pantheon"), lambda s: s.age == 3 and cards_left(s) <= 6, range(3))
    )
    hint = xhint(state, nodes=200, exact_nodes=20)
    if hint.engine == "rules":
        pytest.skip("decided by the rules")
    assert hint.engine == "cmcts" and all(m.visits > 0 for m in hint.moves)
