"""Random games with and without the expansions, and the expansion players' matches. Not a test.

    python benchmarks/expansions.py speed [--games N] [--rounds R]
    python benchmarks/expansions.py match A B [--pairs N] [--seed S] [--time T] [--expansions E]

``speed`` plays uniformly random full games (chance with its exact probabilities) on one core,
alternated round by round so a change of load hits all: the base engine (``duel.state``, pure
Python), the expansion engine playing the base game (``expansions=()``), Pantheon, Agora and
both. It prints the best round's games per second and decisions per game.

``match`` plays games of ``--expansions`` (``pantheon``, ``agora`` or ``agora,pantheon``;
default ``pantheon``) between two levels of ``duel.solvers.xplayers`` (``random``,
``greedy``, ``mcts``, ``mcts:0.5s``, ``mcts:200``), each deal twice with the seats swapped, one
game at a time, and prints the score of A's level with its Wilson 95% interval, the victory
types and the load (``os.getloadavg``) per game.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game  # noqa: E402
from duel.expansions import new_xgame  # noqa: E402
from duel.solvers.match import wilson_interval  # noqa: E402
from duel.solvers.xplayers import make_xplayer, play_xgame  # noqa: E402


def _games(factory, games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    start = time.perf_counter()
    decisions = 0
    for _ in range(games):
        state = factory()
        while not state.is_terminal():
            if not state.is_chance():
                decisions += 1
            state = state.apply(state.random_move(rng), check=False)
    return time.perf_counter() - start, decisions


def speed(games: int, rounds: int) -> None:
    engines = {
        "base engine (duel.state), base game": new_game,
        "expansion engine, base game": lambda: new_xgame(()),
        "expansion engine, Pantheon": lambda: new_xgame(("pantheon",)),
        "expansion engine, Agora": lambda: new_xgame(("agora",)),
        "expansion engine, Pantheon + Agora": lambda: new_xgame(("agora", "pantheon")),
    }
    best: dict[str, tuple[float, int]] = {}
    for r in range(rounds):
        for name, factory in engines.items():
            seconds, decisions = _games(factory, games, seed=r)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, decisions)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"load {os.getloadavg()[0]:.2f}; {games} games x {rounds} rounds, best round")
    for name, (seconds, decisions) in best.items():
        print(
            f"  {name:40} {games / seconds:8.1f} games/s  {decisions / games:5.1f} decisions/game"
        )


def match(
    level_a: str,
    level_b: str,
    pairs: int,
    seed: int,
    time_per_move: float,
    expansions: tuple[str, ...] = ("pantheon",),
) -> None:
    print(f"{' + '.join(expansions)}: {level_a} against {level_b}, {pairs} deal pairs", flush=True)
    score = 0.0
    games = 0
    victories: Counter = Counter()
    for pair in range(pairs):
        for swap in (False, True):
            deal = random.Random(seed * 1_000 + pair)
            first = make_xplayer(level_a, seed=seed + pair, time_per_move=time_per_move)
            second = make_xplayer(level_b, seed=seed + pair + 7, time_per_move=time_per_move)
            players = (second, first) if swap else (first, second)
            start = time.perf_counter()
            final = play_xgame(players, new_xgame(expansions), deal)
            seat_a = 1 if swap else 0
            points = 0.5 if final.winner == 2 else 1.0 if final.winner == seat_a else 0.0
            score += points
            games += 1
            winner = "shared" if final.winner == 2 else level_a if points else level_b
            victories[(winner, final.victory)] += 1
            print(
                f"pair {pair:3} {'swapped' if swap else 'as A   '} {level_a}: {points:.1f} "
                f"({final.victory}, {final.score(0).total}-{final.score(1).total}) "
                f"{time.perf_counter() - start:6.1f} s  load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    low, high = wilson_interval(score / games, games)
    print(
        f"{level_a} vs {level_b}: {score:g}/{games} = {score / games:.3f} "
        f"(Wilson {low:.3f}-{high:.3f})"
    )
    for (winner, kind), n in sorted(victories.items()):
        print(f"  {winner} by {kind}: {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--rounds", type=int, default=3)
    m = sub.add_parser("match")
    m.add_argument("a")
    m.add_argument("b")
    m.add_argument("--pairs", type=int, default=10)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--time", type=float, default=1.0)
    m.add_argument("--expansions", default="pantheon")
    args = parser.parse_args()
    if args.command == "speed":
        speed(args.games, args.rounds)
    else:
        chosen = tuple(sorted(e.strip() for e in args.expansions.split(",") if e.strip()))
        match(args.a, args.b, args.pairs, args.seed, args.time, chosen)


if __name__ == "__main__":
    main()
