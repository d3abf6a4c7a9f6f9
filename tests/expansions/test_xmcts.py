"""The compiled expansion search (solvers/csrc/xmcts_module.c, solvers/xcmcts.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from duel import xcore
from duel.expansions import XState, new_xgame
from duel.solvers.xcmcts import AVAILABLE, XCMctsPlayer
from duel.solvers.xplayers import XRandomPlayer

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="duel.solvers._xmcts is not built")


def _first(expansions: tuple[str, ...], done, seed: int = 0) -> XState:
    for attempt in range(seed, seed + 50):
        rng, state = random.Random(attempt), new_xgame(expansions)
        while not state.is_terminal():
            if done(state):
                return state
            state = state.apply(state.random_move(rng), check=False)
    raise AssertionError("no such state")


def test_it_chooses_a_legal_move_and_counts_its_iterations() -> None:
    state = _first(("agora", "pantheon"), lambda s: s.phase == "play" and s.age == 2)
    rows = XCMctsPlayer(iterations=500, seed=3).analyse(state)
    assert {move for move, _, _ in rows} <= set(state.legal_moves())
    assert sum(visits for _, visits, _ in rows) == 500
    assert all(0.0 <= value <= 1.0 for _, _, value in rows)
    assert [visits for _, visits, _ in rows] == sorted((v for _, v, _ in rows), reverse=True)


def test_the_time_budget_is_honoured_in_iterations() -> None:
    """A budget in seconds stops the search in C: a longer budget runs more descents, and an
    iteration cap stops a long budget at the cap (counts, not wall-clock bounds)."""
    state = _first(("agora",), lambda s: s.phase == "play" and s.age == 1)
    short, long = XCMctsPlayer(seconds=0.01, seed=1), XCMctsPlayer(seconds=0.2, seed=1)
    short.analyse(state)
    long.analyse(state)
    assert 0 < short.last_iterations < long.last_iterations
    capped = XCMctsPlayer(iterations=50, seconds=30.0, seed=1)
    capped.analyse(state)
    assert capped.last_iterations == 50
    tiny = XCMctsPlayer(seconds=1e-9, seed=1)
    assert tiny.choose(state) in state.legal_moves() and tiny.last_iterations >= 1


@pytest.mark.parametrize("bad", [{"seconds": 0.0}, {"seconds": 1e308}, {"iterations": 0},
                                 {"nonsense": 1.0}])  # fmt: skip
def test_bad_budgets_and_knobs_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        XCMctsPlayer(**bad)


def test_the_search_never_sees_the_opponents_face_down_divinity() -> None:
    """Two referee states that differ only in the opponent's face-down Divinity: the search
    from the mover's seat gives the same answer (it searches the mover's view)."""

    def hidden_and_mover_to_play(s: XState) -> bool:
        return s.phase == "play" and any(
            sp is not None and not sp.face_up and sp.owner != s.to_move for sp in s.spaces
        )

    state = _first(("pantheon",), hidden_and_mover_to_play)
    index = next(
        i
        for i, sp in enumerate(state.spaces)
        if sp is not None and not sp.face_up and sp.owner != state.to_move
    )
    space = state.spaces[index]
    other = next(d for d in state.unaccounted(space.mythology) if d != space.divinity)
    twin = state._copy()
    twin.spaces = tuple(replace(sp, divinity=other) if i == index else sp
                        for i, sp in enumerate(state.spaces))  # fmt: skip
    twin = twin._freeze()
    assert twin != state and twin.view(state.to_move) == state.view(state.to_move)
    first = XCMctsPlayer(iterations=400, seed=5).analyse(state)
    second = XCMctsPlayer(iterations=400, seed=5).analyse(twin)
    assert first == second


@pytest.mark.parametrize("seat", [0, 1])
def test_it_beats_a_random_player(seat: int) -> None:
    wins = 0
    for game in range(3):
        rng = random.Random(100 + game)
        state = xcore.new_game(("pantheon",))
        players = {seat: XCMctsPlayer(iterations=300, seed=game), 1 - seat: XRandomPlayer(game)}
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng), check=False)
                continue
            mover = players[state.to_move]
            move = mover.choose(state) if seat == state.to_move else mover.choose(state.to_xstate())
            state = state.apply(move)
        wins += state.winner == seat
    assert wins == 3
