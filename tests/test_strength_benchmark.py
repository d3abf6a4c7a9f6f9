"""benchmarks/strength.py: a round-robin kept game by game, and resumed from its files."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
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
    """Every game goes to the pair's file; run again, the same table comes from the file. (In a
    child process: the batch layer's handling of Ctrl-C stays out of the test process.)"""
    strength = _module()
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "strength.py"),
        "--levels",
        "random",
        "greedy",
        "--games",
        "4",
        "--seed",
        "3",
        "--dir",
        str(tmp_path),
    ]
    first = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    (path,) = tmp_path.iterdir()
    assert path == strength.pair_file(tmp_path, "random", "greedy", 3)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 4 and all("winner" in row["result"] for row in rows)
    again = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    table = lambda out: out.split("\n", 1)[1]  # noqa: E731  (the first line has the load)
    assert table(again.stdout) == table(first.stdout) and "/4" in first.stdout
    assert len(path.read_text().splitlines()) == 4  # nothing played twice
