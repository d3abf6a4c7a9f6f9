"""The long differential run: random games through the compiled expansion core and the Python
expansion engine, compared at every step (tests/expansions/xcore_diff.py says what).

    python benchmarks/xcore_diff.py [--games 10000] [--sets pantheon base] [--first-seed 0]
    python benchmarks/xcore_diff.py --cost --games 20 --sets pantheon agora both

Prints, per expansion set, the games, steps, and the number of states, legal-move lists, chance
nodes and views compared, the results by victory type, and the first disagreement if any (then
exits 1). ``--cost`` instead plays the games once with CPU-time meters on the Python engine's
calls, the conversions between the engines and the state comparisons, and prints which fraction
of the run each took (the rest: the compiled core's calls and the harness loop).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import xcore  # noqa: E402
from duel.expansions import NAMED_SETS, XState  # noqa: E402
from tests.expansions import xcore_diff  # noqa: E402
from tests.expansions.xcore_diff import Disagreement, Tally, play  # noqa: E402

SETS = {"base": (), **NAMED_SETS}


def report(name: str, total: Tally, seconds: float) -> None:
    print(
        f"{name}: {total.games} games, {total.steps} steps; compared {total.states} states, "
        f"{total.decisions} legal-move lists, {total.chance_nodes} chance-outcome lists, "
        f"{total.views} views; results {dict(sorted(total.results.items()))}; {seconds:.0f} s",
        flush=True,
    )


#: What the cost meters wrap, by part: (owner, attribute names).
_PYTHON_ENGINE = [
    (
        XState,
        (
            "apply",
            "legal_moves",
            "chance_weights",
            "view",
            "random_move",
            "is_terminal",
            "is_chance",
            "returns",
        ),
    ),
    (xcore_diff, ("observe", "new_xgame")),
]
_CONVERSION = [(xcore, ("to_xstate", "decode_move", "encode_move"))]
_COMPARISON = [(XState, ("__eq__",))]


@contextmanager
def _metered(parts: dict[str, list[tuple[Any, tuple[str, ...]]]]) -> Iterator[dict[str, float]]:
    """Wrap each named function so the CPU time of its outermost calls adds to its part's total
    (a call made inside another metered call counts for the outer one only)."""
    spent = dict.fromkeys(parts, 0.0)
    depth = [0]
    saved: list[tuple[Any, str, Any]] = []

    def meter(part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def metered(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                return function(*args, **kwargs)
            depth[0] += 1
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[part] += time.process_time() - start
                depth[0] -= 1

        return metered

    for part, owners in parts.items():
        for owner, names in owners:
            for name in names:
                saved.append((owner, name, owner.__dict__[name]))
                setattr(owner, name, meter(part, owner.__dict__[name]))
    try:
        yield spent
    finally:
        for owner, name, function in saved:
            setattr(owner, name, function)


def cost(sets: list[str], first_seed: int, games: int) -> None:
    """Which fraction of a differential run's CPU time each engine takes (see the docstring)."""
    parts = {"Python engine": _PYTHON_ENGINE, "conversion": _CONVERSION, "comparison": _COMPARISON}
    for name in sets:
        with _metered(parts) as spent:
            start = time.process_time()
            steps = sum(
                play(SETS[name], seed).steps for seed in range(first_seed, first_seed + games)
            )
            total = time.process_time() - start
        rest = total - sum(spent.values())
        shares = ", ".join(f"{part} {t / total:.1%}" for part, t in spent.items())
        print(
            f"{name}: {games} games, {steps} steps, {total:.1f} CPU s "
            f"({1000 * total / steps:.2f} ms a step): {shares}, "
            f"compiled core and harness {rest / total:.1%}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sets", nargs="+", default=["pantheon"], choices=list(SETS))
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--no-views", action="store_true", help="skip the players' views")
    parser.add_argument("--every", type=int, default=250, help="print the tally every N games")
    parser.add_argument("--cost", action="store_true", help="measure the CPU time by part")
    args = parser.parse_args()
    sets = [name for name in args.sets if xcore.compiled(SETS[name])]
    for name in set(args.sets) - set(sets):
        print(f"{name}: not on the compiled core, skipped")
    if args.cost:
        cost(sets, args.first_seed, args.games)
        return
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
