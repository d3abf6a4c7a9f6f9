"""Known answers for every Guild, Olympia B's copy, commercial cards, science and the tie-break."""

from __future__ import annotations

import pytest

from tests.base.base_helpers import play, position
from wonders.game import score_city
from wonders.science import best_assignment, science_score

BOARDS = [("Gizah", "A"), ("Rhodos", "A"), ("Ephesos", "A")]
LEFT = [  # city 1: brown 2, grey 1, blue 1, yellow 1, red 1, green 1
    "Lumber Yard",
    "Stone Pit",
    "Loom",
    "Baths",
    "Tavern",
    "Barracks",
    "Apothecary",
]
RIGHT = [  # city 2: brown 1, grey 2, blue 2, yellow 1, red 2, green 2
    "Clay Pool",
    "Glassworks",
    "Press",
    "Altar",
    "Theater",
    "Marketplace",
    "Stockade",
    "Guard Tower",
    "Scriptorium",
    "Workshop",
]
SELF = ["Ore Vein", "Press"]  # brown 1, grey 1


def guild_position(guild: str):
    return position(
        BOARDS,
        built={0: [*SELF, guild], 1: LEFT, 2: RIGHT},
        stages={0: 1, 1: 1, 2: 2},
        tokens={0: [1, -1], 1: [-1, -1, 1], 2: [-1, 3]},
        age=3,
    )


@pytest.mark.parametrize(
    ("guild", "points"),
    [
        ("Workers Guild", 3),  # brown: 2 + 1 in the neighbours
        ("Craftsmens Guild", 6),  # 2 x grey: 2 x (1 + 2)
        ("Traders Guild", 2),  # yellow: 1 + 1
        ("Philosophers Guild", 3),  # green: 1 + 2
        ("Spies Guild", 3),  # red: 1 + 2
        ("Magistrates Guild", 3),  # blue: 1 + 2
        ("Strategists Guild", 3),  # neighbours' defeat tokens: 2 + 1 (not our own -1)
        ("Shipowners Guild", 3),  # own brown + grey + purple (itself): 1 + 1 + 1
        ("Builders Guild", 4),  # stages: own 1 + 1 + 2
    ],
)
def test_guild_points(guild: str, points: int) -> None:
    sheet = score_city(guild_position(guild), 0)
    assert sheet.guilds == points
    assert sheet.science == 0


def test_scientists_guild_is_a_wildcard() -> None:
    sheet = score_city(guild_position("Scientists Guild"), 0)
    assert (sheet.guilds, sheet.science) == (0, 1)
    s = position(BOARDS, built={0: ["Scientists Guild", "Workshop", "Laboratory", "Apothecary"]})
    # gear 2, compass 1 + wildcard -> gear 3 (9 + 1 = 10) beats a set (4+1+1+7 = 13)? no: set wins
    assert score_city(s, 0).science == science_score(1, 2, 0, 1) == 13


def test_builders_guild_gives_points_not_coins() -> None:
    s = position(
        BOARDS,
        hands={0: ["Builders Guild", "Altar"]},
        built={0: ["Quarry", "Brickyard"], 1: ["Glassworks"]},
        stages={1: 2},
        age=3,
        coins={0: 5},
    )
    s = play(s, {0: "build Builders Guild"})  # needs stone 2 clay 2 glass 1: glass bought
    assert s.cities[0].coins == 3
    assert score_city(s, 0).guilds == 2


def olympia_copy(left_guilds: list[str], right_guilds: list[str], own: list[str]):
    return position(
        [("Olympia", "B"), ("Rhodos", "A"), ("Ephesos", "A")],
        built={0: own, 1: LEFT + left_guilds, 2: RIGHT + right_guilds},
        stages={0: 3},
        tokens={1: [-1, -1, 1], 2: [-1]},
        age=3,
    )


def test_olympia_b_copies_the_best_neighbour_guild_from_its_own_seat() -> None:
    # Spies counted from Olympia's seat: red cards of ITS neighbours = 1 + 2 = 3.
    # Strategists from Olympia's seat: defeat tokens of its neighbours = 2 + 1 = 3.
    # Workers: brown 2 + 1 = 3; Craftsmens: 2 x (1 + 2) = 6 -> the best.
    s = olympia_copy(["Spies Guild", "Workers Guild"], ["Craftsmens Guild"], [])
    assert score_city(s, 0).guilds == 6
    assert score_city(s, 2).guilds == 2 * (0 + 1)  # the neighbour keeps its Guild (grey 0 + 1)
    s2 = olympia_copy(["Spies Guild"], [], [])
    assert score_city(s2, 0).guilds == 3


def test_olympia_b_copying_scientists_guild_grants_a_wildcard() -> None:
    # Unresolved U2 in the reference: we grant the wildcard (the recommendation).
    s = olympia_copy(["Scientists Guild"], [], ["Workshop", "Apothecary"])
    assert score_city(s, 0).science == science_score(1, 1, 0, 1) == 10  # a full set
    assert score_city(s, 0).guilds == 0


def test_olympia_b_without_the_stage_copies_nothing() -> None:
    s = olympia_copy(["Craftsmens Guild"], [], [])
    from dataclasses import replace

    cities = list(s.cities)
    cities[0] = replace(cities[0], stages=2)
    assert score_city(replace(s, cities=tuple(cities)), 0).guilds == 0


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ((1, 1, 1, 0), 10),
        ((3, 2, 1, 0), 21),
        ((2, 2, 1, 1), 26),
        ((4, 1, 1, 1), 34),
        ((2, 1, 0, 1), 13),
        ((3, 1, 0, 1), 18),
        ((3, 3, 0, 2), 36),
        ((0, 0, 0, 1), 1),
        ((0, 0, 0, 0), 0),
    ],
)
def test_science_vectors(counts: tuple[int, int, int, int], expected: int) -> None:
    assert science_score(*counts) == expected


def test_science_wildcard_not_greedy() -> None:
    assert best_assignment(4, 1, 1, 1) == (5, 1, 1)


def test_commercial_cards_coins_now_and_points_at_end() -> None:
    # Lighthouse counts yellow cards including itself; Haven brown; Chamber 2 x grey; Arena stages
    s = position(
        BOARDS,
        built={
            0: [
                "Forum",
                "Caravansery",
                "Clay Pool",
                "Ore Vein",
                "Glassworks",
                "Press",
                "Lumber Yard",
                "Stone Pit",
                "Quarry",
            ]
        },
        hands={0: ["Lighthouse", "Haven", "Chamber of Commerce", "Arena"]},
        stages={0: 2},
        age=3,
        coins={0: 0},
    )
    # card: (coins when built, VP at the end)
    expected = {
        "Lighthouse": (3, 3),
        "Haven": (5, 5),
        "Chamber of Commerce": (4, 4),
        "Arena": (6, 2),
    }
    for card, (coins, points) in expected.items():
        after = play(s, {0: f"build {card}"})
        assert after.cities[0].coins == coins, card
        assert score_city(after, 0).commerce == points, card


def test_vineyard_and_bazar_count_self_and_both_neighbours_including_same_turn() -> None:
    # Unresolved U1: cards neighbours build in the same turn count (we follow the recommendation).
    s = position(
        BOARDS,
        built={0: ["Clay Pool", "Glassworks"], 1: ["Lumber Yard", "Loom"], 2: ["Ore Vein"]},
        hands={0: ["Vineyard", "Bazar"], 1: ["Stone Pit", "Altar"], 2: ["Press", "Altar"]},
        age=2,
        coins={0: 0},
    )
    after = play(s, {0: "build Vineyard", 1: "build Stone Pit", 2: "build Press"})
    assert after.cities[0].coins == 4  # brown: own 1 + left 2 (one new) + right 1
    after = play(s, {0: "build Bazar", 1: "build Stone Pit", 2: "build Press"})
    assert after.cities[0].coins == 2 * 3  # grey: own 1 + left 1 + right 1 (new this turn)


def test_treasury_and_military_and_tie_break_on_coins() -> None:
    s = position(
        BOARDS,
        built={0: ["Altar"], 1: ["Altar"], 2: ["Baths"]},
        coins={0: 14, 1: 15, 2: 15},
        tokens={0: [1, -1], 1: [1, -1], 2: [1, -1]},
    )
    sheets = s.scores()
    assert sheets[0].treasury == 4 and sheets[0].military == 0
    assert [x.total for x in sheets] == [6, 7, 8]
    assert s.winners() == (2,)
    s = position(
        BOARDS,
        built={0: ["Altar"], 1: ["Theater"], 2: ["Pawnshop"]},
        coins={0: 14, 1: 15, 2: 12},
    )
    # totals: 2 + 4 = 6, 2 + 5 = 7, 3 + 4 = 7: tie between 1 and 2, 1 has more coins
    assert s.winners() == (1,)
    s = position(BOARDS, built={1: ["Theater"], 2: ["Altar"]}, coins={0: 3, 1: 6, 2: 6})
    assert s.winners() == (1, 2)  # same total and same coins: a shared win
