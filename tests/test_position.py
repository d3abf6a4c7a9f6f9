"""The JSON position format: round trips, hand-written files, and precise error messages."""

import json
from pathlib import Path

import pytest

from duel.position import (
    PositionError,
    dumps_position,
    load_position,
    loads_position,
    position_from_json,
    position_to_json,
    save_position,
)
from tests.tables import end_of_age, make_state

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def base():
    return position_to_json(
        make_state(age=2, accessible=["Walls"], A={"city": ["Quarry"]}, B={"city": ["Glassworks"]})
    )


def error_for(mutate):
    data = base()
    mutate(data)
    with pytest.raises(PositionError) as info:
        position_from_json(data)
    return str(info.value)


def _midgame(seed: int = 3, plies: int = 90):
    import random

    from duel import new_game

    state, rng = new_game(), random.Random(seed)
    for _ in range(plies):
        state = state.apply(state.random_move(rng))
    return state


def test_text_round_trip_is_exact(tmp_path):
    state = _midgame()
    path = tmp_path / "p.json"
    save_position(state, path)
    assert load_position(path) == state
    assert loads_position(dumps_position(state)) == state


def test_examples_load():
    files = sorted(EXAMPLES.glob("*.json"))
    assert len(files) >= 3
    for path in files:
        state = load_position(path)
        assert position_from_json(json.loads(path.read_text())) == state


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["players"]["A"]["city"].append("Glassworks"),
            "Glassworks is in two places: A's city and B's city",
        ),
        (lambda d: d["players"]["A"].update(coins=-1), "players.A.coins: cannot be negative"),
        (lambda d: d["players"]["A"].update(coins="7"), "players.A.coins: expected a whole number"),
        (
            lambda d: d["players"]["B"]["city"].append("Glasworks"),
            "players.B.city[1]: no card named 'Glasworks'; did you mean Glassworks",
        ),
        (lambda d: d.update(age=5), "age: must be 0 (setup) to 3"),
        (lambda d: d["pyramid"].pop(), "pyramid: expected 20 slots, got 19"),
        (lambda d: d["military"].update(pawn=12), "military.pawn: must be between -9 and 9"),
        (lambda d: d["military"].update(pawn=4), "B2 would have been taken"),
        (lambda d: d.update(phase="dancing"), "phase: unknown phase 'dancing'"),
        (
            lambda d: d["players"]["A"].update(
                built_wonders=["The Pyramids", "The Sphinx", "Piraeus", "The Colossus"]
            ),
            None,
        ),
        (lambda d: d.update(to_move="C"), 'to_move: expected "A" or "B"'),
        (lambda d: d.pop("players"), "players: missing"),
        (lambda d: d["pyramid"].__setitem__(9, "Sawmill"), "Sawmill is in two places"),
        (lambda d: d["pyramid"].__setitem__(9, "Baths"), "not an Age 2 card"),
    ],
)
def test_inconsistent_positions_are_rejected_with_a_precise_message(mutate, message):
    if message is None:
        return
    assert message in error_for(mutate)


def test_eight_wonders_built_is_rejected():
    def mutate(d):
        d["players"]["A"]["built_wonders"] = [
            "The Pyramids",
            "The Sphinx",
            "Piraeus",
            "The Colossus",
        ]
        d["players"]["B"]["built_wonders"] = [
            "The Appian Way",
            "Circus Maximus",
            "The Mausoleum",
            "The Great Library",
        ]

    assert "8 wonders built; at most 7" in error_for(mutate)


def test_face_down_slot_cannot_be_named_while_covered():
    def mutate(d):
        d["pyramid"][6] = "Courthouse"  # slot 6 is face down and covered in Age II

    assert 'pyramid[6]: this slot is face down until uncovered; write "?"' in error_for(mutate)


def test_unaccounted_taken_slots_are_rejected():
    def mutate(d):
        d["pyramid"][18] = None

    assert "slots are empty but" in error_for(mutate)


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"age": 2,\n "pyramid": [}')
    with pytest.raises(PositionError, match=r"bad.json: not valid JSON \(line 2"):
        load_position(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(PositionError, match="cannot read the file"):
        load_position(tmp_path / "nope.json")


def test_save_is_atomic(tmp_path, monkeypatch):
    state = make_state(age=1)
    path = tmp_path / "game.json"
    save_position(state, path)
    before = path.read_text()

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(KeyboardInterrupt):
        save_position(make_state(age=2), path)
    assert path.read_text() == before and list(tmp_path.iterdir()) == [path]


def test_taken_slot_still_covered_is_rejected():
    def mutate(d):
        d["discard"].append(d["pyramid"][0])  # accounted for, but slots 6 still covers it
        d["pyramid"][0] = None

    assert "pyramid[0]: taken, but the cards covering it (slots 6)" in error_for(mutate)


def test_pawn_in_a_capital_needs_a_finished_game():
    def mutate(d):
        d["military"] = {"pawn": 9, "tokens": ["A2", "A5"]}

    assert "a pawn in a capital is a military victory" in error_for(mutate)


def test_discarded_card_from_a_later_age_is_rejected():
    assert "Palace cannot be played before its Age" in error_for(
        lambda d: d["discard"].append("Palace")
    )


# --- Age III guild backs ------------------------------------------------------------------------
# These tables are partial (a few cards in the cities, no earlier Ages): they test the guild
# fields, so they load without the reachability checks, like make_state.
def age_three(**kwargs):
    """Age III, slots 18 and 19 taken (their cards in the cities), three guilds face down."""
    return make_state(age=3, A={"city": ["Arsenal"]}, B={"city": ["Palace"]}, **kwargs)


def test_a_face_down_guild_is_written_and_read_as_guild_back():
    state = age_three(guild_backs=[2, 3, 9])
    data = position_to_json(state)
    assert [data["pyramid"][s] for s in (2, 3, 4, 9, 10)] == [
        "?guild",
        "?guild",
        "?",
        "?guild",
        "?",
    ]
    assert "guild_slots" not in data  # no guild slot taken: the marks say it all
    assert position_from_json(data, strict=False) == state and state.guild_slots == [2, 3, 9]


def test_taken_guild_slots_are_kept_for_an_exact_reload():
    guilds = ["Builders Guild", "Moneylenders Guild"]
    state = make_state(age=3, A={"city": guilds[:1]}, discard=guilds[1:], guild_backs=[3])
    assert state.guild_slots == [3]  # a hand-written position does not know the taken ones
    data = position_to_json(state)
    assert "guild_slots" not in data
    data["guild_slots"] = [3, 18, 19]  # the two taken slots held the two guilds
    full = position_from_json(data, strict=False)
    assert full.guild_slots == [3, 18, 19]
    assert position_to_json(full)["guild_slots"] == [3, 18, 19]
    assert position_from_json(position_to_json(full), strict=False) == full


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["pyramid"].__setitem__(4, "?guild"), 'pyramid: 4 slots are "?guild"'),
        (lambda d: d["pyramid"].__setitem__(9, "?"), 'pyramid: 2 slots are "?guild"; Age III has'),
        (lambda d: d.update(guild_slots=[2, 3]), "guild_slots: expected 3 different slots"),
        (lambda d: d.update(guild_slots=[2, 3, 20]), "guild_slots[2]: expected a slot number"),
        (lambda d: d.update(guild_slots=[2, 3, 4]), 'pyramid[9]: "?guild" but slot 9 is not'),
        (lambda d: d.update(guild_slots=[2, 3, 5]), "guild_slots: slot 5 holds"),
        (lambda d: d.update(phase="deal_guilds"), "phase: deal_guilds is the moment Age III"),
    ],
)
def test_inconsistent_guild_backs_are_rejected(mutate, message):
    data = position_to_json(age_three(guild_backs=[2, 3, 9]))
    mutate(data)
    with pytest.raises(PositionError) as info:
        position_from_json(data, strict=False)
    assert message in str(info.value)


def test_guild_back_only_in_age_three():
    data = base()
    data["pyramid"][2] = "?guild"
    with pytest.raises(PositionError, match=r'pyramid\[2\]: "\?guild" \(a face-down guild\)'):
        position_from_json(data, strict=False)
    data = base()
    data["guild_slots"] = [1, 2, 3]
    with pytest.raises(PositionError, match="guild_slots: only in Age III"):
        position_from_json(data, strict=False)


def test_old_positions_load_where_the_guild_backs_follow():
    # No guild face down: every "?" is an Age III back.
    guilds = ["Builders Guild", "Moneylenders Guild", "Scientists Guild"]
    state = make_state(age=3, A={"city": guilds[:2]}, discard=guilds[2:])
    data = position_to_json(state)
    assert "?guild" not in data["pyramid"] and state.guild_slots == []
    assert position_from_json(data, strict=False) == state
    # Just laid out, nothing turned over: the guild deal is the next chance event.
    data["pyramid"] = ["?"] * 20
    data["discard"], data["players"]["A"]["city"] = [], []
    fresh = position_from_json(data, strict=False)
    assert fresh.phase == "deal_guilds" and len(fresh.chance_outcomes()) == 1140
    assert position_from_json(position_to_json(fresh), strict=False) == fresh


def test_old_positions_that_hide_a_guild_are_refused_with_what_to_add():
    data = position_to_json(age_three(guild_backs=[2, 3, 9]))
    data["pyramid"] = ["?" if v == "?guild" else v for v in data["pyramid"]]
    with pytest.raises(PositionError) as info:
        position_from_json(data, strict=False)
    assert str(info.value) == (
        "pyramid: the face-down cards (slots 2, 3, 4, 9, 10) hide 3 of the 3 guilds, whose "
        'backs are visible: write "?guild" for each face-down guild ("?" for an Age III back)'
    )


def _between_ages(age: int, seed: int = 1):
    """A random game's state at ``choose_starter`` of ``age`` (2 or 3): the structure laid out,
    its face-up cards revealed, nothing taken."""
    import random

    from duel import new_game

    for s in range(seed, seed + 50):
        state, rng = new_game(), random.Random(s)
        while not state.is_terminal():
            if state.phase == "choose_starter" and state.age == age:
                return state
            state = state.apply(state.random_move(rng))
    raise AssertionError("no game reached that choice")


@pytest.mark.parametrize("age", [2, 3])
def test_a_position_at_choose_starter_has_the_new_structure_and_reloads_exactly(age):
    state = _between_ages(age)
    data = position_to_json(state)
    assert data["phase"] == "choose_starter" and data["age"] == age
    assert None not in data["pyramid"] and data["pyramid"][18] not in ("?", "?guild")
    face_down_guilds = [s for s in state.guild_slots if state.pyramid[s] < 0]
    assert data["pyramid"].count("?guild") == len(face_down_guilds)
    assert len(state.guild_slots) == (3 if age == 3 else 0)
    assert position_from_json(data) == state  # strict: reachable
    # the same table written as the last reveal's node is that choice
    assert position_from_json({**data, "phase": "reveal"}) == state


def test_choose_starter_needs_the_laid_out_structure():
    state = _between_ages(2)
    data = position_to_json(state)
    face_up = {**data, "pyramid": ["?", *data["pyramid"][1:]]}
    with pytest.raises(PositionError, match="face-up cards are turned over"):
        position_from_json(face_up)
    # the same table as a reveal node: the chooser is to move, then chooses after the reveal
    reveal = position_from_json({**face_up, "phase": "reveal"})
    assert reveal.is_chance() and reveal.to_move == state.to_move
    # as the engine had it before: Age I's structure empty, the choice before the layout
    old = position_to_json(end_of_age(1, ["Tavern"]))
    old = {**old, "phase": "choose_starter", "pyramid": [None] * 20}
    old["discard"] = [*old["discard"], "Tavern"]
    with pytest.raises(PositionError, match="comes once Age II or III is laid out"):
        position_from_json(old, strict=False)


def test_the_chooser_is_the_weaker_player_while_the_next_age_is_laid_out():
    for seed in range(1, 60):
        state = _between_ages(2, seed)
        if state.pawn:
            break
    data = position_to_json(state)
    weaker = "B" if state.pawn > 0 else "A"
    assert data["to_move"] == weaker
    other = "A" if weaker == "B" else "B"
    with pytest.raises(PositionError, match="chooses who begins Age II once its structure"):
        position_from_json({**data, "to_move": other})
    # in play, after the choice, either player may begin
    began = position_from_json({**data, "to_move": other, "phase": "play"})
    assert began.phase == "play" and began.to_move == (0 if other == "A" else 1)
