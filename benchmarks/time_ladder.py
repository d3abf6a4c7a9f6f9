"""The self-play time ladder: a level at 2T against itself at T, for each T.

Does waiting longer make the player stronger? For each ``--times`` value T the level at 2T plays
the same level at T (``duel.solvers.match.play_match``: deals in pairs with the seats swapped,
one game per worker). Results go to one JSON-lines file per T under ``--dir``, so an interrupted
ladder resumes where it stopped (run the same command again), across sessions if need be. The
table gives the score of 2T with Wilson's 95% interval, the Elo difference it implies (with
the interval's), both sides' mean and slowest move time, and the load range.

    python benchmarks/time_ladder.py --times 0.1 0.3 1 --games 200 200 100 --seed 29 \\
        --dir benchmarks/results/ladder --workers 1
    python benchmarks/time_ladder.py --times 0.3 --games 200 --options mix_lambda=0.3 --workers 2

Timed matches need the cores to themselves: one game per core, nothing else running (the load
of every game is in the files).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from duel.solvers.match import play_match


def elo(score: float) -> float:
    """The Elo difference of an expected score (clamped to +-800 at 0 and 1)."""
    if score <= 0.0:
        return -800.0
    if score >= 1.0:
        return 800.0
    return -400.0 * math.log10(1.0 / score - 1.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="cmcts")
    ap.add_argument(
        "--options",
        default="",
        help="the level's options on both sides, after its budget (e.g. mix_lambda=0.3)",
    )
    ap.add_argument("--times", nargs="+", type=float, default=[0.1, 0.3, 1.0])
    ap.add_argument(
        "--games", nargs="+", type=int, default=[200, 200, 100], help="per time (or one for all)"
    )
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--dir", default="benchmarks/results/ladder")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    games = args.games if len(args.games) == len(args.times) else args.games[:1] * len(args.times)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for t, n in zip(args.times, games, strict=True):
        suffix = f":{args.options}" if args.options else ""
        long, short = f"{args.level}:{2 * t:g}s{suffix}", f"{args.level}:{t:g}s{suffix}"
        tag = f"_{args.options.replace('=', '').replace(',', '_')}" if args.options else ""
        out = folder / f"{args.level}{tag}_{2 * t:g}s_vs_{t:g}s_seed{args.seed}.jsonl"
        print(f"{long} vs {short}: {n} games -> {out}", file=sys.stderr)
        result = play_match(
            long, short, games=n, seed=args.seed, workers=args.workers, out=out, progress=None
        )
        lo, hi = result.interval
        timed = [g for g in result.games_list if g.think_mean]
        mean = [sum(g.think_mean[k] for g in timed) / max(1, len(timed)) for k in (0, 1)]
        slowest = [max((g.think_max[k] for g in timed), default=0.0) for k in (0, 1)]
        loads = [x for g in timed for x in g.load] or [float("nan")]
        (a_points, a_games), (b_points, b_games) = result.score_by_seat()
        won, split, lost = result.deal_pairs()
        kinds = result.victories()
        print(
            f"{long} vs {short}: {result.score * result.games:g}/{result.games};"
            f" as A {a_points:g}/{a_games}, as B {b_points:g}/{b_games};"
            f" deal pairs both won {won}, split {split}, both lost {lost};"
            f" victories of 2T {dict(kinds['wins'])}, of T {dict(kinds['losses'])}",
            file=sys.stderr,
        )
        rows.append(
            f"| {2 * t:g} s vs {t:g} s | {result.games} | {result.score:.3f} | {lo:.3f}-{hi:.3f}"
            f" | {elo(result.score):+.0f} ({elo(lo):+.0f} to {elo(hi):+.0f})"
            f" | {mean[0]:.3f} / {slowest[0]:.3f} s | {mean[1]:.3f} / {slowest[1]:.3f} s"
            f" | {min(loads):.1f}-{max(loads):.1f} |"
        )
    print(
        "| 2T vs T | games | score of 2T | 95% Wilson | Elo per doubling (interval)"
        " | 2T: mean / slowest move | T: mean / slowest | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
