"""The learned prior fitted to the search's root visits (duel.solvers.train_prior): the data set
read from the game records, the fit lowering the cross-entropy it minimises, the metrics."""

from __future__ import annotations

import random

import pytest

from duel.solvers.players import CMctsConfig
from duel.solvers.train_prior import (
    PRIOR_TEMPERATURE,
    build_prior_dataset,
    fit_prior,
    prior_metrics,
)
from duel.solvers.value import ValueModel
from duel.state import new_game

np = pytest.importorskip("numpy")


def _record(seed: int, index: int) -> dict:
    """A random game whose decisions with two or more moves carry made-up visits: the first
    legal move gets 3 visits a move later in the list gets 1, and every other move 0 (left out),
    so a prior can learn 'the first move'."""
    rng = random.Random(seed)
    state, moves, visits = new_game(), [], []
    while not state.is_terminal():
        move = state.random_move(rng)
        if not state.is_chance():
            legal = [int(m) for m in state.legal_moves()]
            if len(legal) > 1:
                visits.append([len(moves), [[legal[0], 3], [legal[-1], 1]]])
        moves.append(int(move))
        state = state.apply(move, check=False)
    return {"moves": moves, "index": index, "visits": visits, "winner": 0}


def test_dataset_rows_follow_the_records():
    records = [_record(1, 0), _record(2, 4)]
    data = build_prior_dataset(records)
    decisions = sum(len(r["visits"]) for r in records)
    assert len(data["share"]) == 2 * decisions
    assert data["share"][0::2] == pytest.approx([0.75] * decisions)
    assert data["share"][1::2] == pytest.approx([0.25] * decisions)
    # two rows a decision, contiguous, numbered in order
    assert list(data["group"]) == [g for g in range(decisions) for _ in (0, 1)]
    assert set(data["fold"]) == {0, 4}
    assert set(data["sign"]) == {1.0, -1.0}


def test_fit_lowers_the_cross_entropy_and_zero_weights_are_uniform():
    data = build_prior_dataset([_record(s, s) for s in range(6)])
    rows = np.ones(len(data["share"]), dtype=bool)
    zeros = ValueModel.zeros()
    before = prior_metrics(zeros, data, rows)
    # a uniform prior over two moves against shares 3/4, 1/4: -(3/4 ln 1/2 + 1/4 ln 1/2)
    assert before["cross_entropy"] == pytest.approx(np.log(2.0))
    fitted = fit_prior(data, zeros, l2=1e-4, rows=rows, epochs=200)
    after = prior_metrics(fitted, data, rows)
    assert after["cross_entropy"] < before["cross_entropy"] - 0.01
    assert CMctsConfig().prior_temperature == PRIOR_TEMPERATURE  # the fit's is the player's
