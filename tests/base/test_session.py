"""The base game for a human: save and load, undo, history, quit confirmation, why a card
cannot be built, records that replay, and score tables within 80 columns."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

from wonders.app.cli import Session, app, cannot_build, score_table
from wonders.bots import make_bot, play_game
from wonders.game import new_game
from wonders.record import GameRecord, RecordError

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_record_of_a_whole_game_replays_exactly(tmp_path):
    state = new_game(4, seed=11)
    record = GameRecord(4, 11)
    bots = [make_bot("greedy", p) for p in range(4)]
    while not state.is_terminal():
        p = state.current_players()[0]
        move = bots[p].choose(state, p)
        state = state.apply(move)
        record = record.append(move)
    record.save(tmp_path / "game.json")
    again = GameRecord.load(tmp_path / "game.json")
    assert again.final_state() == state and again.final_state().scores() == state.scores()
    assert json.loads((tmp_path / "game.json").read_text())["format"] == "7w-record"


def test_bad_records_say_which_move(tmp_path):
    data = GameRecord(3, 1).to_json()
    data["moves"] = ["0 build Palace"]
    with pytest.raises(RecordError, match=r"move 1 \(0 build Palace\): Palace is not in your hand"):
        GameRecord.from_json(data)
    data["moves"] = ["build it"]
    with pytest.raises(RecordError, match=r"moves\[0\]"):
        GameRecord.from_json(data)


def test_undo_takes_back_the_humans_last_decision_and_history_hides_pending_choices():
    session = Session(GameRecord(3, 5), humans=1)
    assert session.undo() == "Nothing to undo: no decision of yours yet."
    first = session.state.legal_moves(0)[0]
    session.apply(first)
    for p in (1, 2):
        session.apply(session.state.legal_moves(p)[0])
    assert session.history()[0] == "Age 1, turn 1:" and len(session.history()) == 4
    session.apply(session.state.legal_moves(1)[0])  # a bot of turn 2 chose, still hidden
    assert len(session.history()) == 4
    message = session.undo()
    assert message.startswith("Took back P0") and str(first) in message
    assert session.state == new_game(3, 5) and session.record.moves == ()


def test_cannot_build_gives_the_engines_reason():
    lines = cannot_build(new_game(3, seed=5), 0)
    assert "Guard Tower needs 1 clay: you and your neighbours cannot produce all of it" in lines


def test_score_table_fits_80_columns_for_7_players():
    state = play_game(new_game(7, 3), [make_bot("greedy", p) for p in range(7)])
    out = io.StringIO()
    score_table(state, Console(file=out, width=80, color_system=None))
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb"}
    return pexpect.spawn(
        sys.executable, ["-c", "from wonders.app.cli import main; main()", "play", *args],
        cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30,
    )


def test_terminal_session_save_undo_quit_and_load(tmp_path):
    child = _spawn(tmp_path, "--players", "3", "--seed", "5")
    child.expect("P0> ")
    child.sendline("1")
    child.expect("turn 2")
    child.expect("P0> ")
    child.sendline("history")
    child.expect("Age 1, turn 1:")
    child.expect("P0> ")
    child.sendline("undo")
    child.expect("Took back P0 \\(Halikarnassos A\\)'s build Stone Pit")
    child.expect("turn 1 - P0")
    child.expect("P0> ")
    child.sendline("2")
    child.expect("turn 2")
    child.expect("P0> ")
    child.sendline("save game.json")
    child.expect("Game saved to game.json \\(3 moves\\)")
    child.expect("P0> ")
    child.sendline("q")
    child.expect("Quit this game\\?")
    child.sendline("n")
    child.expect("P0> ")
    child.sendline("q")
    child.expect("Quit this game\\?")
    child.sendline("y")
    child.expect("Game abandoned")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = GameRecord.load(tmp_path / "game.json")
    assert str(record.moves[0]) != "build Stone Pit"  # the undone move is gone
    loaded = _spawn(tmp_path, "--load", "game.json")
    loaded.expect("Continuing game.json: 3 moves so far")
    loaded.expect("Age 1, turn 2 - P0")
    loaded.sendline("q")
    loaded.sendline("y")
    loaded.expect(pexpect.EOF)


def test_load_of_a_bad_file_is_one_line(tmp_path):
    (tmp_path / "bad.json").write_text("{}")
    result = runner.invoke(app, ["play", "--load", str(tmp_path / "bad.json")])
    assert result.exit_code == 2 and "format: expected '7w-record'" in result.output


# --- the game is kept unless the player drops it (issue 23, item 5) ----------------------------
def _spawn_kept(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "XDG_DATA_HOME": str(tmp_path)}
    return pexpect.spawn(
        sys.executable, ["-c", "from wonders.app.cli import main; main()", "play", *args],
        cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30,
    )  # fmt: skip


def _after_one_move(tmp_path: Path) -> pexpect.spawn:
    """A 3-player game where P0 has played once (3 moves with the bots'), at P0's prompt."""
    child = _spawn_kept(tmp_path, "--players", "3", "--seed", "5")
    child.expect("P0> ")
    child.sendline("1")
    child.expect("P0> ")
    return child


def _autosaved(tmp_path: Path) -> GameRecord:
    return GameRecord.load(tmp_path / "wonders-duel" / "wonders-autosave.json")


@pytest.mark.parametrize(("key", "code"), [("\x04", 0), ("\x03", 0)])
def test_end_of_input_or_ctrl_c_at_the_prompt_saves_the_game(tmp_path, key, code):
    child = _after_one_move(tmp_path)
    child.send(key)
    child.expect("Game saved to .*wonders-autosave.json \\(3 moves\\)")
    child.expect("Continue it with: wonders play --load ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code
    assert len(_autosaved(tmp_path).moves) == 3


def test_end_of_input_at_the_quit_question_saves_the_game(tmp_path):
    child = _after_one_move(tmp_path)
    child.sendline("q")
    child.expect("Quit this game\\?")
    child.sendeof()
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    assert len(_autosaved(tmp_path).moves) == 3


@pytest.mark.parametrize(("signum", "code"), [("SIGHUP", 129), ("SIGTERM", 143)])
def test_a_signal_saves_the_base_game(tmp_path, signum, code):
    import signal

    child = _after_one_move(tmp_path)
    child.kill(getattr(signal, signum))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code, (child.exitstatus, child.signalstatus)
    assert len(_autosaved(tmp_path).moves) == 3


def test_a_game_dropped_by_the_player_is_not_saved(tmp_path):
    child = _after_one_move(tmp_path)
    child.sendline("q")
    child.expect("Quit this game\\?")
    child.sendline("y")
    child.expect("Game abandoned")
    child.expect(pexpect.EOF)
    assert not (tmp_path / "wonders-duel" / "wonders-autosave.json").exists()
