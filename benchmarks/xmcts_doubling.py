"""Does doubling the expansion MCTS's iterations change its move, and what is the change worth?

    python benchmarks/xmcts_doubling.py [--levels 1500 13000 39000] [--every 8] \\
        [--reference 256000] [--out benchmarks/results/xmcts_doubling.json]

Positions: one self-play game of ``XCMctsPlayer(iterations=1500)`` per set (Pantheon, Agora,
both; chance by ``random.Random(950000 + k)``), every ``--every``-th decision with at least 3
legal moves. At each position and level N the search runs at N and 2N with two search seeds, and
once at ``--reference`` descents (seed 99). Per level: how often two seeds at N disagree (the
noise of the choice), how often N and 2N (same seed) disagree (noise and what doubling changes),
and the regret of the choice by the reference search's values: the reference's best move's
value less the value the reference gives N's (and 2N's) choice, in points of P(win). Counts, not
timings: the load does not move them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path
from typing import Any

from duel import xcore
from duel.expansions import NAMED_SETS
from duel.solvers.xcmcts import XCMctsPlayer

SETS = NAMED_SETS


def positions(set_name: str, seed: int, every: int) -> list[Any]:
    rng = random.Random(seed)
    players = [XCMctsPlayer(iterations=1500, seed=seed * 2 + i) for i in range(2)]
    state = xcore.new_game(SETS[set_name])
    kept, decision = [], 0
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
            continue
        if decision % every == every // 2 and len(state.legal_codes()) >= 3:
            kept.append(state)
        state = state.apply(players[state.to_move].choose(state), check=False)
        decision += 1
    return kept


def choice(state: Any, iterations: int, seed: int) -> str:
    return str(XCMctsPlayer(iterations=iterations, seed=seed).choose(state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1500, 13000, 39000])
    parser.add_argument("--every", type=int, default=8)
    parser.add_argument("--reference", type=int, default=256_000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for k, set_name in enumerate(SETS):
        for state in positions(set_name, 950000 + k, args.every):
            ref = XCMctsPlayer(iterations=args.reference, seed=99).analyse(state)
            values = {str(m): v for m, _, v in ref}
            best = ref[0][2]
            row: dict[str, Any] = {"set": set_name, "age": state.age, "moves": len(ref)}
            for n in args.levels:
                a, b, d = choice(state, n, 1), choice(state, n, 2), choice(state, 2 * n, 1)
                row[str(n)] = {
                    "seeds_differ": a != b,
                    "doubling_differs": a != d,
                    "regret_n": round(best - values.get(a, 0.0), 4),
                    "regret_2n": round(best - values.get(d, 0.0), 4),
                }
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {}
    for n in args.levels:
        cells = [r[str(n)] for r in rows]
        summary[n] = {
            "positions": len(cells),
            "seeds_differ": sum(c["seeds_differ"] for c in cells),
            "doubling_differs": sum(c["doubling_differs"] for c in cells),
            "mean_regret_n": round(statistics.mean(c["regret_n"] for c in cells), 4),
            "mean_regret_2n": round(statistics.mean(c["regret_2n"] for c in cells), 4),
        }
        print(n, summary[n], flush=True)
    if args.out:
        args.out.write_text(json.dumps({"levels": summary, "positions": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
