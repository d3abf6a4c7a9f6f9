"""Does more search change the expansion MCTS's answer? Single positions, growing budgets.

    python benchmarks/xmcts_diagnose.py [--budgets 1000 4000 16000 64000 256000] [--seeds 2] \\
        [--out benchmarks/results/xmcts_diagnose.json]

Positions: for each set (Pantheon, Agora, both) one deal (``random.Random(940000 + k)`` draws
chance) is played on the compiled core by ``XCMctsPlayer(iterations=1500)`` on both sides, and
the sixth play-phase decision with at least 4 legal moves of each Age is kept (Ages I, II, III).
Each is searched at every budget with ``--seeds`` search seeds. Per position and budget: the most
visited move (the choice), its share of the root's visits, its value and the best value among moves
with at least 1% of the visits, the gap between the two most visited moves' values, whether the
choice is the same for every seed and whether it is the largest budget's choice (first seed).
Counts, not timings: the machine's load does not move them. ``--timed`` also runs the time budgets
0.1, 0.3 and 1 s on the first position and reports descents, the process CPU time and wall time of
each (these move with the load).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from duel import xcore
from duel.expansions import NAMED_SETS
from duel.solvers.xcmcts import XCMctsPlayer

SETS = NAMED_SETS
NTH = 6


def positions(set_name: str, seed: int) -> list[tuple[int, Any]]:
    """(decision index, state): the NTH play decision (4 moves or more) of each Age of one
    self-play game of cmcts:1500."""
    rng = random.Random(seed)
    players = [XCMctsPlayer(iterations=1500, seed=seed * 2 + i) for i in range(2)]
    state = xcore.new_game(SETS[set_name])
    kept: list[tuple[int, Any]] = []
    decision = 0
    seen = {1: 0, 2: 0, 3: 0}
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
            continue
        if state.phase == "play" and len(state.legal_codes()) >= 4 and state.age in seen:
            seen[state.age] += 1
            if seen[state.age] == NTH:
                kept.append((decision, state))
        state = state.apply(players[state.to_move].choose(state), check=False)
        decision += 1
    return kept


def search(state: Any, iterations: int, seed: int) -> dict[str, Any]:
    player = XCMctsPlayer(iterations=iterations, seed=seed)
    rows = player.analyse(state)
    total = sum(n for _, n, _ in rows)
    move, visits, value = rows[0]
    tried = [v for _, n, v in rows if n >= 0.01 * total]
    return {
        "choice": str(move),
        "share": round(visits / total, 3),
        "value": round(value, 4),
        "best_value": round(max(tried), 4),
        "gap": round(value - rows[1][2], 4) if len(rows) > 1 else None,
        "root_value": round(sum(n * v for _, n, v in rows) / total, 4),
        "moves": len(state.legal_codes()),
        "tried": sum(1 for _, n, _ in rows if n > 0),
        "descents": player.last_iterations,
    }


def timed(state: Any) -> list[dict[str, Any]]:
    out = []
    for seconds in (0.1, 0.3, 1.0):
        player = XCMctsPlayer(seconds=seconds, seed=1)
        cpu, wall = time.process_time(), time.perf_counter()
        player.analyse(state)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        out.append(
            {
                "seconds": seconds,
                "descents": player.last_iterations,
                "cpu": round(cpu, 3),
                "wall": round(wall, 3),
                "per_cpu_second": round(player.last_iterations / cpu),
                "nodes_mb": round(player.last_iterations * 32 / 2**20, 1),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--budgets", type=int, nargs="+", default=[1000, 4000, 16000, 64000, 256000]
    )
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--timed", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report: dict[str, Any] = {"budgets": args.budgets, "positions": []}
    for k, set_name in enumerate(SETS):
        for decision, state in positions(set_name, 940000 + k):
            if args.timed and "timed" not in report:
                report["timed"] = timed(state)
                print(json.dumps(report["timed"]), flush=True)
            runs = {
                n: [search(state, n, seed) for seed in range(1, args.seeds + 1)]
                for n in args.budgets
            }
            final = runs[args.budgets[-1]][0]["choice"]
            entry = {"set": set_name, "decision": decision, "age": state.age, "budgets": []}
            for n in args.budgets:
                first = runs[n][0]
                row = {
                    "iterations": n,
                    **first,
                    "seeds_agree": len({r["choice"] for r in runs[n]}) == 1,
                    "as_largest": first["choice"] == final,
                    "shares": [r["share"] for r in runs[n]],
                    "values": [r["value"] for r in runs[n]],
                }
                entry["budgets"].append(row)
                print(
                    f"{set_name:8} d{decision:3} age {state.age} N={n:7}: "
                    f"{first['choice'][:40]:40} share {first['share']:.3f} "
                    f"value {first['value']:.3f} best {first['best_value']:.3f} "
                    f"gap {first['gap']} root {first['root_value']:.3f} "
                    f"tried {first['tried']}/{first['moves']} "
                    f"seeds agree {row['seeds_agree']} as largest {row['as_largest']}",
                    flush=True,
                )
            report["positions"].append(entry)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
