"""The Conflict pawn, looting tokens, military supremacy and military points."""

import pytest

from tests.tables import after, make_state


def test_shields_move_the_pawn_towards_the_opponent():
    state = after(make_state(age=1, accessible=["Guard Tower"]), "build Guard Tower")
    assert state.pawn == 1
    state = make_state(age=1, accessible=["Guard Tower"], to_move="B")
    assert after(state, "build Guard Tower").pawn == -1


def test_entering_a_zone_loots_its_token_once():
    state = make_state(age=2, accessible=["Walls"], A={"coins": 9}, pawn=2)
    state = after(state, "build Walls")
    assert state.pawn == 4 and state.coins(1) == 5
    assert state.military_tokens == ("A2", "A5", "B5")


def test_a_token_already_taken_does_not_loot_again():
    state = make_state(age=1, accessible=["Guard Tower"], pawn=2, military=["A2", "A5", "B5"])
    assert after(state, "build Guard Tower").coins(1) == 7


def test_two_tokens_in_one_move_and_the_loss_is_capped():
    state = make_state(
        age=3,
        accessible=["Pretorium"],
        A={"coins": 8, "progress_tokens": ["Strategy"]},
        B={"coins": 4},
        pawn=2,
        board=[],
    )
    state = after(state, "build Pretorium")  # 3 shields + 1 Strategy: 2 -> 6
    assert state.pawn == 6 and state.coins(1) == 0
    assert state.military_tokens == ("A2", "A5")


def test_b_shields_loot_tokens_on_a_side():
    state = make_state(
        age=2, accessible=["Walls"], B={"coins": 9}, A={"coins": 10}, pawn=-2, to_move="B"
    )
    state = after(state, "build Walls")
    assert state.pawn == -4 and state.coins(0) == 8 and "A2" not in state.military_tokens


def test_reaching_the_capital_is_military_supremacy_at_once():
    state = make_state(age=2, accessible=["Walls"], A={"coins": 9}, pawn=7, military=["A2", "A5"])
    state = after(state, "build Walls")
    assert state.is_terminal() and state.winner == 0 and state.victory == "military"
    assert state.pawn == 9 and state.returns() == (1.0, -1.0)


def test_wonder_shields_end_the_game_before_the_destroy_choice():
    state = make_state(
        age=2,
        accessible=["Walls"],
        A={"coins": 20, "wonders": ["The Statue of Zeus"]},
        B={"city": ["Quarry"]},
        pawn=8,
        military=["A2", "A5"],
    )
    state = after(state, "wonder The Statue of Zeus with Walls")
    assert state.is_terminal() and state.victory == "military"


def test_strategy_adds_a_shield_to_red_cards_only():
    state = make_state(
        age=1,
        accessible=["Guard Tower"],
        A={"coins": 30, "wonders": ["The Colossus"], "progress_tokens": ["Strategy"]},
        board=[],
    )
    assert after(state, "build Guard Tower").pawn == 2
    assert after(state, "wonder The Colossus with Guard Tower").pawn == 2  # no bonus for wonders


@pytest.mark.parametrize(
    ("pawn", "points"), [(0, 0), (1, 2), (2, 2), (3, 5), (5, 5), (6, 10), (8, 10)]
)
def test_military_points_for_the_leader(pawn, points):
    state = make_state(age=1, pawn=pawn, military=[])
    assert state.score(0).military == points and state.score(1).military == 0
    mirrored = make_state(age=1, pawn=-pawn, military=[])
    assert mirrored.score(1).military == points and mirrored.score(0).military == 0
