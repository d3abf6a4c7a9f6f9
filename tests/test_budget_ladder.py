"""benchmarks/budget_ladder.py: a rung's games are reproducible, resumable and summarised."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    from duel import core

    if not core.AVAILABLE:  # the compiled MCTS needs the compiled core
        pytest.skip("the compiled core is off (DUEL_PURE) or not built")
    spec = importlib.util.spec_from_file_location(
        "budget_ladder", ROOT / "benchmarks" / "budget_ladder.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "benchmarks"))  # its siblings, as when run
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def _record(game: int, score: float, victory: str = "civilian") -> dict:
    return {
        "game": game,
        "seat": "AB"[game % 2],
        "score": score,
        "victory": victory,
        "seconds": 1.0,
        "load": 1.5,
        "budget": 50,
        "seed": 7,
    }


def test_a_pair_is_the_same_games_as_a_whole_run():
    ladder = _module()
    from cmcts_selfplay import play

    whole: list[dict] = []
    play("", "", 4, 5, (40, 20), on_game=whole.append)
    pair = ladder.play_pair(20, 5, 1)
    assert [g["game"] for g in pair] == [2, 3]
    assert [g["seat"] for g in pair] == ["A", "B"]
    for mine, theirs in zip(pair, whole[2:], strict=True):
        assert (mine["score"], mine["victory"]) == (theirs["score"], theirs["victory"])
        assert (mine["budget"], mine["seed"]) == (20, 5)


def test_reading_a_rung_skips_a_torn_line_and_keeps_one_record_a_game(tmp_path):
    ladder = _module()
    path = ladder.rung_path(tmp_path, 50, 7)
    assert path.name == "cmcts_100_vs_50_seed7.jsonl"
    lines = [json.dumps(_record(0, 1.0)), json.dumps(_record(1, 0.0)), json.dumps(_record(0, 1.0))]
    path.write_text("\n".join(lines) + '\n{"game": 2, "sea')
    games = ladder.read_rung(path)
    assert sorted(games) == [0, 1]
    # the game played again after the interruption lands on a line of its own
    ladder.append_record(path, _record(2, 0.5))
    assert sorted(ladder.read_rung(path)) == [0, 1, 2]


def test_the_summary_scores_2t_with_its_interval_and_elo():
    ladder = _module()
    games = {i: _record(i, s) for i, s in enumerate([1.0, 1.0, 0.5, 0.0, 1.0, 0.5])}
    row = ladder.summary(50, games)
    assert row["games"] == 6 and row["score"] == 4.0
    assert row["p"] == pytest.approx(2 / 3)
    assert row["lo"] < row["p"] < row["hi"]
    assert row["elo"] == pytest.approx(ladder.elo(2 / 3))
    assert row["as_a"] == 2.5 and row["as_b"] == 1.5
    assert row["wins"] == {"civilian": 3} and row["losses"] == {"civilian": 1}
    assert row["load"] == (1.5, 1.5)
    assert abs(ladder.TARGET_ELO - 34.86) < 0.01


def test_the_report_draws_the_chart_and_the_image(tmp_path, capsys):
    ladder = _module()
    for budget, seed, scores in ((50, 7, [1.0, 0.0, 1.0, 1.0]), (100, 8, [0.0, 1.0, 0.5, 0.5])):
        path = ladder.rung_path(tmp_path, budget, seed)
        records = [{**_record(i, s), "budget": budget, "seed": seed} for i, s in enumerate(scores)]
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    image = tmp_path / "ladder.svg"
    code = ladder.main(
        ["--budgets", "50", "100", "--seeds", "7", "8", "--games", "4", "--dir", str(tmp_path)]
        + ["--report", "--svg", str(image)]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "| 50 | 100 vs 50 | 4 | 3/4 = 0.750 |" in out
    assert "| 100 | 200 vs 100 | 4 | 2/4 = 0.500 |" in out
    chart = [line for line in out.splitlines() if line.startswith("T = ")]
    assert len(chart) == 2 and all(line.count("o") == 1 for line in chart)
    assert chart[1].endswith(" +0")  # an even score, never "-0"
    axis_line = out.splitlines()[out.splitlines().index(chart[1]) + 1]
    assert "|" in axis_line and ":" in axis_line and axis_line.endswith("(55%)")
    text = image.read_text()
    assert text.startswith("<svg") and text.count("<circle") == 2 and "55% a doubling" in text


def test_an_odd_number_of_games_is_refused(tmp_path, capsys):
    ladder = _module()
    with pytest.raises(SystemExit):
        ladder.main(["--games", "3", "--dir", str(tmp_path), "--report"])
    assert "even" in capsys.readouterr().err
