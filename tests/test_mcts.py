"""Monte Carlo tree search (duel.solvers.mcts) and the ``mcts`` player level."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from duel import new_game
from duel.app.line.play import level_error
from duel.position import position_from_json, position_to_json
from duel.solvers.match import play_game, play_match
from duel.solvers.mcts import Config, Tree, default_value_fn, rollout_value, search
from duel.solvers.players import (
    MctsPlayer,
    SearchPlayer,
    UnknownLevelError,
    make_player,
    parse_level,
)
from duel.solvers.search import evaluate, expectimax
from duel.state import State
from tests.test_players import PHASES, POSITIONS
from tests.test_search import _deal_consistent_histories, endgame, opening


def _stats(result) -> list:
    return [(int(s.move), s.visits, round(s.value, 12)) for s in result.moves]


# --- every kind of decision --------------------------------------------------------------------
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("key", ["move", "slot"])
def test_legal_move_at_every_kind_of_decision(phase, key):
    state = POSITIONS[phase]
    result = search(state, iterations=40, seed=2, config=Config(key=key, rollout=6))
    assert result.best_move in state.legal_moves()
    assert sum(s.visits for s in result.moves) == 40 or len(state.legal_moves()) == 1
    assert {s.move for s in result.moves} == set(state.legal_moves())


@pytest.mark.parametrize("level", ["mcts:40", "mcts:0.05s", "search-v1:300"])
@pytest.mark.parametrize("phase", PHASES)
def test_levels_answer_every_kind_of_decision(level, phase):
    state = POSITIONS[phase]
    assert make_player(level, seed=3).choose(state) in state.legal_moves()


def test_bad_knobs_are_refused():
    for bad in ({"prior": "learned"}, {"key": "card"}, {"rollout": "game"}, {"c": -1.0}):
        with pytest.raises(ValueError):
            Config(**bad)


def test_chance_and_terminal_nodes_are_refused():
    state = new_game()
    with pytest.raises(ValueError, match="no decision"):
        search(state, iterations=10)


# --- determinism and public information ---------------------------------------------------------
def test_deterministic_with_an_iteration_limit_and_seed():
    state = opening(3)
    a = search(state, iterations=150, seed=7)
    b = search(state, iterations=150, seed=7)
    assert _stats(a) == _stats(b) and a.value_a == b.value_a
    c = search(state, iterations=150, seed=8)
    assert _stats(c) != _stats(a)  # the seed drives the sampled deals and rollouts
    moves = [make_player("mcts:100", seed=4).choose(state) for _ in range(2)]
    assert moves[0] == moves[1]


def test_hidden_cards_do_not_change_the_move_or_value():
    a, b = _deal_consistent_histories(7)
    assert a == b  # the state holds public information only
    ra = search(a, iterations=400, seed=5)
    rb = search(b, iterations=400, seed=5)
    assert _stats(ra) == _stats(rb) and ra.value_a == rb.value_a


def test_result_depends_only_on_the_public_position():
    state = endgame(11, 9)
    again = position_from_json(json.loads(json.dumps(position_to_json(state))))
    random.seed(1)
    first = search(state, iterations=300, seed=2)
    random.seed(99)  # the global generator is never used
    second = search(again, iterations=300, seed=2)
    assert _stats(first) == _stats(second)


# --- values --------------------------------------------------------------------------------------
def _forced_wins(limit: int) -> list[tuple[State, set]]:
    """Age III play decisions (few cards left) whose mover wins for sure with some moves but
    not with all of them, with the set of winning moves (brute-force expectimax)."""
    found = []
    for seed in range(300):
        state = endgame(seed, 4)
        if state is None:
            continue
        memo: dict = {}
        target = 1.0 if state.to_move == 0 else 0.0
        values = {m: expectimax(state.apply(m, check=False), memo) for m in state.legal_moves()}
        winning = {m for m, v in values.items() if v == target}
        if winning and len(winning) < len(values) / 2:
            found.append((state, winning))
            if len(found) == limit:
                break
    return found


FORCED = _forced_wins(4)


@pytest.mark.parametrize("index", range(len(FORCED)))
def test_a_forced_win_is_found(index):
    state, winning = FORCED[index]
    result = search(state, iterations=1500, seed=1)
    assert result.best_move in winning
    mover_value = result.value_a if state.to_move == 0 else 1.0 - result.value_a
    assert mover_value > 0.8  # the mean includes the exploration of losing replies


def test_forced_wins_exist():
    assert len(FORCED) >= 2


def test_an_immediate_win_is_taken():
    """A science or military victory on the table is chosen."""
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if not state.is_chance():
                mover = state.to_move
                wins = [
                    m
                    for m in state.legal_moves()
                    if state.apply(m, check=False).winner == mover
                    and state.apply(m, check=False).victory in ("military", "science")
                ]
                if wins and len(wins) < len(state.legal_moves()):
                    move = search(state, iterations=300, seed=1).best_move
                    assert state.apply(move, check=False).winner == mover
                    return
            state = state.apply(state.random_move(rng), check=False)
    pytest.skip("no immediate win found")


def test_rollout_values_are_probabilities_and_exact_at_the_end():
    state = opening(5)
    rng = random.Random(1)
    for plies in (0, 3, "age", None):
        v = rollout_value(state, rng, plies, evaluate)
        assert 0.0 <= v <= 1.0
    assert rollout_value(state, rng, 0, evaluate) == evaluate(state)
    assert rollout_value(state, rng, None, evaluate) in (0.0, 0.5, 1.0)


def test_value_function_is_pluggable():
    state = opening(2)
    calls = []

    def constant(s: State) -> float:
        calls.append(s)
        return 0.25

    result = search(state, iterations=50, seed=1, config=Config(rollout=0), value_fn=constant)
    assert calls and abs(result.value_a - 0.25) < 1e-9
    assert callable(default_value_fn())


# --- tree reuse and time control -------------------------------------------------------------
def test_tree_is_reused_after_the_moves_played():
    state = opening(4)
    tree = Tree(seed=3)
    first = tree.search(state, iterations=600)
    rng = random.Random(0)
    after = state.apply(first.best_move, check=False)
    while after.is_chance() or after.to_move == state.to_move:
        m = after.sample_chance(rng) if after.is_chance() else after.legal_moves()[0]
        after = after.apply(m, check=False)
    # the opponent's reply: one the tree has explored
    after = after.apply(search(after, iterations=200, seed=0).best_move, check=False)
    while after.is_chance():
        after = after.apply(after.sample_chance(rng), check=False)
    second = tree.search(after, iterations=100)
    assert second.reused > 0 and second.iterations == 100
    assert not tree.follow(opening(9))  # a position the tree does not lead to: a fresh tree
    assert tree.search(opening(9), iterations=10).reused == 0


def test_tree_is_reused_across_the_deal_of_an_age():
    """From the last card of Age II to "who begins Age III": the guild deal and the face-up
    cards are matched with the new position (the choice comes after the layout)."""
    for seed in range(2, 40):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal() and not (
            state.phase == "play"
            and state.age == 2
            and len(state.pyramid) - state.pyramid.count(-1) == 1
        ):
            state = state.apply(state.random_move(rng), check=False)
        if state.is_terminal():
            continue
        tree = Tree(seed=1)
        after = state.apply(tree.search(state, iterations=300).best_move, check=False)
        if after.age != 3:  # a science pair's token first: another game
            continue
        while after.is_chance():
            after = after.apply(after.sample_chance(rng), check=False)
        assert after.phase == "choose_starter" and after.age == 3
        assert tree.search(after, iterations=10).reused > 0
        return
    raise AssertionError("no game took the last card of Age II in play")


def test_player_keeps_its_tree_in_a_match():
    player = MctsPlayer(1, time_per_move=None, iterations=60)
    reused = []
    original = player.tree.search

    def spy(state, **kw):
        result = original(state, **kw)
        reused.append(result.reused)
        return result

    player.tree.search = spy
    play_game((player, make_player("random", seed=2)), random.Random(5))
    assert sum(1 for r in reused if r > 0) > len(reused) // 2


def test_time_per_move_is_respected():
    """Never over the budget by more than 10% + 50 ms. The best of two tries per position, so
    that one stall of a loaded machine's scheduler does not fail the test."""
    budget = 0.15
    positions = [opening(1), POSITIONS["choose_token"], endgame(3, 9), endgame(5, 6)]
    for exact_cards in (0, 7):
        player = MctsPlayer(2, time_per_move=budget, exact_cards=exact_cards)
        for state in positions:
            took = []
            for _ in range(2):
                start = time.perf_counter()
                move = player.choose(state)
                took.append(time.perf_counter() - start)
                assert move in state.legal_moves()
            assert min(took) <= 1.1 * budget + 0.05, (state.describe(), took)


# --- levels -------------------------------------------------------------------------------------
def test_levels_parse():
    assert parse_level("mcts").name == "mcts"
    player = make_player("mcts", seed=1, time_per_move=0.7)
    assert isinstance(player, MctsPlayer) and player.time_per_move == 0.7
    assert make_player("mcts:0.5s", seed=1).time_per_move == 0.5
    assert make_player("mcts:250", seed=1).iterations == 250
    baseline = make_player("search-v1:2s", seed=1)
    assert isinstance(baseline, SearchPlayer) and baseline.time_per_move == 2.0
    assert make_player("search-v1:900", seed=1).nodes == 900
    for bad in ("mcts:", "mcts:0", "mcts:fast", "mcts:-1s", "random:3", "alphazero", "search:nans"):
        with pytest.raises(UnknownLevelError):
            make_player(bad)
    assert level_error("search:2s") is None and level_error("mcts:0.5s") is None
    assert level_error("human") is None
    assert "unknown level" in level_error("wizard")


def test_match_accepts_the_new_levels():
    result = play_match("mcts:30", "search-v1:200", games=2, seed=3)
    assert result.games == 2


def test_duel_play_accepts_budgets_and_new_levels(tmp_path):
    """``duel play`` reads levels with the same parser as ``duel match`` (search:2s works)."""
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play"]
        + ["--a", "mcts:15", "--b", "search-v1:0.01s", "--seed", "4", "--plain"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout
    bad = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play", "--a",
         "mcts:fast"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
    )
    assert bad.returncode == 2 and "bad mcts budget 'fast'" in bad.stderr
    assert "Traceback" not in bad.stderr
