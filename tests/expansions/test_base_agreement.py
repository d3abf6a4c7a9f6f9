"""The expansion engine with no expansion plays the base game exactly as the base engine does.

``duel.expansions`` re-states the base rules in a readable form so that Pantheon can change
them; this test is what keeps the two statements of the base rules one: random base games are
played through both engines side by side, and after every step they must offer the same legal
moves (by their notation), the same chance outcomes with the same exact probabilities, the same
prices, and end with the same winner, victory and score sheet.
"""

import random
from dataclasses import asdict

import pytest

from duel import new_game, play_random_game
from duel.expansions import XMove, new_xgame

pytestmark = pytest.mark.expansions

GAMES = 60


def _same_node(base, ours):
    assert base.is_terminal() == ours.is_terminal()
    assert base.is_chance() == ours.is_chance()
    if base.is_chance():
        outcomes, total = base.chance_weights()
        mine, my_total = ours.chance_weights()
        assert {str(m): w * my_total for m, w in outcomes} == {str(m): w * total for m, w in mine}
        return
    if base.is_terminal():
        return
    assert base.to_move == ours.to_move
    assert sorted(map(str, base.legal_moves())) == sorted(map(str, ours.legal_moves()))
    for p in (0, 1):
        assert base.coins(p) == ours.city(p).coins
        for slot in base.accessible_slots:
            card = base.pyramid[slot]
            if card < 0:  # uncovered this turn, turned over when the turn ends
                continue
            assert base.card_cost(p, card) == ours.card_cost(p, card)
        for w in base.wonders(p):
            assert base.wonder_cost(p, w) == ours.wonder_cost(p, w)


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_random_base_game_is_the_same_in_both_engines(seed):
    rng = random.Random(seed)
    base, ours = new_game(), new_xgame(())
    steps = 0
    while not base.is_terminal():
        _same_node(base, ours)
        move = base.random_move(rng)
        base = base.apply(move, check=False)
        ours = ours.apply(XMove.parse(str(move)))
        steps += 1
    _same_node(base, ours)
    assert ours.is_terminal() and steps > 50
    assert (base.winner, base.victory) == (ours.winner_player, ours.victory)
    assert base.is_shared_victory == ours.is_shared_victory
    for p in (0, 1):
        mine = ours.score(p)
        theirs = asdict(base.score(p))
        assert theirs == {c: getattr(mine, c) for c in theirs}
        assert mine.divinities == 0


def test_the_base_engine_finishes_the_same_games_it_starts():
    final = play_random_game(random.Random(5))
    assert final.is_terminal()
