"""Costs and trading: 2 + the opponent's brown/grey production, fixed prices, Economy, chains,
Masonry and Architecture."""

import pytest

from duel import card_named, wonder_named
from duel.solvers.payment import payment_plan
from tests.tables import after, make_state

COURTHOUSE = card_named("Courthouse").id  # 2 wood, 1 glass, blue


def courthouse_for(
    a_city=(), a_tokens=(), b_city=("Lumber Yard", "Sawmill", "Glassworks"), b_tokens=(), coins=30
):
    return make_state(
        age=2,
        accessible=["Courthouse"],
        A={"coins": coins, "city": list(a_city), "progress_tokens": list(a_tokens)},
        B={"city": list(b_city), "progress_tokens": list(b_tokens)},
        board=[],
    )


def test_price_is_two_plus_opponent_production_and_sawmill_counts_two():
    state = courthouse_for()
    assert state.trade_prices(0)["wood"] == 5 and state.trade_prices(0)["glass"] == 3
    assert state.card_cost(0, COURTHOUSE) == 2 * 5 + 3


def test_opponent_choice_producers_do_not_raise_prices():
    plain = courthouse_for()
    with_choice = courthouse_for(
        b_city=("Lumber Yard", "Sawmill", "Glassworks", "Forum", "Caravansery")
    )
    assert with_choice.trade_prices(0) == plain.trade_prices(0)
    assert with_choice.card_cost(0, COURTHOUSE) == 13


def test_own_production_is_used_first():
    state = courthouse_for(a_city=("Logging Camp",))
    assert state.card_cost(0, COURTHOUSE) == 5 + 3


def test_reserves_and_customs_house_fix_the_price_at_one():
    assert courthouse_for(a_city=("Wood Reserve",)).card_cost(0, COURTHOUSE) == 1 + 1 + 3
    state = courthouse_for(a_city=("Wood Reserve", "Customs House"))
    assert state.card_cost(0, COURTHOUSE) == 3


def test_economy_gives_the_opponent_the_trade_coins_actually_paid():
    state = courthouse_for(b_tokens=("Economy",))
    child = after(state, "build Courthouse")
    assert child.coins(0) == 30 - 13 and child.coins(1) == 7 + 13


def test_economy_does_not_redirect_printed_coin_costs():
    state = make_state(
        age=2,
        accessible=["Caravansery"],
        A={"coins": 10},
        B={"city": ["Glassworks"], "progress_tokens": ["Economy"]},
        board=[],
    )
    child = after(state, "build Caravansery")  # 2 printed + glass 3 + papyrus 2
    assert child.coins(0) == 10 - 7 and child.coins(1) == 7 + 5


def test_economy_with_a_reserve_gives_what_was_paid():
    state = courthouse_for(a_city=("Wood Reserve",), b_tokens=("Economy",))
    child = after(state, "build Courthouse")
    assert child.coins(1) == 7 + 1 + 1 + 3


def test_masonry_waives_the_two_most_expensive_units_of_a_blue_card():
    state = courthouse_for(a_tokens=("Masonry",))
    assert state.card_cost(0, COURTHOUSE) == 3  # both wood (5 each) waived, glass bought


def test_masonry_with_choice_production_needs_the_right_order():
    # Caravansery makes the wood, Masonry waives the other wood and the glass: nothing to pay.
    # Waiving the two most expensive units first would leave glass to buy for 3.
    state = courthouse_for(a_city=("Caravansery",), a_tokens=("Masonry",))
    assert state.card_cost(0, COURTHOUSE) == 0
    plan = payment_plan(state, 0, card=COURTHOUSE)
    assert sorted(u.how for u in plan.units) == ["choice", "waived", "waived"]


def test_masonry_does_not_apply_to_other_colours():
    state = make_state(
        age=2,
        accessible=["Walls"],
        A={"progress_tokens": ["Masonry"]},
        B={"city": ["Quarry"]},
        board=[],
    )
    assert state.card_cost(0, card_named("Walls").id) == 6


def test_architecture_waives_two_units_of_a_wonder():
    pyramids = wonder_named("The Pyramids")  # 3 stone, 1 papyrus
    state = make_state(
        age=1,
        A={"wonders": ["The Pyramids"], "progress_tokens": ["Architecture"]},
        B={"city": ["Quarry", "Press"]},
        board=[],
    )
    assert state.wonder_cost(0, pyramids) == 6  # 2 of the 4 units (3 coins each) waived
    assert state.wonder_cost(1, wonder_named("The Sphinx")) == 3 * 2  # no waiver for B


def test_chain_makes_the_card_free_and_urbanism_pays_four():
    state = make_state(
        age=2,
        accessible=["Aqueduct"],
        A={"coins": 0, "city": ["Baths"], "progress_tokens": ["Urbanism"]},
        board=[],
    )
    assert state.card_cost(0, card_named("Aqueduct").id) == 0
    assert after(state, "build Aqueduct").coins(0) == 4


def test_chain_only_counts_your_own_cards():
    state = make_state(age=2, accessible=["Aqueduct"], A={"coins": 0}, B={"city": ["Baths"]})
    assert "build Aqueduct" not in map(str, state.legal_moves())


@pytest.mark.parametrize(
    ("chain_from", "card"), [("Palisade", "Fortifications"), ("Tavern", "Lighthouse")]
)
def test_age_one_cards_chain_into_age_three(chain_from, card):
    state = make_state(age=3, accessible=[card], A={"coins": 0, "city": [chain_from]})
    assert state.card_cost(0, card_named(card).id) == 0


def test_a_chain_waives_the_printed_coin_cost_too():
    # Barracks costs 3 coins, or nothing with Garrison's sword: legal with 1 coin.
    state = make_state(
        age=2,
        accessible=["Barracks"],
        A={"coins": 1, "city": ["Garrison"], "progress_tokens": ["Urbanism"]},
        board=[],
    )
    assert "build Barracks" in map(str, state.legal_moves())
    assert state.why_illegal(state.legal_moves()[0]) is None
    assert after(state, "build Barracks").coins(0) == 1 + 4
