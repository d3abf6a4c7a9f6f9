"""End of an Age: who chooses the next starting player, and the end of the game."""

import pytest

from tests.tables import after, end_of_age, settle


@pytest.mark.parametrize(("pawn", "chooser"), [(2, 1), (-2, 0), (0, 0)])
def test_weaker_player_chooses_and_last_active_player_when_centred(pawn, chooser):
    state = end_of_age(1, ["Tavern"], pawn=pawn)
    state = after(state, "discard Tavern")  # A took the last card
    assert state.phase == "choose_starter" and state.to_move == chooser


def test_last_active_player_is_the_one_who_took_the_last_card():
    state = end_of_age(1, ["Tavern"], to_move="B")
    state = after(state, "discard Tavern")
    assert state.to_move == 1  # 2016 erratum: B chooses (not "B begins automatically")


def test_chosen_player_begins_the_next_age():
    state = after(end_of_age(1, ["Tavern"], pawn=3, military=["A2", "A5", "B5"]), "discard Tavern")
    assert state.to_move == 1
    state = after(state, "start B")
    assert state.age == 2 and state.is_chance() and len(state.chance_outcomes()) == 23
    state = settle(state)
    assert state.phase == "play" and state.to_move == 1
    assert state.accessible_slots == [18, 19]
    assert state.coins(0) == 7 + 2 and state.pawn == 3  # coins and the pawn carry over


def test_weaker_player_may_let_the_opponent_begin():
    state = after(end_of_age(2, ["Walls"], pawn=-1), "discard Walls")
    assert state.to_move == 0
    assert settle(after(state, "start B")).to_move == 1


def test_the_end_of_age_three_ends_the_game_with_a_civilian_count():
    state = end_of_age(3, ["Palace"], A={"city": ["Theater"]})
    state = after(state, "discard Palace")
    assert state.is_terminal() and state.victory == "civilian" and state.winner == 0
