"""Expansion positions (``7wd-xposition``): every table between two turns of random games
round-trips for the referee and both views, and a malformed or impossible table is refused
with the field named."""

import copy
import json
import random

import pytest
from hypothesis import given, settings

from duel.expansions import new_xgame
from duel.expansions.agora import CONSPIRACIES, DECREES
from duel.expansions.components import DIVINITY, XCARDS, XTOKENS, XWONDERS
from duel.expansions.position import (
    PHASES,
    XPositionError,
    load_position,
    position_from_json,
    position_to_json,
    save_position,
)
from tests.fuzzing import mutations

pytestmark = pytest.mark.expansions


def _tables(expansions, seed, every=3):
    """States between two turns of a random game (one in ``every``), referee's."""
    rng = random.Random(seed)
    state = new_xgame(expansions)
    count = 0
    while not state.is_terminal():
        if state.phase in PHASES and state.age:
            try:
                position_to_json(state)
            except XPositionError:
                pass
            else:
                count += 1
                if count % every == 0:
                    yield state
        state = state.apply(state.random_move(rng), check=False)


@pytest.mark.parametrize(
    "expansions", [(), ("pantheon",), ("agora",), ("agora", "pantheon")], ids=str
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_table_round_trips_for_the_referee_and_both_views(expansions, seed):
    tables = 0
    for state in _tables(expansions, seed):
        for observed in (state, state.view(0), state.view(1)):
            data = position_to_json(observed)
            text = json.dumps(data)  # plain JSON: names, numbers, lists
            back = position_from_json(json.loads(text))
            assert back == observed, (observed.describe(), data)
            assert back.legal_moves() == observed.legal_moves()
            assert back.chance_outcomes() == observed.chance_outcomes()
        tables += 1
    assert tables >= 5


def test_a_view_hides_the_opponents_private_cards():
    state = next(
        s
        for s in _tables(("pantheon",), 4, every=1)
        if any(sp is not None and not sp.face_up for sp in s.spaces)
    )
    space = next(sp for sp in state.spaces if sp is not None and not sp.face_up)
    mine = position_to_json(state.view(space.owner))
    theirs = position_to_json(state.view(1 - space.owner))
    assert space.divinity in json.dumps(mine)
    assert space.divinity not in json.dumps(theirs["pantheon"]["spaces"])
    # The referee's position may not hide it: "?" is for the observer's opponent only.
    hidden = copy.deepcopy(theirs)
    hidden["observer"] = None
    with pytest.raises(XPositionError, match=r'"\?" only for the opponent'):
        position_from_json(hidden)


def _a_pantheon_table():
    """A Pantheon table with a decision (not a card to turn over), a few turns in."""
    return next(s for s in _tables(("pantheon",), 5, every=10) if s.phase == "play")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(age=4), "age: expected 1, 2 or 3, got 4"),
        (lambda d: d.update(phase="zeus"), "not a table between two turns"),
        (lambda d: d.update(agea=2), "agea: unknown key .did you mean 'age'"),
        (lambda d: d["players"]["A"].update(coinz=3), "players.A.coinz: unknown key"),
        (lambda d: d["players"]["A"].update(coins=-1), "players.A.coins: expected 0 to 999"),
        (lambda d: d["military"].update(pawn=9), "military.pawn: expected -8 to 8"),
        (lambda d: d.update(expansions=["cities"]), "is not one of agora, pantheon"),
        (
            lambda d: d.update(expansions=["pantheon", "pantheon"]),
            r'expansions\[1\]: "pantheon" is listed twice',
        ),
        (lambda d: d["pyramid"].pop(), "pyramid: Age .* has 20 slots"),
        (lambda d: d.update(to_move="C"), 'to_move: expected "A" or "B"'),
        (lambda d: d["players"]["B"].update(conspiracies=[]), "Agora's; the game is played"),
        (lambda d: d["pantheon"].update(spaces=[None] * 5), "pantheon.spaces: 6 spaces"),
        (lambda d: d["players"]["A"]["city"].append("Glassblowre"), "did you mean"),
    ],
)
def test_a_malformed_position_names_the_field(change, message):
    data = position_to_json(_a_pantheon_table())
    change(data)
    with pytest.raises(XPositionError, match=message):
        position_from_json(data)


def test_a_card_in_two_places_is_refused_with_both_places():
    data = position_to_json(_a_pantheon_table())
    card = next(c for c in data["pyramid"] if c and not c.startswith("?"))
    data["players"]["B"]["city"].append(card)
    with pytest.raises(XPositionError, match=f"{card} is in two places: slot .* and B's city"):
        position_from_json(data)


def test_the_empty_slots_must_match_the_cards_taken_this_age():
    data = position_to_json(_a_pantheon_table())
    slot = next(i for i, c in enumerate(data["pyramid"]) if c is None)
    data["pyramid"][slot] = "?"  # a card back where one was taken: one card too many
    with pytest.raises(XPositionError, match="empty slots, but"):
        position_from_json(data)


def test_a_position_file_is_written_atomically_and_read_back(tmp_path):
    state = _a_pantheon_table().view(0)
    path = tmp_path / "table.json"
    save_position(state, path)
    assert load_position(path) == state
    path.write_text("{not json")
    with pytest.raises(XPositionError, match="table.json"):
        load_position(path)


def test_hint_and_show_read_a_position_of_the_player_to_move_only(tmp_path, capsys):
    import typer

    from duel.app.cli.xfiles import hint_record, show_expansion_file

    state = _a_pantheon_table()
    mover = state.to_move
    path = tmp_path / "mine.json"
    save_position(state.view(mover), path)
    assert hint_record(path, 0.2, 2, 0, True) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "AB"[mover]
    assert show_expansion_file(path, None) == 0
    assert "Pantheon" in capsys.readouterr().out
    save_position(state.view(1 - mover), path)
    with pytest.raises(typer.Exit):
        hint_record(path, 0.2, 2, 0, True)
    assert "a hint reads the mover's own view" in capsys.readouterr().err


# --- fuzzing: only XPositionError escapes, and an accepted table plays on ----------------------
def _samples():
    out = []
    for expansions in (("pantheon",), ("agora",), ("agora", "pantheon")):
        tables = list(_tables(expansions, 7, every=4))
        for state in tables[:: max(1, len(tables) // 4)]:  # Age I to Age III
            out.append(position_to_json(state))
            out.append(position_to_json(state.view(state.to_move)))
    return out


_SAMPLES = _samples()
_NAMES = sorted(
    {c.name for c in XCARDS}
    | {w.name for w in XWONDERS}
    | {t.name for t in XTOKENS}
    | set(DIVINITY)
    | set(CONSPIRACIES)
    | set(DECREES)
    | {"?", "?senator", "?guild", "?temple", "A", "B", "Gate", "Greek", "play", "reveal"}
)
@settings(max_examples=60, deadline=None)
@given(mutations(_SAMPLES, _NAMES))
def test_a_mutated_position_is_refused_or_plays_to_the_end(data):
    try:
        state = position_from_json(data)
    except XPositionError:
        return
    rng = random.Random(0)
    while not state.is_terminal():
        state = state.apply(state.random_move(rng), check=False)


def test_a_position_error_is_said_in_the_users_language(tmp_path):
    """Expansion positions' errors are Reasons, translated as the base formats' (issue 61)."""
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    state = next(s for s in _tables(("agora",), 0) if s.phase == "play")
    data = position_to_json(state)
    data["age"] = 4
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    english = CliRunner().invoke(app, ["show", str(path)]).output
    assert "age: expected 1, 2 or 3, got 4" in english
    japanese = CliRunner().invoke(app, ["--lang", "ja", "show", str(path)]).output
    assert "age: 1、2、3 のいずれかが必要だが 4 だった" in japanese


@pytest.mark.parametrize(
    ("change", "message", "template"),
    [
        (
            lambda d: d["players"]["A"].update(coins="3"),
            'players.A.coins: expected a whole number, got "3"',
            "{path}{key}: expected {expected}, got {got}",
        ),
        (
            lambda d: d["players"]["A"].update(city="Baths"),
            'players.A.city: expected a list, got "Baths"',
            "{path}{key}: expected {expected}, got {got}",
        ),
        (
            lambda d: d["players"]["A"]["city"].append(7),
            r"players.A.city\[\d+\]: expected a name, got 7",
            "{field}: expected a name, got {value}",
        ),
        (
            lambda d: d.update(to_move=["A"] * 1000),
            r'to_move: expected "A" or "B", got \["A", .*\.\.\. \(5,000 characters\)',
            '{field}: expected "A" or "B", got {value}',
        ),
    ],
)
def test_expansion_field_errors_come_from_the_shared_reader(change, message, template):
    """The expansion positions read their fields with the base game's reader
    (:class:`duel.json_reader.JsonReader`): the same sentences, as translatable Reasons, a
    long value shortened saying its length."""
    data = position_to_json(_a_pantheon_table())
    change(data)
    with pytest.raises(XPositionError, match=message) as caught:
        position_from_json(data)
    assert caught.value.args[0].template == template


def test_file_problems_of_an_expansion_position_or_record_are_reasons(tmp_path):
    from duel.expansions.record import XRecord, XRecordError

    bad = tmp_path / "bad.json"
    for content, message in (
        (b"{bad", r"bad.json: not valid JSON \(line 1"),
        (b'{"a": \xff}', r"bad.json: not UTF-8 text \(byte 6: 0xff\)"),
    ):
        bad.write_bytes(content)
        for load, error in ((load_position, XPositionError), (XRecord.load, XRecordError)):
            with pytest.raises(error, match=message) as caught:
                load(bad)
            assert caught.value.args[0].template.startswith(("{path}: ", "{source}: "))


@pytest.mark.parametrize("where", ["board", "city"])
def test_an_unknown_offering_token_is_refused_naming_the_values(where):
    """Found by the mutation test: the list of values (numbers) in the message raised a
    TypeError instead of the position error."""
    data = position_to_json(_a_pantheon_table())
    if where == "board":
        data["pantheon"]["offering_tokens"] = {"8": "?"}
        field = r"pantheon.offering_tokens.8"
    else:
        data["players"]["A"]["offering_tokens"] = [7]
        field = r"players.A.offering_tokens\[0\]"
    with pytest.raises(XPositionError, match=field + r": expected one of \d, \d"):
        position_from_json(data)
