"""benchmarks/move_ladder.py: how a budget's move is judged, and two runs compared."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    from duel import core

    if not core.AVAILABLE:  # the benchmark's imports need the compiled core
        pytest.skip("the compiled core is off (DUEL_PURE) or not built")
    spec = importlib.util.spec_from_file_location(
        "move_ladder", ROOT / "benchmarks" / "move_ladder.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "benchmarks"))  # its sibling exact_budget, as when run
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


RESULT = {
    "index": 0,
    "best": 1,
    "rows": [[1, 900, 0.60], [2, 80, 0.55], [3, 0, 0.5], [4, 20, 0.40]],
}


def test_loss_is_the_reference_value_given_up():
    ladder = _module()
    assert ladder.loss(RESULT, 1) == 0.0
    assert ladder.loss(RESULT, 2) == pytest.approx(0.05)
    # a move the reference never tried counts as its worst tried one
    assert ladder.loss(RESULT, 3) == pytest.approx(0.20)


def _write(path: Path, chosen: list[list[int]]) -> str:
    lines = [
        json.dumps({"key": str(i), "result": {**RESULT, "index": i, "chosen": c}})
        for i, c in enumerate(chosen)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_compare_gives_the_gain_per_move(tmp_path, capsys):
    ladder = _module()
    base = _write(tmp_path / "base.jsonl", [[2, 1], [1, 1], [4, 2]])
    lever = _write(tmp_path / "lever.jsonl", [[1, 1], [1, 1], [2, 2]])
    ladder.compare(base, lever)
    out = capsys.readouterr().out
    assert "3 positions in both" in out
    # budget 1: base loses 0.05 + 0 + 0.20, the lever 0 + 0 + 0.05: a gain of 0.0667 a move
    assert "| 1 | 1, 0.0833 | 2, 0.0167 | +0.0667" in out
    assert "| 2 | 2, 0.0167 | 2, 0.0167 | +0.0000" in out


def test_exact_rows_value_every_move_as_the_solver_values_the_position():
    import random

    from duel.solvers.search import Limit, analyse
    from duel.state import new_game

    ladder = _module()
    rng, state = random.Random(7), new_game()
    while not (
        state.age == 3
        and state.phase == "play"
        and ladder.cards_left(state) <= 5
        and len(state.legal_moves()) > 1
    ):
        state = state.apply(state.random_move(rng), check=False)
        assert not state.is_terminal()
    rows = ladder.exact_rows(state, 30.0)
    assert sorted(m for m, _, _ in rows) == sorted(int(m) for m in state.legal_moves())
    assert all(0.0 <= v <= 1.0 for _, _, v in rows)
    whole = analyse(state, Limit(time=30), exact=True, margin=False, threads=1)
    assert whole.exact
    mover = whole.value.a if state.to_move == 0 else 1.0 - whole.value.a
    assert max(v for _, _, v in rows) == pytest.approx(mover)


def test_a_timed_budget_chooses_a_legal_move_in_its_time():
    """``--seconds``: budgets given as times per move ("0.05s") are played as a timed player
    plays them, judged by the known reference like the iteration budgets."""
    import random
    import time

    from duel.position import position_to_json
    from duel.state import new_game

    ladder = _module()
    rng, state = random.Random(5), new_game()
    while not (state.phase == "play" and len(state.legal_moves()) > 3):
        state = state.apply(state.random_move(rng), check=False)
    rows = [[int(m), 10, 0.5] for m in state.legal_moves()]
    job = {
        "index": 3,
        "position": position_to_json(state),
        "budgets": ["0.05s"],
        "options": "",
        "known": [rows[0][0], rows],
    }
    start = time.perf_counter()
    result = ladder.judge(job)
    assert time.perf_counter() - start < 1.0
    assert result["chosen"][0] in {int(m) for m in state.legal_moves()}
    assert result["rows"] == rows and result["best"] == rows[0][0]


def test_game_positions_leave_out_the_endgames_below_the_judged_cards():
    """``--judge-cards``: the pool keeps Age III decisions from MIN cards left up, so an 11-card
    set can be judged; the default leaves out what a 1 s player solves (11 cards and fewer)."""
    ladder = _module()
    default = ladder.game_positions(3, 200)
    wider = ladder.game_positions(3, 200, min_cards=9)

    def age3_cards(states):
        return sorted(ladder.cards_left(s) for s in states if s.age == 3)

    assert min(age3_cards(default)) >= 12
    assert min(age3_cards(wider)) >= 9
    assert set(age3_cards(wider)) > set(age3_cards(default))
