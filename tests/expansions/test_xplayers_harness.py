"""The expansion strength harness (benchmarks/xstrength.py): deal pairs with the seats swapped,
a line per game, resumable, and a summary that counts what the lines say."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.expansions

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def xstrength():
    spec = importlib.util.spec_from_file_location("xstrength", ROOT / "benchmarks/xstrength.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["xstrength"] = module
    spec.loader.exec_module(module)
    return module


def test_pairs_swap_the_seats_on_one_deal(xstrength):
    todo = list(xstrength.jobs("greedy", "random", "both", 1.0, 2, 40))
    assert [(j["pair"], j["seed"], j["a_seat"]) for j in todo] == [
        (0, 40, 0),
        (0, 40, 1),
        (1, 41, 0),
        (1, 41, 1),
    ]
    assert todo[0]["seats"] == ["greedy", "random"] and todo[1]["seats"] == ["random", "greedy"]


def test_games_are_written_and_a_rerun_resumes(xstrength, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    todo = list(xstrength.jobs("greedy", "random", "pantheon", 1.0, 1, 3))
    xstrength.run(todo[:1], out, workers=1)
    xstrength.run(todo, out, workers=1)
    assert "1 games already in" in capsys.readouterr().out
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert sorted(line["swap"] for line in lines) == [0, 1]
    for line in lines:
        assert line["winner"] in ("A", "B", "shared") and line["moves"] > 20
        assert line["victory"] in ("civilian", "military", "science", "political", "shared")
        assert len(line["load"]) == 4 and line["think_a"] >= 0
    text = xstrength.summary(lines)
    score = sum(1.0 if g["winner"] == "A" else 0.5 if g["winner"] == "shared" else 0 for g in lines)
    assert f"A scores {score:g}/2" in text and "95% Wilson" in text and "as B (second)" in text


def test_a_civilian_win_by_divinity_points_is_divinity_driven(xstrength):
    class Score:
        def __init__(self, total, divinities):
            self.total, self.divinities = total, divinities

    class Final:
        pantheon, victory = True, "civilian"

        def __init__(self, scores):
            self.scores = scores

        def score(self, player):
            return self.scores[player]

    narrow = Final([Score(60, 9), Score(55, 0)])
    wide = Final([Score(70, 9), Score(55, 0)])
    assert xstrength.divinity_driven(narrow, None, 0)
    assert not xstrength.divinity_driven(wide, None, 0)
    assert not xstrength.divinity_driven(narrow, None, None)
