"""Self-play of compiled-MCTS configurations against a base configuration (the defaults unless
``--base``), at a fixed iteration budget per move so that the machine's load changes nothing.

Each configuration (``CMctsConfig`` overrides, as in the ``CMCTS`` environment variable) plays
``--games`` games against the base: seats alternated, games ``2k`` and ``2k + 1`` on the same
deal (the seeding of :func:`duel.solvers.match.play_match_game`), one process. Prints each game
as it ends and the score with Wilson's 95% interval (a shared victory counts 1/2).

    python benchmarks/cmcts_selfplay.py "leaf=mix,mix_lambda=0.5" --games 40 --iterations 3000
    python benchmarks/cmcts_selfplay.py "prior=learned" "leaf=value" --games 20 --seed 2
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from duel.solvers.match import play_game, wilson_interval
from duel.solvers.players import CMctsConfig, CMctsPlayer


def play(
    config: str,
    base: str,
    games: int,
    seed: int,
    iterations: tuple[int, int],
    *,
    first: int = 0,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[float, int]:
    """Score of ``config`` against ``base`` over games ``first`` to ``games - 1`` (``iterations``
    per move for each), and its wins as seat A. ``on_game`` receives each game's record (its
    index, the configuration's seat, score and victory, seconds and load) as it ends; game ``i``
    is the same whichever ``first`` the run started from."""
    score = 0.0
    wins_as_a = 0
    for i in range(first, games):
        first_seat = i % 2
        players = [
            CMctsPlayer(
                (seed * 1_000_003 + i) * 2 + 1 + k,
                time_per_move=None,
                iterations=iterations[k],
                config=CMctsConfig.from_string(text),
            )
            for k, text in enumerate((config, base))
        ]
        seats = players if first_seat == 0 else players[::-1]
        start = time.perf_counter()
        final, _ = play_game(seats, random.Random(seed * 1_000_003 + i // 2))
        s = 0.5 if final.winner is None else float(final.winner == first_seat)
        score += s
        wins_as_a += s == 1.0 and first_seat == 0
        seconds = time.perf_counter() - start
        if on_game is not None:
            on_game(
                {
                    "game": i,
                    "seat": "AB"[first_seat],
                    "score": s,
                    "victory": final.victory,
                    "seconds": round(seconds, 2),
                    "load": round(os.getloadavg()[0], 2),
                }
            )
        print(
            f"  game {i:3d}: config as {'AB'[first_seat]}, scores {s:.1f} ({final.victory})"
            f" {seconds:5.1f} s, running {score:.1f}/{i + 1 - first}",
            file=sys.stderr,
            flush=True,
        )
    return score, wins_as_a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="+", help="CMctsConfig overrides, e.g. leaf=mix")
    ap.add_argument("--base", default="", help="the opponent's overrides (default: none)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument(
        "--config-iterations",
        type=int,
        help="the configurations' budget if not --iterations (e.g. to give a cheaper leaf"
        " the iterations it would do in the same time)",
    )
    args = ap.parse_args()
    try:
        for text in (*args.configs, args.base):
            CMctsConfig.from_string(text)
    except ValueError as e:
        ap.error(str(e))
    for text in args.configs:
        start = time.perf_counter()
        budget = (args.config_iterations or args.iterations, args.iterations)
        score, wins_as_a = play(text, args.base, args.games, args.seed, budget)
        lo, hi = wilson_interval(score / args.games, args.games)
        print(
            f"{text} ({budget[0]}) vs {args.base or '(defaults)'} ({budget[1]} iterations/move),"
            f" seed {args.seed}: {score:g}/{args.games} = {score / args.games:.3f}"
            f" (95% Wilson {lo:.3f}-{hi:.3f}); wins as A {wins_as_a};"
            f" {time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
