"""Records and notation of expansion games: every move prints and parses back, a record replays
the game, and a bad record names the first move that is wrong and why."""

import json
import random

import pytest

from duel.expansions import XMove, new_xgame
from duel.expansions.record import XRecord, XRecordError
from tests.expansions.roundtrip import assert_same_game

pytestmark = pytest.mark.expansions


def _random_game(seed, expansions=("pantheon",)):
    state, moves, rng = new_xgame(expansions), [], random.Random(seed)
    while not state.is_terminal():
        for move in state.legal_moves() + [m for m, _ in state.chance_outcomes()[:50]]:
            assert XMove.parse(str(move)) == move, str(move)
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    return state, moves


@pytest.mark.parametrize("expansions", [("pantheon",), ("agora",), ("agora", "pantheon")])
@pytest.mark.parametrize("seed", range(3))
def test_every_move_of_a_random_game_parses_back_and_the_record_replays(seed, expansions, tmp_path):
    final, moves = _random_game(seed, expansions)
    record = XRecord(expansions, tuple(moves), {"event": "test"})
    path = tmp_path / "game.json"
    record.save(path)
    again = XRecord.load(path)
    assert_same_game(again, record)
    assert again.metadata == record.metadata and again.final_state() == final
    assert again.states()[-1] == final and len(again.states()) == len(moves) + 1


def test_a_record_with_an_illegal_move_names_it_and_says_why(tmp_path):
    _, moves = _random_game(1)
    data = XRecord(("pantheon",), tuple(moves)).to_json()
    number = next(i for i, m in enumerate(moves) if m.kind == "build") + 1
    data["moves"][number - 1] = "build Arsenal"
    with pytest.raises(XRecordError, match=f"move {number} \\('build Arsenal'\\)"):
        XRecord.from_json(data)
    data["moves"][number - 1] = "fly to the moon"
    with pytest.raises(XRecordError, match="unknown move"):
        XRecord.from_json(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "format"),
        ({"version": 1}, "version"),
        ({"expansions": ["cities"]}, "'cities' is not one"),
        ({"expansions": "pantheon"}, "expected a list of names"),
        ({"moves": {}}, "moves: expected a list"),
        ({"metadata": []}, "metadata"),
    ],
)
def test_a_malformed_record_names_the_field(change, message, tmp_path):
    data = {**XRecord(("pantheon",), ()).to_json(), **change}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError, match=message):
        XRecord.load(path)


def test_a_file_that_is_not_json_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(XRecordError, match="broken.json"):
        XRecord.load(path)


@pytest.mark.parametrize("command", ["show", "hint", "replay", "export", "review"])
def test_a_malformed_record_is_said_in_the_users_language(command, tmp_path):
    """Expansion records' errors are Reasons, translated as the base formats' (issue 61): the
    sentence, the move's number and the engine's reason why the move is illegal."""
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    data = XRecord(("pantheon",), ()).to_json()
    data["moves"] = ["build Arsenal"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    english = CliRunner().invoke(app, [command, str(path)])
    assert english.exit_code != 0 and "move 1 ('build Arsenal'): " in english.output
    japanese = CliRunner().invoke(app, ["--lang", "ja", command, str(path)])
    assert japanese.exit_code == english.exit_code
    said = japanese.output.strip()
    assert f"{path}：1 手目（'build Arsenal'）：build Arsenal はここで" in said, said
    assert "\n" not in said and "move 1" not in said


def test_a_record_header_error_is_said_in_japanese(tmp_path):
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    data = {**XRecord(("pantheon",), ()).to_json(), "expansions": ["pantheon", "cities"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    english = CliRunner().invoke(app, ["show", str(path)]).output
    assert "expansions[1]: 'cities' is not one of agora, pantheon" in english
    japanese = CliRunner().invoke(app, ["--lang", "ja", "show", str(path)]).output
    assert "expansions[1]：'cities' は agora、pantheon のどれでもない" in japanese
