"""Fuzzing the loaders: only PositionError / RecordError ever escape, and every accepted
position plays to the end at random without error."""

from __future__ import annotations

import contextlib
import json
import os
import random
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel import new_game
from duel.app.cli.support import load_state_or_fail
from duel.catalog import CARDS, TOKENS, WONDERS
from duel.position import PositionError, load_position, position_from_json, position_to_json
from duel.record import GameRecord, RecordError
from duel.state import play_random_game
from tests.fuzzing import json_values, mutations

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _sample_positions() -> list[dict]:
    out = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("**/*.json"))]
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if rng.random() < 0.08:
                out.append(position_to_json(state))
            state = state.apply(state.random_move(rng))
        out.append(position_to_json(state))
    return out


SAMPLES = _sample_positions()
NAMES = [c.name for c in CARDS] + [w.name for w in WONDERS] + [t.name for t in TOKENS]
NAMES += ["?", "A", "B", "play", "game_over", "draft", "reveal", "grey"]
JSON = json_values(NAMES)


def mutated_positions():
    return mutations(SAMPLES, NAMES)


def plays_to_the_end(state) -> None:
    for seed in range(2):
        final = play_random_game(random.Random(seed), state)
        assert final.is_terminal()


def load_or_none(data):
    try:
        return position_from_json(data)
    except PositionError:
        return None


@FUZZ
@given(mutated_positions())
def test_mutated_positions_are_rejected_or_playable(data):
    state = load_or_none(data)
    if state is not None:
        plays_to_the_end(state)


@FUZZ
@given(JSON)
def test_arbitrary_json_is_a_position_or_record_error(data):
    load_or_none(data)  # only PositionError may escape
    with contextlib.suppress(RecordError):
        GameRecord.from_json(data)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes_in_a_file(tmp_path, raw):
    path = tmp_path / "f.json"
    path.write_bytes(raw)
    for load, errors in (
        (load_position, PositionError),
        (GameRecord.load, RecordError),
    ):
        with contextlib.suppress(errors):
            load(path)
    try:
        load_state_or_fail(path)  # the CLI: a state, or its one-line error and exit 2
    except typer.Exit as stop:
        assert stop.exit_code == 2


@st.composite
def mutated_records(draw):
    rng = random.Random(draw(st.integers(0, 5)))
    state, moves = new_game(), []
    for _ in range(draw(st.integers(0, 160))):
        if state.is_terminal():
            break
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    data = GameRecord(tuple(moves)).to_json()
    if data["moves"]:
        i = draw(st.integers(0, len(data["moves"]) - 1))
        data["moves"][i] = draw(
            st.one_of(JSON, st.sampled_from([f"build {n}" for n in NAMES] + ["draw Law, ?, ?", ""]))
        )
    return data


@FUZZ
@given(mutated_records())
def test_mutated_records_are_record_errors(data):
    try:
        record = GameRecord.from_json(data)
    except RecordError:
        return
    plays_to_the_end(record.final_state())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"age": \xff}', "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"age": ' + b"9" * 5000 + b"}", "not a usable JSON value"),
    ],
)
def test_file_problems_name_the_problem(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for load, error in ((load_position, PositionError), (GameRecord.load, RecordError)):
        with pytest.raises(error, match=message):
            load(path)


def test_nul_byte_in_a_path():
    with pytest.raises(PositionError, match="NUL"):
        load_position("bad\0name.json")
    with pytest.raises(RecordError, match="NUL"):
        GameRecord.load("bad\0name.json")


# --- fields that must agree both ways (issue 23, item 8) ----------------------------------------
def _age3_with_a_face_down_guild_listed() -> dict:
    """An Age III position whose guild_slots is written (a guild was taken) with a guild still
    face down ("?guild")."""
    for seed in range(300):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            data = position_to_json(state)
            if (
                state.age == 3
                and not state.is_chance()
                and "guild_slots" in data
                and "?guild" in data["pyramid"]
            ):
                return data
            state = state.apply(state.random_move(rng))
    pytest.skip("no random game had a face-down guild once guild_slots is written")


def test_a_listed_guild_slot_written_face_down_plain_is_refused():
    data = _age3_with_a_face_down_guild_listed()
    position_from_json(data)  # as written, it loads
    slot = data["pyramid"].index("?guild")
    data["pyramid"][slot] = "?"
    with pytest.raises(PositionError, match=rf'pyramid\[{slot}\]: "\?" but slot {slot} is in '
                       "guild_slots"):  # fmt: skip
        position_from_json(data)


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_a_record_version_is_a_readable_number(version):
    with pytest.raises(RecordError, match="version: this program reads versions 1 and 2"):
        GameRecord.from_json({"format": "7wd-record", "version": version, "moves": []})
    GameRecord.from_json({"format": "7wd-record", "version": 1, "moves": []})


def test_a_base_game_record_wants_numbers_not_true():
    from wonders.record import GameRecord as BaseRecord
    from wonders.record import RecordError as BaseRecordError

    good = {"format": "7w-record", "version": 1, "players": 3, "seed": 5, "moves": []}
    BaseRecord.from_json(good)
    for key in ("version", "seed"):
        with pytest.raises(BaseRecordError, match=key):
            BaseRecord.from_json({**good, key: True})
