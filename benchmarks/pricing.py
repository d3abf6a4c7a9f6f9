"""Price queries per second on one core, on a realistic mix drawn from random games.

    python benchmarks/pricing.py [--queries N]

Each query asks what one accessible card or one unbuilt wonder costs the player to move,
exactly as move generation does. Reported cold (empty memo: every query is computed) and warm
(memoised on the inputs that matter), plus the CP-SAT oracle for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel import new_game  # noqa: E402
from duel import state as engine  # noqa: E402


def realistic_queries(count: int, seed: int) -> list[tuple[engine.State, int, str, int]]:
    rng = random.Random(seed)
    queries = []
    while len(queries) < count:
        state = new_game()
        while not state.is_terminal() and len(queries) < count:
            if state.phase == "play":
                p = state.to_move
                for slot in state.accessible_slots:
                    queries.append((state, p, "card", state.pyramid[slot]))
                for w in state.wonders(p):
                    queries.append((state, p, "wonder", w))
            state = state.apply(state.random_move(rng), check=False)
    return queries


def run(queries) -> float:
    start = time.perf_counter()
    for state, p, kind, ident in queries:
        if kind == "card":
            state.card_cost(p, ident)
        else:
            state.wonder_cost(p, ident)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=200_000)
    args = parser.parse_args()
    queries = realistic_queries(args.queries, seed=3)
    engine._price_cache.clear()
    cold_sample = queries[: min(20_000, len(queries))]
    start = time.perf_counter()
    for state, p, kind, ident in cold_sample:
        engine._price_cache.clear()
        if kind == "card":
            state.card_cost(p, ident)
        else:
            state.wonder_cost(p, ident)
    cold = time.perf_counter() - start
    print(f"cold (no memo):  {len(cold_sample) / cold:,.0f} queries/s")
    run(queries)  # fill the memo
    warm = run(queries)
    print(
        f"warm (memoised): {len(queries) / warm:,.0f} queries/s over {len(queries):,} queries,"
        f" {len(engine._price_cache):,} memo entries"
    )

    from duel.payment_model import solve
    from duel.solvers.payment import payment_problem

    sample = queries[:300]
    start = time.perf_counter()
    for state, p, kind, ident in sample:
        solve(payment_problem(state, p, **{kind: ident}))
    print(f"CP-SAT oracle:   {len(sample) / (time.perf_counter() - start):,.0f} queries/s")


if __name__ == "__main__":
    main()
