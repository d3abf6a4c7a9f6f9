"""The long differential run: random games through the compiled expansion core and the Python
expansion engine, compared at every step (tests/expansions/xcore_diff.py says what).

    python benchmarks/xcore_diff.py [--games 10000] [--sets pantheon base] [--first-seed 0]

Prints, per expansion set, the games, steps, and the number of states, legal-move lists, chance
nodes and views compared, the results by victory type, and the first disagreement if any (then
exits 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import xcore  # noqa: E402
from tests.expansions.xcore_diff import Disagreement, Tally, play  # noqa: E402

SETS = {"base": (), "pantheon": ("pantheon",), "agora": ("agora",), "both": ("agora", "pantheon")}


def report(name: str, total: Tally, seconds: float) -> None:
    print(
        f"{name}: {total.games} games, {total.steps} steps; compared {total.states} states, "
        f"{total.decisions} legal-move lists, {total.chance_nodes} chance-outcome lists, "
        f"{total.views} views; results {dict(sorted(total.results.items()))}; {seconds:.0f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sets", nargs="+", default=["pantheon"], choices=list(SETS))
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--no-views", action="store_true", help="skip the players' views")
    parser.add_argument("--every", type=int, default=250, help="print the tally every N games")
    args = parser.parse_args()
    sets = [name for name in args.sets if xcore.compiled(SETS[name])]
    for name in set(args.sets) - set(sets):
        print(f"{name}: not on the compiled core, skipped")
    totals = {name: Tally() for name in sets}
    start = time.perf_counter()
    failed = False
    # the sets take turns, game by game, so that a stopped run has figures for each
    for seed in range(args.first_seed, args.first_seed + args.games):
        for name in sets:
            try:
                totals[name].add(play(SETS[name], seed, views=not args.no_views))
            except Disagreement as error:
                print(f"{name}: DISAGREEMENT after {totals[name].games} games: {error}")
                failed = True
        if failed:
            break
        done = seed - args.first_seed + 1
        if done % args.every == 0 or done == args.games:
            for name in sets:
                report(name, totals[name], time.perf_counter() - start)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
