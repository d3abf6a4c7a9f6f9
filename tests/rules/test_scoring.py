"""Civilian scoring: every category, guilds and yellow cards of Age III, and the tie-break."""

from tests.tables import after, end_of_age, make_state


def test_score_categories():
    state = make_state(
        age=3,
        pawn=4,
        military=["A2", "A5", "B5"],
        A={
            "coins": 11,
            "city": ["Theater", "Workshop", "Palace", "Arena", "Lighthouse"],
            "built_wonders": ["The Pyramids"],
            "progress_tokens": ["Philosophy", "Agriculture"],
        },
        board=[],
    )
    score = state.score(0)
    assert (score.blue, score.green, score.yellow, score.wonders) == (10, 1, 6, 9)
    assert (score.tokens, score.coins, score.military, score.purple) == (11, 3, 5, 0)
    assert score.total == 45


def test_mathematics_counts_every_token_including_itself():
    state = make_state(age=1, A={"progress_tokens": ["Mathematics", "Law", "Strategy"]}, board=[])
    assert state.score(0).tokens == 9


def test_guilds_count_the_city_with_the_most():
    state = make_state(
        age=3,
        accessible=["Merchants Guild"],
        A={"coins": 20, "city": ["Tavern"]},
        B={"city": ["Stone Reserve", "Clay Reserve", "Wood Reserve"]},
    )
    state = after(state, "build Merchants Guild")
    assert state.coins(0) == 20 - 8 + 3  # 1 coin per yellow card in B's city (3)
    assert state.score(0).purple == 3


def test_shipowners_guild_counts_brown_and_grey_in_one_city():
    state = make_state(
        age=3,
        A={"city": ["Lumber Yard", "Quarry", "Shipowners Guild"]},
        B={"city": ["Clay Pool", "Glassworks", "Press"]},
    )
    assert state.score(0).purple == 3  # max(2, 3), never A's brown + B's grey


def test_builders_and_moneylenders_guilds():
    state = make_state(
        age=3,
        A={
            "coins": 5,
            "city": ["Builders Guild", "Moneylenders Guild"],
            "built_wonders": ["The Pyramids"],
        },
        B={"coins": 14, "built_wonders": ["The Sphinx", "The Colossus"]},
    )
    assert state.score(0).purple == 2 * 2 + 14 // 3


def test_guild_coins_are_counted_at_construction_and_points_at_the_end():
    state = make_state(
        age=3,
        accessible=["Tacticians Guild", "Arsenal"],
        A={"coins": 30},
        B={"city": ["Guard Tower", "Stable"]},
        board=[],
    )
    state = after(state, "build Tacticians Guild")
    assert state.coins(0) == 30 - 8 + 2  # 4 units at 2; 2 red cards in B's city


def test_lighthouse_counts_itself_and_is_worth_three():
    state = make_state(age=3, accessible=["Lighthouse"], A={"coins": 0, "city": ["Tavern"]})
    state = after(state, "build Lighthouse")  # free through the amphora chain
    assert state.coins(0) == 2 and state.score(0).yellow == 3


def test_age_three_yellow_cards_count_own_city_only():
    state = make_state(
        age=3,
        accessible=["Port"],
        A={"coins": 20, "city": ["Lumber Yard", "Quarry", "Press"]},
        B={"city": ["Clay Pool", "Stone Pit", "Logging Camp"]},
    )
    state = after(state, "build Port")  # 2 per brown card in A's city only: 4 (Press is grey)
    assert state.coins(0) == 20 - 2 + 4  # buys the glass only


def test_arena_chamber_of_commerce_and_armory():
    city = {
        "coins": 30,
        "city": ["Glassworks", "Press", "Guard Tower"],
        "built_wonders": ["The Pyramids", "The Sphinx"],
    }
    for card, coins in (
        ("Arena", 30 - 6 + 2 * 2),
        ("Chamber of Commerce", 30 - 2 + 3 * 2),
        ("Armory", 30 - 4 + 1),
    ):
        state = make_state(age=3, accessible=[card], A=city, board=[])
        assert after(state, f"build {card}").coins(0) == coins, card


def test_coins_score_one_point_per_full_set_of_three():
    assert make_state(age=1, A={"coins": 8}).score(0).coins == 2


def test_tie_is_broken_by_blue_points_not_blue_cards():
    state = end_of_age(
        3,
        ["Obelisk"],
        A={"city": ["Palace"], "coins": 0},
        B={"city": ["Theater", "Altar", "Workshop"], "coins": 0},
    )
    state = after(state, "discard Obelisk")  # A 7 + 0, B 6 + 1 = 7: A wins on blue 7 > 6
    assert state.score(0).total == state.score(1).total == 7 + (2 // 3)
    assert state.winner == 0 and state.victory == "civilian"


def test_equal_points_and_equal_blue_points_is_a_shared_victory():
    state = end_of_age(
        3, ["Obelisk"], A={"city": ["Theater"], "coins": 0}, B={"city": ["Altar"], "coins": 0}
    )
    state = after(state, "discard Obelisk")
    assert state.is_terminal() and state.winner is None and state.is_shared_victory
    assert state.returns() == (0.0, 0.0)
