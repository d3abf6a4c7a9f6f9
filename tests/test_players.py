"""AI players at every kind of decision, matches with seats alternated, the ``match`` command."""

from __future__ import annotations

import json
import random

import pytest
import typer
from typer.testing import CliRunner

from duel import new_game
from duel.solvers.match import play_match, wilson_interval
from duel.solvers.players import (
    GreedyPlayer,
    RandomPlayer,
    SearchPlayer,
    UnknownLevelError,
    make_player,
)
from duel.state import State

PHASES = (
    "draft",
    "play",
    "choose_token",
    "library_choose",
    "destroy",
    "mausoleum",
    "choose_starter",
)


def decision_positions() -> dict[str, State]:
    """One decision position per phase, from seeded random games."""
    found: dict[str, State] = {}
    for seed in range(300):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if not state.is_chance() and state.phase not in found:
                found[state.phase] = state
            state = state.apply(state.random_move(rng), check=False)
        if len(found) == len(PHASES):
            break
    return found


POSITIONS = decision_positions()


def test_every_decision_phase_is_found():
    assert set(POSITIONS) == set(PHASES)


@pytest.mark.parametrize(
    "level", ["random", "greedy", "search:400", "search:0.05s", "search-v1:400"]
)
@pytest.mark.parametrize("phase", PHASES)
def test_players_answer_every_kind_of_decision(level, phase):
    state = POSITIONS[phase]
    player = make_player(level, seed=3, time_per_move=0.05)
    assert player.choose(state) in state.legal_moves()


def test_levels():
    assert isinstance(make_player("random", seed=1), RandomPlayer)
    assert isinstance(make_player("Greedy", seed=1), GreedyPlayer)
    search = make_player("search", seed=1, time_per_move=0.5)
    assert isinstance(search, SearchPlayer) and search.time_per_move == 0.5
    assert make_player("search:1000", seed=1).nodes == 1000
    assert make_player("search:0.2s", seed=1).time_per_move == 0.2
    assert make_player("search-v1:0.2s", seed=1).time_per_move == 0.2
    for bad in ("expert", "search:", "search:-3", "search:xs", "search-v1:", "search-v2"):
        with pytest.raises(UnknownLevelError):
            make_player(bad, seed=1)


def test_players_refuse_chance_and_terminal_nodes():
    state = new_game()
    with pytest.raises(ValueError):
        make_player("greedy", seed=1).choose(state)


def test_players_are_deterministic_for_a_seed():
    state = POSITIONS["play"]
    for level in ("random", "greedy", "search:800"):
        a = [make_player(level, seed=9).choose(state) for _ in range(2)]
        assert a[0] == a[1]


def test_greedy_takes_an_immediate_win():
    """A science or military win on the table is the greedy choice when it exists."""
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if not state.is_chance():
                wins = [
                    m
                    for m in state.legal_moves()
                    if state.apply(m, check=False).winner == state.to_move
                    and state.apply(m, check=False).victory in ("military", "science")
                ]
                if wins:
                    move = make_player("greedy", seed=1).choose(state)
                    after = state.apply(move, check=False)
                    assert after.winner == state.to_move
                    return
            state = state.apply(state.random_move(rng), check=False)
    pytest.skip("no immediate win found")


def test_search_beats_random_in_quick_games():
    result = play_match("search:400", "random", games=4, seed=1)  # wins 4 of 4, either path
    assert result.wins >= 3, result.summary()


def test_match_alternates_seats_and_counts():
    result = play_match("random", "greedy", games=6, seed=2)
    assert [g.first_seat for g in result.games_list] == [0, 1, 0, 1, 0, 1]
    assert result.wins + result.losses + result.shared == 6
    assert sum(sum(c.values()) for c in result.victories().values()) == 6
    lo, hi = result.interval
    assert 0.0 <= lo <= result.score <= hi <= 1.0
    again = play_match("random", "greedy", games=6, seed=2)
    assert [(g.winner, g.victory) for g in again.games_list] == [
        (g.winner, g.victory) for g in result.games_list
    ]
    data = result.to_json()
    assert data["games"] == 6 and len(data["ci95"]) == 2


def test_wilson_interval():
    lo, hi = wilson_interval(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson_interval(1.0, 100)
    assert lo == pytest.approx(0.9630, abs=1e-3) and hi == pytest.approx(1.0)
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_match_command():
    from duel.app.cli.analysis import register

    app = typer.Typer()
    app.command("noop")(lambda: None)
    register(app)
    runner = CliRunner()
    result = runner.invoke(app, ["match", "greedy", "random", "--games", "4", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "greedy vs random: 4 games" in result.output and "95% CI" in result.output
    result = runner.invoke(
        app, ["match", "greedy", "random", "--games", "2", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{") :])
    assert data["games"] == 2 and "victories" in data
