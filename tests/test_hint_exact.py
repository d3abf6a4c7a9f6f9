"""Issue 64: the hint shows the exact value wherever the exact solver finishes: the default hint
in Age III streams the estimate, then solves exactly (``exact_nodes`` makes that stage
reproducible here: node counts, not wall-clock bounds), and the app's live analysis, calling
again with growing budgets, goes on from the table the last call filled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app
from duel.position import load_position
from duel.solvers import hint
from duel.solvers.hint import cmcts_available, hint_analysis, release_exact_table
from duel.solvers.search import analyse

ROOT = Path(__file__).resolve().parents[1]
ENDGAMES = ROOT / "examples" / "endgames"
#: Age III positions of strong play (cmcts:2000 self-play, benchmarks/hint_truth.py).
TEN = ENDGAMES / "age3_10cards_cmcts6410.json"  # exact value for A 1/6, 45k nodes
TWELVE = ENDGAMES / "age3_12cards_cmcts6402.json"  # exact value for A 0.6452, 1.7M nodes
needs_cmcts = pytest.mark.skipif(not cmcts_available(), reason="needs the compiled MCTS")


def _judge(path: Path):
    state = load_position(path)
    return state, analyse(state, top=3, exact=True, margin=False)


@needs_cmcts
def test_the_default_hint_shows_the_exact_value_of_a_12_card_endgame():
    """Before issue 64 the default hint (6,000 iterations) showed a calibrated estimate at 12
    cards wherever the 3M-node stage did not finish; now the exact values of the best moves."""
    state, judge = _judge(TWELVE)
    info = hint_analysis(state, exact_nodes=20_000_000, exact_cards=12)
    assert info.exact and info.extra["engine"] == "exact"
    assert [(m.move, m.value) for m in info.moves] == [(m.move, m.value) for m in judge.moves]
    assert abs(info.value.a - judge.value.a) < 1e-12
    estimate = info.extra["estimate"]  # the estimate that was shown first, kept for comparison
    assert estimate["move"] and 0.0 < estimate["value"] < 1.0


@needs_cmcts
def test_an_unfinished_exact_stage_leaves_the_estimate_and_says_so():
    state = load_position(TWELVE)
    info = hint_analysis(state, exact_nodes=20_000, exact_cards=12)
    assert not info.exact and info.extra["engine"] == "cmcts"
    assert info.extra["exact_stage"] == "unfinished"


@needs_cmcts
def test_the_estimate_is_streamed_before_the_exact_answer():
    state, judge = _judge(TEN)
    seen = []
    info = hint_analysis(state, exact_seconds=120.0, on_estimate=seen.append)
    assert len(seen) == 1 and not seen[0].exact and seen[0].extra["engine"] == "cmcts"
    assert seen[0].extra["exact_stage"] == {"seconds": 120.0, "threads": hint.default_threads()}
    assert info.exact and info.moves[0].value == judge.moves[0].value


@needs_cmcts
def test_duel_hint_json_gives_the_estimate_line_then_the_exact_line():
    """The default `duel hint --json` in a small endgame: JSON Lines, the estimate first."""
    _, judge = _judge(TEN)
    out = CliRunner().invoke(app, ["hint", str(TEN), "--json"]).output
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["stage"] for d in lines] == ["estimate", "final"]
    assert lines[0]["engine"] == "cmcts" and lines[0]["exact"] is False
    assert lines[1]["engine"] == "exact" and lines[1]["exact"] is True
    assert lines[1]["value_a"] == judge.value.a
    text = CliRunner().invoke(app, ["hint", str(TEN)]).output
    seconds = f"{hint.DEFAULT_EXACT_SECONDS:g}"
    assert f"Solving exactly (at most {seconds} s on" in text and "% exact" in text
    assert text.index("Solving exactly") < text.index("% exact")
    # an explicit iteration budget: one document, reproducible, as before
    one = CliRunner().invoke(app, ["hint", str(TEN), "--nodes", "3000", "--json"]).output
    one = json.loads(one)
    assert one["stage"] == "final" and one["exact"] is True


@needs_cmcts
def test_growing_budgets_go_on_from_the_table_the_last_call_filled():
    """The app's live analysis calls again with a larger budget while the player thinks: the
    second call on the same position reuses the first one's exact table (far fewer nodes)."""
    release_exact_table()
    state = load_position(TWELVE)
    first = hint_analysis(state, seconds=200.0, top=1)
    kept = hint._kept.searcher
    second = hint_analysis(state, seconds=200.0, top=1)
    assert first.exact and second.exact and hint._kept.searcher is kept
    assert second.value.a == first.value.a and second.nodes * 10 < first.nodes
    release_exact_table()
    assert hint._kept.searcher is None


@needs_cmcts
def test_an_exact_stage_out_of_time_leaves_the_streamed_estimate(monkeypatch):
    """The default hint whose exact solve cannot finish in its time (1 ms for a 12-card solve
    of 1.7M nodes): the estimate stands, and the command says so instead of printing it twice."""
    monkeypatch.setattr(hint, "DEFAULT_EXACT_SECONDS", 0.001)
    monkeypatch.setattr(hint, "exact_cards_for_time", lambda seconds, threads=1: 16)
    text = CliRunner().invoke(app, ["hint", str(TWELVE)]).output
    assert "Solving exactly (at most 0.001 s on" in text
    assert text.rstrip().endswith("Not solved exactly in that time: the estimate above stands.")
    assert text.count("Best moves for") == 1 and "% exact" not in text
    out = CliRunner().invoke(app, ["hint", str(TWELVE), "--json"]).output
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["stage"] for d in lines] == ["estimate", "final"]
    assert lines[1]["exact"] is False and lines[1]["value"] == lines[0]["value"]


@needs_cmcts
def test_short_timed_calls_add_up_until_the_exact_stage_starts():
    """0.1 s alone reaches 9 cards (the measured medians); the calls on one position add up,
    and from the fourth (0.4 s in all: a 12-card solve's median on two threads is 0.23 s, within
    60% of it) the exact stage runs on the kept table. A new position starts from zero."""
    from duel.solvers.cmcts_player import exact_cards_for_time

    release_exact_table()
    state = load_position(TWELVE)
    threads = hint.default_threads()
    first = next(k for k in range(1, 20) if exact_cards_for_time(0.1 * k, threads) >= 12)
    assert first == (4 if threads > 1 else 6)
    tried = []
    for _ in range(first + 1):
        info = hint_analysis(state, seconds=0.1, top=1)
        tried.append(info.exact or info.extra.get("exact_stage") == "unfinished")
    assert not any(tried[: first - 1]) and all(tried[first - 1 :]), tried
    other = hint_analysis(load_position(TEN), seconds=0.1, top=1)
    assert not (other.exact or other.extra.get("exact_stage"))
    release_exact_table()


@needs_cmcts
def test_beyond_the_reach_a_decided_position_is_proved_by_a_small_probe(monkeypatch):
    """16 cards beyond the exact stage's reach (its cards rule held at 15 here, as at 8 s; at
    the default 25 s it reaches 16), but B's loss is proved in a few dozen nodes; the estimate
    said 3.2%. The probe is a node budget (reproducible), and ``exact_cards=0`` still means
    never."""
    monkeypatch.setattr(hint, "exact_cards_for_time", lambda seconds, threads=1: 15)
    state = load_position(ENDGAMES / "age3_16cards_cmcts6404.json")
    info = hint_analysis(state)
    assert info.exact and info.extra["engine"] == "exact" and info.value.relative == 0.0
    assert info.nodes < 2 * hint.PROBE_NODES  # the probe's budget, not the timed stage
    assert not hint_analysis(state, exact_cards=0).exact
