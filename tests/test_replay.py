"""Replaying a game record: positions by index, navigation commands, `duel replay`,
`duel show --at/--moves/--slots` and `duel export`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app
from duel.app.control.replay import Cursor, Replay, numbered_moves
from duel.record import GameRecord
from tests.tables import old_order

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "examples" / "records" / "greedy_vs_greedy.json"
runner = CliRunner()


@pytest.fixture(scope="module")
def game() -> Replay:
    return Replay.of(GameRecord.load(RECORD))


def test_positions_by_index_match_replaying_the_moves(game):
    state = game.state(0)
    for n, move in enumerate(game.moves, 1):
        state = state.apply(move)
        assert game.state(n) == state
    assert game.state(-1) == state and state.is_terminal()


def test_each_age_begins_with_its_first_move(game):
    """The last card of an Age is that Age's; the next begins with its layout (the start
    player is chosen once it is laid out)."""
    marks = game.age_marks()
    assert marks == {20: "Age I", 60: "Age II", 101: "Age III"}
    for n, name in marks.items():
        assert game.state(n - 1).age == len(name.split()[1]) != game.state(n - 2).age
        assert game.moves[n - 1].is_chance and not game.moves[n - 2].is_chance
    assert str(game.moves[58]) == "discard Scriptorium" and game.state(59).phase == "reveal"


def test_cursor_commands(game):
    cursor = Cursor(game)
    assert cursor.command("prev") == (cursor, "already at the start")
    cursor, message = cursor.command("next 30")
    assert (cursor.index, message) == (30, "")
    assert cursor.command("")[0].index == 31  # Enter steps forward
    assert cursor.command("p 5")[0].index == 25
    assert cursor.command("45")[0].index == 45  # a bare number is goto
    assert cursor.command("last")[0].index == game.last
    assert cursor.command("first")[0].index == 0
    assert cursor.command("goto x")[1] == "goto needs a whole number, not 'x'"
    assert cursor.command("goto 500")[1] == f"no move 500: the game has moves 0 to {game.last}"
    assert cursor.command("dance")[1].startswith("unknown command 'dance'")
    assert cursor.command("q")[1] == "quit"
    assert cursor.command("next 1000")[0].index == game.last  # clamped to the end


def test_move_list_names_the_player_or_chance(game):
    lines = numbered_moves(game)
    assert len(lines) == game.last
    assert lines[0] == "1. chance: reveal token Law"
    assert lines[9] == "10. A pick Circus Maximus"
    decisions = numbered_moves(game, chance=False)
    assert all(" chance:" not in line for line in decisions)
    assert all(line.split(". ", 1)[1][:2] in ("A ", "B ") for line in decisions)
    assert Cursor(game).at(50).header() == "Move 50 of 144: A wonder The Colossus with Garrison"


def test_replay_with_piped_commands():
    result = runner.invoke(
        app, ["replay", str(RECORD), "--plain"], input="next 49\nprev\ngoto 50\nbogus\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Move 0 of 144: the new game" in out
    assert "Move 49 of 144: chance: reveal slot 4 Garrison" in out
    assert "> 50. A wonder The Colossus with Garrison" in out
    assert "unknown command 'bogus'" in out
    assert "Age I: take a card (A to move)" in out  # the board at each move


def test_replay_in_a_terminal_steps_back_and_forth(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": "100"}
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "replay", str(RECORD), "--at", "60"],
        env=env, encoding="utf-8", timeout=30, dimensions=(60, 100),
    )
    child.expect("Move 60 of 144")
    child.expect("replay> ")
    child.sendline("")
    child.expect("Move 61 of 144")
    child.sendline("prev 2")
    child.expect("Move 59 of 144")
    child.sendline("last")
    child.expect("A wins")
    child.expect("Move 144 of 144")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_show_at_and_moves():
    result = runner.invoke(app, ["show", str(RECORD), "--at", "50", "--plain", "--moves"])
    assert result.exit_code == 0, result.output
    assert "Move 50 of 144: A wonder The Colossus with Garrison" in result.output
    assert "\n144. B token Economy" in result.output
    bad = runner.invoke(app, ["show", str(RECORD), "--at", "200"])
    assert bad.exit_code == 2 and "--at: no move 200" in bad.output
    opening = str(ROOT / "examples" / "age1_opening.json")
    position = runner.invoke(app, ["show", opening, "--at", "1"])
    assert position.exit_code == 2 and "a position, not a game record" in position.output


def test_export_plain_and_bare(tmp_path):
    result = runner.invoke(app, ["export", str(RECORD), "--no-chance"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "-- Age II --" in lines and "50. A wonder The Colossus with Garrison" in lines
    assert lines[-1].startswith("A wins")
    bare = runner.invoke(app, ["export", str(RECORD), "--bare"]).output.split("\n")[:-1]
    # the example is a version 1 record: exported in the new order (each start after the layout)
    written = json.loads(RECORD.read_text())["moves"]
    assert bare == GameRecord.load(RECORD).notation() != written
    assert sorted(bare) == sorted(written)
    loaded = GameRecord.load(RECORD)
    assert GameRecord(tuple(old_order(list(loaded.moves)))).notation() == written


def test_show_slots_prints_every_age():
    result = runner.invoke(app, ["show", "--slots"])
    assert result.exit_code == 0
    for age in ("Age I (", "Age II (", "Age III ("):
        assert age in result.output
    assert "  row 5: [14]  [15]  [16]  [17]  [18]  [19]" in result.output
    for slot in range(20):
        assert result.output.count(f"{slot:2d}]") + result.output.count(f"{slot:2d})") == 3


def test_a_hidden_library_draw_is_shown_as_written(game):
    """The record keeps only the chosen token; the placeholders it is read with never show."""
    assert game.move_line(143) == "143. chance: draw Economy, ?, ?"
    assert game.move_line(144) == "144. B token Economy"
    export = runner.invoke(app, ["export", str(RECORD)]).output
    assert "143. chance: draw Economy, ?, ?" in export
