"""The expansion MCTS's learned value (solvers/csrc/xvalue.h, data/models/xvalue.json) and its
exact ends of game."""

from __future__ import annotations

import json
import random

import pytest

from duel import xcore
from duel.expansions import XState, new_xgame
from duel.expansions.components import XCARDS as CARDS
from duel.solvers import xcmcts
from duel.solvers.xcmcts import AVAILABLE, MODEL_PATH, XCMctsPlayer

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="duel.solvers._xmcts is not built")


def _play_states(expansions: tuple[str, ...], seed: int, count: int) -> list[XState]:
    rng, state, out = random.Random(seed), new_xgame(expansions), []
    while not state.is_terminal() and len(out) < count:
        if not state.is_chance() and state.phase == "play":
            out.append(state)
        state = state.apply(state.random_move(rng), check=False)
    return out


def test_the_shipped_model_loads_and_matches_the_c_features() -> None:
    model = json.loads(MODEL_PATH.read_text())
    assert model["features"] == xcmcts.xmcts.feature_names()
    assert len(model["features"]) == xcmcts.xmcts.N_FEATURES
    assert sum(len(stage) for stage in model["weights"]) == xcmcts.xmcts.N_WEIGHTS
    assert xcmcts.MODEL is not None and len(xcmcts.MODEL) == 8 * xcmcts.xmcts.N_WEIGHTS
    assert model["training"]["model"][0] < model["training"]["constant"][0]


@pytest.mark.parametrize("expansions", [("pantheon",), ("agora",), ("agora", "pantheon")])
def test_features_are_the_same_for_the_referee_and_both_views(expansions) -> None:
    for state in _play_states(expansions, 3, 60)[::6]:
        c = xcore.CXState.from_xstate(state)
        referee = xcmcts.xmcts.features(c.core.to_bytes())
        for p in (0, 1):
            assert xcmcts.xmcts.features(c.view(p).core.to_bytes()) == referee
        value = xcmcts.xmcts.value(c.core.to_bytes(), xcmcts.MODEL)
        assert 0.0 < value < 1.0


def test_a_move_that_wins_at_once_is_valued_1() -> None:
    """The pawn one shield from the opponent's capital and a red card to build: that build is
    the answer, valued exactly 1 (the end of the game is never left to the model)."""
    for state in _play_states(("agora", "pantheon"), 11, 200):
        reds = [m for m in state.legal_moves()
                if m.kind == "build" and m.args and CARDS[m.args[0]].shields > 0]  # fmt: skip
        if reds:
            break
    else:
        raise AssertionError("no red card to build")
    won = state._copy()
    won.pawn = 8 if state.to_move == 0 else -8
    won = won._freeze()
    rows = XCMctsPlayer(iterations=400, seed=2).analyse(won)
    move, _, value = rows[0]
    assert move.kind == "build" and move.args and CARDS[move.args[0]].shields > 0
    assert value == 1.0
    assert all(0.0 <= v <= 1.0 for _, _, v in rows)
