"""The expansion cmcts's self-play ladder table from benchmarks/xstrength.py's lines.

    python benchmarks/xmcts_ladder.py \\
        benchmarks/results/xstrength_ladder_iterations_2026-12-02.jsonl

One row per rung (A = 2N or 2T against B = N or T), over the sets mixed and per set: games, A's
score (a shared victory 1/2), Wilson's 95% interval and the Elo difference the score stands for
(``400 log10(s / (1 - s))``, with the interval's ends converted the same way), A's score seated
first and second, and the deal pairs A won both games of, split, or lost both of.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.xstrength import read_lines  # noqa: E402
from duel.solvers.match import wilson_interval  # noqa: E402


def elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def _score(games: list[dict]) -> float:
    return sum(
        1.0 if g["winner"] == "A" else 0.5 if g["winner"] == "shared" else 0.0 for g in games
    )


def row(label: str, games: list[dict]) -> str:
    """A table row: games, score, Wilson, Elo, A's score seated first / second, and the deal
    pairs (both games of a seed played) that 2N won both of, split, or lost both of."""
    n = len(games)
    s = _score(games)
    lo, hi = wilson_interval(s / n, n)
    first = [g for g in games if g["a_seat"] == 0]
    second = [g for g in games if g["a_seat"] == 1]
    pairs: dict[tuple, list[dict]] = {}
    for g in games:
        pairs.setdefault((g["set"], g["seed"]), []).append(g)
    whole = [_score(p) for p in pairs.values() if len(p) == 2]
    return (
        f"| {label} | {n} | {s:g}/{n} = {s / n:.1%} | {lo:.1%}-{hi:.1%} | {elo(s / n):+.0f} "
        f"({elo(lo):+.0f} to {elo(hi):+.0f}) | {_score(first):g}/{len(first)}, "
        f"{_score(second):g}/{len(second)} | {sum(x == 2 for x in whole)} / "
        f"{sum(0 < x < 2 for x in whole)} / {sum(x == 0 for x in whole)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    lines = [g for f in args.files for g in read_lines(f)]
    rungs: dict[tuple[str, str], list[dict]] = {}
    for g in lines:
        rungs.setdefault((g["level_a"], g["level_b"]), []).append(g)
    print(
        "| A against B (set) | games | A's score | Wilson 95% | Elo (interval) | as A, as B "
        "| deal pairs: both / split / neither |"
    )
    print("|---|---:|---|---|---|---|---|")
    for (a, b), games in rungs.items():
        print(row(f"{a} against {b} (all)", games))
        for set_name in ("pantheon", "agora", "both"):
            part = [g for g in games if g["set"] == set_name]
            if part:
                print(row(f"{a} against {b} ({set_name})", part))


if __name__ == "__main__":
    main()
