"""Issue 64: a move that ends the game (military or science supremacy, the last card) is said
as such -- "wins now" / "loses now" at 100% / 0%, at once -- in the hint, the analysis (with
--exact too), the review and the result the app shows (``MoveInfo.ends_game``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel import new_game
from duel.app.cli.main import app
from duel.moves import Move
from duel.position import load_position
from duel.solvers.hint import cmcts_available, hint_analysis
from duel.solvers.review import analyse_job, analyse_position
from duel.solvers.search import decided_analysis, ending_moves

ROOT = Path(__file__).resolve().parents[1]
ARSENAL = ROOT / "examples" / "age3_military_threat.json"  # Arsenal: the pawn to B's capital
SCIENCE = ROOT / "examples" / "age3_science_win.json"  # Study: B's sixth science symbol
LAST_CARD = ROOT / "examples" / "age3_last_card.json"  # the last card: built wins, discarded loses
BUILD, DISCARD = Move.parse("build Pretorium"), Move.parse("discard Pretorium")


def _first(seed: int, keep) -> object:
    """The first decision ``keep`` accepts in a seeded random game."""
    rng, state = random.Random(seed), new_game()
    while not state.is_terminal():
        if not state.is_chance() and keep(state):
            return state
        state = state.apply(state.random_move(rng), check=False)
    raise AssertionError("no such decision")


def test_the_moves_that_end_the_game_and_their_values():
    assert ending_moves(load_position(ARSENAL)) == {Move.parse("build Arsenal"): 1.0}
    science = load_position(SCIENCE)
    assert ending_moves(science) == {Move.parse("build Study"): 1.0}
    assert "B wins (science)" in science.apply(Move.parse("build Study")).describe()
    last = load_position(LAST_CARD)
    assert ending_moves(last) == {BUILD: 1.0, DISCARD: 0.0}
    assert set(ending_moves(last)) == set(last.legal_moves())  # every move ends the game


def test_a_winning_move_is_said_at_once_without_a_search():
    """No search runs (its node count is the number of moves looked at), the value is exact."""
    for path, move in ((ARSENAL, "build Arsenal"), (SCIENCE, "build Study")):
        state = load_position(path)
        info = hint_analysis(state)  # the default hint
        assert info.exact and info.extra["engine"] == "rules" and info.nodes == 1
        assert info.moves[0].move == Move.parse(move) and info.moves[0].value == 1.0
        assert info.moves[0].ends_game == "win" and info.value.relative == 1.0
        assert hint_analysis(state, seconds=30.0).nodes == 1  # a clock changes nothing


def test_the_last_card_is_a_win_and_a_loss_exactly():
    info = hint_analysis(load_position(LAST_CARD), top=3)
    assert [(str(m.move), m.value, m.ends_game) for m in info.moves] == [
        ("build Pretorium", 1.0, "win"),
        ("discard Pretorium", 0.0, "loss"),
    ]


def test_a_move_that_loses_now_is_zero_even_where_the_position_needs_a_search():
    """Every card move loses at once here, the wonder does not end the game: the exact solve
    values all three, and the two that end it say "loss" (0, not a clipped 0.5%)."""
    state = _first(
        35,
        lambda s: (e := ending_moves(s)) and max(e.values()) < 1 and len(e) < len(s.legal_moves()),
    )
    assert decided_analysis(state) is None
    info = hint_analysis(state, iterations=600, top=3)
    ends = {str(m.move): (m.value, m.ends_game) for m in info.moves}
    assert ends["build Siege Workshop"] == (0.0, "loss")
    assert ends["discard Siege Workshop"] == (0.0, "loss")
    assert ends["wonder The Statue of Zeus with Siege Workshop"][1] is None


def test_the_commands_say_wins_now_at_once():
    runner = CliRunner()
    for command in (["hint"], ["analyze"], ["analyze", "--exact"]):
        out = runner.invoke(app, [*command, str(ARSENAL)])
        assert out.exit_code == 0, out.output
        assert "1. build Arsenal  100.0% wins now" in out.output, out.output
        assert "Cannot solve" not in out.output and "not searched" not in out.output
        assert "A move ends the game at once" in out.output
    last = runner.invoke(app, ["hint", str(LAST_CARD)]).output
    assert "discard Pretorium  0.0% loses now" in last
    data = json.loads(runner.invoke(app, ["analyze", "--exact", "--json", str(SCIENCE)]).output)
    assert data["engine"] == "rules" and data["exact"] is True and data["value"] == 1.0
    assert data["moves"][0] == {
        "move": "build Study",
        "value": 1.0,
        "bound": "exact",
        "pv": ["build Study"],
        "ends_game": "win",
    }


needs_cmcts = pytest.mark.skipif(not cmcts_available(), reason="the review's cmcts level")


@needs_cmcts
def test_the_review_values_a_game_ending_move_exactly():
    result = analyse_position(load_position(ARSENAL), level="cmcts:300")
    assert result.best_move == Move.parse("build Arsenal") and result.best_value == 1.0
    assert result.info["ends_game"] == {"build Arsenal": "win"} and result.info["engine"] == "rules"
    last = analyse_position(load_position(LAST_CARD), level="search:200")
    assert dict(last.values) == {BUILD: 1.0, DISCARD: 0.0}


@needs_cmcts
def test_a_review_of_the_last_card_discarded_marks_a_blunder_of_the_whole_game():
    """The review's job on a game that discards the winning last card: the position is valued
    by the rules (no engine), the move played loses 1.0 (a blunder)."""
    from duel.solvers.review import _decision

    rng, state, moves = random.Random(18), new_game(), []
    while not (state.age == 3 and state.phase == "play" and state.pyramid.count(-1) == 19):
        move = state.random_move(rng)
        moves.append(str(move))
        state = state.apply(move, check=False)
    assert state == load_position(LAST_CARD)
    job = {"moves": [*moves, "discard Pretorium"], "index": len(moves), "seconds": 1}
    result = analyse_job({**job, "level": "cmcts:200"})
    assert result["values"] == [["build Pretorium", 1.0], ["discard Pretorium", 0.0]]
    assert result["info"]["ends_game"] == {"build Pretorium": "win", "discard Pretorium": "loss"}
    review = _decision(1, "A", "discard Pretorium", Move.parse("discard Pretorium"), state, result)
    assert review.loss == 1.0 and review.mark == "blunder"
