"""Setup: board tokens, wonder draft A-B-B-A / B-A-A-B, the deal of Age I, starting coins."""

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

from duel import CARDS, Kind, Move, new_game
from duel.catalog import AGE_DECK, GUILDS, WONDERS, bits
from tests.tables import make_state


def deal_tokens(state, names=("Law", "Economy", "Masonry", "Theology", "Strategy")):
    for name in names:
        state = state.apply(Move.parse(f"reveal token {name}"))
    return state


def test_five_of_ten_progress_tokens_are_dealt_uniformly():
    state = new_game()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and all(p == 0.1 for _, p in outcomes)
    state = deal_tokens(state)
    assert state.board_tokens == ("Economy", "Law", "Masonry", "Strategy", "Theology")
    assert state.phase == "setup_wonders"
    assert sorted(t for t in state.box_tokens) == [0, 1, 5, 6, 9]  # the five set aside


def test_starting_coins_are_seven_each():
    assert new_game().coins(0) == new_game().coins(1) == 7


def test_wonder_draft_order_is_abba_then_baab():
    state = deal_tokens(new_game())
    assert len(state.chance_outcomes()) == 12
    for w in range(4):
        state = state.apply(Move.reveal_wonder(w))
    assert state.phase == "draft" and state.to_move == 0
    pickers = []
    state = state.apply(Move.pick_wonder(0))
    pickers.append(0)
    assert state.to_move == 1
    state = state.apply(Move.pick_wonder(1))
    assert state.to_move == 1
    state = state.apply(Move.pick_wonder(2))
    # The last wonder of the group goes to A without a decision.
    assert state.wonders(0) == [0, 3] and state.wonders(1) == [1, 2]
    assert state.phase == "setup_wonders" and len(state.chance_outcomes()) == 8
    for w in range(4, 8):
        state = state.apply(Move.reveal_wonder(w))
    assert state.to_move == 1
    state = state.apply(Move.pick_wonder(4))
    assert state.to_move == 0
    state = state.apply(Move.pick_wonder(5))
    assert state.to_move == 0
    state = state.apply(Move.pick_wonder(6))
    assert state.wonders(0) == [0, 3, 5, 6] and state.wonders(1) == [1, 2, 4, 7]
    assert state.phase == "reveal" and state.age == 1 and state.to_move == 0
    assert not any(w in state.wonder_offer for w in range(len(WONDERS)))


def test_age_one_deal_reveals_twelve_face_up_cards_from_23():
    state = deal_tokens(new_game())
    for w in range(4):
        state = state.apply(Move.reveal_wonder(w))
    state = state.apply(Move.pick_wonder(0)).apply(Move.pick_wonder(1)).apply(Move.pick_wonder(2))
    for w in range(4, 8):
        state = state.apply(Move.reveal_wonder(w))
    state = state.apply(Move.pick_wonder(4)).apply(Move.pick_wonder(5)).apply(Move.pick_wonder(6))
    first = state.chance_outcomes()
    assert len(first) == 23 and all(abs(p - 1 / 23) < 1e-12 for _, p in first)
    for _ in range(12):
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.phase == "play" and state.to_move == 0
    assert state.accessible_slots == [14, 15, 16, 17, 18, 19]
    assert len(state.unseen_cards) == 11  # 8 face down + 3 removed, all unknown
    assert sum(1 for c in state.pyramid if c == -2) == 8


def age_three_laid_out():
    """The moment Age III is laid out (A took the last card of Age II): the guild deal comes
    first, before anyone chooses who begins."""
    last = _empty_age_two()
    *city, card = last["A"]["city"]
    state = make_state(age=2, **{**last, "A": {"city": city}, "accessible": [card]})
    return state.apply(Move.parse(f"discard {card}"))


def test_age_three_setup_deals_the_guild_slots_uniformly():
    # rules.md setup 5: guilds have their own back, so where they lie is public at once.
    state = age_three_laid_out()
    assert state.phase == "deal_guilds" and state.is_chance() and state.guild_slots == []
    weights, total = state.chance_weights()
    assert total == comb(20, 3) == 1140 and {w for _, w in weights} == {1}
    assert [m.kind for m, _ in weights] == [Kind.DEAL_GUILDS] * 1140
    assert sorted(m.guild_slots for m, _ in weights) == sorted(combinations(range(20), 3))
    move = Move.parse("guilds at slots 2 7 15")
    assert move == Move.deal_guilds((15, 7, 2)) and move & 0xFFFF == 389  # lexicographic rank
    assert state.chance_probability(move) == Fraction(1, comb(20, 3))
    after = state.apply(move)
    assert after.guild_slots == [2, 7, 15] and after.phase == "reveal"
    assert state.sample_chance(random.Random(3)).kind is Kind.DEAL_GUILDS


def test_guild_deal_sampling_is_uniform():
    state = age_three_laid_out()
    rng = random.Random(5)
    counts = Counter(s for _ in range(11_400) for s in state.sample_chance(rng).guild_slots)
    # each slot is a guild slot with probability 3/20: 1710 of 11400 draws (sd about 38)
    assert set(counts) == set(range(20)) and all(abs(n - 1710) < 200 for n in counts.values())


def test_a_guild_backed_slot_reveals_one_of_the_unseen_guilds():
    state = age_three_laid_out().apply(Move.deal_guilds((0, 5, 10)))
    assert state.reveal_slot == 0
    weights, total = state.chance_weights()
    assert sorted(m.card for m, _ in weights) == bits(GUILDS) and total == 7  # 4 left in the box
    assert all(Fraction(w, total) == Fraction(1, 7) for _, w in weights)
    first = bits(GUILDS)[2]
    state = state.apply(Move.reveal_card(0, first))
    state = state.apply(state.chance_outcomes()[0][0])  # slot 1: an Age III card
    assert state.reveal_slot == 5
    outcomes = state.chance_outcomes()
    assert sorted(m.card for m, _ in outcomes) == [g for g in bits(GUILDS) if g != first]
    assert all(p == 1 / 6 for _, p in outcomes)


def test_an_age_three_backed_slot_never_yields_a_guild():
    state = age_three_laid_out().apply(Move.deal_guilds((2, 3, 4)))
    assert state.reveal_slot == 0 and not state.is_guild_slot(0)
    weights, total = state.chance_weights()
    assert sorted(m.card for m, _ in weights) == bits(AGE_DECK[3])  # 3 of them left in the box
    assert total == 20 and {w for _, w in weights} == {1}
    rng = random.Random(2)
    assert all(not GUILDS >> state.sample_chance(rng).card & 1 for _ in range(500))
    guild = Move.reveal_card(0, bits(GUILDS)[0])
    assert state.chance_probability(guild) == 0
    assert "not a possible outcome" in state.why_illegal(guild)


def test_a_guild_slot_draws_from_the_guilds_nobody_has_seen():
    # Two guilds taken (A's city, the discard pile); the third is face down in slot 16, which
    # the taking of slots 18 and 19 has just uncovered: it is one of the 5 unseen guilds.
    guilds = bits(GUILDS)
    state = make_state(
        age=3,
        A={"city": [CARDS[guilds[0]].name]},
        discard=[CARDS[guilds[1]].name],
        guild_backs=[16],
    )
    assert state.reveal_slot == 16 and state.guild_slots == [16]
    outcomes = state.chance_outcomes()
    assert sorted(m.card for m, _ in outcomes) == guilds[2:]
    assert all(p == 1 / 5 for _, p in outcomes)


def _empty_age_two():
    """Every Age II slot taken: 20 Age II cards accounted for in cities and the discard pile."""
    ages = [c for c in bits(AGE_DECK[2])]
    names = [CARDS[c].name for c in ages[:20]]
    return {
        "A": {"city": names[:6]},
        "B": {"city": names[6:12]},
        "discard": names[12:],
        "accessible": [],
    }
