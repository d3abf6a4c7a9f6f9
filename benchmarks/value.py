"""Speed of the learned value next to the hand-made evaluation, and the search's nodes/s with each.

    PYTHONPATH=. python benchmarks/value.py [--rounds 3] [--search-seconds 2]

The two are timed alternately (A B A B ...) in one process on the same positions (every state of
40 seeded random games), so the ratio holds under whatever load the machine has; absolute
figures move with the load. Also times the reference computation (the feature vector and a dot
product) that the fast path must equal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game  # noqa: E402
from duel.solvers.search import Limit, analyse, evaluate  # noqa: E402
from duel.solvers.value import default_model, value  # noqa: E402


def states_of_random_games(games: int = 40) -> list:
    rng = random.Random(1)
    out = []
    for _ in range(games):
        s = new_game()
        while not s.is_terminal():
            out.append(s)
            s = s.apply(s.random_move(rng), check=False)
    return out


def calls_per_second(fn, states) -> float:
    start = time.perf_counter()
    for s in states:
        fn(s)
    return len(states) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--search-seconds", type=float, default=2.0)
    args = parser.parse_args()
    states = states_of_random_games()
    model = default_model()
    for s in states:  # warm the caches of both
        evaluate(s)
        value(s)
    rates: dict[str, list[float]] = {"evaluate (v1)": [], "value (learned)": [], "reference": []}
    for _ in range(args.rounds):
        rates["evaluate (v1)"].append(calls_per_second(evaluate, states))
        rates["value (learned)"].append(calls_per_second(value, states))
        rates["reference"].append(calls_per_second(model.reference_logit, states))
    print(f"{len(states)} positions (every state of 40 random games), {args.rounds} rounds")
    for name, r in rates.items():
        print(f"  {name:16s} {sum(r) / len(r):>10,.0f} calls/s")
    ratio = sum(rates["evaluate (v1)"]) / sum(rates["value (learned)"])
    print(f"  the learned value costs {ratio:.1f}x the hand-made evaluation per call")

    # The search with each evaluation, alternated, on Age I-III decision positions.
    rng = random.Random(7)
    positions = []
    for i in range(6):
        s = new_game()
        for _ in range(30 + 20 * i):
            s = s.apply(s.random_move(rng), check=False)
            if s.is_terminal():
                break
        while s.is_chance():
            s = s.apply(s.random_move(rng), check=False)
        if not s.is_terminal():
            positions.append(s)
    nps: dict[str, list[float]] = {"v1": [], "learned": []}
    for s in positions:
        for name, fn in (("v1", evaluate), ("learned", value)):
            info = analyse(s, Limit(time=args.search_seconds), seed=1, margin=False, value_fn=fn)
            nps[name].append(info.nodes / info.time)
    print(f"search nodes/s over {len(positions)} positions, {args.search_seconds} s each:")
    for name, r in nps.items():
        print(f"  {name:8s} {sum(r) / len(r):>10,.0f} nodes/s")


if __name__ == "__main__":
    main()
