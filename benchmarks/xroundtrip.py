"""Every move of random expansion games reads back from its notation; every record and a sample
of in-progress saves reload to equal states (issue 61). Not a test: the full count behind the
CI sample of ``tests/expansions/test_roundtrip.py``, with its figures.

    python benchmarks/xroundtrip.py [--games N] [--seed S]

Plays ``N`` games (default 1,000) in turn: Pantheon, Agora, both, and Agora and both again with
Conspiracies preferred (so the moves only they lead to come up); prints the games, positions,
notations read back, line-mode moves typed back, records and saves reloaded, by variant and by
kind of move. A failure stops the run with the seed and variant that shows it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.expansions.roundtrip import VARIANTS, Tally, check_game  # noqa: E402

PLANS = [(v, False) for v in VARIANTS] + [(v, True) for v in VARIANTS[1:]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = Tally()
    start = time.perf_counter()
    for i in range(args.games):
        variant, plots = PLANS[i % len(PLANS)]
        seed = args.seed + i
        try:
            total.add(check_game(seed, variant, plots=plots))
        except AssertionError as error:
            print(f"game {i}: seed {seed}, {'+'.join(variant)}, plots={plots}: {error}")
            return 1
        if (i + 1) % 100 == 0:
            print(f"{i + 1} games, {total.moves:,} notations so far", flush=True)
    elapsed = time.perf_counter() - start
    print(
        f"games {total.games:,}; positions {total.positions:,}; notations read back "
        f"{total.moves:,}; line-mode moves typed back {total.line_moves:,}; records "
        f"{total.records:,}; in-progress saves {total.saves:,}"
    )
    print("by variant: " + ", ".join(f"{k} {n}" for k, n in sorted(total.by_variant.items())))
    print(f"kinds of move: {len(total.kinds)}")
    for kind, n in sorted(total.kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {kind:16} {n:>10,}")
    print(f"{elapsed:.0f} s, load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
