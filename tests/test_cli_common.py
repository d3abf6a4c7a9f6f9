"""What ``duel`` and ``wonders`` share on the command line: -h, --version, completion, defaults,
and the user data folder for the autosave."""

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app as duel_app
from duel.app.control.saves import autosave_path, user_data_dir
from wonders.app.cli import app as wonders_app

runner = CliRunner()
APPS = [("duel", duel_app), ("wonders", wonders_app)]
#: The module that defines each program's command (the entry points of pyproject.toml).
COMMAND_MODULES = {"duel": "duel.app.cli.main", "wonders": "wonders.app.cli"}


@pytest.mark.parametrize(("name", "app"), APPS)
def test_short_help_and_version(name, app):
    short = runner.invoke(app, ["-h"])
    assert short.exit_code == 0 and "Usage:" in short.output
    assert short.output == runner.invoke(app, ["--help"]).output
    assert runner.invoke(app, ["selfplay", "-h"]).exit_code == 0
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0
        assert result.output.startswith(f"{name} (wonders-duel) ")


@pytest.mark.parametrize(("name", "app"), APPS)
def test_completion_is_offered(name, app):
    assert "--show-completion" in runner.invoke(app, ["--help"]).output
    script = subprocess.run(
        [sys.executable, "-c", f"from {COMMAND_MODULES[name]} import app; app(prog_name={name!r})",
         "--show-completion", "bash"],
        capture_output=True, text=True, timeout=60,
    )
    assert script.returncode == 0, script.stderr
    assert "complete" in script.stdout and name in script.stdout


def test_selfplay_defaults_and_short_options_agree():
    def default_games(app):
        text = runner.invoke(app, ["selfplay", "--help"], terminal_width=200).output
        line = next(x for x in text.splitlines() if "--games" in x)
        assert "-g" in line
        return line.split("[default: ")[1].split("]")[0]

    assert default_games(duel_app) == default_games(wonders_app) == "100"


def test_autosave_goes_to_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert autosave_path().parent == tmp_path / "wonders-duel"
    assert autosave_path() != autosave_path()  # one file per game
    monkeypatch.delenv("XDG_DATA_HOME")
    assert user_data_dir() == Path.home() / ".local" / "share" / "wonders-duel"
