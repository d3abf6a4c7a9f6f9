"""Known answers for every stage of every Wonder board (both sides)."""

from __future__ import annotations

import pytest

from tests.base.base_helpers import play, position
from wonders.cards import RESOURCES, wonder
from wonders.game import score_city

# Enough production to pay any stage without trading (plus the board's own resource).
RICH = [
    "Sawmill", "Quarry", "Brickyard", "Foundry", "Lumber Yard", "Stone Pit", "Clay Pool",
    "Ore Vein", "Glassworks", "Loom", "Press",
]  # fmt: skip
NEIGHBOURS = [("Gizah", "A"), ("Gizah", "B")]

# (city, side, stage) -> expected change. Written from the rulebook / wonders.csv by hand.
EXPECTED: dict[tuple[str, str, int], dict] = {
    ("Gizah", "A", 1): {"points": 3},
    ("Gizah", "A", 2): {"points": 5},
    ("Gizah", "A", 3): {"points": 7},
    ("Gizah", "B", 1): {"points": 3},
    ("Gizah", "B", 2): {"points": 5},
    ("Gizah", "B", 3): {"points": 5},
    ("Gizah", "B", 4): {"points": 7},
    ("Babylon", "A", 1): {"points": 3},
    ("Babylon", "A", 2): {"wild": 1},
    ("Babylon", "A", 3): {"points": 7},
    ("Babylon", "B", 1): {"points": 3},
    ("Babylon", "B", 2): {"flag": "last_card"},
    ("Babylon", "B", 3): {"wild": 1},
    ("Olympia", "A", 1): {"points": 3},
    ("Olympia", "A", 2): {"flag": "free_build"},
    ("Olympia", "A", 3): {"points": 7},
    ("Olympia", "B", 1): {"raw_price": 1},
    ("Olympia", "B", 2): {"points": 5},
    ("Olympia", "B", 3): {"flag": "copy_guild"},
    ("Ephesos", "A", 1): {"points": 3},
    ("Ephesos", "A", 2): {"coins": 9},
    ("Ephesos", "A", 3): {"points": 7},
    ("Ephesos", "B", 1): {"points": 2, "coins": 4},
    ("Ephesos", "B", 2): {"points": 3, "coins": 4},
    ("Ephesos", "B", 3): {"points": 5, "coins": 4},
    ("Halikarnassos", "A", 1): {"points": 3},
    ("Halikarnassos", "A", 2): {"discard_build": True},
    ("Halikarnassos", "A", 3): {"points": 7},
    ("Halikarnassos", "B", 1): {"points": 2, "discard_build": True},
    ("Halikarnassos", "B", 2): {"points": 1, "discard_build": True},
    ("Halikarnassos", "B", 3): {"discard_build": True},
    ("Rhodos", "A", 1): {"points": 3},
    ("Rhodos", "A", 2): {"shields": 2},
    ("Rhodos", "A", 3): {"points": 7},
    ("Rhodos", "B", 1): {"shields": 1, "points": 3, "coins": 3},
    ("Rhodos", "B", 2): {"shields": 1, "points": 4, "coins": 4},
    ("Alexandria", "A", 1): {"points": 3},
    ("Alexandria", "A", 2): {"private_choice": ("wood", "stone", "clay", "ore")},
    ("Alexandria", "A", 3): {"points": 7},
    ("Alexandria", "B", 1): {"private_choice": ("wood", "stone", "clay", "ore")},
    ("Alexandria", "B", 2): {"private_choice": ("glass", "loom", "papyrus")},
    ("Alexandria", "B", 3): {"points": 7},
}


def test_every_stage_has_an_expectation() -> None:
    from wonders.cards import WONDERS

    stages = {(w.city, w.side, k + 1) for w in WONDERS for k in range(len(w.stages))}
    assert stages == set(EXPECTED)


@pytest.mark.parametrize(("city", "side", "stage"), sorted(EXPECTED))
def test_wonder_stage(city: str, side: str, stage: int) -> None:
    want = EXPECTED[(city, side, stage)]
    boards = [(city, side), *[n for n in NEIGHBOURS]]
    if city == "Gizah":
        boards[1:] = [("Rhodos", "A"), ("Rhodos", "B")]
    before = position(
        boards,
        built={0: RICH},
        stages={0: stage - 1},
        hands={0: ["Pawnshop", "Altar"]},
        discard=["Temple"],
        coins={0: 5},
    )
    after = play(before, {0: "wonder Pawnshop"})
    b, a = before.cities[0], after.cities[0]
    assert a.stages == stage
    assert a.built == b.built, "a card used for a stage is not a structure"
    assert score_city(after, 0).wonder - score_city(before, 0).wonder == want.get("points", 0)
    assert a.coins - b.coins == want.get("coins", 0), "stage paid with own production"
    assert a.profile.shields - b.profile.shields == want.get("shields", 0)
    assert a.profile.science[3] - b.profile.science[3] == want.get("wild", 0)
    new_choices = [c for c in a.profile.own.choices if c not in b.profile.own.choices]
    if "private_choice" in want:
        assert [tuple(RESOURCES[r] for r in c) for c in new_choices] == [want["private_choice"]]
        assert a.profile.sell == b.profile.sell, "Wonder production cannot be bought"
    else:
        assert new_choices == []
    if "raw_price" in want:
        assert a.profile.prices == ((1, 1, 1, 1, 2, 2, 2), (1, 1, 1, 1, 2, 2, 2))
    else:
        assert a.profile.prices == b.profile.prices
    for flag in ("last_card", "free_build", "copy_guild"):
        assert getattr(a.profile, flag) == (want.get("flag") == flag or getattr(b.profile, flag))
    if want.get("discard_build"):
        assert after.phase == "pick" and after.to_act == (0,)
        assert after.legal_moves(0)[0].card == "Temple"
    else:
        assert after.phase == "choose"


def test_stage_counts_and_starting_resources() -> None:
    assert [len(wonder(c, s).stages) for c in ("Gizah", "Rhodos") for s in "AB"] == [3, 4, 3, 2]
    assert RESOURCES[wonder("Halikarnassos", "B").resource] == "loom"
    assert RESOURCES[wonder("Ephesos", "A").resource] == "papyrus"
