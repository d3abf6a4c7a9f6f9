"""Issue 64: the default hint is a player in its own right (the ``hint`` level), so a match can
measure it against MCTS-BR: it plays the move the hint recommends first, with the exact stage on
one thread (one game per core)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from duel import new_game
from duel.position import load_position
from duel.solvers import hint
from duel.solvers.hint import (
    DEFAULT_EXACT_SECONDS,
    DEFAULT_ITERATIONS,
    MAP_ITERATIONS,
    TREES,
    HintPlayer,
    cmcts_available,
    default_calibration,
    hint_analysis,
)
from duel.solvers.players import UnknownLevelError, make_player, parse_level

ROOT = Path(__file__).resolve().parents[1]
TEN = ROOT / "examples" / "endgames" / "age3_10cards_cmcts6410.json"
TWELVE = ROOT / "examples" / "endgames" / "age3_12cards_cmcts6402.json"
needs_cmcts = pytest.mark.skipif(not cmcts_available(), reason="needs the compiled MCTS")


def _age_one_decision():
    state, rng = new_game(), random.Random(3)
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(rng), check=False)
    return state


def test_the_hint_level_parses_with_and_without_a_budget():
    assert parse_level("hint").name == "hint"
    assert parse_level("hint").count is None and parse_level("hint").seconds is None
    assert parse_level("hint:3000").count == 3000
    assert parse_level("hint:2s").seconds == 2.0
    with pytest.raises(UnknownLevelError):
        parse_level("hint:0")
    with pytest.raises(UnknownLevelError):
        parse_level("hint:3000:pick=lcb")  # only cmcts takes options


def test_make_player_gives_the_hint_player_with_its_budget_on_one_thread():
    player = make_player("hint", seed=4)
    assert isinstance(player, HintPlayer) and player.name == "hint"
    assert (player.iterations, player.seconds, player.threads, player.seed) == (None, None, 1, 4)
    assert make_player("hint:1200").iterations == 1200
    assert make_player("hint:2s").seconds == 2.0


@needs_cmcts
def test_the_hint_player_plays_the_hints_first_move():
    state = _age_one_decision()
    player = make_player("hint:1200", seed=2)
    move = player.choose(state)
    info = hint_analysis(state, iterations=1200, top=1, seed=2, threads=1)
    assert move == info.best_move and move in state.legal_moves()
    assert player.last_info is not None and player.last_info.best_move == move


@needs_cmcts
def test_the_hint_player_plays_the_exact_best_move_where_its_exact_stage_finishes():
    state = load_position(TEN)
    player = make_player("hint:6000", seed=0)  # 3M nodes of exact stage: the 45k-node solve fits
    move = player.choose(state)
    assert player.last_info.exact and player.last_info.extra["engine"] == "exact"
    judge = hint_analysis(state, exact_nodes=3_000_000, exact_cards=10, top=1)
    assert judge.exact and move == judge.best_move


@needs_cmcts
def test_the_default_hint_player_solves_on_one_thread_for_the_default_time(monkeypatch):
    """The default hint takes every core (``default_threads``); the player, one."""
    plans = []

    def no_solve(state, plan, top, seed, memory):
        plans.append(plan)
        return None

    monkeypatch.setattr(hint, "_exact_stage", no_solve)
    monkeypatch.setattr(hint, "default_threads", lambda: 8)
    state = load_position(TWELVE)
    player = HintPlayer(seed=1)
    move = player.choose(state)
    assert move in state.legal_moves()
    assert [(p.threads, p.limit.time) for p in plans] == [(1, DEFAULT_EXACT_SECONDS)]
    assert player.last_info.extra["exact_stage"] == "unfinished"
    plans.clear()
    hint_analysis(state, top=1, seed=1)  # the hint itself: every core
    assert [p.threads for p in plans] == [8]


def test_the_default_budget_is_what_the_docs_say():
    """docs/hints.md, "The default hint as a player": 48,000 iterations over three trees (16,000 a
    tree), the map fitted at 6,000 and its budget layer above."""
    assert (DEFAULT_ITERATIONS, TREES, MAP_ITERATIONS) == (48_000, 3, 6000)
    assert default_calibration().meta["iterations"] == MAP_ITERATIONS
    docs = (ROOT / "docs" / "hints.md").read_text(encoding="utf-8")
    assert "48,000 iterations over three trees" in docs


@needs_cmcts
def test_the_default_hint_player_searches_the_default_budget_over_its_trees():
    state = _age_one_decision()
    player = make_player("hint", seed=3)
    move = player.choose(state)
    info = player.last_info
    assert info is not None and info.extra["engine"] == "cmcts"
    assert info.nodes == DEFAULT_ITERATIONS and info.extra["trees"] == TREES
    assert info.extra["calibration"]["iterations"] == MAP_ITERATIONS  # the layer applies above it
    same = hint_analysis(state, iterations=DEFAULT_ITERATIONS, top=1, seed=3, threads=1)
    assert move == same.best_move and same.moves[0].value == info.moves[0].value  # reproducible


def test_bad_threads_are_refused():
    with pytest.raises(ValueError, match="threads"):
        hint_analysis(_age_one_decision(), iterations=100, threads=0)


@needs_cmcts
def test_the_hint_player_plays_a_whole_game_through_the_match_code():
    """Draft, three Ages and the exact stage of Age III (on its node budget), as a match plays."""
    from duel.solvers.match import play_game

    players = [make_player("hint:300", seed=1), make_player("greedy", seed=2)]
    final, moves = play_game(players, random.Random(5))
    assert final.is_terminal() and moves > 40
