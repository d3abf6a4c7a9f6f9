"""Does the hint calibration hold at other budgets? Replays held-out self-play positions and
hints them at the calibrated budget and at larger ones, then scores each against the games'
results (Brier score, and each fifth of the positions sorted by the value shown: mean shown
value against the fraction won).

The map (``data/models/hint_calibration.json``) was fitted at one budget; longer searches give
sharper raw values. The positions come from the held-out fold (``index % 5 == 4``) of a games
file written by ``python -m duel.solvers.hint_calibration generate``; their results were produced by
play at the games' own budget.

    python benchmarks/hint_budget.py runs/hints/hints_6000.jsonl --positions 300 \\
        --budgets 6000,30000
"""

from __future__ import annotations

import argparse
import json
import random
import time

from duel.solvers.hint import default_calibration, hint_analysis, hint_stage
from duel.solvers.train import HOLDOUT_FOLD, HOLDOUT_MOD, result_label
from duel.state import new_game


def held_out_positions(path: str, count: int, seed: int) -> list[tuple]:
    """``count`` (state, mover's result) pairs drawn from the held-out games' MCTS hints."""
    picks = []
    with open(path, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    for record in records:
        if record["index"] % HOLDOUT_MOD != HOLDOUT_FOLD:
            continue
        plies = {h[0]: h for h in record["hints"] if not h[4]}
        state = new_game()
        a_result = result_label(record["winner"])
        for ply, move in enumerate(record["moves"]):
            if ply in plies:
                mover = plies[ply][2]
                picks.append((state, a_result if mover == 0 else 1.0 - a_result))
            state = state.apply(move, check=False)
    random.Random(seed).shuffle(picks)
    return picks[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--budgets", default="6000,30000")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    picks = held_out_positions(args.games, args.positions, args.seed)
    cal = default_calibration()
    print(f"{len(picks)} held-out positions; map fitted at {cal.meta.get('iterations')} iterations")
    for budget in budgets:
        start = time.process_time()
        rows = []
        for i, (state, y) in enumerate(picks):
            info = hint_analysis(state, iterations=budget, top=1, seed=i, exact_cards=0)
            raw = info.extra["raw"][str(info.best_move)]
            rows.append((info.moves[0].value, raw, y, hint_stage(state)))
        cpu = time.process_time() - start
        n = len(rows)
        brier = sum((p - y) ** 2 for p, _, y, _ in rows) / n
        brier_raw = sum((r - y) ** 2 for _, r, y, _ in rows) / n
        print(
            f"budget {budget}: Brier calibrated {brier:.4f}, raw {brier_raw:.4f}"
            f" ({cpu:.0f} s CPU)"
        )
        rows.sort()
        for k in range(5):
            part = rows[k * n // 5 : (k + 1) * n // 5]
            shown = sum(p for p, *_ in part) / len(part)
            won = sum(y for _, _, y, _ in part) / len(part)
            print(f"  fifth {k + 1}: shown {shown:.3f}, won {won:.3f}, gap {won - shown:+.3f}")


if __name__ == "__main__":
    main()
