"""Setup: board tokens, wonder draft A-B-B-A / B-A-A-B, the deal of Age I, starting coins."""

from fractions import Fraction

from duel import Move, new_game
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


def test_age_three_guild_odds_reflect_three_of_seven_guilds():
    state = make_state(age=2, phase="choose_starter", **_empty_age_two())
    state = state.apply(Move.parse("start A"))
    weights, total = state.chance_weights()
    probability = {m.card: Fraction(w, total) for m, w in weights}
    guild = bits(GUILDS)[0]
    age_card = bits(AGE_DECK[3])[0]
    assert probability[guild] == Fraction(3, 20) * Fraction(1, 7)
    assert probability[age_card] == Fraction(17, 20) * Fraction(1, 20)
    assert sum(probability.values()) == 1


def test_age_three_odds_after_three_guilds_are_seen():
    state = make_state(age=2, phase="choose_starter", **_empty_age_two())
    state = state.apply(Move.parse("start A"))
    guilds = bits(GUILDS)
    for g in guilds[:3]:
        state = state.apply(Move.reveal_card(state.reveal_slot, g))
    outcomes = state.chance_outcomes()
    assert all(m.card not in guilds for m, _ in outcomes)  # no fourth guild can appear
    assert len(outcomes) == 20 and abs(sum(p for _, p in outcomes) - 1) < 1e-12


def _empty_age_two():
    """Every Age II slot taken: 20 Age II cards accounted for in cities and the discard pile."""
    ages = [c for c in bits(AGE_DECK[2])]
    from duel import CARDS

    names = [CARDS[c].name for c in ages[:20]]
    return {
        "A": {"city": names[:6]},
        "B": {"city": names[6:12]},
        "discard": names[12:],
        "accessible": [],
    }
