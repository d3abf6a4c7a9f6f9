"""The expansion hints' calibration (solvers/xhint_calibration.py): the Platt fit recovers a known
map, the cross-fitted report holds each game's positions out together, and the hint applies the
shipped map per expansion set (or shows raw values without one)."""

import json
import math
import random

import pytest

from duel.solvers import xhint_calibration as cal

pytestmark = pytest.mark.expansions


def _synthetic(a, b, games=60, per_game=40, seed=0):
    rng = random.Random(seed)
    lines = []
    for game in range(games):
        for _ in range(per_game):
            raw = rng.uniform(0.02, 0.98)
            p = 1 / (1 + math.exp(-(a * math.log(raw / (1 - raw)) + b)))
            lines.append(
                {
                    "set": "both",
                    "game": game,
                    "raw": raw,
                    "iterations": 1,
                    "outcome": float(rng.random() < p),
                }
            )
    return lines


def test_the_fit_recovers_a_known_map():
    lines = _synthetic(0.6, 0.3)
    fitted = cal.fit_platt([x["raw"] for x in lines], [x["outcome"] for x in lines])
    assert fitted.a == pytest.approx(0.6, abs=0.1) and fitted.b == pytest.approx(0.3, abs=0.1)
    assert cal.PlattMap()(0.3) == pytest.approx(0.3)


def test_the_report_is_cross_fitted_by_game_and_beats_the_raw_values():
    lines = _synthetic(0.5, -0.4)
    shown = cal.cross_fitted(lines)
    assert len(shown) == len(lines) and all(0 < v < 1 for v in shown)
    outcome = [x["outcome"] for x in lines]
    assert cal.brier(shown, outcome) < cal.brier([x["raw"] for x in lines], outcome)
    text, maps = cal.report(lines)
    assert set(maps) == {"both"} and "Brier" in text and "worst calibrated decile" in text
    assert max(abs(s - o) for s, o, _ in cal.deciles(shown, outcome)) < 0.08


def test_the_shipped_maps_are_read_per_set_and_a_missing_file_means_raw(tmp_path):
    path = tmp_path / "cal.json"
    cal.save({"agora": cal.PlattMap(0.5, 0.0)}, path, "test")
    maps = cal.load_calibration(path)
    assert maps["agora"](0.9) == pytest.approx(cal.PlattMap(0.5, 0.0)(0.9))
    assert json.loads(path.read_text())["kind"] == "platt"
    assert cal.load_calibration(tmp_path / "none.json") == {}
    assert cal.set_name(("pantheon", "agora")) == "both" and cal.set_name(()) == "base"


def test_the_bin_gap_reads_the_base_games_tenths_of_20_hints_or_more():
    # 0.05 shown 20 times, 5 won: off by 0.20; 0.95 shown 19 times, none won: under 20 hints
    values = [0.05] * 20 + [0.95] * 19
    outcome = [1.0] * 5 + [0.0] * 15 + [0.0] * 19
    assert cal.bin_gap(values, outcome) == pytest.approx(0.20)
    assert cal.bin_gap(values, outcome, least=19) == pytest.approx(0.95)


def test_the_summary_judges_the_shipped_map_on_the_games_it_was_not_fitted_on():
    lines = _synthetic(0.5, -0.4)
    shipped = {"both": cal.PlattMap(0.5, -0.4)}
    text, _ = cal.report(lines, shipped, frozenset(range(40)))
    row = text.splitlines()[-1]
    assert row.startswith("both: 20 games, 800 hints (the games it was not fitted on)")
    judged = [x for x in lines if x["game"] >= 40]
    outcome = [x["outcome"] for x in judged]
    expected = cal.brier([shipped["both"](x["raw"]) for x in judged], outcome)
    assert f"shipped {expected:.4f}" in row
    assert "summary" not in cal.report(lines)[0]
