"""Threads for one exact solve: the same 14-card Age III endgames on 1 and on N threads.

Each position of ``--positions`` (``players:seed`` as in ``benchmarks/endgames.py``) is solved
exactly ``--rounds`` times on each thread count, alternated (1 N 1 N ...) so that both see the
same machine load; each solve runs in a fresh process (its own table, 512 MB). Prints the wall
time, the process's CPU time (all threads), the nodes (summed, and per thread), the value and
the 1-minute load average before each solve. On a machine shared with other work the threads
get less than a core each: compare the CPU time with the wall time to see how much they got.

    PYTHONPATH=. python benchmarks/threads.py                  # random:504 search:500 search:504
    PYTHONPATH=. python benchmarks/threads.py --positions random:500 --rounds 1 \\
        --only-threaded --limit 600
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.endgames import endgame  # noqa: E402
from duel.position import load_position, save_position  # noqa: E402


def solve_one(path: Path, limit: float, threads: int) -> dict:
    """Solve one position exactly on ``threads`` threads (in its own process)."""
    from duel.solvers.search import DEFAULT_MEMORY, Limit, analyse, new_searcher

    state = load_position(path)
    searcher = new_searcher(
        chance_width=None, chance_samples=4, memory=DEFAULT_MEMORY, threads=threads
    )
    cpu, start = time.process_time(), time.perf_counter()
    info = analyse(state, Limit(time=limit), exact=True, margin=False, searcher=searcher)
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "nodes": info.nodes,
        "per_thread": searcher._c.thread_nodes if threads > 1 else [info.nodes],
        "exact": bool(info.exact),
        "value_a": info.value.a,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positions", nargs="+", default=["random:504", "search:500", "search:504"]
    )
    parser.add_argument("--cards", type=int, default=14)
    parser.add_argument("--threads", type=int, default=2, help="the threaded count (vs 1)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per solve")
    parser.add_argument("--only-threaded", action="store_true", help="skip the 1-thread solves")
    parser.add_argument("--solve-one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.solve_one is not None:
        print(json.dumps(solve_one(args.solve_one, args.limit, args.threads)))
        return
    counts = [args.threads] if args.only_threaded else [1, args.threads]
    print(f"Python {sys.version.split()[0]}; {os.cpu_count()} CPUs; limit {args.limit:g} s")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.positions:
            players, seed = name.split(":")
            state = endgame(int(seed), args.cards, players)
            if state is None:
                print(f"{name}: no position with at most {args.cards} cards")
                continue
            path = Path(tmp) / f"{players}_{seed}.json"
            save_position(state, path)
            times: dict[int, list[float]] = {n: [] for n in counts}
            for _ in range(args.rounds):
                for n in counts:
                    load = os.getloadavg()[0]
                    out = subprocess.run(
                        [sys.executable, __file__, "--solve-one", str(path)]
                        + ["--limit", str(args.limit), "--threads", str(n)],
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    r = json.loads(out.stdout.strip().splitlines()[-1])
                    status = "exact" if r["exact"] else "NOT SOLVED"
                    split = " + ".join(f"{k / 1e6:.1f}M" for k in r["per_thread"])
                    print(
                        f"{name:11} threads {n} {r['seconds']:7.2f} s (CPU {r['cpu']:7.2f} s)"
                        f" {r['nodes']:13,} nodes ({split})  P(A) {r['value_a']:.6f}"
                        f" {status}  load {load:.2f}",
                        flush=True,
                    )
                    if r["exact"]:
                        times[n].append(r["seconds"])
            if len(counts) == 2 and all(times[n] for n in counts):
                one, many = (sum(times[n]) / len(times[n]) for n in counts)
                print(f"{name:11} mean {one:.2f} s vs {many:.2f} s: {one / many:.2f}x", flush=True)


if __name__ == "__main__":
    main()
