"""The expansion MCTS never sees what its player cannot: referee states that differ only in which
Conspiracy the opponent holds and which lies on the Conspiracy deck give the same analysis for
the same seed (the face-down Divinity's twin is in test_xmcts.py). The decks' other cards are
not in a referee state at all: they are drawn by chance nodes when the rules turn them up."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from duel.expansions import XState, new_xgame
from duel.solvers.xcmcts import AVAILABLE, XCMctsPlayer

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="duel.solvers._xmcts is not built")


def _first(done, seed: int = 0) -> XState:
    for attempt in range(seed, seed + 200):
        rng, state = random.Random(attempt), new_xgame(("agora",))
        while not state.is_terminal():
            if not state.is_chance() and state.phase == "play" and done(state):
                return state
            state = state.apply(state.random_move(rng), check=False)
    raise AssertionError("no such state")


def _hidden_from(state: XState, cards) -> list[int]:
    return [i for i, c in enumerate(cards) if state.to_move not in c.known_to]


def _same_analysis(state: XState, twin: XState) -> None:
    assert twin != state and twin.view(state.to_move) == state.view(state.to_move)
    for knobs in ({}, {"value_mix": 0.0}):
        first = XCMctsPlayer(iterations=300, seed=9, **knobs).analyse(state)
        second = XCMctsPlayer(iterations=300, seed=9, **knobs).analyse(twin)
        assert first == second


def test_the_opponents_conspiracy_is_not_seen() -> None:
    def opponent_holds_one(s: XState) -> bool:
        other = s.cities[1 - s.to_move]
        return any(not p.used for p in other.plots) and bool(_hidden_from(s, s.plot_top))

    state = _first(opponent_holds_one)
    other = state.cities[1 - state.to_move]
    k = next(i for i, p in enumerate(other.plots) if not p.used)
    j = _hidden_from(state, state.plot_top)[0]
    mine, deck = other.plots[k].name, state.plot_top[j].divinity
    twin = state._copy()
    city = twin.cities[1 - state.to_move]
    city.plots = tuple(replace(p, name=deck) if i == k else p for i, p in enumerate(city.plots))
    twin.plot_top = tuple(replace(c, divinity=mine) if i == j else c
                          for i, c in enumerate(state.plot_top))  # fmt: skip
    _same_analysis(state, twin._freeze())
