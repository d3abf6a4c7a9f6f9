"""``duel review``: how long a review takes, and how much a move's loss moves with the sampling.
Prints figures; not a test.

    PYTHONPATH=. python benchmarks/review.py --time 1 --workers 2   # wall time of a review
    PYTHONPATH=. python benchmarks/review.py --noise --nodes 20000  # loss under 2 sampling seeds

The timed review is ``examples/records/greedy_vs_greedy.json`` (69 decisions); it also prints
the search's mean depth and nodes per decision, which is what the load changes (the clock per
decision does not stretch). ``--noise`` analyses the first ``--positions`` decisions with play
choices twice, with two chance-sampling seeds and a node budget, and prints how far each move's
loss (best value minus its value) differs between the two: the noise under the marks'
thresholds. The load average is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from duel.record import GameRecord, Replay  # noqa: E402
from duel.solvers.review import decisions_to_analyse, review_record  # noqa: E402
from duel.solvers.search import Limit, analyse  # noqa: E402

RECORD = ROOT / "examples" / "records" / "greedy_vs_greedy.json"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def timed_review(seconds: float, workers: int) -> None:
    record = GameRecord.load(RECORD)
    print(f"load average before: {load()}")
    start = time.perf_counter()
    review = review_record(record, seconds=seconds, workers=workers)
    elapsed = time.perf_counter() - start
    print(f"load average after:  {load()}")
    infos = [m.info for m in review.moves if m.info]
    depth = statistics.mean(i["depth"] for i in infos)
    nodes = statistics.mean(i["nodes"] for i in infos)
    exact = sum(i["exact"] for i in infos)
    print(
        f"{len(infos)} decisions at {seconds:g} s on {workers} workers: {elapsed:.1f} s"
        f" (mean depth {depth:.1f}, mean nodes {nodes:,.0f}, exact {exact})"
    )


def noise(nodes: int, positions: int) -> None:
    replay = Replay.of(GameRecord.load(RECORD))
    indexes = [i for i in decisions_to_analyse(replay) if replay.states[i].phase == "play"]
    differences = []
    print(f"load average before: {load()}")
    for i in indexes[:positions]:
        state = replay.states[i]
        top = len(state.legal_moves())
        losses = []
        for seed in (0, 1):
            info = analyse(state, Limit(nodes=nodes), top=top, seed=seed, margin=False)
            best = info.moves[0].value
            losses.append({m.move: best - m.value for m in info.moves})
        differences += [abs(losses[0][m] - losses[1][m]) for m in losses[0]]
    print(f"load average after:  {load()}")
    differences.sort()
    q = lambda p: differences[min(len(differences) - 1, int(p * len(differences)))]
    print(
        f"{len(differences)} moves of {positions} positions, {nodes:,} nodes: |loss(seed 0) -"
        f" loss(seed 1)| median {100 * q(0.5):.1f}%, 90% {100 * q(0.9):.1f}%,"
        f" max {100 * differences[-1]:.1f}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--noise", action="store_true")
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=10)
    args = parser.parse_args()
    if args.noise:
        noise(args.nodes, args.positions)
    else:
        timed_review(args.time, args.workers)


if __name__ == "__main__":
    main()
