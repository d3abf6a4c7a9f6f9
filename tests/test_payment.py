"""The fast exact pricing against the CP-SAT oracle, and the explained plans."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel import CARDS, WONDERS, card_named, play_random_game
from duel.catalog import RESOURCES
from duel.payment_model import check_solution, solve
from duel.pricing import min_purchase_cost
from duel.solvers.payment import payment_plan, payment_problem
from tests.tables import make_state

PRODUCERS = [c.name for c in CARDS if any(c.produces) and c.age <= 2]
CHOICE_AND_FIXED = [
    "Forum",
    "Caravansery",
    "Stone Reserve",
    "Clay Reserve",
    "Wood Reserve",
    "Customs House",
]
WONDER_CHOICE = ["The Great Lighthouse", "Piraeus"]
PRICED = [c.id for c in CARDS if any(c.need)]


@st.composite
def cities(draw):
    """Two random Age II cities with random economic tokens, and an item to price."""
    cards = draw(st.lists(st.sampled_from(PRODUCERS + CHOICE_AND_FIXED), unique=True, max_size=12))
    split = draw(st.integers(0, len(cards)))
    wonders_a = draw(st.lists(st.sampled_from(WONDER_CHOICE), unique=True))
    tokens_a = draw(st.lists(st.sampled_from(["Masonry", "Architecture", "Economy"]), unique=True))
    item = draw(
        st.one_of(
            st.tuples(st.just("card"), st.sampled_from(PRICED)),
            st.tuples(st.just("wonder"), st.integers(0, len(WONDERS) - 1)),
        )
    )
    state = make_state(
        age=2,
        A={
            "coins": 99,
            "city": cards[:split],
            "built_wonders": wonders_a,
            "progress_tokens": tokens_a,
        },
        B={"city": cards[split:]},
        board=[],
    )
    return state, item


def oracle_cost(state, player, item):
    kind, ident = item
    if kind == "card" and state.is_chained(player, ident):
        return 0, None
    problem = payment_problem(state, player, **{kind: ident})
    solution = solve(problem)
    assert solution is not None
    assert check_solution(problem, solution) == []
    printed = CARDS[ident].coin_cost if kind == "card" else 0
    return printed + solution.coins, solution


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cities())
def test_fast_pricing_agrees_with_cp_sat(case):
    state, item = case
    kind, ident = item
    fast = state.card_cost(0, ident) if kind == "card" else state.wonder_cost(0, ident)
    expected, _ = oracle_cost(state, 0, item)
    assert fast == expected
    plan = payment_plan(state, 0, **{kind: ident})
    assert plan.total == fast
    need = CARDS[ident].need if kind == "card" else WONDERS[ident].need
    covered = [sum(1 for u in plan.units if u.resource == r) for r in RESOURCES]
    assert covered == list(need)  # the plan pays every unit exactly once
    assert sum(1 for u in plan.units if u.how == "waived") <= 2


def test_fast_pricing_agrees_with_cp_sat_on_real_game_positions():
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        state = play_random_game(rng)
        for p in (0, 1):
            for card in PRICED[::3]:
                assert state.card_cost(p, card) == oracle_cost(state, p, ("card", card))[0]
                checked += 1
    assert checked > 50


def test_min_purchase_cost_known_answers():
    # Two wood at 5 and a glass at 3; one raw choice and a waiver of two.
    assert min_purchase_cost((2, 0, 0, 1, 0), (0,) * 5, 1, 0, (5, 2, 2, 3, 2), 2) == 0
    assert min_purchase_cost((2, 0, 0, 1, 0), (0,) * 5, 0, 0, (5, 2, 2, 3, 2), 2) == 3
    assert min_purchase_cost((0, 0, 0, 2, 2), (0,) * 5, 0, 2, (2, 2, 2, 4, 3), 0) == 6


def test_plan_describes_sources_and_prices():
    state = make_state(
        age=2,
        accessible=["Courthouse"],
        A={"coins": 20, "city": ["Logging Camp", "Caravansery"], "progress_tokens": []},
        B={"city": ["Lumber Yard", "Sawmill", "Glassworks"], "progress_tokens": ["Economy"]},
        board=[],
    )
    plan = payment_plan(state, 0, card=card_named("Courthouse").id)
    text = "\n".join(plan.describe())
    assert "1 wood: produced by Logging Camp" in text
    assert "1 wood: Caravansery (one of its resources, chosen now)" in text
    assert "1 glass: bought for 3 coins" in text
    assert "Economy: the 3 trading coins go to the opponent" in text
    assert "total: 3 coins (affordable)" in text
    assert plan.to_json()["total"] == 3
