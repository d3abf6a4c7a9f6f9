"""The ten progress tokens (Architecture, Economy, Masonry, Strategy and Theology are also
covered where their effect applies: test_trading, test_military, test_wonders)."""

from tests.tables import after, make_state


def choose(token, city=("Workshop",), coins=20):
    state = make_state(
        age=2, accessible=["Laboratory"], A={"coins": coins, "city": list(city)}, board=[token]
    )
    return after(state, "build Laboratory", f"token {token}")


def test_agriculture_six_coins_and_four_points():
    state = choose("Agriculture")
    assert state.coins(0) == 20 - 6 + 6 and state.score(0).tokens == 4


def test_urbanism_six_coins_now():
    assert choose("Urbanism").coins(0) == 20 - 6 + 6


def test_philosophy_seven_points():
    assert choose("Philosophy").score(0).tokens == 7


def test_masonry_and_architecture_apply_to_later_constructions():
    from duel import card_named

    state = choose("Masonry")
    assert state.tokens(0) == [4]
    courthouse = card_named("Courthouse").id
    assert state.card_cost(0, courthouse) == 2  # 2 wood waived, 1 glass at 2


def test_law_is_a_science_symbol():
    assert "law" in choose("Law").science(0)


def test_strategy_is_not_retroactive():
    state = choose("Strategy")
    assert state.pawn == 0
