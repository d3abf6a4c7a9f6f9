"""benchmarks/strength.py: a round-robin kept game by game, and resumed from its files."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_pair_file_name_is_safe_and_names_both_levels():
    strength = _module()
    path = strength.pair_file(Path("d"), "cmcts:0.3s:prior_value=x/y.json", "cmcts:0.3s", 7)
    assert path.parent == Path("d") and path.suffix == ".jsonl"
    assert "/" not in path.name and ":" not in path.name and "=" not in path.name
    assert path.name.endswith("__vs__cmcts_0.3s_seed7.jsonl")


def test_the_games_of_each_pair_are_kept_and_a_rerun_resumes_them(tmp_path):
    """Every game goes to the pair's file; run again, the same results come from the file."""
    strength = _module()
    names = ["random", "greedy"]
    first = strength.round_robin(names, 4, seed=3, verbose=False, folder=tmp_path)
    (path,) = tmp_path.iterdir()
    assert path == strength.pair_file(tmp_path, "random", "greedy", 3)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 4 and all("winner" in row["result"] for row in rows)
    assert strength.round_robin(names, 4, seed=3, verbose=False, folder=tmp_path) == first
    assert len(path.read_text().splitlines()) == 4  # nothing played twice
    points, games = first[("greedy", "random")]
    assert games == 4 and first[("random", "greedy")][0] == 4 - points
