"""End of an Age: the next structure is laid out, then who chooses its starting player; the end
of the game.

Rules section 10 (docs/rules.md, "End of an Age"): when the 20th card of Age I or II is taken,
the next structure is laid out (Age III: the guild backs dealt; every face-up card turned
over), and only then does the weaker player (pawn in the centre: the one who took the last card)
choose who begins, seeing the new face-up cards. Every move here is mirrored in the C core
(``conftest.py``), so these are known-answer tests of both engines.
"""

import pytest

from duel import Move, card_named
from duel.catalog import AGE_DECK, GUILDS, bits
from duel.pyramid_layouts import LAYOUTS, SLOTS
from tests.tables import after, end_of_age, settle

HIDDEN = -2
AGE_TWO_FACE_UP = {
    0: "Sawmill",
    1: "Brickyard",
    2: "Walls",
    3: "Library",
    4: "Dispensary",
    5: "Forum",
    11: "Rostrum",
    12: "Barracks",
    13: "School",
    14: "Statue",
    18: "Caravansery",
    19: "Aqueduct",
}
#: Age III: the guilds are dealt to slots 0, 9 and 16; slot 0 is face up and shows a guild.
AGE_THREE_GUILD_SLOTS = (0, 9, 16)
AGE_THREE_FACE_UP = {
    0: "Scientists Guild",
    1: "Arsenal",
    5: "Academy",
    6: "Palace",
    7: "Town Hall",
    8: "Obelisk",
    11: "Gardens",
    12: "Pantheon",
    13: "Senate",
    14: "Port",
    18: "Armory",
    19: "Lighthouse",
}


def reveal_layout(state, face_up):
    """Turn over the new structure's face-up cards (in the engine's order: lowest slot first),
    checking that each reveal is a chance node drawn from the Age's unseen cards."""
    for slot, name in face_up.items():
        assert state.is_chance() and state.phase == "reveal" and state.reveal_slot == slot
        card = card_named(name).id
        assert card in state.unseen_cards  # fair play: dealt from the cards nobody has seen
        state = state.apply(Move.reveal_card(slot, card))
    return state


def assert_laid_out(state, age, face_up, guild_slots=()):
    """The whole new structure is present: face-up slots hold their cards, the others are
    face down (still chance nodes), nothing is taken."""
    layout = LAYOUTS[age]
    assert sorted(face_up) == [slot for slot in range(SLOTS) if layout.face_up[slot]]
    for slot, card in enumerate(state.pyramid):
        expected = card_named(face_up[slot]).id if slot in face_up else HIDDEN
        assert card == expected, f"slot {slot}"
    assert state.accessible_slots == [18, 19]
    assert state.guild_slots == list(guild_slots)
    deck = AGE_DECK[age] | (GUILDS if age == 3 else 0)
    assert len(state.unseen_cards) == deck.bit_count() - len(face_up)


@pytest.mark.parametrize(("pawn", "chooser"), [(2, 1), (-2, 0), (0, 0)])
def test_weaker_player_chooses_and_last_active_player_when_centred(pawn, chooser):
    state = end_of_age(1, ["Tavern"], pawn=pawn)
    state = after(state, "discard Tavern")  # A took the last card
    # Age II is laid out first: its face-up cards are chance nodes before anyone chooses
    assert state.age == 2 and state.phase == "reveal" and state.to_move == chooser
    state = settle(state)
    assert state.phase == "choose_starter" and state.to_move == chooser


def test_last_active_player_is_the_one_who_took_the_last_card():
    state = end_of_age(1, ["Tavern"], to_move="B")
    state = settle(after(state, "discard Tavern"))
    assert state.phase == "choose_starter"
    assert state.to_move == 1  # 2016 erratum: B chooses (not "B begins automatically")


@pytest.mark.parametrize(("pawn", "taker", "chooser"), [(3, "A", 1), (0, "B", 1), (0, "A", 0)])
def test_age_two_is_laid_out_and_revealed_before_the_choice(pawn, taker, chooser):
    military = ["A2", "A5", "B5"] if pawn >= 3 else None
    state = end_of_age(1, ["Tavern"], pawn=pawn, military=military, to_move=taker)
    state = after(state, "discard Tavern")
    assert state.age == 2 and state.is_chance() and state.reveal_slot == 0
    assert len(state.chance_outcomes()) == 23  # every Age II card is unseen
    state = reveal_layout(state, AGE_TWO_FACE_UP)
    assert state.phase == "choose_starter" and state.to_move == chooser
    assert [str(m) for m in state.legal_moves()] == ["start A", "start B"]
    assert_laid_out(state, 2, AGE_TWO_FACE_UP)
    pyramid = state.pyramid
    for starter in (0, 1):
        begun = state.apply(Move.starter(starter))
        assert begun.phase == "play" and begun.to_move == starter and not begun.is_chance()
        assert begun.pyramid == pyramid and begun.age == 2  # the revealed pyramid is unchanged
        assert {m.card for m in begun.legal_moves()} == {
            card_named("Caravansery").id,
            card_named("Aqueduct").id,
        }


@pytest.mark.parametrize(("pawn", "taker", "chooser"), [(-1, "B", 0), (0, "B", 1), (0, "A", 0)])
def test_age_three_guilds_are_dealt_and_revealed_before_the_choice(pawn, taker, chooser):
    state = end_of_age(2, ["Walls"], pawn=pawn, to_move=taker)
    state = after(state, "discard Walls")
    assert state.age == 3 and state.phase == "deal_guilds" and state.to_move == chooser
    state = state.apply(Move.deal_guilds(AGE_THREE_GUILD_SLOTS))
    # slot 0 has the guild back: its reveal draws from the 7 guilds only
    assert sorted(m.card for m, _ in state.chance_outcomes()) == bits(GUILDS)
    state = reveal_layout(state, AGE_THREE_FACE_UP)
    assert state.phase == "choose_starter" and state.to_move == chooser
    assert_laid_out(state, 3, AGE_THREE_FACE_UP, AGE_THREE_GUILD_SLOTS)
    assert state.is_guild_slot(9) and state.is_guild_slot(16)  # face down, guild back shown
    pyramid = state.pyramid
    begun = state.apply(Move.starter(1 - chooser))
    assert begun.phase == "play" and begun.to_move == 1 - chooser
    assert begun.pyramid == pyramid and begun.guild_slots == list(AGE_THREE_GUILD_SLOTS)


def test_chosen_player_begins_the_next_age():
    state = after(end_of_age(1, ["Tavern"], pawn=3, military=["A2", "A5", "B5"]), "discard Tavern")
    assert state.age == 2 and state.is_chance() and len(state.chance_outcomes()) == 23
    state = settle(state)
    assert state.phase == "choose_starter" and state.to_move == 1
    state = after(state, "start B")
    assert state.phase == "play" and state.to_move == 1
    assert state.accessible_slots == [18, 19]
    assert state.coins(0) == 7 + 2 and state.pawn == 3  # coins and the pawn carry over


def test_weaker_player_may_let_the_opponent_begin():
    state = settle(after(end_of_age(2, ["Walls"], pawn=-1), "discard Walls"))
    assert state.phase == "choose_starter" and state.to_move == 0
    assert after(state, "start B").to_move == 1


def test_the_end_of_age_three_ends_the_game_with_a_civilian_count():
    state = end_of_age(3, ["Palace"], A={"city": ["Theater"]})
    state = after(state, "discard Palace")
    assert state.is_terminal() and state.victory == "civilian" and state.winner == 0
