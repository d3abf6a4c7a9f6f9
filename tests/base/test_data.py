"""data/base/*.json against the reference CSVs, and deck composition by player count."""

from __future__ import annotations

import csv
import random
from collections import Counter
from pathlib import Path

import pytest

from duel.data import load
from wonders.cards import CARD_BY_NAME, CARDS, GUILDS, WONDERS, age_deck, wonder

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "base"
needs_reference = pytest.mark.skipif(not REFERENCE.exists(), reason="reference not available")


def _rows(name: str) -> list[dict[str, str]]:
    with (REFERENCE / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@needs_reference
def test_cards_json_matches_cards_csv() -> None:
    rows = _rows("cards.csv")
    cards = load("base/cards.json")
    assert len(rows) == len(cards) == 148
    for row, card in zip(rows, cards, strict=True):
        assert card["name"] == row["name"]
        assert card["age"] == int(row["age"])
        assert card["color"] == row["color"]
        cost = dict(card["cost"])
        assert cost.pop("coins", 0) == int(row["cost_coins"] or 0)
        ref_cost = dict(x.split(":") for x in filter(None, row["cost_resources"].split(";")))
        assert cost == {k: int(v) for k, v in ref_cost.items()}
        assert card["chains_from"] == [x for x in row["chains_from"].split("|") if x]
        assert card["chains_to"] == [x for x in row["chains_to"].split("|") if x]
        assert card["min_players"] == (int(row["min_players"]) if row["min_players"] else None)
        assert len(card["effects"]) == len(row["effect"].split(";"))


@needs_reference
def test_wonders_json_matches_wonders_csv() -> None:
    rows = _rows("wonders.csv")
    assert len(rows) == len(WONDERS) == 14
    for row, w in zip(rows, WONDERS, strict=True):
        assert (w.city, w.side) == (row["wonder_city"], row["side"])
        assert len(w.stages) == int(row["num_stages"])


@pytest.mark.parametrize(
    ("players", "counts"),
    [(3, (21, 21, 16)), (4, (28, 28, 22)), (5, (35, 35, 28)), (6, (42, 42, 34)), (7, (49, 49, 40))],
)
def test_deck_sizes_by_player_count(players: int, counts: tuple[int, int, int]) -> None:
    rng = random.Random(players)
    for age, expected in zip((1, 2, 3), counts, strict=True):
        deck = age_deck(age, players, rng)
        guilds = [i for i in deck if CARDS[i].color == "purple"]
        assert len(deck) - len(guilds) == expected
        assert len(guilds) == (players + 2 if age == 3 else 0)
        assert len(deck) == 7 * players


def test_two_player_variant_uses_the_three_player_deck() -> None:
    deck = age_deck(3, 2, random.Random(0))
    assert len(deck) == 21
    assert sum(CARDS[i].color == "purple" for i in deck) == 5
    assert all(CARDS[i].min_players in (None, 3) for i in deck)


def test_known_cards() -> None:
    assert CARD_BY_NAME["Siege Workshop"].cost == (1, 0, 3, 0, 0, 0, 0)
    assert CARD_BY_NAME["Observatory"].cost == (0, 0, 0, 2, 1, 1, 0)
    assert CARD_BY_NAME["Study"].cost == (1, 0, 0, 0, 0, 1, 1)
    east = CARD_BY_NAME["East Trading Post"].effects[0]
    west = CARD_BY_NAME["West Trading Post"].effects[0]
    assert (east.side, east.price, east.resources) == ("right", 1, (0, 1, 2, 3))
    assert (west.side, west.price) == ("left", 1)
    assert CARD_BY_NAME["Forum"].chains_from == ("East Trading Post", "West Trading Post")
    assert not CARD_BY_NAME["Caravansery"].effects[0].tradable
    assert CARD_BY_NAME["Tree Farm"].effects[0].tradable
    assert len(GUILDS) == 10
    assert wonder("Rhodos", "B").stages[1].cost == (0, 0, 0, 4, 0, 0, 0)
    assert wonder("Olympia", "B").stages[2].cost == (0, 0, 0, 2, 0, 1, 0)


def test_chains_mirror_and_count() -> None:
    links = {(c.name, t) for c in CARDS for t in c.chains_to}
    back = {(f, c.name) for c in CARDS for f in c.chains_from}
    assert links == back
    assert len(links) == 26


def test_at_most_four_distinct_cards_per_science_symbol() -> None:
    per_symbol = Counter(
        e.symbol
        for c in {c.name: c for c in CARDS}.values()
        for e in c.effects
        if e.type == "science"
    )
    assert per_symbol == {"compass": 4, "gear": 4, "tablet": 4, "any": 1}
