"""Hypothesis properties over whole random games, for every player count."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wonders.cards import CARDS
from wonders.game import all_card_ids, new_game


def _check_invariants(s) -> None:
    ids = all_card_ids(s)
    assert len(ids) == len(CARDS) and set(ids.values()) == {1}, "card conservation"
    assert all(city.coins >= 0 for city in s.cities), "coins never negative"
    for city in s.cities:
        built = [CARDS[i].name for i in city.built]
        assert len(built) == len(set(built)), "no two identical structures"
        assert city.stages == len(city.stage_cards) <= len(city.board.stages)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), picks=st.lists(st.integers(0, 2**16), max_size=300))
def test_random_game_invariants(players: int, seed: int, picks: list[int]) -> None:
    """``seed`` deals; the moves are ``picks`` (each an index into the legal moves, modulo their
    number; 0 once the list runs out), so a failing game shrinks to fewer, smaller picks."""
    s = new_game(players, seed)
    made = 0
    choices: dict[tuple[int, int], int] = {}  # (city, age) -> choose-phase decisions
    seen_ages = set()
    while not s.is_terminal():
        if s.turn == 1 and s.phase == "choose" and s.age not in seen_ages:
            seen_ages.add(s.age)
            if players == 2:
                holder = s.fc_holder
                assert len(s.hands[holder]) == 8 and len(s.hands[1 - holder]) == 7
                assert len(s.fc_pile) == 6
            else:
                assert [len(h) for h in s.hands] == [7] * players
        snapshot = (s.cities, s.hands, s.discard)
        before = s
        for p in s.current_players():
            while s.decision_city(p) is not None:
                moves = s.legal_moves(p)
                assert moves, "a player who must act always has a move"
                if s.phase == "choose":
                    key = (moves[0].city, s.age)
                    choices[key] = choices.get(key, 0) + 1
                s = s.apply(moves[(picks[made] if made < len(picks) else 0) % len(moves)])
                made += 1
        assert (before.cities, before.hands, before.discard) == snapshot, "old state unchanged"
        _check_invariants(s)
    assert seen_ages == {1, 2, 3}
    # every city (the Free City included) made exactly one choice on each of the 6 turns
    assert set(choices.values()) == {6} and len(choices) == 3 * s.n
    assert len(s.returns()) == players and abs(sum(s.returns()) - 1) < 1e-9
    assert s.winners()


@pytest.mark.parametrize("players", [3, 7])
def test_every_player_gets_seven_cards_per_age_and_six_turns(players: int) -> None:
    s = new_game(players, seed=players)
    rng = random.Random(0)
    per_age: dict[int, int] = {}
    while not s.is_terminal():
        if s.phase == "choose":
            per_age[s.age] = per_age.get(s.age, 0) + 1
        for p in s.current_players():
            while s.decision_city(p) is not None:
                s = s.apply(rng.choice(s.legal_moves(p)))
    assert per_age == {1: 6, 2: 6, 3: 6}
    # 7 x players cards per Age were dealt: all of them are now built, tucked or discarded
    dealt = [i for i in all_card_ids(s) if i not in s.box]
    assert len(dealt) == 3 * 7 * players
