"""The hint's calibration per Age against game outcomes (issue 64): deciles and Brier score.

In Ages I and II no exact judge exists, so the shown win chance is judged by how the games
ended. The games are ``generate`` outputs of ``python -m duel.solvers.hint_calibration`` (both
seats the hint engine at the map's 6,000 iterations; ``--records FILE.jsonl ...``, as many
files as runs; a run still going is read from its ``.partial`` file), and with
``--with-sample`` the 50 held-out golden games of the earlier map's fit
(``tests/golden/hint_calibration_sample.json``: per game, rows ``[stage, raw value for the
mover, the mover's result]``, no moves). Games are numbered across the files and folded by that
number (game % 5).

Per Age, every candidate map is judged held out, cross-fitted over the five folds of games (each
fold predicted by the map fitted on the four others): the raw values (the identity), a Platt map
per Age, and Platt maps per Age and phase of the Age (cards left in the Age's pyramid, in 2 or 3
bands; only the generated games replay to their positions, so the phase maps are compared with
the others on those games alone). Judges: the largest decile gap over bins of ``--min-bin``+
hints, the Brier score, and a bootstrap over games (one game's hints share its result) of the
Brier score's change against the raw values (95% interval). The shipped map
(``data/models/hint_calibration.json``) is shown beside them, with its figures on the golden
games apart (held out of its fit).

``--exact-labels``: Age III beyond the exact stage's reach. The default hint's estimate on the
strong-play positions of ``benchmarks/hint_truth.py`` (10-16 cards) against their exact values:
maps by cards left fitted on those labels (soft labels), leave-one-game-out, then the same maps
(fitted on all the labels) applied to the Age III MCTS hints of the generated games, judged by
the games' outcomes, per cards left.

    PYTHONPATH=. python benchmarks/hint_age_calibration.py \\
        --records benchmarks/results/hint_age_games/*.jsonl --with-sample --exact-labels
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from duel.solvers.hint import STAGE_NAMES, default_calibration  # noqa: E402
from duel.solvers.hint_calibration import (  # noqa: E402
    fit_age_map,
    hint_rows,
    platt_params,
    predict,
    read_games,
    sample_rows,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "golden" / "hint_calibration_sample.json"
TRUTH = ROOT / "benchmarks" / "results" / "hint_truth" / "hints_2026-12-02.jsonl"
FOLDS = 5
#: Phases of an Age by cards left in its pyramid: upper edges of all bands but the last.
PHASES = {"phase 2 (1-10, 11-20)": (10,), "phase 3 (1-6, 7-13, 14-20)": (6, 13)}
#: Age III cards-left bands for the maps fitted on exact labels.
EXACT_BANDS = {"one map": (), "bands (-13, 14-15, 16-)": (13, 15)}


def deciles(p, y) -> list[tuple[str, int, float, float]]:
    out = []
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        sel = (p >= lo) & ((p < hi) if k < 9 else (p <= hi))
        n = int(sel.sum())
        out.append(
            (
                f"{lo:.1f}-{hi:.1f}",
                n,
                float(p[sel].mean()) if n else 0.0,
                float(y[sel].mean()) if n else 0.0,
            )
        )
    return out


def largest_gap(p, y, min_bin: int) -> float:
    return max((abs(ps - ws) for _, n, ps, ws in deciles(p, y) if n >= min_bin), default=0.0)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30.0, 30.0)))


def _logit(raw):
    p = np.clip(raw, 0.005, 0.995)
    return np.log(p / (1.0 - p))


def band_of(cards, edges) -> np.ndarray:
    """The band index of each cards count: ``cards <= edges[0]`` is 0, and so on."""
    return np.searchsorted(np.asarray(edges, dtype=np.int64), cards, side="left")


def phase_predict(rows: dict, train, test, edges) -> np.ndarray:
    """Platt per Age and band of cards left, fitted on ``train``, on the ``test`` rows; rows of
    unknown phase (and bands with under 30 hints) get the per-Age Platt map."""
    out = predict(fit_age_map(rows, train), rows, test)
    z = _logit(rows["raw"][test])
    known = rows["cards"] >= 0
    bands = band_of(rows["cards"], edges)
    for stage in (1, 2, 3):
        for b in range(len(edges) + 1):
            fit = train & known & (rows["stage"] == stage) & (bands == b)
            if fit.sum() < 30:
                continue
            a, c = platt_params(rows["raw"][fit], rows["y"][fit])
            sel = (known & (rows["stage"] == stage) & (bands == b))[test]
            out[sel] = _sigmoid(a * z[sel] + c)
    return out


def cross_fit(rows: dict, fit_predict, folds=None) -> np.ndarray:
    """Each fold of games predicted by the map fitted on the others (``folds``: per row,
    default ``rows["fold"]``)."""
    folds = rows["fold"] if folds is None else folds
    out = np.array(rows["raw"], dtype=np.float64)
    for k in range(FOLDS):
        test = folds == k
        out[test] = fit_predict(rows, ~test, test)
    return out


def _fitters() -> dict:
    fitters = {"Platt per Age": lambda r, train, test: predict(fit_age_map(r, train), r, test)}
    for name, edges in PHASES.items():
        fitters[f"Platt per Age, {name}"] = lambda r, train, test, e=edges: phase_predict(
            r, train, test, e
        )
    return fitters


def partition_table(rows: dict, min_bin: int, partitions: int, out: dict) -> None:
    """The cross-fit again over ``partitions`` random assignments of the games to the five
    folds: a decile gap moves with the partition (a sharpened map's end bins hold few
    games), so each candidate's Brier score and largest gap are given as mean or median and
    range, with the partitions where it beats the raw values on both."""
    rng = np.random.default_rng(6400)
    games = rows["game"]
    known = rows["cards"] >= 0
    figures: dict = {}
    for _ in range(partitions):
        fold_of = rng.permutation(int(games.max()) + 1) % FOLDS
        folds = fold_of[games]
        for name, fit in _fitters().items():
            p = cross_fit(rows, fit, folds)
            for stage in (1, 2, 3):
                for subset, mask in (("all games", None), ("generated games", known)):
                    if name != "Platt per Age" and subset == "all games":
                        continue
                    sel = (rows["stage"] == stage) & (True if mask is None else mask)
                    y, raw = rows["y"][sel], rows["raw"][sel]
                    row = figures.setdefault((name, subset, stage), [])
                    row.append(
                        (
                            float(np.mean((p[sel] - y) ** 2)),
                            largest_gap(p[sel], y, min_bin),
                            float(np.mean((raw - y) ** 2)),
                            largest_gap(raw, y, min_bin),
                        )
                    )
    print(
        f"\n## Over {partitions} random partitions of the games into {FOLDS} folds\n\n| map |"
        " games | Age | Brier raw | cross-fitted: mean (min .. max) | largest gap raw |"
        " cross-fitted: median (min .. max) | partitions better on both |"
    )
    print("|---|---|---|---|---|---|---|---|")
    section = {}
    for (name, subset, stage), values in figures.items():
        b, g, braw, graw = (np.array(v) for v in zip(*values, strict=True))
        both = int(np.sum((b < braw) & (g < graw)))
        print(
            f"| {name} | {subset} | {STAGE_NAMES[stage]} | {braw[0]:.4f} | {b.mean():.4f}"
            f" ({b.min():.4f} .. {b.max():.4f}) | {graw[0]:.3f} | {np.median(g):.3f}"
            f" ({g.min():.3f} .. {g.max():.3f}) | {both} of {len(b)} |"
        )
        section[f"{name}; {subset}; {STAGE_NAMES[stage]}"] = {
            "brier_raw": round(float(braw[0]), 5),
            "brier_mean": round(float(b.mean()), 5),
            "brier_range": [round(float(b.min()), 5), round(float(b.max()), 5)],
            "gap_raw": round(float(graw[0]), 4),
            "gap_median": round(float(np.median(g)), 4),
            "gap_range": [round(float(g.min()), 4), round(float(g.max()), 4)],
            "better_on_both": both,
            "partitions": len(b),
        }
    out["partitions"] = section


def brier_change(p, base, y, game, rng, draws: int) -> tuple[float, float]:
    """The 95% bootstrap interval (games resampled) of Brier(p) - Brier(base)."""
    games, inverse = np.unique(game, return_inverse=True)
    diff = np.bincount(inverse, (p - y) ** 2 - (base - y) ** 2, minlength=len(games))
    count = np.bincount(inverse, minlength=len(games))
    picks = rng.integers(0, len(games), size=(draws, len(games)))
    stats = diff[picks].sum(axis=1) / count[picks].sum(axis=1)
    lo, hi = np.percentile(stats, [2.5, 97.5])
    return float(lo), float(hi)


def read_rows(paths: list[Path], with_sample: bool) -> tuple[dict, str, list[dict]]:
    records = read_games(paths)
    rows = hint_rows(records, cards=True)
    rows["game"] = rows["game"].astype(np.int32)
    # by game, stable as games are added: a record's seed and index, the sample's own number
    key = np.array([records[g]["seed"] + records[g]["index"] for g in rows["game"]])
    rows["fold"] = (key % FOLDS).astype(np.int8)
    source = f"{', '.join(str(p) for p in paths)} ({len(records)} games)"
    if with_sample:
        sample = sample_rows(SAMPLE, len(records))
        sample["fold"] = ((sample["game"] - len(records)) % FOLDS).astype(np.int8)
        rows = {k: np.concatenate([rows[k], sample[k]]) for k in rows}
        source += f" and {SAMPLE.name} ({len(set(sample['game'].tolist()))} games)"
    return rows, source, records


def source_table(rows: dict, records: list[dict], out: dict) -> None:
    """Per seed of the games (the golden sample is seed 15's held-out fold): how the games
    ended, and per Age the raw values' Brier score and the Platt slope fitted on them alone.
    The seeds draw from one engine and one protocol, so this is the games' own spread."""
    from duel.state import new_game

    seed_of = [r["seed"] for r in records]
    n_records = len(records)
    games = rows["game"]
    keys = np.array([f"seed {seed_of[g]}" if g < n_records else "golden (seed 15)" for g in games])
    print("\n## Per seed: the games' own spread\n")
    print(
        "| games | seed | military / science / civilian | Brier raw Age I | Age II | Age III |"
        " Platt a (b) Age I | Age II | Age III |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    section = {}
    for key in sorted(set(keys.tolist()), key=lambda k: (k.startswith("golden"), k)):
        mask = keys == key
        ends = {"military": 0, "science": 0, "civilian": 0}
        for g in sorted(set(games[mask].tolist())):
            if g < n_records:
                state = new_game()
                for move in records[g]["moves"]:
                    state = state.apply(move, check=False)
                ends[state.victory] = ends.get(state.victory, 0) + 1
        ended = " / ".join(str(v) for v in ends.values()) if any(ends.values()) else "-"
        briers, slopes = [], []
        for stage in (1, 2, 3):
            sel = mask & (rows["stage"] == stage)
            briers.append(float(np.mean((rows["raw"][sel] - rows["y"][sel]) ** 2)))
            slopes.append(platt_params(rows["raw"][sel], rows["y"][sel]))
        n = len(set(games[mask].tolist()))
        print(
            f"| {n} | {key} | {ended} | "
            + " | ".join(f"{b:.4f}" for b in briers)
            + " | "
            + " | ".join(f"{a:.2f} ({c:+.2f})" for a, c in slopes)
            + " |"
        )
        section[key] = {
            "games": n,
            "ends": ends,
            "brier_raw": [round(b, 5) for b in briers],
            "platt": [[round(a, 4), round(c, 4)] for a, c in slopes],
        }
    out["per seed"] = section


def age_tables(rows: dict, min_bin: int, draws: int, out: dict) -> None:
    """Section 1: per Age, the shipped map and the candidates cross-fitted."""
    rng = np.random.default_rng(64)
    shipped = predict(default_calibration(), rows)
    candidates = {"raw (identity)": np.array(rows["raw"], dtype=np.float64)}
    for name, fit in _fitters().items():
        candidates[name] = cross_fit(rows, fit)
    known = rows["cards"] >= 0
    golden = ~known
    for stage in (1, 2, 3):
        sel = rows["stage"] == stage
        y = rows["y"][sel]
        games = len(set(rows["game"][sel].tolist()))
        print(f"\n### {STAGE_NAMES[stage]}: {int(sel.sum())} hints from {games} games")
        print(
            "\n| decile | hints | shown (shipped) | won | gap | Platt per Age cross-fitted:"
            " hints | shown | won | gap |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        cross = candidates["Platt per Age"]
        for (b, n, ps, ws), (_, m, pc, wc) in zip(
            deciles(shipped[sel], y), deciles(cross[sel], y), strict=True
        ):
            print(
                f"| {b} | {n} | {ps:.3f} | {ws:.3f} | {ws - ps:+.3f} | {m} | {pc:.3f} |"
                f" {wc:.3f} | {wc - pc:+.3f} |"
            )
        entry: dict = {"hints": int(sel.sum()), "games": games, "all": {}, "replayed": {}}
        print(
            f"\n| map ({STAGE_NAMES[stage]}) | games | hints | largest decile gap (bins of"
            f" {min_bin}+) | Brier | Brier change vs raw (95%, games resampled) |"
        )
        print("|---|---|---|---|---|---|")
        for subset, mask in (("all", sel), ("replayed", sel & known), ("golden", sel & golden)):
            if not mask.any():
                continue
            ys = rows["y"][mask]
            n_games = len(set(rows["game"][mask].tolist()))
            maps = {"shipped": shipped, **candidates}
            for name, p in maps.items():
                if subset != "replayed" and name.startswith("Platt per Age, phase"):
                    continue
                if subset == "golden" and name not in ("shipped", "raw (identity)"):
                    continue
                brier = float(np.mean((p[mask] - ys) ** 2))
                gap = largest_gap(p[mask], ys, min_bin)
                lo, hi = brier_change(
                    p[mask], rows["raw"][mask], ys, rows["game"][mask], rng, draws
                )
                label = {"all": "all games", "replayed": "generated games", "golden": "golden"}
                print(
                    f"| {name} ({label[subset]}) | {n_games} | {int(mask.sum())} | {gap:.3f} |"
                    f" {brier:.4f} | {lo:+.4f} .. {hi:+.4f} |"
                )
                entry.setdefault(subset, {})[name] = {
                    "games": n_games,
                    "hints": int(mask.sum()),
                    "gap": round(gap, 4),
                    "brier": round(brier, 5),
                    "brier_change_95": [round(lo, 5), round(hi, 5)],
                }
        out[STAGE_NAMES[stage]] = entry
    print(
        f"\n## Summary (all games; cross-fitted over {FOLDS} folds of games)\n\n| Age | games |"
        " hints | largest decile gap: shipped | Platt per Age, cross-fitted | Brier raw |"
        " shipped | Platt per Age, cross-fitted | its change, 95% |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for stage in (1, 2, 3):
        every = out[STAGE_NAMES[stage]]["all"]
        ship, platt, raw = every["shipped"], every["Platt per Age"], every["raw (identity)"]
        lo, hi = platt["brier_change_95"]
        print(
            f"| {STAGE_NAMES[stage]} | {raw['games']} | {raw['hints']} | {ship['gap']:.3f} |"
            f" {platt['gap']:.3f} | {raw['brier']:.4f} | {ship['brier']:.4f} |"
            f" {platt['brier']:.4f} | {lo:+.4f} .. {hi:+.4f} |"
        )


def exact_label_section(rows: dict, out: dict) -> None:
    """Section 2: Age III maps by cards left fitted on exact labels, judged two ways."""
    labels = [json.loads(line) for line in TRUTH.read_text().splitlines() if line.strip()]
    # the estimate where one was made (a probe that proved the position at once made none)
    proved_at_once = [r["hint_exact"] and r["estimate"] == r["shown"] for r in labels]
    labels = [
        r
        for r, proved in zip(labels, proved_at_once, strict=True)
        if r.get("exact_value") is not None and not proved
    ]
    est = np.array([r["estimate"] for r in labels])
    exact = np.array([r["exact_value"] for r in labels])
    cards = np.array([r["cards"] for r in labels])
    game = np.array([int(r["position"][1:].split("_")[0]) for r in labels])
    z = _logit(est)
    print(
        f"\n## Age III: maps by cards left fitted on exact labels ({len(labels)} positions,"
        f" {len(set(game.tolist()))} games of {TRUTH.name})"
    )
    sel3 = (rows["stage"] == 3) & (rows["cards"] >= 0)
    zz = _logit(rows["raw"])
    section: dict = {"labels": len(labels)}
    for name, edges in {**EXACT_BANDS, "sharpening (b = 0)": ()}.items():
        symmetric = name.startswith("sharpening")

        def fit(mask, edges=edges, symmetric=symmetric):
            bands = band_of(cards, edges)
            return [
                platt_params(
                    est[mask & (bands == b)], exact[mask & (bands == b)], offset=not symmetric
                )
                for b in range(len(edges) + 1)
            ]

        held = np.zeros(len(labels))
        for g in np.unique(game):
            test = game == g
            params = fit(~test)
            b = band_of(cards[test], edges)
            a = np.array([params[k][0] for k in b])
            c = np.array([params[k][1] for k in b])
            held[test] = _sigmoid(a * z[test] + c)
        params = fit(np.ones(len(labels), dtype=bool))
        print(
            f"\n### {name}: fitted on all labels "
            + ", ".join(f"a = {a:.2f}, b = {c:+.2f}" for a, c in params)
        )
        print(
            "\n| cards left | positions | mean abs raw | mean abs map (leave one game out) |"
            " Brier vs exact raw | map |"
        )
        print("|---|---|---|---|---|---|")
        entry: dict = {"params": [[round(a, 4), round(c, 4)] for a, c in params], "exact": {}}
        for n in sorted(set(cards.tolist())):
            s = cards == n
            fig = {
                "positions": int(s.sum()),
                "abs_raw": float(np.abs(est[s] - exact[s]).mean()),
                "abs_map": float(np.abs(held[s] - exact[s]).mean()),
                "brier_raw": float(((est[s] - exact[s]) ** 2).mean()),
                "brier_map": float(((held[s] - exact[s]) ** 2).mean()),
            }
            entry["exact"][str(n)] = {k: round(v, 4) for k, v in fig.items()}
            print(
                f"| {n} | {fig['positions']} | {fig['abs_raw']:.3f} | {fig['abs_map']:.3f} |"
                f" {fig['brier_raw']:.4f} | {fig['brier_map']:.4f} |"
            )
        b = band_of(rows["cards"], edges)
        shown = _sigmoid(
            np.array([params[k][0] for k in b]) * zz + np.array([params[k][1] for k in b])
        )
        print(
            "\n| cards left (generated games' Age III MCTS hints) | hints | games | mean raw |"
            " mean map | won | Brier raw | Brier map |"
        )
        print("|---|---|---|---|---|---|---|---|")
        entry["outcomes"] = {}
        for lo, hi in ((1, 13), (14, 15), (16, 20), (1, 20)):
            s = sel3 & (rows["cards"] >= lo) & (rows["cards"] <= hi)
            if not s.any():
                continue
            y = rows["y"][s]
            fig = {
                "hints": int(s.sum()),
                "games": len(set(rows["game"][s].tolist())),
                "mean_raw": float(rows["raw"][s].mean()),
                "mean_map": float(shown[s].mean()),
                "won": float(y.mean()),
                "brier_raw": float(((rows["raw"][s] - y) ** 2).mean()),
                "brier_map": float(((shown[s] - y) ** 2).mean()),
            }
            entry["outcomes"][f"{lo}-{hi}"] = {k: round(v, 4) for k, v in fig.items()}
            print(
                f"| {lo}-{hi} | {fig['hints']} | {fig['games']} | {fig['mean_raw']:.3f} |"
                f" {fig['mean_map']:.3f} | {fig['won']:.3f} | {fig['brier_raw']:.4f} |"
                f" {fig['brier_map']:.4f} |"
            )
        section[name] = entry
    out["Age III exact labels"] = section


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--records", type=Path, nargs="+", required=True, help="generate's JSON lines (files)"
    )
    parser.add_argument("--with-sample", action="store_true", help="the golden sample's games too")
    parser.add_argument("--min-bin", type=int, default=20, help="bins with fewer hints: no gap")
    parser.add_argument("--bootstrap", type=int, default=2000, help="bootstrap draws")
    parser.add_argument(
        "--partitions", type=int, default=20, help="random fold partitions for the spread"
    )
    parser.add_argument(
        "--exact-labels", action="store_true", help="also the Age III maps on exact labels"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    rows, source, records = read_rows(args.records, args.with_sample)
    print(f"games: {source}; {len(rows['y'])} hints (MCTS, not exact)")
    cal = default_calibration()
    print(
        "shipped map: "
        + ", ".join(
            f"{name} a = {a:.3f}, b = {b:+.3f}"
            for name, (a, b) in zip(STAGE_NAMES, cal.params, strict=True)
        )
        + f"; fitted on {cal.meta.get('games')} games"
    )
    out: dict = {"source": source, "hints": int(len(rows["y"]))}
    age_tables(rows, args.min_bin, args.bootstrap, out)
    partition_table(rows, args.min_bin, args.partitions, out)
    source_table(rows, records, out)
    if args.exact_labels:
        exact_label_section(rows, out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
