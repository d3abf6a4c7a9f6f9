"""A turn: take an accessible card and build it, discard it, or use it for a wonder."""

import pytest

from duel import IllegalMoveError, Move, card_named
from tests.tables import after, make_state, settle, slot_of


def test_discard_gives_two_coins_plus_one_per_own_yellow_card():
    state = make_state(
        age=2,
        accessible=["Walls"],
        A={"coins": 0, "city": ["Tavern", "Stone Reserve"]},
        B={"city": ["Wood Reserve", "Clay Reserve", "Brewery"]},
    )
    state = after(state, "discard Walls")
    assert state.coins(0) == 4  # 2 + 2 own yellow cards; B's three yellows do not count
    assert card_named("Walls").id in state.discard_pile


def test_build_pays_printed_coins_to_the_bank():
    state = make_state(age=1, accessible=["Logging Camp"], A={"coins": 3})
    state = after(state, "build Logging Camp")
    assert state.coins(0) == 2 and state.coins(1) == 7
    assert state.production(0) == {"wood": 1}


def test_free_card_costs_nothing():
    state = make_state(age=1, accessible=["Lumber Yard"], A={"coins": 0})
    assert "build Lumber Yard" in map(str, state.legal_moves())
    assert after(state, "build Lumber Yard").coins(0) == 0


def test_wonder_card_goes_under_the_wonder_not_to_the_discard():
    state = make_state(age=1, accessible=["Tavern"], A={"coins": 20, "wonders": ["The Pyramids"]})
    state = after(state, "wonder The Pyramids with Tavern")
    tavern = card_named("Tavern").id
    assert state.built_wonders(0) and state.cards_under_wonders(0) == [tavern]
    assert tavern not in state.discard_pile and tavern not in state.city(0)
    assert state.coins(0) == 20 - 2 * 3 * 1 - 2  # 3 stone at 2, 1 papyrus at 2


def test_unaffordable_card_is_not_legal_and_the_error_says_why():
    state = make_state(age=1, accessible=["Baths"], A={"coins": 1}, B={"city": ["Quarry"]})
    moves = [str(m) for m in state.legal_moves()]
    assert "build Baths" not in moves and "discard Baths" in moves
    with pytest.raises(IllegalMoveError, match=r"Baths needs 1 stone: 3 coins .*you have 1"):
        state.apply(Move.parse("build Baths"))


def test_discard_is_always_legal_for_an_accessible_card():
    state = make_state(age=3, accessible=["Palace"], A={"coins": 0})
    assert "discard Palace" in map(str, state.legal_moves())


def test_covered_card_cannot_be_taken():
    state = make_state(age=1)
    covered = state.pyramid[5]
    assert covered >= 0  # face up, but covered by slots 9 and 10
    with pytest.raises(IllegalMoveError, match="covered"):
        state.apply(Move.discard(covered))


def test_uncovered_face_down_card_is_revealed_before_the_next_turn():
    state = make_state(age=1)
    first, second = state.pyramid[14], state.pyramid[15]
    state = state.apply(Move.discard(first))
    assert not state.is_chance() and state.to_move == 1  # slot 9 still covered by slot 15
    state = state.apply(Move.discard(second))
    assert state.is_chance() and state.reveal_slot == 9
    assert state.to_move == 0  # who plays once the card is face up
    state = settle(state)
    assert state.pyramid[9] >= 0 and state.is_accessible(9) and state.phase == "play"


def test_face_down_card_is_never_in_the_state():
    state = make_state(age=1)
    assert [state.pyramid[s] for s in (2, 3, 4, 9, 10, 11, 12, 13)] == [-2] * 8
    assert len(state.unseen_cards) == 23 - 12


def test_players_alternate():
    state = make_state(age=1)
    state = after(state, f"discard {_name(state, 14)}")
    assert state.to_move == 1


def test_applying_a_move_leaves_the_old_state_unchanged():
    state = make_state(age=1, accessible=["Lumber Yard"])
    before = state.fields
    child = after(state, "build Lumber Yard")
    assert state.fields == before and child != state
    assert slot_of(state, "Lumber Yard") == 14


def _name(state, slot):
    from duel import CARDS

    return CARDS[state.pyramid[slot]].name
