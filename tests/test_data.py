"""The project's data files against the verified reference in ../shared/reference/duel."""

import csv
import json
from pathlib import Path

import pytest

from duel import CARDS, TOKENS, WONDERS, card_named
from duel.catalog import AGE_DECK, RESOURCES
from duel.pyramid_layouts import LAYOUTS

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "duel"
needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(), reason="reference data not present")


def reference_rows(name):
    with open(REFERENCE / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_component_counts():
    assert len(CARDS) == 73 and len(WONDERS) == 12 and len(TOKENS) == 10
    assert [AGE_DECK[a].bit_count() for a in (1, 2, 3, 4)] == [23, 23, 20, 7]


def test_spot_values():
    assert card_named("Courthouse").color == "blue" and card_named("Courthouse").points == 5
    assert card_named("Pretorium").coin_cost == 8 and card_named("Pretorium").shields == 3
    assert card_named("Forum").coin_cost == 3 and card_named("Forum").need == (0, 1, 0, 0, 0)
    assert card_named("Caravansery").produce_choice == (0, 1, 2)
    assert card_named("Customs House").trade_fixed == (3, 4)
    assert card_named("Senate").need == (0, 2, 1, 0, 1) and card_named("Senate").points == 5
    assert card_named("Observatory").chain_from == "lamp"
    assert card_named("Arena").coins_per == (("wonder",), 2)
    assert card_named("Palisade").coin_cost == 2 and card_named("Walls").need == (0, 0, 2, 0, 0)
    assert card_named("Parade Ground").need == (0, 2, 0, 1, 0)


@needs_reference
def test_every_card_matches_the_reference():
    rows = reference_rows("cards.csv")
    assert len(rows) == len(CARDS)
    for row, card in zip(rows, CARDS, strict=True):
        assert card.name == row["name"]
        assert card.color == row["color"]
        assert card.age == (4 if row["age"] == "guild" else int(row["age"]))
        assert card.coin_cost == int(row["cost_coins"])
        cost = dict(item.split(":") for item in filter(None, row["cost_resources"].split(";")))
        assert card.need == tuple(int(cost.get(r, 0)) for r in RESOURCES), card.name
        assert (card.chain_from or "") == row["chain_from"]
        assert (card.chain_gives or "") == row["chain_symbol_given"]
        assert card.points == int(row["points"]), card.name


@needs_reference
def test_every_wonder_matches_the_reference():
    for row, wonder in zip(reference_rows("wonders.csv"), WONDERS, strict=True):
        assert wonder.name == row["name"]
        assert wonder.points == int(row["points"]) and wonder.shields == int(row["shields"])
        assert wonder.coins == int(row["coins"])
        assert wonder.extra_turn == (row["extra_turn"] == "yes")
        assert wonder.opponent_loses == int(row["opponent_loses_coins"])
        assert (wonder.destroy or "") == row["destroy_color"]
        cost = dict(item.split(":") for item in row["cost_resources"].split(";"))
        assert wonder.need == tuple(int(cost.get(r, 0)) for r in RESOURCES)


@needs_reference
def test_every_token_matches_the_reference():
    for row, token in zip(reference_rows("progress_tokens.csv"), TOKENS, strict=True):
        assert token.name == row["name"] and token.points == int(row["points"])


@needs_reference
def test_layouts_match_the_reference_slot_by_slot():
    reference = json.loads((REFERENCE / "layouts.json").read_text(encoding="utf-8"))
    for age, layout in LAYOUTS.items():
        slots = reference["ages"][str(age)]["slots"]
        for slot in slots:
            s = slot["slot"]
            assert layout.covered_by[s] == tuple(slot["covered_by"])
            assert layout.covers[s] == tuple(sorted(slot["covers"]))
            assert layout.face_up[s] == slot["face_up"] and layout.x[s] == slot["x"]
        assert sum(not f for f in layout.face_up) == 8
        assert [len(r) for r in layout.rows] == reference["ages"][str(age)]["row_sizes"]
