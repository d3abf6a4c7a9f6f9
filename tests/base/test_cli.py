"""The ``wonders`` command: selfplay, all-AI play, human input handling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from wonders.app.cli import app, parse_input
from wonders.game import Move, new_game

runner = CliRunner()


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "play" in result.output and "selfplay" in result.output


def test_help_does_not_import_the_engine() -> None:
    code = (
        "import sys; from wonders.app.cli import app; "
        "print(any(m in sys.modules for m in ('wonders.game', 'ortools')))"
    )
    root = Path(__file__).resolve().parents[2]  # the repository
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root, env=env
    )
    assert out.stdout.strip() == "False"


def test_selfplay_prints_results_and_score_sheet() -> None:
    result = runner.invoke(app, ["selfplay", "--players", "3", "--games", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "2 games, 3 players" in result.output
    assert "military" in result.output and "Winner" in result.output


def test_play_all_ai_two_players() -> None:
    result = runner.invoke(app, ["play", "--players", "2", "--humans", "0", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Free City" in result.output and "Final scores" in result.output


def test_bad_options_are_reported_without_traceback() -> None:
    result = runner.invoke(app, ["play", "--players", "9"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "players must be 2 to 7" in result.output


def test_human_input_reprompts_then_eof_exits_cleanly() -> None:
    result = runner.invoke(
        app,
        ["play", "--players", "3", "--humans", "1", "--seed", "5"],
        input="nonsense\n999\nbuild guard tower\n1\n",
    )
    assert result.exit_code == 0, result.output
    assert "no card matching 'nonsense'" in result.output
    assert "choose a number from 1 to" in result.output
    assert "Guard Tower needs 1 clay" in result.output
    assert "Game saved to " in result.output  # the end of input is no choice to drop it
    assert "wonders-autosave.json (3 moves)" in result.output
    assert "Traceback" not in result.output


def test_human_plays_a_whole_game_by_numbers() -> None:
    result = runner.invoke(
        app, ["play", "--players", "3", "--humans", "1", "--seed", "2"], input="1\n" * 40
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


def test_parse_input_is_forgiving() -> None:
    s = new_game(3, seed=5)  # P0 hand: Stone Pit, East Trading Post, Loom, Lumber Yard, ...
    assert parse_input(s, 0, "stone") == Move(0, "build", "Stone Pit")
    assert parse_input(s, 0, "d east") == Move(0, "discard", "East Trading Post")
    assert parse_input(s, 0, "BUILD lumber yard") == Move(0, "build", "Lumber Yard")
    assert parse_input(s, 0, "Lumbr Yard") == Move(0, "build", "Lumber Yard")
    assert "ambiguous" not in str(parse_input(s, 0, "loom"))
    assert isinstance(parse_input(s, 0, "guard"), str)  # cannot be built: says what to do
