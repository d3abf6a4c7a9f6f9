"""What a player gives away in Age III endgames, measured against the exact values.

Positions: every Age III play decision with ``--min-cards`` to ``--max-cards`` cards left in
seeded self-play games of ``cmcts:2000`` (the positions a strong player reaches). Each is solved
exactly with every move's value (``multipv``), then each configuration of the ``cmcts`` player
(``CMctsConfig`` overrides, as the ``CMCTS`` variable takes them) chooses a move with
``--time`` seconds; its loss is the exact value of the best move less that of its move, for the
mover. Configurations are alternated position by position (A B A B), so the load hits them alike.

    PYTHONPATH=. python benchmarks/endgame_loss.py "exact_cards=8" "" --time 1 --games 10

Prints, per configuration: positions, mean loss, the share of moves that lose anything, the
largest loss, and the mean think time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from exact_budget import age3_positions, cards_left  # noqa: E402

from duel.solvers.players import CMctsConfig, CMctsPlayer  # noqa: E402
from duel.solvers.search import Limit, analyse  # noqa: E402


def exact_move_values(state) -> dict[str, float] | None:
    """Every move's exact value for the mover, or None if the solve does not finish in 60 s."""
    moves = state.legal_moves()
    info = analyse(state, Limit(time=60), exact=True, margin=False, multipv=len(moves), threads=2)
    if not info.exact or len(info.moves) != len(moves):
        return None
    return {str(m.move): m.value for m in info.moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+", help='CMctsConfig overrides ("" = the defaults)')
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=9300)
    parser.add_argument("--min-cards", type=int, default=9)
    parser.add_argument("--max-cards", type=int, default=13)
    args = parser.parse_args()
    configs = [CMctsConfig.from_string(text) for text in args.configs]
    losses: list[list[float]] = [[] for _ in configs]
    thinks: list[list[float]] = [[] for _ in configs]
    print(f"{args.time:g} s per move; load {os.getloadavg()[0]:.2f}", flush=True)
    for seed in range(args.first_seed, args.first_seed + args.games):
        for state in age3_positions(seed, args.max_cards, 2000):
            if cards_left(state) < args.min_cards or len(state.legal_moves()) < 2:
                continue
            values = exact_move_values(state)
            if values is None:
                continue
            best = max(values.values())
            for k, config in enumerate(configs):
                player = CMctsPlayer(seed, time_per_move=args.time, config=config)
                start = time.perf_counter()
                move = player.choose(state)
                thinks[k].append(time.perf_counter() - start)
                losses[k].append(best - values[str(move)])
        print(
            f"  game {seed}: {len(losses[0])} positions; mean loss "
            + " / ".join(f"{statistics.mean(x):.4f}" for x in losses if x)
            + f"; load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    print()
    print("| configuration | positions | mean loss | moves losing | largest loss | mean think s |")
    print("|---|---|---|---|---|---|")
    for text, loss, think in zip(args.configs, losses, thinks, strict=True):
        print(
            f"| {text or '(defaults)'} | {len(loss)} | {statistics.mean(loss):.4f} |"
            f" {sum(x > 1e-9 for x in loss) / len(loss):.2f} | {max(loss):.3f} |"
            f" {statistics.mean(think):.3f} |"
        )


if __name__ == "__main__":
    main()
