"""The ``duel`` command line: show, cost, selfplay, and clear errors instead of tracebacks."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_show_prints_a_position():
    result = run("show", EXAMPLES / "age3_military_threat.json", "--plain")
    assert result.exit_code == 0, result.output
    assert "Arsenal" in result.output


def test_cost_explains_the_plan():
    result = run("cost", EXAMPLES / "age3_military_threat.json", "Senate")
    assert result.exit_code == 0, result.output
    assert "Senate for player A" in result.output and "total:" in result.output


def test_cost_json_for_machines():
    result = run(
        "cost", EXAMPLES / "age3_military_threat.json", "Appian Way", "--player", "B", "--json"
    )
    data = json.loads(result.output)
    assert data["item"] == "The Appian Way" and data["player"] == "B"
    assert data["total"] == sum(u["price"] for u in data["units"])


def test_cost_unknown_card_suggests_names():
    result = run("cost", EXAMPLES / "age3_military_threat.json", "Senat house")
    assert result.exit_code == 2
    assert "no card or wonder named 'Senat house'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON (line 1"),
        ('{"age": 2}', "players: missing"),
        ('{"age": 2, "players": {"A": {"coins": -3}}}', "players.A.coins: cannot be negative"),
    ],
)
def test_bad_position_files_give_one_line_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("show", path)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_missing_file():
    result = run("show", "/nonexistent/position.json")
    assert result.exit_code == 2 and "cannot read the file" in result.output
    assert result.output.count("/nonexistent/position.json") == 1


def test_selfplay_summary():
    result = run("selfplay", "--games", 20, "--seed", 3)
    assert result.exit_code == 0
    assert "20 random games (seed 3)" in result.output and "civilian" in result.output


def test_help_is_fast_and_does_not_import_heavy_modules():
    code = (
        "import sys; from duel.app.cli.main import app; "
        "heavy = [m for m in ('ortools', 'rich.console', 'duel.solvers.search') "
        "if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_duel_play_defaults_to_the_strongest_ai_and_says_so(tmp_path, monkeypatch):
    """Issue #24 item 7: a newcomer's first game is against cmcts (1 s a move), not random."""
    from duel.app.line.play import DEFAULT_PLAYERS, default_player, run_game
    from duel.record import GameRecord
    from duel.solvers.hint import cmcts_available
    from tests.test_fair_play import feeder

    assert DEFAULT_PLAYERS == ("human", "cmcts")
    expected = "cmcts" if cmcts_available() else "search"
    assert default_player("cmcts") == expected and default_player("human") == "human"
    monkeypatch.chdir(tmp_path)
    code = run_game(
        (None, None), seed=5, load=None, delay=0, think=0.05, plain=True,
        read=feeder(["save s.json"]),
    )  # fmt: skip
    assert code == 0
    assert GameRecord.load(tmp_path / "s.json").metadata["players"] == {"A": "human", "B": expected}
    help_text = " ".join(CliRunner().invoke(app, ["play", "--help"]).output.split())
    assert "[default: cmcts, --think s a move, or the saved game's]" in help_text.replace("│ ", "")


@pytest.mark.parametrize(
    ("args", "guess"),
    [
        (["play", "--b", "cmtcs", "--plain"], "cmcts?)"),
        (["review", "examples/records/greedy_vs_greedy.json", "--level", "serch:300"], "search?"),
    ],
)
def test_a_level_typo_gets_the_nearest_level(args, guess, monkeypatch):
    """Issue #24 item 8: 'cmtcs' said only 'unknown level'."""
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "did you mean " + guess in result.output, result.output


def test_export_marks_an_age_after_the_last_draft_pick():
    """Issue #24 item 8: "-- Age I --" came one move early, before the last draft pick; it now
    stands before the Age's first move (here the first card turned over)."""
    record = str(Path(__file__).resolve().parents[1] / "examples/records/greedy_vs_greedy.json")
    out = CliRunner().invoke(app, ["export", record]).output
    assert "19. A pick The Statue of Zeus\n-- Age I --\n20. chance: reveal slot 0 Stone" in out
    assert "59. B discard Scriptorium\n-- Age II --\n60. chance: reveal slot 0" in out
    quiet = CliRunner().invoke(app, ["export", record, "--no-chance"]).output
    assert "19. A pick The Statue of Zeus\n-- Age I --\n32. A build Altar\n" in quiet


def test_help_shows_flags_without_a_value_type():
    """Issue #24 item 8: ``--plain --no-plain <bool>`` (even ``--help <bool>``) looked as if a
    flag took a value; options with a value keep their type."""
    import typer

    from wonders.app.cli import app as wonders_app

    for program in (app, wonders_app):
        names = sorted(typer.main.get_command(program).commands)
        for args in [["--help"], *([name, "--help"] for name in names)]:
            out = CliRunner().invoke(program, args, terminal_width=120).output
            assert "<bool>" not in out, (args, out)
    out = CliRunner().invoke(app, ["play", "--help"], terminal_width=120).output
    assert "<float>" in out and "--plain" in out
