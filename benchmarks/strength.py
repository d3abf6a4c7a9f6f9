"""Round-robin of AI levels x time per move: wins, score and Wilson 95% intervals.

By default the entrants are our strongest level (``cmcts``) and six fixed baselines:
``cmcts-v4`` (``cmcts`` before the second generation of its value and prior, over the features
of what each side can take now), ``cmcts-v3`` (before its prior was fitted to its search's
visits), ``cmcts-v2``
(before it picked its move by a lower confidence bound), ``cmcts-v1``
(before its learned value was retrained on its own games), ``search`` and ``search-v1`` (the
expectiminimax search with the learned and the hand-made evaluation).
Every entrant is a level with its budget (``mcts:0.2s``, ``search-v1:0.2s``, ``mcts:2000``...);
``--levels`` without a budget are crossed with every ``--times`` value. Each pair of entrants
plays ``--games`` games (seats alternated, seeded deals: :func:`duel.solvers.match.play_match`), and
the table gives, per entrant, its score against each other entrant and in total, with Wilson's
95% interval (a shared victory counts 1/2).

    python benchmarks/strength.py --times 0.2 --games 40 --seed 1    # the five above
    python benchmarks/strength.py --levels mcts search-v1 --times 0.2 --games 40 --seed 1
    python benchmarks/strength.py --levels mcts --times 0.1 0.3 1 --games 10 --workers 2
    python benchmarks/strength.py --levels "cmcts:0.3s:prior_value=cmcts-prior" "cmcts:0.3s" \\
        --games 200 --seed 740 --workers 2 --dir benchmarks/results/strength

With ``--dir`` every pair's games go to a JSON-lines file there (each game with its think times
and the load), and a stopped round-robin resumes where it stopped when run again.

The machine is shared: quote the load (``uptime``) with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import time
from pathlib import Path

from duel.solvers.match import play_match, wilson_interval
from duel.solvers.players import UnknownLevelError, parse_level


def entrants(levels: list[str], times: list[float]) -> list[str]:
    """Each level with a budget as given; each level without one at every time per move."""
    out = []
    for level in levels:
        parsed = parse_level(level)
        if parsed.name in ("random", "greedy") or ":" in level:
            out.append(level)
        else:
            out.extend(f"{level}:{t:g}s" for t in times)
    return out


def pair_file(folder: Path, a: str, b: str, seed: int) -> Path:
    """The JSON-lines file of the match a vs b (seed) in folder: a name safe on any system."""

    def safe(level: str) -> str:
        return re.sub(r"[^A-Za-z0-9.+-]+", "_", level).strip("_")

    return folder / f"{safe(a)}__vs__{safe(b)}_seed{seed}.jsonl"


def round_robin(
    names: list[str],
    games: int,
    seed: int,
    workers: int = 1,
    verbose: bool = True,
    folder: Path | None = None,
) -> dict:
    """{(a, b): score of a against b, games} for every pair, both ways."""
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b in itertools.combinations(names, 2):
        start = time.perf_counter()
        out = pair_file(folder, a, b, seed) if folder is not None else None
        match = play_match(a, b, games=games, seed=seed, workers=workers, out=out)
        results[(a, b)] = (match.score * match.games, match.games)
        results[(b, a)] = ((1 - match.score) * match.games, match.games)
        if verbose:
            lo, hi = match.interval
            print(
                f"{a} vs {b}: {match.wins}-{match.losses}-{match.shared}"
                f" ({100 * match.score:.0f}%, CI {100 * lo:.0f}-{100 * hi:.0f}%)"
                f" in {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return results


def table(names: list[str], results: dict) -> list[str]:
    """Rows: entrant, score against each opponent, total points/games, score and interval."""
    width = max(len(n) for n in names)
    head = f"{'':{width}}  " + "  ".join(f"{i + 1:>7}" for i in range(len(names)))
    lines = [head + "      total   score  95% CI (Wilson)"]
    for a in names:
        cells = []
        points = played = 0.0
        for b in names:
            if a == b:
                cells.append(f"{'-':>7}")
                continue
            s, n = results[(a, b)]
            points += s
            played += n
            cells.append(f"{f'{s:g}/{n}':>7}")
        score = points / played if played else 0.0
        lo, hi = wilson_interval(score, int(played))
        total = f"{f'{points:g}/{int(played)}':>9}"
        interval = f"{100 * lo:.1f}-{100 * hi:.1f}%"
        lines.append(
            f"{a:{width}}  " + "  ".join(cells) + f"  {total} {100 * score:5.1f}%  {interval}"
        )
    lines.append("columns: opponents in row order; cells: points (win 1, shared 1/2) / games")
    return [f"{i + 1}. {n}" for i, n in enumerate(names)] + lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["cmcts", "cmcts-v4", "cmcts-v3", "cmcts-v2", "cmcts-v1", "search", "search-v1"],
    )
    parser.add_argument("--times", nargs="+", type=float, default=[0.2])
    parser.add_argument("--games", type=int, default=10, help="games per pair (even: seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="games in parallel (processes)")
    parser.add_argument(
        "--dir", type=Path, help="keep every game in a JSON-lines file per pair here (resumable)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or any(t <= 0 for t in args.times):
        parser.error("--games, --workers and --times must be positive")
    try:
        names = entrants(args.levels, args.times)
    except UnknownLevelError as error:
        parser.error(str(error))
    if len(names) < 2:
        parser.error("a round-robin needs at least two entrants")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"round-robin, {args.games} games per pair, seed {args.seed}, load {load:.1f}")
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    results = round_robin(names, args.games, args.seed, args.workers, folder=args.dir)
    print("\n".join(table(names, results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
