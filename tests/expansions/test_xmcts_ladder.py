"""The expansion cmcts's self-play ladder at fixed iterations (benchmarks/xstrength.py --ladder
--iterations, benchmarks/xmcts_ladder.py): the rungs, a game at fixed budgets, the table's Elo."""

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from duel.solvers import xcmcts

pytestmark = pytest.mark.expansions

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"benchmarks/{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def xstrength():
    return _load("xstrength")


def test_a_ladder_doubles_iterations_or_time(xstrength):
    assert xstrength.ladder("cmcts", [0.1, 0.3]) == [
        ("cmcts:0.2s", "cmcts:0.1s", 0.1),
        ("cmcts:0.6s", "cmcts:0.3s", 0.3),
    ]
    assert xstrength.ladder("cmcts", [0.1], [1500, 13000]) == [
        ("cmcts:3000", "cmcts:1500", 0.0),
        ("cmcts:26000", "cmcts:13000", 0.0),
    ]


@pytest.mark.skipif(not xcmcts.AVAILABLE, reason="the compiled expansion search is not built")
def test_a_fixed_iteration_rung_plays_a_game_with_those_budgets(xstrength):
    ((a, b, seconds),) = xstrength.ladder("cmcts", [1.0], [10])
    job = next(iter(xstrength.jobs(a, b, "agora", seconds, 1, 5)))
    line = xstrength.play_game(job)
    assert line["level_a"] == "cmcts:20" and line["level_b"] == "cmcts:10"
    assert line["winner"] in ("A", "B", "shared") and line["moves"] > 20


def test_the_ladder_table_converts_scores_to_elo():
    ladder = _load("xmcts_ladder")
    assert ladder.elo(0.5) == 0.0
    assert ladder.elo(0.75) == pytest.approx(400 * math.log10(3))
    assert ladder.elo(1.0) == math.inf
    games = [
        {"winner": w, "a_seat": i % 2, "set": "agora", "seed": i // 2}
        for i, w in enumerate(["A", "B", "shared", "A"])
    ]
    text = ladder.row("x", games)
    assert text.startswith("| x | 4 | 2.5/4 = 62.5% |")
    assert text.endswith("| 1.5/2, 1/2 | 0 / 2 / 0 |")
