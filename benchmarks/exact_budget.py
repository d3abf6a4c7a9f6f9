"""How long the exact solver takes on the Age III positions a player meets, by cards left.

The ``cmcts`` player and the hints try an exact solve first when it will likely finish within
their budget (:func:`duel.solvers.players.exact_cards_for_time`). That rule is read off this
benchmark: seeded self-play games of ``cmcts`` at a small iteration budget (the positions a
strong player reaches, not random ones), and every Age III play decision with at most
``--max-cards`` cards left in the pyramid solved exactly on ``--threads`` thread(s) with a time
limit. It prints, per number of cards left, the count and the 50th/80th/90th/95th percentile
and worst solve time (an unsolved position counts as the limit).

    PYTHONPATH=. python benchmarks/exact_budget.py --games 12 --threads 1 --limit 4

Times move with the machine's load: say the load with the figures (``uptime``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from endgames import cards_left  # noqa: E402  (the script's folder is on sys.path)

import duel.solvers.search as search  # noqa: E402
from duel.solvers.players import make_player  # noqa: E402
from duel.solvers.search import Limit, analyse  # noqa: E402
from duel.state import State, new_game  # noqa: E402  (the base game's: a State)


def selfplay_game(
    seed: int, iterations: int, keep: Callable[[State], bool]
) -> tuple[list[State], State]:
    """One seeded self-play game of ``cmcts:iterations`` (chance drawn from
    ``random.Random(seed)``, the players seeded ``seed`` and ``seed + 1``): the decisions
    ``keep`` accepts, and the game's final position."""
    import random

    rng = random.Random(seed)
    players = [make_player(f"cmcts:{iterations}", seed=seed + k) for k in (0, 1)]
    state = new_game()
    out: list[State] = []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        if keep(state):
            out.append(state)
        state = state.apply(players[state.to_move].choose(state), check=False)
    return out, state


def selfplay_decisions(seed: int, iterations: int, keep: Callable[[State], bool]) -> list[State]:
    """The decisions ``keep`` accepts in one seeded self-play game (:func:`selfplay_game`)."""
    return selfplay_game(seed, iterations, keep)[0]


def age3_positions(seed: int, max_cards: int, iterations: int, min_cards: int = 0) -> list[State]:
    """Every Age III play decision with ``min_cards`` to ``max_cards`` cards left, in one seeded
    game."""
    return selfplay_decisions(
        seed,
        iterations,
        lambda s: s.age == 3 and s.phase == "play" and min_cards <= cards_left(s) <= max_cards,
    )


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first-seed", type=int, default=9000)
    parser.add_argument("--max-cards", type=int, default=14)
    parser.add_argument(
        "--min-cards", type=int, default=0, help="solve only positions with at least this many"
    )
    parser.add_argument("--iterations", type=int, default=2000, help="cmcts budget of the games")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--limit", type=float, default=4.0, help="seconds per solve")
    parser.add_argument("--json", type=Path, default=None, help="also write every solve here")
    parser.add_argument("--verbose", action="store_true", help="print every solve")
    args = parser.parse_args()
    print(
        f"{args.games} cmcts:{args.iterations} games from seed {args.first_seed}; "
        f"{args.threads} thread(s), limit {args.limit:g} s per solve; "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    # Every chance outcome enumerated at any size asked for (as benchmarks/endgames.py does):
    # beyond EXACT_CARDS_C analyse would sample chance and never report a solve as exact.
    search.EXACT_CARDS_C = max(search.EXACT_CARDS_C, args.max_cards)
    solves: list[dict] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        for state in age3_positions(seed, args.max_cards, args.iterations, args.min_cards):
            start = time.perf_counter()
            info = analyse(
                state, Limit(time=args.limit), exact=True, margin=False, threads=args.threads
            )
            seconds = time.perf_counter() - start
            solves.append(
                {
                    "seed": seed,
                    "cards": cards_left(state),
                    "seconds": seconds if info.exact else args.limit,
                    "exact": bool(info.exact),
                    "nodes": info.nodes,
                }
            )
            if args.verbose:
                print(
                    f"    {cards_left(state):2} cards {seconds:7.2f} s {info.nodes:13,} nodes"
                    f" {'exact' if info.exact else 'NOT SOLVED'}",
                    flush=True,
                )
        print(
            f"  game {seed}: {len(solves)} solves so far, load {os.getloadavg()[0]:.2f}", flush=True
        )
    print()
    print("| cards left | positions | solved | p50 s | p80 s | p90 s | p95 s | worst s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sorted({s["cards"] for s in solves}):
        times = [s["seconds"] for s in solves if s["cards"] == n]
        solved = sum(s["exact"] for s in solves if s["cards"] == n)
        print(
            f"| {n} | {len(times)} | {solved} | {statistics.median(times):.3f} |"
            f" {quantile(times, 0.8):.3f} | {quantile(times, 0.9):.3f} |"
            f" {quantile(times, 0.95):.3f} | {max(times):.3f} |"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(solves, indent=1))


if __name__ == "__main__":
    main()
