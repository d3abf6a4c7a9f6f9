"""Strict position loading: each hole found by mutating real positions is closed, with a message
naming the field and the problem (docs/position-format.md lists every check)."""

from __future__ import annotations

import random

import pytest

from duel import new_game
from duel.position import PositionError, position_from_json, position_to_json


def find(predicate, seeds=range(300)):
    """The JSON of the first state of a seeded random game that satisfies ``predicate``."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if predicate(state):
                return position_to_json(state)
            state = state.apply(state.random_move(rng))
        if predicate(state):
            return position_to_json(state)
    raise AssertionError("no such state")


def rejects(data, *fragments):
    with pytest.raises(PositionError) as info:
        position_from_json(data)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


def in_age(age, phase="play"):
    return lambda s: s.age == age and s.phase == phase


def test_decisions_without_a_legal_move_are_rejected():
    data = find(in_age(2))
    data["phase"] = "mausoleum"
    data["discard"] = []
    rejects(data)  # an empty discard pile (and no Mausoleum built)
    data = find(in_age(2))
    data.update(phase="destroy", destroying="grey")
    for p in "AB":
        data["players"][p]["city"] = [
            c
            for c in data["players"][p]["city"]
            if c not in ("Glassworks", "Press", "Drying Room", "Glassblower", "Glass-Blower")
        ]
    rejects(data)
    data = find(in_age(2))
    data.update(phase="choose_token", progress_tokens=[])
    rejects(data, "choose_token", "no legal move")


def test_no_legal_move_is_rejected_even_when_not_strict():
    data = find(in_age(2))
    data.update(phase="choose_token", progress_tokens=[])
    with pytest.raises(PositionError, match="no legal move|no progress token"):
        position_from_json(data, strict=False)


def test_draft_with_seven_wonders_owned():
    data = find(lambda s: s.phase == "draft" and not s.wonders(0) and not s.wonders(1))
    rest = [
        "The Appian Way",
        "Circus Maximus",
        "The Colossus",
        "The Great Library",
        "The Great Lighthouse",
        "The Hanging Gardens",
        "The Mausoleum",
        "Piraeus",
        "The Pyramids",
        "The Sphinx",
        "The Statue of Zeus",
        "The Temple of Artemis",
    ]
    free = [w for w in rest if w not in data["wonder_offer"]]
    data["players"]["A"]["wonders"] = free[:4]
    data["players"]["B"]["wonders"] = free[4:7]
    data["wonder_offer"] = data["wonder_offer"][:2]
    rejects(data, "wonder")


def test_library_offer_with_a_token_on_the_board_or_owned():
    data = find(in_age(2))
    data["phase"] = "library_choose"
    data["library_offer"] = data["progress_tokens"][:1] + ["Economy", "Law"]
    rejects(data, "library_offer")


def test_fewer_than_four_wonders_during_an_age():
    data = find(in_age(1))
    data["players"]["A"]["wonders"] = data["players"]["A"]["wonders"][:-1]
    rejects(data, "players.A.wonders", "4 wonders")


def test_age_three_with_no_earlier_cards():
    data = find(in_age(3))
    for p in "AB":
        data["players"][p]["city"] = []
        data["players"][p]["wonder_cards"] = []
        data["players"][p]["built_wonders"] = []
    data["discard"] = []
    rejects(data)


def test_too_many_age_one_cards():
    data = find(in_age(2))
    data["discard"] = data["discard"] + ["Lumber Yard", "Stone Pit", "Clay Pool"]
    with pytest.raises(PositionError):
        position_from_json(data)


def test_tokens_owned_without_a_pair_or_the_library():
    data = find(lambda s: s.age == 1 and s.phase == "play" and not s.tokens(0))
    token = data["progress_tokens"].pop()
    data["players"]["A"]["progress_tokens"] = [token]
    data["players"]["A"]["city"] = [c for c in data["players"]["A"]["city"]]
    rejects(data, "progress_tokens")


def test_pawn_far_from_the_shields():
    data = find(lambda s: s.age == 1 and s.phase == "play" and s.pawn == 0)
    data["military"]["pawn"] = 8
    data["military"]["tokens"] = ["A2", "A5"]
    rejects(data, "military")


def test_absurd_coins():
    data = find(in_age(2))
    data["players"]["A"]["coins"] = 10**18
    rejects(data, "players.A.coins")


def test_game_over_result_contradicting_the_table():
    data = find(lambda s: s.is_terminal() and s.victory == "civilian" and s.winner is not None)
    data["result"]["winner"] = "B" if data["result"]["winner"] == "A" else "A"
    rejects(data, "result.winner")
    data = find(lambda s: s.is_terminal() and s.victory == "civilian")
    data["result"]["victory"] = "military"
    rejects(data, "result")


def test_owned_tokens_at_age_zero():
    data = find(lambda s: s.phase == "draft")
    data["players"]["A"]["progress_tokens"] = [data["progress_tokens"].pop()]
    rejects(data, "players.A")


def test_b_cannot_begin_age_one():
    data = find(
        lambda s: (
            s.age == 1
            and s.phase == "play"
            and all(c is not None for c in position_to_json(s)["pyramid"])
        )
    )
    data["to_move"] = "B"
    rejects(data, "to_move")


def test_states_of_random_games_are_all_accepted():
    for seed in range(25):
        rng = random.Random(1000 + seed)
        state = new_game()
        while True:
            assert position_from_json(position_to_json(state)) == state
            if state.is_terminal():
                break
            state = state.apply(state.random_move(rng))


def age_three_json(predicate):
    """The JSON of an Age III state of a random game whose position satisfies ``predicate``."""
    return find(lambda s: s.age == 3 and s.phase == "play" and predicate(position_to_json(s)))


def test_age_three_with_guild_backs_loads_strictly():
    # Three guilds face down: written "?guild", no guild_slots needed.
    data = age_three_json(lambda d: d["pyramid"].count("?guild") == 3)
    assert "guild_slots" not in data
    state = position_from_json(data)
    assert position_to_json(state) == data and len(state.guild_slots) == 3
    # A guild taken: the saved position lists all three slots in guild_slots.
    data = age_three_json(lambda d: "guild_slots" in d and "?guild" in d["pyramid"])
    state = position_from_json(data)
    assert position_to_json(state) == data and len(state.guild_slots) == 3
    # Hand-written without guild_slots: still reachable, the backs in the structure known.
    del data["guild_slots"]
    still_there = [slot for slot in state.guild_slots if data["pyramid"][slot] is not None]
    assert position_from_json(data).guild_slots == still_there


def test_the_age_three_example_is_reachable_with_its_guild_backs():
    from pathlib import Path

    from duel.position import load_position

    path = Path(__file__).resolve().parents[1] / "examples" / "age3_military_threat.json"
    state = load_position(path)  # strict
    assert state.guild_slots == [3, 10, 16]
    data = position_to_json(state)
    assert data["pyramid"].count("?guild") == 3
    data["pyramid"][4] = "?guild"  # a fourth guild: the guild count still applies when strict
    rejects(data, 'pyramid: 4 slots are "?guild"')
