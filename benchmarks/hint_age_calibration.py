"""The hint's calibration per Age against game outcomes (issue 64): deciles and Brier score.

In Ages I and II no exact judge exists, so the shown win chance is judged by how the games
ended. The games are the held-out self-play games of the shipped map's fit (both seats the hint
engine at its default 6,000 iterations; ``tests/golden/hint_calibration_sample.json``: per game,
rows ``[stage, raw value for the mover, the mover's result]``), or ``generate`` outputs of
``python -m duel.solvers.hint_calibration`` (``--records FILE.jsonl ...``, as many files as
runs; ``--with-sample`` adds the 50 golden games to them). Games are folded by their order
(game number % 5), so two runs' games with the same index fall into different folds' games.

Per Age: the value shown by the shipped map (these games were held out of its fit), and a map
fitted per Age cross-fitted over the games (five folds by game; each fold predicted by the map
of the four others), each by deciles of the shown value (hints, mean shown, fraction won, the
gap) with the largest gap and the Brier score (raw values too).

    PYTHONPATH=. python benchmarks/hint_age_calibration.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from duel.solvers.hint import STAGE_NAMES, default_calibration  # noqa: E402
from duel.solvers.hint_calibration import fit_map, hint_rows, predict  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "tests" / "golden" / "hint_calibration_sample.json"
FOLDS = 5


def sample_rows(path: Path) -> dict:
    games = json.loads(path.read_text(encoding="utf-8"))["games"]
    rows = [(g, *row) for g, game in enumerate(games) for row in game]
    return {
        "stage": np.array([r[1] for r in rows], dtype=np.int8),
        "raw": np.array([r[2] for r in rows], dtype=np.float64),
        "y": np.array([r[3] for r in rows], dtype=np.float64),
        "game": np.array([r[0] for r in rows], dtype=np.int32),
        "fold": np.array([r[0] % FOLDS for r in rows], dtype=np.int8),
    }


def deciles(p, y) -> list[tuple[str, int, float, float]]:
    out = []
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        sel = (p >= lo) & ((p < hi) if k < 9 else (p <= hi))
        n = int(sel.sum())
        out.append((f"{lo:.1f}-{hi:.1f}", n, float(p[sel].mean()) if n else 0.0,
                    float(y[sel].mean()) if n else 0.0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--records", type=Path, nargs="*", default=[], help="generate's JSON lines (files)"
    )
    parser.add_argument(
        "--with-sample", action="store_true", help="the golden sample's games too (with --records)"
    )
    parser.add_argument("--min-bin", type=int, default=20, help="bins with fewer hints: no gap")
    args = parser.parse_args()
    if args.records:
        records = [
            json.loads(line)
            for path in args.records
            for line in path.read_text().splitlines()
            if line.strip()
        ]
        # a run still going (batch's .partial file) keeps each game under "result"
        records = [r.get("result", r) for r in records]
        rows = hint_rows(records)
        rows["fold"] = (rows["game"] % FOLDS).astype(np.int8)  # by game, whatever the file
        names = ", ".join(str(p) for p in args.records)
        source = f"{names} ({len(records)} games)"
        if args.with_sample:
            sample = sample_rows(SAMPLE)
            sample["game"] = sample["game"] + len(records)
            sample["fold"] = (sample["game"] % FOLDS).astype(np.int8)
            rows = {k: np.concatenate([rows[k], sample[k]]) for k in rows}
            source += f" and {SAMPLE.name} ({len(set(sample['game'].tolist()))} games)"
    else:
        rows = sample_rows(SAMPLE)
        source = f"{SAMPLE.name} ({len(set(rows['game'].tolist()))} games, held out of the map)"
    shipped = predict(default_calibration(), rows)
    cross = np.zeros(len(rows["y"]))
    for k in range(FOLDS):
        test = rows["fold"] == k
        cross[test] = predict(fit_map(rows, ~test), rows, test)
    print(f"games: {source}; {len(rows['y'])} hints (MCTS, not exact)")
    for stage in (1, 2, 3):
        sel = rows["stage"] == stage
        y = rows["y"][sel]
        print(f"\n{STAGE_NAMES[stage]}: {int(sel.sum())} hints")
        print("| decile | hints | shown (shipped) | won | gap | shown (cross-fitted) | won | gap |")
        print("|---|---|---|---|---|---|---|---|")
        gaps = {"shipped": 0.0, "cross": 0.0}
        for (b, n, ps, ws), (_, m, pc, wc) in zip(
            deciles(shipped[sel], y), deciles(cross[sel], y), strict=True
        ):
            if n >= args.min_bin:
                gaps["shipped"] = max(gaps["shipped"], abs(ps - ws))
            if m >= args.min_bin:
                gaps["cross"] = max(gaps["cross"], abs(pc - wc))
            print(f"| {b} | {n} | {ps:.3f} | {ws:.3f} | {ws - ps:+.3f} |"
                  f" {m}: {pc:.3f} | {wc:.3f} | {wc - pc:+.3f} |")
        brier = {
            name: float(np.mean((p[sel] - y) ** 2))
            for name, p in (("raw", rows["raw"]), ("shipped", shipped), ("cross", cross))
        }
        print(
            f"largest gap (bins of {args.min_bin}+ hints): shipped {gaps['shipped']:.3f},"
            f" cross-fitted {gaps['cross']:.3f}; Brier raw {brier['raw']:.4f}, shipped"
            f" {brier['shipped']:.4f}, cross-fitted {brier['cross']:.4f}"
        )


if __name__ == "__main__":
    main()
