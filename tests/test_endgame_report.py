"""The readable exact endgame (duel.solvers.endgame): its values agree with the exact solver, the
reveals are every way the chance can fall, and the threats are read off the board."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from duel import new_game
from duel.position import load_position
from duel.solvers.endgame import NotSolved, Threat, explain_move, threats
from duel.solvers.search import Limit, analyse, exact_feasible, new_searcher

ENDGAMES = Path(__file__).resolve().parents[1] / "examples" / "endgames"


def _endgame_with_a_reveal(seed: int, cards: int = 7):
    """An Age III decision with at most ``cards`` left where some move turns up a card."""
    rng = random.Random(seed)
    while True:
        state = new_game()
        while not state.is_terminal():
            if (
                not state.is_chance()
                and state.phase == "play"
                and exact_feasible(state, cards)
                and any(state.apply(m, check=False).is_chance() for m in state.legal_moves())
            ):
                return state
            state = state.apply(state.random_move(rng), check=False)


@pytest.mark.parametrize("seed", [1, 2])
def test_each_move_explained_has_its_exact_value_and_whole_chance(seed):
    state = _endgame_with_a_reveal(seed)
    searcher = new_searcher(chance_width=None, chance_samples=4)
    moves = state.legal_moves()
    info = analyse(state, Limit(time=60), exact=True, margin=False, multipv=len(moves))
    exact = {m.move: m.value for m in info.moves}
    revealing = [m for m in moves if state.apply(m, check=False).is_chance()]
    for move in [*revealing[:2], info.best_move]:
        report = explain_move(state, move, searcher=searcher)
        assert report.value == pytest.approx(exact[move], abs=1e-9)
        assert sum(r.probability for r in report.reveals) == pytest.approx(1.0)
        assert report.line[0] == move
        if move in revealing:
            assert all(r.outcomes for r in report.reveals)
            assert len({r.outcomes for r in report.reveals}) == len(report.reveals)
        for r in report.reveals:
            end = state.apply(move, check=False)
            for outcome in r.outcomes:
                end = end.apply(outcome)
            assert not end.is_chance()
            if r.decider is not None:
                assert r.decider == end.to_move and r.reply in end.legal_moves()
        json.dumps(report.to_dict())


def test_the_line_ends_the_game_and_says_how():
    state = load_position(ENDGAMES / "age3_8cards_seed102.json")
    best = analyse(state, Limit(time=60), exact=True, margin=False).best_move
    report = explain_move(state, best)
    assert report.line_victory in ("civilian", "science", "military")
    assert report.decided_at is not None and 0 < report.decided_at <= len(report.line)


def test_threats_known_answers():
    assert threats(new_game()) == ()
    assert str(Threat("science", 0, 1)) == "A is 1 science symbol(s) from a science victory"
    assert str(Threat("military", 1, 2)) == "B is 2 space(s) from the opponent's capital"


def test_out_of_reach_and_bad_moves_are_refused():
    state = new_game()
    with pytest.raises(ValueError, match="no decision"):
        explain_move(state, state.chance_outcomes()[0][0])
    rng = random.Random(3)
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(rng), check=False)
    with pytest.raises(NotSolved, match="too far"):
        explain_move(state, state.legal_moves()[0])
