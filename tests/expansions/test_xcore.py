"""The compiled expansion core (duel._xcore) against the Python expansion engine.

The CI part of the differential test (``xcore_diff.play``: every step's state, legal moves,
chance outcomes with weights, both views and the result): ten games a set, a few seconds each;
``benchmarks/xcore_diff.py`` runs the 10,000-game version (its results in benchmarks/results/),
which is where a rare rule's disagreement is looked for. Plus the generated header's freshness
and known answers.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from duel import xcore
from duel.expansions import XMove, XState, new_xgame
from duel.expansions.table import Space
from tests.expansions.xcore_diff import Disagreement, play

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not xcore.AVAILABLE, reason="duel._xcore is not built")
#: Games per expansion set here (was 30: 145 s of CI's test time for the three sets; the long run
#: covers the rest).
DIFF_SEEDS = 10


def test_tables_header_is_fresh() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_xtables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("seed", range(DIFF_SEEDS))
def test_pantheon_games_agree(seed: int) -> None:
    tally = play(("pantheon",), seed)
    assert tally.steps > 100 and tally.chance_nodes > 20 and tally.views == 2 * tally.steps


@pytest.mark.parametrize("seed", range(DIFF_SEEDS))
def test_agora_games_agree(seed: int) -> None:
    tally = play(("agora",), seed)
    assert tally.steps > 100 and tally.chance_nodes > 20


@pytest.mark.parametrize("seed", range(DIFF_SEEDS))
def test_games_with_both_expansions_agree(seed: int) -> None:
    play(("agora", "pantheon"), seed)


@pytest.mark.parametrize("seed", range(4))
def test_base_games_agree(seed: int) -> None:
    play((), seed)


def _play_until(expansions: tuple[str, ...], seed: int, done) -> XState:
    """The first state of a random game (seed, seed + 1, ...) where ``done`` holds."""
    for attempt in range(seed, seed + 50):
        rng, state = random.Random(attempt), new_xgame(expansions)
        while not state.is_terminal():
            if done(state):
                return state
            state = state.apply(state.random_move(rng), check=False)
    raise AssertionError("no such state in 50 random games")


def test_round_trip_of_every_state_of_a_game() -> None:
    rng, state = random.Random(5), new_xgame(("pantheon",))
    while not state.is_terminal():
        assert xcore.to_xstate(xcore.from_xstate(state)) == state
        for player in (0, 1):
            view = state.view(player)
            assert xcore.to_xstate(xcore.from_xstate(view)) == view
        state = state.apply(state.random_move(rng), check=False)


def test_a_view_hides_the_opponents_face_down_divinity() -> None:
    state = _play_until(
        ("pantheon",), 3, lambda s: any(sp is not None and not sp.face_up for sp in s.spaces)
    )
    index = next(i for i, sp in enumerate(state.spaces) if sp is not None and not sp.face_up)
    owner = state.spaces[index].owner
    compiled = xcore.from_xstate(state)
    hidden = xcore.to_xstate(compiled.view(1 - owner)).spaces[index]
    seen = xcore.to_xstate(compiled.view(owner)).spaces[index]
    assert hidden == Space(None, state.spaces[index].mythology, owner, False)
    assert seen == state.spaces[index] and seen.divinity is not None


def test_a_view_of_the_opponents_draw_is_one_unseen_outcome() -> None:
    state = _play_until(("pantheon",), 11, lambda s: s.phase == "draw_divinities")
    compiled = xcore.from_xstate(state)
    drawer = state.to_move
    (outcome,) = compiled.view(1 - drawer).chance_outcomes()
    assert xcore.decode_move(outcome[0], state.expansions).args[1] is None
    assert len(compiled.view(drawer).chance_outcomes()) == len(state.chance_outcomes()) > 1


def test_a_view_hides_the_opponents_conspiracies_until_triggered() -> None:
    state = _play_until(
        ("agora",), 4, lambda s: any(p.name and not p.used for p in s.cities[0].plots)
    )
    compiled = xcore.from_xstate(state)
    hidden = xcore.to_xstate(compiled.view(1)).cities[0].plots
    seen = xcore.to_xstate(compiled.view(0)).cities[0].plots
    assert seen == state.cities[0].plots
    assert all(p.name is None for p in hidden if not p.used)
    assert [p.prepared for p in hidden] == [p.prepared for p in state.cities[0].plots]


def test_a_view_of_the_opponents_conspiracy_draw_is_one_unseen_outcome() -> None:
    state = _play_until(("agora",), 6, lambda s: s.phase == "draw_plots")
    compiled = xcore.from_xstate(state)
    drawer = state.to_move
    (outcome,) = compiled.view(1 - drawer).chance_outcomes()
    assert xcore.decode_move(outcome[0], state.expansions) == XMove("draw_plots", (None,))
    assert len(compiled.view(drawer).chance_outcomes()) == len(state.chance_outcomes()) > 1


def test_senators_turn_up_weighted_by_their_unseen_cards() -> None:
    state = _play_until(
        ("agora",),
        1,
        lambda s: (
            s.phase == "reveal" and s.backs[(s.reveal & -s.reveal).bit_length() - 1] == "senator"
        ),
    )
    weights = dict(xcore.CXState(xcore.from_xstate(state), state.expansions).chance_weights()[0])
    assert weights == dict(state.chance_weights()[0])
    assert sum(weights.values()) == 13 - len(state.senators_seen)


def test_mythology_tokens_weighted_by_those_left() -> None:
    state = _play_until(("pantheon",), 2, lambda s: s.phase == "place_mythology")
    state = state.apply(XMove("place_mythology", (2, "Greek")), check=False)
    outcomes = dict(xcore.CXState(xcore.from_xstate(state), state.expansions).chance_weights()[0])
    assert outcomes[XMove("place_mythology", (4, "Greek"))] == 1
    assert outcomes[XMove("place_mythology", (4, "Roman"))] == 2


def test_the_api_plays_a_game_with_either_engine() -> None:
    for engine in (xcore.new_game(("pantheon",)), new_xgame(("pantheon",))):
        rng, state = random.Random(9), engine
        while not state.is_terminal():
            state = state.apply(state.random_move(rng))
        assert state.returns() in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))


def test_scores_and_readings_agree_through_a_game() -> None:
    rng = random.Random(12)
    python, compiled = new_xgame(("agora", "pantheon")), xcore.new_game(("agora", "pantheon"))
    while not python.is_terminal():
        for player in (0, 1):
            assert compiled.score(player) == python.score(player)
        assert (compiled.pawn, compiled.age, compiled.phase) == (
            python.pawn,
            python.age,
            python.phase,
        )
        move = python.random_move(rng)
        python, compiled = python.apply(move, check=False), compiled.apply(move)
    assert (compiled.victory, compiled.winner) == (python.victory, python.winner)
    assert [c.key() for c in compiled.cities] == [c.key() for c in python.cities]
    assert compiled.describe() == python.describe()


def test_the_python_engine_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(xcore.new_game(("agora", "pantheon")), xcore.CXState)
    monkeypatch.setattr(xcore, "AVAILABLE", False)
    assert isinstance(xcore.new_game(("agora", "pantheon")), XState)


def test_an_illegal_move_is_refused_with_a_reason() -> None:
    state = xcore.new_game(("pantheon",))
    with pytest.raises(ValueError, match="not a possible outcome"):
        state.apply(XMove("reveal_wonder", (3,)))


def test_a_disagreement_is_reported() -> None:
    state = new_xgame(("pantheon",))
    with pytest.raises(Disagreement, match="states differ"):
        from tests.expansions.xcore_diff import Tally, compare

        compare(state, xcore.from_xstate(new_xgame(())), "here", Tally())
