"""``duel replay``, ``duel export`` and ``duel review`` on expansion games' records (issue 61):
the replay steps through the table, the review judges each decision with the expansion
player's search, and a save of a game in progress is refused (it would show hidden cards)."""

import json
import random

import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app
from duel.app.control.replay import Cursor, XReplay
from duel.expansions import new_xgame
from duel.expansions.record import XRecord
from duel.solvers.xreview import review_xrecord, summary

pytestmark = pytest.mark.expansions
runner = CliRunner()


def _record(expansions=("agora", "pantheon"), seed=5, moves=None):
    state, played, rng = new_xgame(expansions), [], random.Random(seed)
    while not state.is_terminal() and (moves is None or len(played) < moves):
        move = state.random_move(rng)
        played.append(move)
        state = state.apply(move)
    return XRecord(expansions, tuple(played)), state


def test_an_expansion_replay_steps_like_the_base_one():
    record, final = _record()
    replay = XReplay.of(record)
    assert replay.last == len(record.moves) and replay.state(-1) == final
    cursor = Cursor(replay).command("goto 20")[0]
    assert cursor.index == 20 and cursor.state == record.states()[20]
    first_decision = next(n for n in range(1, replay.last) if not replay.states[n - 1].is_chance())
    assert replay.move_text(first_decision).startswith(("A ", "B "))
    assert replay.move_text(1).startswith("chance: ")


def test_duel_replay_and_export_read_an_expansion_record(tmp_path):
    record, final = _record()
    path = tmp_path / "game.json"
    record.save(path)
    out = runner.invoke(app, ["replay", str(path)], input="goto 30\nquit\n").output
    assert "Move 30 of" in out and "Senate" in out
    out = runner.invoke(app, ["export", str(path), "--bare"]).output.splitlines()
    # As the file writes them: The Great Library's draw keeps only its chosen token.
    assert out == record.notation()
    assert any(text.endswith(", ?, ?") for text in out)
    assert final.describe() in runner.invoke(app, ["export", str(path)]).output


def test_duel_review_judges_the_decisions_of_an_expansion_record(tmp_path):
    record, _ = _record(("pantheon",), seed=2, moves=45)
    path = tmp_path / "game.json"
    record.save(path)
    result = runner.invoke(app, ["review", str(path), "--level", "mcts:8", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    decisions = data["decisions"]
    assert decisions and all(
        0 <= d["value"] <= d["best_value"] + 1e-9 or d["move"] != d["best"] for d in decisions
    )
    assert {d["player"] for d in decisions} <= {"A", "B"}
    text = runner.invoke(app, ["review", str(path), "--level", "mcts:8"]).output
    assert "decisions judged" in text and "Result: unfinished" in text


def test_the_review_marks_by_loss_and_sums_up_each_player():
    record, _ = _record(("agora",), seed=3, moves=40)
    judged = review_xrecord(record, iterations=8)
    assert judged and all(j.loss >= 0 for j in judged)
    for j in judged:
        assert j.mark == (
            "??" if j.loss >= 0.2 else "?" if j.loss >= 0.1 else "?!" if j.loss >= 0.05 else ""
        )
    assert summary(judged, 0).decisions + summary(judged, 1).decisions == len(judged)


def test_replay_and_review_refuse_a_save_of_a_game_in_progress_and_a_bad_level(tmp_path):
    record, _ = _record(moves=30)
    data = record.to_json()
    data["metadata"] = {"in_progress": True}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)], input="quit\n")
    assert result.exit_code != 0 and "in progress" in result.output
    record.save(path)
    result = runner.invoke(app, ["review", str(path), "--level", "search:2s"])
    assert result.exit_code != 0 and "cmcts" in result.output and "search:2s" in result.output
