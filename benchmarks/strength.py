"""Round-robin of AI levels x time per move: wins, score and Wilson 95% intervals.

By default the entrants are our strongest level (``cmcts``) and four fixed baselines:
``cmcts-v2`` (``cmcts`` before it picked its move by a lower confidence bound), ``cmcts-v1``
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

The machine is shared: quote the load (``uptime``) with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

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


def round_robin(
    names: list[str], games: int, seed: int, workers: int = 1, verbose: bool = True
) -> dict:
    """{(a, b): score of a against b, games} for every pair, both ways."""
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b in itertools.combinations(names, 2):
        start = time.perf_counter()
        match = play_match(a, b, games=games, seed=seed, workers=workers)
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
        "--levels", nargs="+", default=["cmcts", "cmcts-v2", "cmcts-v1", "search", "search-v1"]
    )
    parser.add_argument("--times", nargs="+", type=float, default=[0.2])
    parser.add_argument("--games", type=int, default=10, help="games per pair (even: seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="games in parallel (processes)")
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
    results = round_robin(names, args.games, args.seed, args.workers)
    print("\n".join(table(names, results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
