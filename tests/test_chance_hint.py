"""``duel hint`` and ``duel analyze`` at a chance node (issue 23, item 3): what the position
waits for, each outcome with its exact probability and value, and the expected value."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from duel import new_game
from duel.solvers.chance_hint import MAX_OUTCOMES, chance_analysis, waiting_for
from duel.solvers.search import Limit
from tests.test_search import cli  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parents[1]
GREEDY = ROOT / "examples" / "records" / "greedy_vs_greedy.json"


@pytest.fixture
def cut_record(tmp_path) -> Path:
    """The issue's example: the greedy game cut after 35 moves, waiting for a card."""
    data = json.loads(GREEDY.read_text())
    data["moves"] = data["moves"][:35]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("command", [("hint",), ("analyze",), ("analyze", "--exact")])
def test_a_chance_node_is_valued_as_the_mean_of_its_outcomes(cli, cut_record, command):  # noqa: F811
    result = cli(*command, cut_record, "--nodes", "1100")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out and "no decision to take here" not in out
    assert (
        "No decision here: the game waits for the card turned face up in slot 9, row 4, card 1"
        " from the left (one of 11 cards)." in out
    )
    rows = re.findall(r"(?m)^  reveal slot 9 (.+?)\s+(\d+\.\d)%\s+(\d+\.\d)%$", out)
    assert len(rows) == 11 and len({name for name, _, _ in rows}) == 11
    assert all(p == "9.1" for _, p, _ in rows)  # 11 cards, each as likely
    expected = float(re.search(r"Value for A: (\d+\.\d)% estimate, expected over the 11", out)[1])
    mean = sum(float(v) for _, _, v in rows) / 11
    assert abs(expected - mean) < 0.1


def test_the_json_answer_weights_each_outcome_by_its_probability(cli, cut_record):  # noqa: F811
    result = cli("hint", cut_record, "--nodes", "1100", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["chance"] is True and data["outcome_count"] == 11
    assert abs(sum(o["probability"] for o in data["outcomes"]) - 1.0) < 1e-9
    weighted = sum(o["probability"] * o["value_a"] for o in data["outcomes"])
    assert abs(weighted - data["value_a"]) < 1e-9


def test_every_kind_of_chance_node_says_what_it_waits_for():
    state = new_game()
    said = {}
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance():
            said.setdefault(state.phase, waiting_for(state))
        state = state.apply(state.random_move(rng))
    assert said["setup_tokens"].startswith("a progress token put on the board")
    assert said["setup_wonders"].startswith("a wonder revealed for the draft")
    assert said["reveal"].startswith("the card turned face up in slot ")
    assert said["deal_guilds"] == (
        "where the three guild backs lie as Age III is laid out (one of 1,140 ways)"
    )


def test_a_guild_deal_is_sampled_and_says_so():
    rng = random.Random(5)
    state = new_game()
    while state.phase != "deal_guilds":
        state = state.apply(state.random_move(rng))
    result = chance_analysis(state, Limit(nodes=MAX_OUTCOMES * 100))
    assert result.sampled and not result.exact and result.count == 1140
    assert abs(sum(o.probability for o in result.outcomes) - 1.0) < 1e-9
