"""Exact labels for Age III's MCTS estimate, drawn as a hint meets positions (issue 64).

``generate``: seeded self-play games of ``cmcts:ITERATIONS`` (as ``hint_truth.py make`` plays
them; seeds 6600 up by default, never the test set's 6400-6431), and EVERY Age III play
decision with ``--min-cards`` to ``--max-cards`` cards left (not only the first with N cards).
For each: the estimate the default hint shows where its exact stage does not finish (the
compiled MCTS at ``DEFAULT_ITERATIONS`` over ``TREES`` trees, seed 0: the value of its best move
from the mover's view, ``hint_analysis(..., exact_cards=0)``) and the judge's exact value (one
thread, a node cap, ``hint_truth.exact_solve``). A capped solve is kept as a row with
``"exact": false`` (the cap drops hard positions: a bias toward easy ones, counted per cards
left by ``fit``). A decision with a move that wins at once is kept with ``"decided": true`` (the
hint says "wins now", no estimate). One JSON line per position, resumable.

``test``: the same estimate on the judged positions of ``hint_truth`` (``exact.jsonl``, 10-16
cards), the unseen test set.

``outcomes``: each labelled game played again to its end (seeded: the same game), its winner.

``age-games``: the Age III MCTS hints of ``hint_age_games`` (6,000 iterations) searched again at
the default budget, to judge the maps against outcomes at the budget they were fitted at.

``fit``: candidate maps of the estimate to the exact value (soft labels, log loss), cross-fitted
by folds of games on the labels, then fitted on all labels and judged on the test set: mean /
p90 / worst |shown - exact| and Brier per cards left.

    PYTHONPATH=. nice -n 10 python benchmarks/hint_exact_labels.py generate --games 150
    PYTHONPATH=. nice -n 10 python benchmarks/hint_exact_labels.py test
    PYTHONPATH=. nice -n 10 python benchmarks/hint_exact_labels.py outcomes
    PYTHONPATH=. nice -n 10 python benchmarks/hint_exact_labels.py age-games --every 1
    PYTHONPATH=. python benchmarks/hint_exact_labels.py fit --outcomes
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgames import cards_left  # noqa: E402
from exact_budget import age3_positions, selfplay_game  # noqa: E402
from hint_truth import _done, exact_solve, quantile  # noqa: E402

from duel.position import dumps_position, load_position, loads_position  # noqa: E402
from duel.state import State  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "hint_truth"
LABELS = OUT / "exact_labels.jsonl"
TEST = OUT / "exact_labels_test.jsonl"
RESULTS = OUT / "exact_labels_outcomes.jsonl"
AT_DEFAULT = OUT / "exact_labels_age_games_48k.jsonl"
#: The test set's seeds (``hint_truth.py make``): never used for labels.
TEST_SEEDS = range(6400, 6432)


def estimate(state: State) -> dict:
    """The estimate the default hint shows where its exact stage does not finish."""
    from duel.solvers.hint import hint_analysis

    cpu = time.process_time()
    info = hint_analysis(state, exact_cards=0)
    cpu = time.process_time() - cpu
    if info.exact:  # a move wins at once: "wins now", no estimate
        return {"decided": True, "shown": info.moves[0].value}
    best = info.moves[0]
    return {
        "decided": False,
        "estimate": best.value,
        "raw": info.extra["raw"][str(best.move)],
        "move": str(best.move),
        "estimate_cpu": round(cpu, 3),
    }


def _mover_value(value_a: float, mover: int) -> float:
    return value_a if mover == 0 else 1.0 - value_a


def generate(
    games: int,
    first_seed: int,
    lo: int,
    hi: int,
    iterations: int,
    max_nodes: int,
    stop_at: float | None,
) -> None:
    done = _done(LABELS)
    for seed in range(first_seed, first_seed + games):
        if seed in TEST_SEEDS:
            raise SystemExit(f"seed {seed} belongs to the test set (6400-6431)")
        if stop_at is not None and time.time() > stop_at:
            print("stopped at the deadline", flush=True)
            return
        if f"g{seed}_done" in done:
            continue
        cpu = time.process_time()
        states = age3_positions(seed, hi, iterations, lo)
        play_cpu = round(time.process_time() - cpu, 2)
        for i, state in enumerate(states):
            key = f"g{seed}_{i}"
            if key in done:
                continue
            row = {
                "position": key,
                "seed": seed,
                "index": i,
                "cards": cards_left(state),
                "to_move": state.to_move,
                "play_again": i > 0
                and cards_left(states[i - 1]) == cards_left(state)
                and states[i - 1].to_move == state.to_move,
            }
            row |= estimate(state)
            if not row["decided"]:
                cpu = time.process_time()
                judge = exact_solve(state, max_nodes)
                row["exact"] = judge["exact"]
                row["nodes"] = judge["nodes"]
                row["solve_cpu"] = round(time.process_time() - cpu, 2)
                if judge["exact"]:
                    row["exact_value"] = _mover_value(judge["value_a"], state.to_move)
            row["load"] = round(os.getloadavg()[0], 2)
            row["state"] = dumps_position(state)
            with LABELS.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(json.dumps({k: v for k, v in row.items() if k != "state"}), flush=True)
        with LABELS.open("a") as f:
            f.write(
                json.dumps(
                    {
                        "position": f"g{seed}_done",
                        "seed": seed,
                        "positions": len(states),
                        "play_cpu": play_cpu,
                    }
                )
                + "\n"
            )


def test() -> None:
    exact_rows = _done(OUT / "exact.jsonl")
    done = _done(TEST)
    for stem, judge in sorted(exact_rows.items()):
        if stem in done or not judge["exact"]:
            continue
        state = load_position(OUT / "positions" / f"{stem}.json")
        row = {
            "position": stem,
            "seed": int(stem[1:].split("_")[0]),
            "cards": cards_left(state),
            "to_move": state.to_move,
        } | estimate(state)
        row["exact"] = True
        row["exact_value"] = _mover_value(judge["value_a"], state.to_move)
        row["state"] = dumps_position(state)
        with TEST.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps({k: v for k, v in row.items() if k != "state"}), flush=True)


def outcomes(iterations: int) -> None:
    """Each labelled game played again (seeded: the same game) to its end: its winner."""
    done = _done(RESULTS)
    seeds = sorted({r["seed"] for r in _done(LABELS).values()})
    for seed in seeds:
        if f"g{seed}" in done:
            continue
        cpu = time.process_time()
        _, final = selfplay_game(seed, iterations, lambda s: False)
        row = {
            "position": f"g{seed}",
            "seed": seed,
            "winner": final.winner,
            "victory": final.victory,
            "cpu": round(time.process_time() - cpu, 2),
        }
        with RESULTS.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


def age_games(every: int, stop_at: float | None) -> None:
    """The Age III MCTS hints of ``hint_age_games`` (the hint engine's self-play at 6,000
    iterations, judged by outcomes) searched again at the default budget: one game in
    ``every`` of seed 6467's, each hint's position replayed from the game's moves."""
    from duel.state import new_game

    done = _done(AT_DEFAULT)
    path = OUT.parent / "hint_age_games" / "seed6467.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for record in records[::every]:
        if stop_at is not None and time.time() > stop_at:
            return
        hints = {h[0]: h for h in record["hints"] if h[1] == 3 and not h[4]}
        state = new_game()
        for ply, move in enumerate(record["moves"]):
            key = f"s{record['seed']}_{record['index']}_{ply}"
            if ply in hints and key not in done:
                row = {
                    "position": key,
                    "cards": cards_left(state),
                    "to_move": state.to_move,
                    "raw_6000": hints[ply][3],
                    "winner": record["winner"],
                } | estimate(state)
                with AT_DEFAULT.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            state = state.apply(move, check=False)
        print(f"game {record['index']}", flush=True)


# --- fit -----------------------------------------------------------------------------------

#: The public features of the mover's view for candidate (iii): names of
#: ``duel.solvers.features`` per-player features, taken as mover minus opponent.
FEATURES = ("points", "lead", "coins", "sci_symbols", "wonders_left", "cards_left")


def public_features(state: State) -> list[float]:
    from duel.solvers.features import FEATURE_NAMES as NAMES
    from duel.solvers.features import player_features

    g = [player_features(state, p) for p in (0, 1)]
    me, them = g[state.to_move], g[1 - state.to_move]

    def diff(name: str) -> float:
        k = NAMES.index(name)
        return float(me[k] - them[k])

    pts = sum(diff(n) for n in NAMES if n.startswith("pts_"))
    lead = sum(diff(f"lead_ge{k}") for k in range(1, 9))
    sci = sum(diff(f"sci_ge{k}") for k in range(2, 6))
    wonders = sum(diff(n) for n in NAMES if n.startswith("owns_"))
    return [
        pts / 10.0,
        lead / 3.0,
        diff("coins") / 10.0,
        sci / 2.0,
        wonders / 2.0,
        (cards_left(state) - 12) / 3.0,
    ]


def _rows(path: Path) -> list[dict]:
    return [
        r
        for r in _done(path).values()
        if not r["position"].endswith("_done") and not r.get("decided")
    ]


def _arrays(rows: list[dict], with_features: bool):
    import numpy as np

    from duel.solvers.hint_calibration import _logits

    est = np.array([r["estimate"] for r in rows])
    y = np.array([r.get("exact_value", np.nan) for r in rows])
    cards = np.array([r["cards"] for r in rows], dtype=float)
    z = _logits(est)
    x = None
    if with_features:
        x = np.array([public_features(loads_position(r["state"])) for r in rows])
    return z, y, cards, x, est


def _design(kind: str, z, cards, x):
    import numpy as np

    ones = np.ones_like(z)
    c = (cards - 12.0) / 3.0
    if kind == "platt":
        return np.stack([z, ones], 1)
    if kind == "platt_cards":  # slope and offset linear in cards left
        return np.stack([z, ones, z * c, c], 1)
    if kind == "platt_features":
        return np.column_stack([z, ones, x])
    raise ValueError(kind)


def _fit(X, y, l2: float):
    """Logistic regression on soft labels, Newton's method, L2 on every weight but the first
    two (slope, offset), which get the tiny ridge of ``hint_calibration._platt``."""
    import numpy as np

    w = np.zeros(X.shape[1])
    w[0] = 1.0
    prior = w.copy()
    reg = np.full(X.shape[1], l2)
    reg[:2] = 1e-3
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(X @ w, -30, 30)))
        grad = X.T @ (p - y) + reg * (w - prior)
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def _predict(X, w):
    import numpy as np

    return 1.0 / (1.0 + np.exp(-np.clip(X @ w, -30, 30)))


KINDS = ("raw", "platt", "platt_cards", "platt_features")


def fit(folds: int, l2: float, outcomes: bool, write_map: bool) -> None:
    import numpy as np

    labels = _done(LABELS)
    all_rows = [r for r in labels.values() if not r["position"].endswith("_done")]
    games = [r for r in labels.values() if r["position"].endswith("_done")]
    print(f"games finished: {len(games)}, play CPU {sum(g['play_cpu'] for g in games):.0f} s")
    print(
        "| cards left | decisions | wins now | estimated | judged | capped (dropped) |"
        " estimate CPU s | solve CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in sorted({r["cards"] for r in all_rows}):
        g = [r for r in all_rows if r["cards"] == n]
        est = [r for r in g if not r.get("decided")]
        judged = [r for r in est if r.get("exact")]
        print(
            f"| {n} | {len(g)} | {len(g) - len(est)} | {len(est)} | {len(judged)} |"
            f" {len(est) - len(judged)} | {sum(r['estimate_cpu'] for r in est):.0f} |"
            f" {sum(r['solve_cpu'] for r in est):.0f} |"
        )
    rows = [r for r in _rows(LABELS) if r.get("exact")]
    test_rows = [r for r in _rows(TEST) if r.get("exact")]
    z, y, cards, x, est = _arrays(rows, True)
    seeds = np.array([r["seed"] for r in rows])
    fold = seeds % folds
    cross = {"raw": est}
    weights = {}
    for kind in KINDS[1:]:
        X = _design(kind, z, cards, x)
        pred = np.zeros_like(y)
        for k in range(folds):
            test = fold == k
            pred[test] = _predict(X[test], _fit(X[~test], y[~test], l2))
        cross[kind] = pred
        weights[kind] = _fit(X, y, l2)
    tz, ty, tcards, tx, test_est = _arrays(test_rows, True)
    on_test = {"raw": test_est}
    for kind in KINDS[1:]:
        on_test[kind] = _predict(_design(kind, tz, tcards, tx), weights[kind])
    for kind, w in weights.items():
        print(f"{kind}: weights {np.round(w, 3).tolist()}")
    _table(f"cross-fitted on the labels (folds of games: seed mod {folds})", cross, y, cards)
    _table(
        "fitted on all labels, judged on the test set (hint_truth, seeds 6400-6431)",
        on_test,
        ty,
        tcards,
    )
    shown = _shown_estimates()
    sub = np.array([r["position"] in shown for r in test_rows])
    _table(
        "the same, on the test positions where the default hint shows the estimate"
        " (hint_truth's hints: the exact stage or the probe did not finish)",
        {k: p[sub] for k, p in on_test.items()},
        ty[sub],
        tcards[sub],
    )
    tgame = np.array([r["seed"] for r in test_rows])
    _bootstrap(on_test, ty, tcards, tgame)
    _regret(all_rows)
    _against_outcomes(
        "the labels against their games' outcomes (maps cross-fitted)",
        rows,
        {"exact value": y, **cross},
    )
    # the positions the cap dropped (the hard ones) are in no fit: judged by outcomes alone
    dropped = [r for r in _rows(LABELS) if not r.get("exact")]
    dz, _, dcards, dx, dest = _arrays(dropped, True)
    _against_outcomes(
        "the positions the cap dropped, against their games' outcomes (maps fitted on all labels)",
        dropped,
        {"raw": dest, **{k: _predict(_design(k, dz, dcards, dx), w) for k, w in weights.items()}},
    )
    if outcomes:
        _outcomes(weights)
        _age_games_at_default(weights)
    if write_map:
        a, b = (float(v) for v in weights["platt"])
        _write_map(
            a,
            b,
            {
                "labels": len(rows),
                "games": len({r["seed"] for r in rows}),
                "file": LABELS.name,
                "test_positions": len(test_rows),
            },
        )
    out = {
        "weights": {k: w.tolist() for k, w in weights.items()},
        "features": FEATURES,
        "labels": len(rows),
        "test": len(test_rows),
        "l2": l2,
        "folds": folds,
    }
    (OUT / "exact_labels_fit.json").write_text(json.dumps(out, indent=1) + "\n")


def _shown_estimates() -> set[str]:
    """The test positions where the default hint shows the estimate: 10-14 cards from the
    2026-12-03 run of ``hint_truth.py hint``, 16 cards from the first (the probe's verdict does
    not depend on the estimate's budget)."""
    rows = _done(OUT / "hints_2026-12-03.jsonl") | {
        k: r for k, r in _done(OUT / "hints.jsonl").items() if r["cards"] == 16
    }
    return {k for k, r in rows.items() if not r["hint_exact"]}


def _bootstrap(preds: dict, y, cards, game, draws: int = 2000) -> None:
    """95% intervals of each map's change of mean |shown - exact| and Brier against the raw
    estimate, per cards left, over test games drawn with replacement."""
    import numpy as np

    rng = np.random.default_rng(64)
    print("\n| cards left | map | change of mean abs, 95% | change of Brier, 95% |")
    print("|---|---|---|---|")
    for n in sorted(set(cards.tolist())):
        sel = cards == n
        games = np.unique(game[sel])
        idx = [np.flatnonzero(sel & (game == g)) for g in games]
        for kind, p in preds.items():
            if kind == "raw":
                continue
            d_abs = np.abs(p - y) - np.abs(preds["raw"] - y)
            d_sq = (p - y) ** 2 - (preds["raw"] - y) ** 2
            stats = []
            for _ in range(draws):
                pick = np.concatenate([idx[k] for k in rng.integers(len(idx), size=len(idx))])
                stats.append((d_abs[pick].mean(), d_sq[pick].mean()))
            lo, hi = np.percentile(np.array(stats), [2.5, 97.5], axis=0)
            print(
                f"| {int(n)} | {kind} | {d_abs[sel].mean():+.3f} ({lo[0]:+.3f} .. {hi[0]:+.3f}) |"
                f" {d_sq[sel].mean():+.4f} ({lo[1]:+.4f} .. {hi[1]:+.4f}) |"
            )


def _against_outcomes(title: str, rows: list[dict], preds: dict) -> None:
    """Positions of the labels' games judged by how the game ended: each of ``preds`` against
    the mover's result (1 won, 0 lost, 1/2 shared)."""
    import numpy as np

    ends = _done(RESULTS)
    have = np.array([f"g{r['seed']}" in ends for r in rows])
    if not have.any():
        return
    result = []
    for r in rows:
        end = ends.get(f"g{r['seed']}")
        w = None if end is None else end["winner"]
        result.append(0.5 if w is None else float(w == r["to_move"]))
    y = np.array(result)
    cards = np.array([r["cards"] for r in rows])
    print(f"\n{title} ({int(have.sum())} positions)\n")
    print("| cards left | positions | judged by | mean shown | won | Brier |")
    print("|---|---|---|---|---|---|")
    for lo, hi in ((9, 11), (12, 14), (9, 14)):
        sel = have & (cards >= lo) & (cards <= hi)
        if not sel.any():
            continue
        for kind, p in preds.items():
            print(
                f"| {lo}-{hi} | {int(sel.sum())} | {kind} | {p[sel].mean():.3f} |"
                f" {y[sel].mean():.3f} | {np.mean((p[sel] - y[sel]) ** 2):.4f} |"
            )


def _regret(rows: list[dict]) -> None:
    """Why exact labels sit above one half from the mover's view: along a game of imperfect
    play, consecutive decisions of the two players have exact values ``v_t + v_(t+1) >= 1`` (in
    expectation over the chance between them), with equality when the move at ``t`` is
    perfect: the excess is the value the self-play move gave away."""
    import statistics

    by_key = {(r["seed"], r["index"]): r for r in rows if r.get("exact")}
    gaps = [
        r["exact_value"] + nxt["exact_value"] - 1.0
        for (seed, i), r in by_key.items()
        if (nxt := by_key.get((seed, i + 1))) is not None and nxt["to_move"] != r["to_move"]
    ]
    if gaps:
        print(
            f"\nconsecutive judged decisions of the two players: {len(gaps)}, mean"
            f" v_t + v_t+1 - 1 = {statistics.mean(gaps):+.3f} (the self-play move's mean loss)"
        )
    judged = [r["exact_value"] for r in by_key.values()]
    if judged:
        print(f"mean exact value of the mover: {statistics.mean(judged):.3f} over {len(judged)}")


def _write_map(a: float, b: float, record: dict) -> None:
    """Age III's a and b in the shipped map file (the other stages, the budget layers and the
    recorded settings kept), with this fit's record in ``meta["age3_exact_fit"]``."""
    from dataclasses import replace

    from duel.solvers.hint import CALIBRATION_PATH, Calibration

    path = Path(__file__).resolve().parents[1] / "data" / CALIBRATION_PATH
    old = Calibration.load(path)
    params = (*old.params[:3], (a, b))
    meta = {**old.meta, "age3_exact_fit": {**record, "a": round(a, 6), "b": round(b, 6)}}
    replace(old, params=params, meta=meta).save(path)
    print(f"wrote Age III a = {a:.4f}, b = {b:+.4f} to {path}")


def _outcomes(weights: dict) -> None:
    """The maps without features on the Age III MCTS hints of the calibration games
    (``benchmarks/results/hint_age_games``, 6,000 iterations: not the labels' budget), judged
    by the games' outcomes."""
    import numpy as np
    from hint_age_calibration import read_rows

    from duel.solvers.hint_calibration import _logits

    paths = sorted((OUT.parent / "hint_age_games").glob("seed*.jsonl"))
    rows, _, _ = read_rows(paths, False)
    sel = (rows["stage"] == 3) & (rows["cards"] >= 0)
    raw, y, cards = rows["raw"][sel], rows["y"][sel], rows["cards"][sel].astype(float)
    preds = {"raw": np.clip(raw, 0.005, 0.995)}
    for kind in ("platt", "platt_cards"):
        preds[kind] = _predict(_design(kind, _logits(raw), cards, None), weights[kind])
    print(f"\nvs outcomes: Age III MCTS hints of {len(paths)} files of hint_age_games\n")
    print("| cards left | hints | map | mean shown | won | Brier |")
    print("|---|---|---|---|---|---|")
    for lo, hi in ((1, 8), (9, 14), (15, 16), (17, 20), (1, 20)):
        s = (cards >= lo) & (cards <= hi)
        for kind, p in preds.items():
            print(
                f"| {lo}-{hi} | {int(s.sum())} | {kind} | {p[s].mean():.3f} |"
                f" {y[s].mean():.3f} | {np.mean((p[s] - y[s]) ** 2):.4f} |"
            )


def _age_games_at_default(weights: dict) -> None:
    """The same hints of ``hint_age_games`` at 6,000 iterations (as played) and at the default
    48,000 (``age-games``), raw and mapped, judged by the games' outcomes."""
    import numpy as np

    from duel.solvers.hint_calibration import _logits

    rows = [r for r in _done(AT_DEFAULT).values() if not r.get("decided")]
    if not rows:
        return
    y = np.array(
        [0.5 if r["winner"] not in (0, 1) else float(r["winner"] == r["to_move"]) for r in rows]
    )
    cards = np.array([r["cards"] for r in rows], dtype=float)
    r6 = np.array([r["raw_6000"] for r in rows])
    r48 = np.array([r["estimate"] for r in rows])
    preds = {
        "raw 6,000": np.clip(r6, 0.005, 0.995),
        "platt on 6,000": _predict(_design("platt", _logits(r6), cards, None), weights["platt"]),
        "raw 48,000": r48,
        "platt on 48,000": _predict(_design("platt", _logits(r48), cards, None), weights["platt"]),
        "platt_cards on 48,000": _predict(
            _design("platt_cards", _logits(r48), cards, None), weights["platt_cards"]
        ),
    }
    games = len({r["position"].rsplit("_", 1)[0] for r in rows})
    print(f"\nhint_age_games' Age III MCTS hints again at 48,000 ({len(rows)}, {games} games)\n")
    print("| cards left | hints | judged by | mean shown | won | Brier |")
    print("|---|---|---|---|---|---|")
    for lo, hi in ((9, 14), (15, 16), (17, 20), (1, 20)):
        sel = (cards >= lo) & (cards <= hi)
        for kind, p in preds.items():
            print(
                f"| {lo}-{hi} | {int(sel.sum())} | {kind} | {p[sel].mean():.3f} |"
                f" {y[sel].mean():.3f} | {np.mean((p[sel] - y[sel]) ** 2):.4f} |"
            )


def _table(title: str, preds: dict, y, cards) -> None:
    """Per cards left: each figure for every map, in the order of ``preds``."""
    import numpy as np

    names = " / ".join(preds)
    print(f"\n{title}\n")
    print(
        f"| cards left | positions | mean abs ({names}) | p90 abs | worst abs | Brier ({names}) |"
    )
    print("|---|---|---|---|---|---|")
    groups = [(str(int(n)), cards == n) for n in sorted(set(cards.tolist()))]
    groups.append(("all", np.ones_like(y, dtype=bool)))
    for name, sel in groups:
        err = {k: np.abs(p[sel] - y[sel]) for k, p in preds.items()}
        cols = [
            " / ".join(f"{e.mean():.3f}" for e in err.values()),
            " / ".join(f"{quantile(e.tolist(), 0.9):.3f}" for e in err.values()),
            " / ".join(f"{e.max():.3f}" for e in err.values()),
            " / ".join(f"{np.mean(e**2):.4f}" for e in err.values()),
        ]
        print(f"| {name} | {int(sel.sum())} | " + " | ".join(cols) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "test", "outcomes", "age-games", "fit"))
    parser.add_argument("--every", type=int, default=10, help="age-games: one game in every")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--first-seed", type=int, default=6600)
    parser.add_argument("--min-cards", type=int, default=9)
    parser.add_argument("--max-cards", type=int, default=14)
    parser.add_argument("--iterations", type=int, default=2000, help="cmcts budget of the games")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="per exact solve")
    parser.add_argument("--stop-at", type=float, default=None, help="Unix time to stop at")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument(
        "--write-map",
        action="store_true",
        help="write the Platt map as Age III's in the shipped calibration file",
    )
    parser.add_argument(
        "--outcomes",
        action="store_true",
        help="also the maps on the Age III hints of hint_age_games, by outcome",
    )
    args = parser.parse_args()
    if args.step == "generate":
        generate(
            args.games,
            args.first_seed,
            args.min_cards,
            args.max_cards,
            args.iterations,
            args.max_nodes,
            args.stop_at,
        )
    elif args.step == "test":
        test()
    elif args.step == "outcomes":
        outcomes(args.iterations)
    elif args.step == "age-games":
        age_games(args.every, args.stop_at)
    else:
        fit(args.folds, args.l2, args.outcomes, args.write_map)


if __name__ == "__main__":
    main()
