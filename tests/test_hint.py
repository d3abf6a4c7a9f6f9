"""The hint engine (duel.solvers.hint) and its calibration (duel.solvers.hint_calibration):
calibrated on held-out self-play, public information only, exact endgames exact, the search on
the pure path."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duel.app.text.lines import line_steps
from duel.position import load_position
from duel.solvers.hint import (
    CALIBRATION_PATH,
    DEFAULT_ITERATIONS,
    MAP_ITERATIONS,
    Calibration,
    cmcts_available,
    default_calibration,
    hint_analysis,
)
from duel.solvers.hint_calibration import fit_map, generate, hint_rows, predict
from duel.solvers.search import analyse
from tests.test_search import QUICK, _deal_consistent_histories

ROOT = Path(__file__).resolve().parents[1]
MIDGAME = ROOT / "examples" / "age2_midgame.json"
#: Hints of held-out self-play games (never used to fit the shipped map): per game, rows of
#: [stage, raw value for the mover, the mover's result]. Written by the calibration run.
SAMPLE = ROOT / "tests" / "golden" / "hint_calibration_sample.json"
needs_cmcts = pytest.mark.skipif(not cmcts_available(), reason="needs the compiled MCTS")


# --- calibration ---------------------------------------------------------------------------------
def _sample():
    import numpy as np

    games = json.loads(SAMPLE.read_text(encoding="utf-8"))["games"]
    rows = [row for game in games for row in game]
    return (
        len(games),
        np.array([r[0] for r in rows], dtype=np.int8),
        np.array([r[1] for r in rows]),
        np.array([r[2] for r in rows]),
    )


def test_shipped_map_is_calibrated_on_held_out_games():
    """Each fifth of the held-out hints (sorted by the value shown) wins within 0.08 of its mean
    shown value, and the calibrated values score no worse a Brier than the raw MCTS ones.

    The sample is the held-out fifth of the recipe's games (50 games); the positions of a game
    share its result, so a fifth's win rate has a standard error of about 0.04: 0.08 is two of
    them. (The cross-fit over all 250 games, in docs/strength.md, is within 0.05 per decile.)"""
    import numpy as np

    n_games, stages, raw, y = _sample()
    assert n_games >= 30 and len(y) >= 1500
    cal = default_calibration()
    shown = np.array([cal(v, s) for v, s in zip(raw, stages, strict=True)])
    order = np.argsort(shown, kind="stable")
    for part in np.array_split(order, 5):
        assert abs(shown[part].mean() - y[part].mean()) <= 0.08, (
            shown[part].mean(),
            y[part].mean(),
        )
    # (1e-5: the identity, written where the map does not pay, clips at 0.005 from 0 and 1)
    assert np.mean((shown - y) ** 2) <= np.mean((raw - y) ** 2) + 1e-5
    # Per Age too: a map fitted on one Age must not pay for itself with another's hints. The
    # sample is outside the fit (fit-ages on benchmarks/results/hint_age_games/ alone).
    for stage in np.unique(stages):
        sel = stages == stage
        assert np.mean((shown[sel] - y[sel]) ** 2) <= np.mean((raw[sel] - y[sel]) ** 2) + 1e-5
    assert "hint_calibration_sample.json" not in cal.meta.get("age_fit", {}).get("files", [])
    assert cal.meta["iterations"] == MAP_ITERATIONS


def test_the_default_budget_lies_between_fitted_budgets_of_the_map():
    """The default hint searches more than the map's own budget, so its value goes through the
    budget layer: the default must lie between the map's budget and a fitted layer's (the value
    interpolated between two fitted budgets, never extrapolated beyond the last)."""
    cal = default_calibration()
    fitted = [n for n, _, _ in cal.budgets]
    assert cal.meta["iterations"] <= DEFAULT_ITERATIONS <= max(fitted)
    assert all(str(n) in cal.meta["budget_fits"] for n in fitted)


def test_platt_fit_recovers_a_known_map():
    """Synthetic hints whose results follow sigmoid(2 logit(raw) + 0.3): the fit finds a and b."""
    import numpy as np

    rng = np.random.default_rng(1)
    raw = rng.uniform(0.05, 0.95, 20_000)
    p = 1.0 / (1.0 + np.exp(-(2.0 * np.log(raw / (1 - raw)) + 0.3)))
    rows = {
        "raw": raw,
        "stage": np.full(len(raw), 2, dtype=np.int8),
        "y": (rng.uniform(size=len(raw)) < p).astype(float),
    }
    cal = fit_map(rows)
    a, b = cal.params[2]
    assert abs(a - 2.0) < 0.1 and abs(b - 0.3) < 0.08
    assert cal.params[0] == (1.0, 0.0)  # no hints in that stage: the identity
    assert np.allclose(predict(cal, rows), [cal(v, 2) for v in raw])


def _one_hint_games(rng, raw, truth) -> list[dict]:
    """Records of games of one hint each (mover A, raw value ``raw``), won by A with the
    probability ``truth(raw)``: the fields ``fit_and_write`` reads."""
    return [
        {
            "index": i,
            "iterations": 500,
            "cpu": 0.0,
            "winner": 0 if rng.uniform() < truth(v) else 1,
            "hints": [[10, 2, 0, float(v), False]],
        }
        for i, v in enumerate(raw)
    ]


def test_the_map_is_written_only_where_it_beats_the_raw_values(tmp_path):
    """Raw values that are probabilities already: the fit finds nothing to mend cross-fitted,
    and the identity is written (``map_kept`` false); raw values that are too timid: the map."""
    import numpy as np

    from duel.solvers.hint_calibration import fit_and_write

    rng = np.random.default_rng(5)
    raw = rng.uniform(0.05, 0.95, 3_000)
    timid = lambda v: 1.0 / (1.0 + np.exp(-2.0 * np.log(v / (1.0 - v))))  # noqa: E731
    for name, truth, kept in (("calibrated", lambda v: v, False), ("timid", timid, True)):
        path = tmp_path / f"{name}.jsonl"
        games = _one_hint_games(rng, raw, truth)
        path.write_text("".join(json.dumps(r) + "\n" for r in games))
        rep = fit_and_write([str(path)], tmp_path / f"{name}_map.json", quiet=True)
        cal = Calibration.load(tmp_path / f"{name}_map.json")
        cross = rep["crossfit"]
        assert (cross["calibrated"]["brier"] < cross["raw"]["brier"]) == kept
        if kept:
            assert cal.params[2][0] > 1.5 and cal.meta["map_kept"] is True
        else:
            assert cal.meta["map_kept"] is False and not cal.knots
            assert all(cal(v, 2) == pytest.approx(v) for v in (0.1, 0.5, 0.83))


@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=20), st.integers(0, 3))
@settings(max_examples=50, deadline=None)
def test_the_shipped_map_is_increasing_and_a_probability(values, stage):
    cal = default_calibration()
    shown = [cal(v, stage) for v in sorted(values)]
    assert all(0.0 <= p <= 1.0 for p in shown)
    assert all(x <= y + 1e-12 for x, y in zip(shown, shown[1:], strict=False))


def test_a_decreasing_map_is_refused(tmp_path):
    bad = Calibration(((1.0, 0.0), (-1.0, 0.0), (1.0, 0.0), (1.0, 0.0))).to_json()
    path = tmp_path / "map.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="increasing"):
        Calibration.load(path)
    assert CALIBRATION_PATH.endswith(".json")


def test_the_pipeline_generates_and_fits(tmp_path):
    """Two tiny self-play games through the batch layer, then a map fitted on them."""
    from duel.solvers.hint_calibration import fit_and_write

    records = generate(games=2, seed=4, iterations=120, workers=1)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    rows = hint_rows(records)
    assert len(rows["y"]) > 40 and set(rows["y"]) <= {0.0, 0.5, 1.0}
    fit_and_write([str(path)], tmp_path / "map.json", quiet=True)
    cal = Calibration.load(tmp_path / "map.json")
    assert cal.meta["iterations"] == 120 and cal.meta["games"] == 2


# --- the engine ----------------------------------------------------------------------------------
def _comparable(info) -> dict:
    d = info.to_dict()
    for key in ("time", "nps"):
        d.pop(key)
    extra = {k: v for k, v in info.extra.items() if k != "memory"}
    return {**d, "extra": extra}


@pytest.mark.parametrize("only_guilds", [False, True])
def test_hidden_cards_do_not_change_the_hint(only_guilds):
    """Two deals that differ only in face-down or removed cards: the same hint, to the digit
    (a fixed seed and an iteration budget make it deterministic)."""
    a, b = _deal_consistent_histories(7, only_guilds=only_guilds)
    assert a == b and hash(a) == hash(b)
    engines = set()
    budget = 3000 if cmcts_available() else 500  # the pure path's search: 30 s at 3000 nodes
    for exact_cards in (None, 0):  # the exact stage where it applies, and the sampled engine
        random.seed(1)
        ia = hint_analysis(a, iterations=budget, top=3, seed=5, exact_cards=exact_cards)
        random.seed(2)  # the global generator is never used
        ib = hint_analysis(b, iterations=budget, top=3, seed=5, exact_cards=exact_cards)
        assert _comparable(ia) == _comparable(ib)
        engines.add(ia.extra["engine"])
    assert ("cmcts" if cmcts_available() else "search") in engines


@needs_cmcts
def test_cmcts_hint_ranks_as_the_player_picks_and_its_line_starts_with_the_move():
    from duel.solvers.cmcts_player import rank_moves
    from duel.solvers.players import CMctsConfig

    state = load_position(MIDGAME)
    info = hint_analysis(state, iterations=3000, top=3, seed=1)
    visits = [info.extra["visits"][str(m.move)] for m in info.moves]
    rows = [(int(m.move), info.extra["visits"][str(m.move)], info.extra["raw"][str(m.move)])
            for m in info.moves]  # fmt: skip
    assert rank_moves(rows, CMctsConfig()) == rows and sum(visits) <= 3000
    assert info.extra["calibrated"] and not info.exact
    for m in info.moves:
        assert m.pv[0] == m.move
        assert len(line_steps(state, m.pv)) == len(m.pv)  # every step applies
        values = info.extra["spread"][str(m.move)]
        assert min(values) - 1e-12 <= m.value <= max(values) + 1e-12
        raw = info.extra["raw"][str(m.move)]
        assert m.value == pytest.approx(default_calibration()(raw, 2))
    assert info.value.relative == info.moves[0].value
    again = hint_analysis(state, iterations=3000, top=3, seed=1, calibrate=False)
    assert again.moves[0].value == pytest.approx(info.extra["raw"][str(info.best_move)])


@needs_cmcts
def test_a_timed_hint_sizes_each_tree_for_its_share_at_a_fresh_trees_rate(monkeypatch):
    """A hint's trees start afresh, so a timed hint sizes each one for its third of the time at
    Age III's rate (an arena too small stops the tree growing); an iteration budget for its third
    of the iterations. Both within a quarter of the machine's memory over the three trees."""
    from duel.solvers import cmcts_player, hint

    seen = []

    def spy(*args, **kwargs):
        seen.append((args, kwargs))
        return cmcts_player.tree_memory(*args, **kwargs)

    monkeypatch.setattr(hint, "tree_memory", spy)
    state = load_position(MIDGAME)
    hint_analysis(state, seconds=0.3, top=1, seed=1)
    (seconds, iterations), options = seen[-1]
    assert seconds == pytest.approx(0.1, abs=0.02) and iterations is None
    assert options == {"rate": cmcts_player.FRESH_TREE_ITERATIONS_PER_SECOND, "trees": 3}
    hint_analysis(state, iterations=3000, top=1, seed=1)
    assert seen[-1][0] == (None, 1000)
    assert cmcts_player.tree_memory(1e6, None, trees=3) <= max(
        cmcts_player.TREE_MEMORY, cmcts_player._memory_ceiling() // 3
    )


def test_exact_endgames_stay_exact():
    """An 8-card Age III endgame: the hint is the exact solver's, values not calibrated."""
    state = load_position(QUICK[0])
    info = hint_analysis(state, iterations=3000, top=3, seed=0, exact_cards=8)
    assert info.exact and info.extra["engine"] == "exact"
    solved = analyse(state, top=3, exact=True, margin=False)
    assert [(m.move, m.value) for m in info.moves] == [(m.move, m.value) for m in solved.moves]
    assert all(m.bound == "exact" for m in info.moves)
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    if cmcts_available():  # (the pure path's hint command is today's search, unchanged)
        shown = CliRunner().invoke(app, ["hint", str(QUICK[0]), "--time", "2", "-v"]).output
        assert "% exact" in shown and "Values are exact" in shown and "calibrated" not in shown


def test_the_pure_path_falls_back_on_the_search_and_says_so(tmp_path):
    env = {**os.environ, "DUEL_PURE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "hint", str(MIDGAME)]
        + ["--nodes", "400", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    ).stdout
    data = json.loads(out)
    assert data["engine"] == "search" and data["backend"] == "python"
    assert 0.0 <= data["value"] <= 1.0 and not math.isnan(data["value"])


@needs_cmcts
def test_hint_command_names_the_engine_in_json_and_verbose():
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    runner = CliRunner()
    result = runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "1500", "--json"])
    data = json.loads(result.output)
    assert data["engine"] == "cmcts" and data["calibrated"] is True
    assert data["nodes"] == 1500 and len(data["spread"]["seeds"]) == 3
    verbose = runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "1500", "-v"])
    assert "engine: cmcts" in verbose.output and "calibrated" in verbose.output


@needs_cmcts
def test_a_hint_lists_only_moves_a_search_looked_at():
    """Issue 64: the hint listed "2. discard Arsenal  not searched"; a hint shows what it
    searched. Asked for every move after a small search, it lists the visited ones, each with
    a value, and no "not searched" line."""
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    state = load_position(MIDGAME)
    info = hint_analysis(state, iterations=20, top=len(state.legal_moves()), seed=0)
    assert 0 < len(info.moves) < len(state.legal_moves())  # some moves were never visited
    assert all(m.value is not None and info.extra["visits"][str(m.move)] > 0 for m in info.moves)
    runner = CliRunner()
    text = runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "20", "--top", "40"]).output
    assert "not searched" not in text and "seen by 0" not in text, text
    data = json.loads(
        runner.invoke(app, ["hint", str(MIDGAME), "--nodes", "20", "--top", "40", "--json"]).output
    )
    assert all(m["value"] is not None and m["bound"] != "unsearched" for m in data["moves"])


def test_isotonic_correction_pools_violators_and_follows_an_s_shape():
    """The pooled correction after Platt: increasing knots, and on S-shaped results (too timid
    near one half) it moves values away from one half."""
    import numpy as np

    from duel.solvers.hint_calibration import _isotonic_knots

    rng = np.random.default_rng(3)
    p = rng.uniform(0.0, 1.0, 20_000)
    truth = 1.0 / (1.0 + np.exp(-3.0 * np.log(p / (1.0 - p))))  # steeper than p
    y = (rng.uniform(size=len(p)) < truth).astype(float)
    knots = _isotonic_knots(p, y)
    xs, ys = [x for x, _ in knots], [v for _, v in knots]
    assert xs == sorted(xs) and all(a < b for a, b in zip(ys, ys[1:], strict=False))
    cal = Calibration(((1.0, 0.0),) * 4, knots=knots)
    assert cal.correct(0.3) < 0.25 and cal.correct(0.7) > 0.75
    assert _isotonic_knots(np.array([0.1, 0.9]), np.array([0.0, 1.0])) == ()  # too few hints


@needs_cmcts
def test_the_shipped_map_is_not_stale_for_the_default_player():
    """Settings added to CMctsConfig after the map was fitted count at their defaults, so the
    default player's hint does not ask for a refit."""
    state = load_position(MIDGAME)
    info = hint_analysis(state, iterations=300, top=1, seed=1, exact_cards=0)
    assert info.extra["calibration"]["stale"] is False


@needs_cmcts
def test_a_map_fitted_before_the_pick_by_lower_bound_is_stale():
    """A map without ``pick`` in its settings was fitted when the player picked by visits."""
    from dataclasses import asdict, replace

    from duel.solvers.players import CMctsConfig

    shipped = default_calibration()
    config = {k: v for k, v in asdict(CMctsConfig()).items() if k != "pick"}
    old = replace(shipped, meta={**shipped.meta, "cmcts_config": config})
    state = load_position(MIDGAME)
    info = hint_analysis(state, iterations=300, top=1, seed=1, exact_cards=0, calibration=old)
    assert info.extra["calibration"]["stale"] is True


# --- the budget layer: a larger search, sharper raw values ----------------------------------------
def _with_layer(budgets) -> Calibration:
    return Calibration(((1.0, 0.0),) * 4, {"iterations": 6000}, budgets=budgets)


def test_the_budget_layer_is_the_identity_at_the_maps_budget_and_interpolates_above():
    cal = _with_layer(((60_000, 2.0, 0.0), (600_000, 3.0, 0.5)))
    assert cal(0.7, 1) == cal(0.7, 1, 6000) == cal(0.7, 1, 100) == 0.7
    assert cal.budget_params(60_000) == (2.0, 0.0) and cal.budget_params(10**8) == (3.0, 0.5)
    a, b = cal.budget_params(int(math.sqrt(60_000 * 600_000)))  # halfway in log-iterations
    assert a == pytest.approx(2.5, abs=1e-4) and b == pytest.approx(0.25, abs=1e-4)
    assert cal(0.7, 1, 60_000) == pytest.approx(1 / (1 + (0.3 / 0.7) ** 2))  # sharper


def test_a_map_with_budget_layers_round_trips_and_a_decreasing_layer_is_refused(tmp_path):
    cal = _with_layer(((600_000, 3.0, 0.5), (60_000, 2.0, 0.0)))
    path = tmp_path / "map.json"
    cal.save(path)
    again = Calibration.load(path)
    assert again.budgets == ((60_000, 2.0, 0.0), (600_000, 3.0, 0.5))  # sorted on load
    assert again(0.3, 2, 200_000) == pytest.approx(cal(0.3, 2, 200_000))
    bad = json.loads(path.read_text())
    bad["budgets"][0]["a"] = -1.0
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="increasing"):
        Calibration.load(path)


def test_fit_budget_finds_a_sharper_layer_and_is_better_cross_fitted():
    """Results drawn from a sharper truth than the map says: the layer steepens (a > 1), and
    its cross-fitted Brier score beats the map alone."""
    import numpy as np

    from duel.solvers.hint_calibration import fit_budget

    rng = np.random.default_rng(5)
    raw = rng.uniform(0.05, 0.95, 6000)
    truth = 1.0 / (1.0 + ((1.0 - raw) / raw) ** 2.5)
    rows = {
        "raw": raw,
        "stage": rng.integers(0, 4, len(raw)).astype(np.int8),
        "y": (rng.uniform(size=len(raw)) < truth).astype(float),
        "game": np.arange(len(raw)) // 20,
    }
    rows["fold"] = (rows["game"] % 5).astype(np.int8)
    (a, b), rep = fit_budget(Calibration(((1.0, 0.0),) * 4), rows)
    assert 2.0 < a < 3.0 and abs(b) < 0.2
    assert rep["layer_crossfit"]["brier"] < rep["map"]["brier"]
    assert rep["hints"] == 6000 and rep["games"] == 300


@needs_cmcts
def test_budget_positions_replay_their_game_and_are_labelled_for_the_mover(tmp_path):
    from duel.solvers.hint_calibration import budget_jobs, budget_rows, hint_budget_position

    records = generate(games=1, seed=4, iterations=120, workers=1)
    jobs = budget_jobs(records, iterations=300, positions=3, seed=2)
    assert len(jobs) == 3 and jobs == budget_jobs(records, iterations=300, positions=3, seed=2)
    results = [hint_budget_position(job) for job in jobs]
    a_result = 1.0 if records[0]["winner"] == 0 else 0.0 if records[0]["winner"] == 1 else 0.5
    for job, result in zip(jobs, results, strict=True):
        hint = next(h for h in records[0]["hints"] if h[0] == job["ply"])
        assert result["stage"] == hint[1] and 0.0 <= result["raw"] <= 1.0
        assert result["y"] == (a_result if hint[2] == 0 else 1.0 - a_result)
    assert len(budget_rows(results, 300)["y"]) == sum(not r["exact_first"] for r in results)


@needs_cmcts
def test_a_hint_applies_the_layer_of_the_iterations_it_searched():
    state = load_position(MIDGAME)
    steep = Calibration(((1.0, 0.0),) * 4, {"iterations": 300}, budgets=((3000, 4.0, 0.0),))
    small = hint_analysis(state, iterations=300, top=1, seed=1, exact_cards=0, calibration=steep)
    large = hint_analysis(state, iterations=3000, top=1, seed=1, exact_cards=0, calibration=steep)
    assert small.moves[0].value == pytest.approx(small.extra["raw"][str(small.best_move)])
    raw = large.extra["raw"][str(large.best_move)]
    assert large.moves[0].value == pytest.approx(steep(raw, 2, large.nodes))
    assert large.moves[0].value != pytest.approx(raw)
    assert large.extra["calibration"]["budget_layer"] == [4.0, 0.0]


def _write_budget_results(path, rng, steepness: float, drawn: bool) -> None:
    """3,000 results at 60,000 iterations whose raw values are uniform and whose truth is the raw
    value sharpened by ``steepness``; the labels are drawn from that truth, or the truth itself."""
    raw = rng.uniform(0.05, 0.95, 3000)
    truth = 1.0 / (1.0 + ((1.0 - raw) / raw) ** steepness)
    results = [
        {
            "game": i // 10,
            "ply": i,
            "iterations": 60_000,
            "stage": 1,
            "raw": float(r),
            "y": float(rng.uniform() < t) if drawn else float(t),
            "exact_first": False,
            "cpu": 0.1,
        }
        for i, (r, t) in enumerate(zip(raw, truth, strict=True))
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in results))


def test_fitting_a_new_budget_keeps_the_layers_of_the_others(tmp_path):
    """A map with a layer at 120,000 iterations gets one at 60,000 from a results file of that
    budget alone: the 120,000 layer and its fit record are kept, the 60,000 one is added."""
    import numpy as np

    from duel.solvers.hint_calibration import fit_budgets_and_write

    map_path = tmp_path / "map.json"
    earlier = {"120000": {"hints": 500, "kept": True}}
    Calibration(
        ((1.0, 0.0),) * 4,
        {"iterations": 6000, "budget_fits": earlier},
        budgets=((120_000, 2.0, 0.1),),
    ).save(map_path)
    path = tmp_path / "budget.jsonl"
    _write_budget_results(path, np.random.default_rng(9), 3.0, drawn=True)
    fit_budgets_and_write([str(path)], map_path, quiet=True)
    cal = Calibration.load(map_path)
    assert [n for n, _, _ in cal.budgets] == [60_000, 120_000]
    assert cal.budgets[1] == (120_000, 2.0, 0.1)
    assert cal.budgets[0][1] > 1.5  # the sharper truth's layer
    assert list(cal.meta["budget_fits"]) == ["60000", "120000"]
    assert cal.meta["budget_fits"]["120000"] == earlier["120000"]


def test_a_budget_layer_that_does_not_beat_the_map_is_written_as_the_identity(tmp_path):
    """Results that the map already calls exactly (the labels are the map's own probabilities):
    the cross-fitted layer cannot beat it, so the map file gets the identity at that budget (and
    says so); results of a sharper truth keep their layer."""
    import numpy as np

    from duel.solvers.hint_calibration import fit_budgets_and_write

    rng = np.random.default_rng(8)
    map_path = tmp_path / "map.json"
    for steepness, kept in ((1.0, False), (3.0, True)):
        Calibration(((1.0, 0.0),) * 4, {"iterations": 6000}).save(map_path)
        path = tmp_path / "budget.jsonl"
        _write_budget_results(path, rng, steepness, drawn=kept)
        reports = fit_budgets_and_write([str(path)], map_path, quiet=True)
        layer = Calibration.load(map_path).budgets
        assert reports["60000"]["kept"] is kept
        assert (layer == ((60_000, 1.0, 0.0),)) is not kept


def test_fit_budgets_names_a_missing_file_in_one_line(tmp_path, capsys):
    """A results file or map that is not there ends the command with its name, not a traceback."""
    from duel.solvers.hint_calibration import main

    missing = tmp_path / "nowhere.jsonl"
    with pytest.raises(SystemExit) as exit_info:
        main(["fit-budgets", str(missing), "--map", str(tmp_path / "map.json")])
    message = str(exit_info.value.code)
    assert message.startswith("error: ") and "No such file" in message
    assert "\n" not in message


def test_the_calibration_test_is_the_chi_square_tail_of_the_deciles():
    """Two bins (2 degrees of freedom, where the chi-square tail is exp(-x / 2)): the statistic
    weighs each bin's gap by its count; empty bins do not count; a perfect table scores p = 1."""
    from duel.solvers.train import calibration_test

    table = [
        {"positions": 400, "predicted": 0.2, "won": 0.25},
        {"positions": 0, "predicted": None, "won": None},
        {"positions": 100, "predicted": 0.5, "won": 0.45},
    ]
    chi2, bins, p = calibration_test(table)
    expected = 400 * 0.05**2 / (0.2 * 0.8) + 100 * 0.05**2 / 0.25
    assert bins == 2 and chi2 == pytest.approx(expected)
    assert p == pytest.approx(math.exp(-expected / 2))
    perfect = [{"positions": 50, "predicted": 0.3, "won": 0.3}]
    assert calibration_test(perfect) == (0.0, 1, 1.0)
