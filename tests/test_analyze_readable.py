"""``duel analyze --exact`` a player can read (issue #28): the best move or the one named with
``--move`` explained (reveals with their probabilities, the reply, where it is decided), the same in
``--json``, and a position out of the exact solver's reach answered with an estimate in time."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel.app.cli.main import app
from duel.app.text.endgame import solve_time_note
from duel.solvers.search import C_SEARCH

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ENDGAME = EXAMPLES / "endgames" / "age3_8cards_seed102.json"
REVEALING = EXAMPLES / "endgames" / "age3_8cards_seed125.json"  # its best move draws tokens
# The Python solver takes two minutes on REVEALING (the compiled one, a second): on the pure
# path the explanation is checked on ENDGAME, and test_search checks the Python solver's values.
needs_c_search = pytest.mark.skipif(
    not C_SEARCH, reason="a two-minute solve for the Python search (ENDGAME covers the pure path)"
)
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _section(output: str, title: str) -> list[str]:
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(title)), None)
    assert start is not None, f"no {title!r} section in:\n{output}"
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def _reveal_probabilities(section: list[str]) -> float:
    return sum(float(m.group(1)) for line in section if (m := re.match(r"\s+(\d+\.\d)%  ", line)))


@pytest.mark.parametrize("path", [ENDGAME, pytest.param(REVEALING, marks=needs_c_search)])
def test_best_move_explained_reveals_reply_and_where_decided(path):
    result = run("analyze", path, "--exact")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("8 cards left: an exact solve usually takes under a second.")
    best = _section(result.output, "Best move explained: ")
    text = "\n".join(best)
    if "Nothing is revealed" in text:
        assert re.search(r"decides next: best \w+", text)
    else:  # listed and summed-up reveals cover every outcome
        assert _reveal_probabilities(best) == pytest.approx(100.0, abs=0.1 * len(best))
        assert re.search(r"\d+\.\d%, [AB] \w+", text)  # the reply after a reveal
    assert "Decided " in text or "Not decided" in text
    assert re.search(r"Likeliest line .* -> ([AB] wins \(\w+ victory\)|a shared victory)", text)
    assert "victory in reach" in text or "In reach after the move" in text


@needs_c_search
def test_many_reveals_are_summed_up():
    result = run("analyze", REVEALING, "--exact", "--threads", "1")  # one thread: no races
    assert result.exit_code == 0, result.output
    best = _section(result.output, "Best move explained: ")
    assert "10 possible reveals" in best[1]
    assert "The Great Library draws" in best[2]
    assert re.search(r"40\.0%  4 other reveals: \d+\.\d-\d+\.\d%", "\n".join(best))


def test_a_named_move_is_explained_and_json_carries_the_same():
    result = run("analyze", ENDGAME, "--move", "build gardens")
    assert result.exit_code == 0, result.output
    mine = "\n".join(_section(result.output, "Your move explained: "))
    assert "B build Gardens  0.0% for B (exact)" in mine
    assert "A decides next: best build Builders Guild" in mine
    assert "Decided after B build Gardens (step 1" in mine
    data = json.loads(run("analyze", ENDGAME, "--move", "build gardens", "--json").output)
    best, named = data["explained"]
    assert best["move"] == data["moves"][0]["move"] and named["move"] == "build Gardens"
    assert named["reveals"] == [
        {"outcomes": [], "probability": 1.0, "value": 0.0, "decider": "A",
         "reply": "build Builders Guild"}
    ]  # fmt: skip
    assert named["decided_at"] == 1 and named["line_winner"] == "A"
    assert sum(r["probability"] for r in best["reveals"]) == pytest.approx(1.0)
    assert data["notes"] == ["8 cards left: an exact solve usually takes under a second."]


@pytest.mark.parametrize(
    ("move", "message"),
    [("build baths", "is not legal here: Baths is not in the Age III"), ("fly", "unknown move")],
)
def test_an_illegal_or_unreadable_move_is_one_clear_line(move, message):
    result = run("analyze", ENDGAME, "--move", move)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_out_of_reach_says_so_at_once_and_answers_in_the_time_asked():
    start = time.perf_counter()
    result = run("analyze", EXAMPLES / "age2_midgame.json", "--exact", "--time", "1")
    assert time.perf_counter() - start < 8
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("Cannot solve this position exactly (Age 2") and "1 s" in first
    assert "Best moves for A" in result.output and "explained" not in result.output
    assert "Thinking" not in result.output  # no progress bar off a terminal


def test_solve_time_from_measured_percentiles():
    assert solve_time_note(13, 2).startswith("13 cards left: an exact solve usually takes a few")
    assert "may take minutes" in solve_time_note(17, 1)
    assert solve_time_note(16, 2).startswith("16 cards left: an exact solve usually takes under a")
    assert "a few seconds" in solve_time_note(14, 1)  # two threads' figure, carried to one
    assert "under a second" in solve_time_note(5, 1)


def test_the_solve_rule_takes_the_measured_sizes_in_order():
    """One rule from the measured medians: every size up to the answer fits the time (the
    one-thread figures count for two threads at EXACT_THREADS_SPEEDUP times less, the two-thread
    ones from 15 cards for one thread at that much more), and nothing beyond the measured sizes
    is ever tried."""
    from duel.solvers.cmcts_player import (
        EXACT_P50_SECONDS,
        EXACT_P50_SECONDS_2_THREADS,
        EXACT_P80_SECONDS_2_THREADS,
        EXACT_THREADS_SPEEDUP,
        EXACT_TIME_SHARE,
        exact_cards_for_time,
        exact_p50_seconds,
        exact_p80_seconds,
    )

    assert exact_p80_seconds(16, 2) == EXACT_P80_SECONDS_2_THREADS[16]
    assert exact_p80_seconds(16, 1) == EXACT_P80_SECONDS_2_THREADS[16] * EXACT_THREADS_SPEEDUP
    assert exact_p80_seconds(17, 2) is None
    assert exact_p50_seconds(16, 1) == EXACT_P50_SECONDS_2_THREADS[16] * EXACT_THREADS_SPEEDUP
    assert exact_p50_seconds(14, 2) == EXACT_P50_SECONDS[14] / EXACT_THREADS_SPEEDUP
    assert exact_p50_seconds(17, 2) is None
    for threads in (1, 2):
        for seconds in (0.05, 0.3, 1, 3, 10, 15, 40, 100, 10_000):
            cards = exact_cards_for_time(seconds, threads)
            allowed = EXACT_TIME_SHARE * seconds
            assert all(exact_p50_seconds(n, threads) <= allowed for n in range(8, cards + 1))
            assert cards == 16 or exact_p50_seconds(cards + 1, threads) > allowed
    assert exact_cards_for_time(10.0, 2) == 14 and exact_cards_for_time(12.0, 2) == 15
    assert exact_cards_for_time(100.0, 2) == 16
