"""What hints and analyses say: who moves in the line, chance outcomes marked as suppositions,
sampled values with their measured spread, exact values marked exact."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
from typer.testing import CliRunner

from duel.app.cli.main import app
from duel.app.text.lines import chance_text, line_steps, line_text
from duel.moves import Move
from duel.position import load_position
from duel.solvers.hint import cmcts_available
from duel.solvers.search import Limit, analyse

ROOT = Path(__file__).resolve().parents[1]
MIDGAME = ROOT / "examples" / "age2_midgame.json"
ENDGAME = ROOT / "examples" / "endgames" / "age3_8cards_seed128.json"
runner = CliRunner()


def test_chance_outcomes_read_as_suppositions():
    assert chance_text(Move.parse("reveal slot 9 Baths")) == "if Baths is revealed in slot 9"
    assert chance_text(Move.parse("reveal token Law")) == "if Law is dealt to the board"
    assert (
        chance_text(Move.parse("draw Economy, Law, Theology"))
        == "if The Great Library draws Economy, Law, Theology"
    )


def test_every_step_of_a_line_names_its_player_or_chance():
    state = load_position(MIDGAME)
    info = analyse(state, Limit(nodes=20_000), seed=0)
    steps = line_steps(state, info.pv)
    assert len(steps) == len(info.pv)
    replayed = state
    for (who, text), move in zip(steps, info.pv, strict=True):
        if replayed.is_chance():
            assert who == "chance" and text.startswith("if ")
        else:
            assert who == "AB"[replayed.to_move] and text == str(move)
        replayed = replayed.apply(move)
    short = line_text(state, info.pv)
    assert "[chance" not in short and short.endswith("the line stops here")
    full = line_text(state, info.pv, through_chance=True)
    assert "[chance: if " in full


def _spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": "200"}
    return pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", *args],
        env=env, encoding="utf-8", timeout=60, dimensions=(50, 200),
    )


def test_hint_in_a_terminal_marks_players_chance_and_spread():
    child = _spawn("hint", str(MIDGAME), "--nodes", "20000", "--verbose")
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0, out
    unit = "searches" if cmcts_available() else "samplings"  # the MCTS engine, or the search
    assert re.search(rf"1\. \S.* \d+\.\d% \(range \d+\.\d-\d+\.\d% over 3 {unit}\)", out)
    line = next(x for x in out.splitlines() if x.startswith("Line: "))
    parts = line[len("Line: "):].split(", ")
    assert parts[0].startswith("A ")
    for part in parts:
        assert part.startswith(("A ", "B ", "[chance: if ")), part
    assert "[chance: if " in line and "is revealed in slot" in line
    assert ("iterations/s" if cmcts_available() else "nodes/s") in out


def test_hint_without_verbose_stops_the_line_at_chance_and_hides_statistics():
    result = runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "20000"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("Line: "))
    assert "[chance" not in line and "the line stops here" in line
    assert "nodes" not in result.output and "depth" not in result.output
    if cmcts_available():
        assert "calibrated" in result.output and "independent searches" in result.output
    else:
        assert "unseen cards were sampled" in result.output


def test_exact_values_say_exact_and_json_has_the_line_and_spread():
    exact = runner.invoke(app, ["analyze", str(ENDGAME), "--exact"])
    assert exact.exit_code == 0, exact.output
    assert re.search(r"1\. .*\d% exact", exact.output)
    assert "Values are exact" in exact.output
    hint = runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "5000", "--json"])
    data = json.loads(hint.output)
    assert data["line"][0]["player"] == "A"
    assert {step["player"] for step in data["line"]} <= {"A", "B", "chance"}
    assert data["spread"]["seeds"] == [0, 1, 2]
    best = data["moves"][0]["move"]
    assert len(data["spread"]["values"][best]) == 3


def test_analyze_exact_far_from_the_end_says_so_first_and_what_it_did():
    opening = ROOT / "examples" / "age1_opening.json"
    result = runner.invoke(app, ["analyze", str(opening), "--exact", "--time", "1"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("Cannot solve this position exactly (Age 1")
    assert "Not solved exactly: " in result.output
