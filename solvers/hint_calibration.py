"""Calibrating the hints' win chances (:mod:`duel.solvers.hint`): self-play, fit, validate, ship.

``python -m duel.solvers.hint_calibration recipe --dir runs/hints`` regenerates the shipped map
(``data/models/hint_calibration.json``); its steps are subcommands too:

1. ``generate``: self-play games in which both seats play the hint engine's best move at a fixed
   budget (``--iterations`` over :data:`~duel.solvers.hint.TREES` trees, raw values, seeded), in
   local worker processes through :func:`duel.solvers.batch.run_jobs` (resumable, the same games for
   any number of workers). Each game is one JSON line: its seed and index, every move (chance
   included: the game replays), the winner, the CPU time, and per decision the hint that was
   given: ``[ply, stage, mover, raw value for the mover, exact]``.
2. ``fit``: per stage a Platt scaling of the raw value, ``p = sigmoid(a * logit(raw) + b)``
   (two numbers per stage, fitted by Newton's method on the log loss), on the positions hinted
   by MCTS (exact ones are the game's value and are left alone). Games are split by
   ``index % 5`` as in :mod:`duel.solvers.train`: folds 0-3 fit the shipped map, fold 4 is held out;
   the report also cross-fits (each fold predicted by a map fitted on the four others) so every
   game counts once as held out. Reported: Brier score and log loss, calibrated against raw, and
   the calibration table by deciles (the fraction of positions whose mover won, a shared victory
   counting 1/2), written with the map's budget and the ``cmcts`` settings it was fitted with.
   The map is written only if it beats the raw values cross-fitted (:func:`map_pays`); else
   the identity is (``map_kept`` in its record says which).
3. ``budget``: a longer search gives sharper raw values, so positions of those games (every
   fold, seeded) are hinted afresh at a larger budget (``--iterations``; a hint on an idle core
   runs about 95,000 a second: 191,000 in 2 s, 913,000 in 10 s), labelled by the games' results.
4. ``fit-budgets``: per budget, one more Platt scaling over the map's output, the **budget
   layer** (:meth:`~duel.solvers.hint.Calibration.budget_params`: a hint between two fitted
   budgets interpolates in log-iterations), reported cross-fitted over the game folds against
   the map alone.
5. ``fit-ages``: a Platt map per Age (``--stages``, Ages I and II by default) fitted on every
   game given (and ``--with-sample``'s), written over the shipped file with its budget layers
   and player settings kept. It writes what it is told to: whether such a map pays is judged
   held out, per Age, by ``benchmarks/hint_age_calibration.py`` (docs/hints.md).

The labels are the final results of self-play by the hint engine itself; a hint given to a
person in a game between people is calibrated only as far as their play resembles it.

>>> records = generate(games=1, seed=3, iterations=150, workers=1)
>>> hints = records[0]["hints"]
>>> len(hints) > 20 and all(0.0 <= h[3] <= 1.0 for h in hints)
True
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path

from duel.solvers.hint import (
    CALIBRATION_PATH,
    MAP_ITERATIONS,
    STAGE_NAMES,
    TREES,
    Calibration,
    hint_analysis,
    hint_stage,
)
from duel.solvers.train import (
    HOLDOUT_FOLD,
    HOLDOUT_MOD,
    calibration_table,
    calibration_test,
    metrics,
    result_label,
)
from duel.state import GAME_OVER, PHASE, TAKEN, WINNER, State, new_game

__all__ = [
    "cards_left",
    "fit_age_map",
    "fit_map",
    "generate",
    "hint_cards",
    "hint_rows",
    "main",
    "map_pays",
    "platt_params",
    "play_hint_game",
    "read_games",
    "report",
    "sample_rows",
]


def cards_left(state: State) -> int:
    """The cards left in the current Age's pyramid."""
    return sum(1 for card in state.pyramid if card != TAKEN)


def play_hint_game(job: dict) -> dict:
    """One self-play game by the hint engine (``job``: seed, index, iterations) as a record."""
    seed, index, iterations = job["seed"], job["index"], job["iterations"]
    start = time.process_time()
    rng = random.Random(seed * 1_000_003 + index)
    state = new_game()
    moves: list[int] = []
    hints: list[list] = []
    while state.fields[PHASE] != GAME_OVER:
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            info = hint_analysis(
                state,
                iterations=iterations,
                top=1,
                seed=(seed * 7919 + index) * 1000 + len(moves),
                calibrate=False,
            )
            move = info.best_move
            raw = info.extra.get("raw", {}).get(str(move), info.moves[0].value)
            hints.append(
                [len(moves), hint_stage(state), state.to_move, round(raw, 5), bool(info.exact)]
            )
        moves.append(int(move))
        state = state.apply(move, check=False)
    return {
        "seed": seed,
        "index": index,
        "iterations": iterations,
        "moves": moves,
        "winner": state.fields[WINNER],
        "hints": hints,
        "cpu": round(time.process_time() - start, 3),
    }


def generate(
    *,
    games: int,
    seed: int,
    iterations: int = MAP_ITERATIONS,
    workers: int = 1,
    resume_file: str | Path | None = None,
) -> list[dict]:
    """``games`` self-play records by the hint engine, reproducible from ``seed``."""
    from duel.solvers.batch import run_jobs

    jobs = [{"seed": seed, "index": i, "iterations": iterations} for i in range(games)]
    return list(run_jobs(play_hint_game, jobs, workers=workers, out=resume_file, label="games"))


def hint_rows(records: list[dict], cards: bool = False):
    """Arrays over the MCTS hints of ``records``: ``raw`` (for the mover), ``stage``, ``y``
    (the mover's result: 1 won, 1/2 shared, 0 lost), ``fold`` (game index % 5), ``game``;
    with ``cards``, also ``cards``: the cards left in the Age's pyramid at each hint (the game
    replayed; -1 for a record without its moves)."""
    import numpy as np

    raw, stages, ys, folds, game, left = [], [], [], [], [], []
    for g, record in enumerate(records):
        a_result = result_label(record["winner"])
        counts = hint_cards(record) if cards else {}
        for ply, st, mover, value, exact in record["hints"]:
            if exact:
                continue
            raw.append(value)
            stages.append(st)
            ys.append(a_result if mover == 0 else 1.0 - a_result)
            folds.append(record["index"] % HOLDOUT_MOD)
            game.append(g)
            left.append(counts.get(ply, -1))
    rows = {
        "raw": np.array(raw, dtype=np.float64),
        "stage": np.array(stages, dtype=np.int8),
        "y": np.array(ys, dtype=np.float64),
        "fold": np.array(folds, dtype=np.int8),
        "game": np.array(game, dtype=np.int32),
    }
    if cards:
        rows["cards"] = np.array(left, dtype=np.int8)
    return rows


def hint_cards(record: dict) -> dict[int, int]:
    """Per hinted ply of a game record, the cards left in the Age's pyramid (the game replayed
    from its moves; empty for a record without them)."""
    if "moves" not in record:
        return {}
    plies = {h[0] for h in record["hints"]}
    out = {}
    state = new_game()
    for ply, move in enumerate(record["moves"]):
        if ply in plies:
            out[ply] = cards_left(state)
        state = state.apply(move, check=False)
    return out


def sample_rows(path: str | Path, first_game: int = 0) -> dict:
    """:func:`hint_rows`'s arrays (``cards`` -1: the sample keeps no moves) over a held-out
    sample written by :func:`write_sample`, its games numbered from ``first_game``."""
    import numpy as np

    games = json.loads(Path(path).read_text(encoding="utf-8"))["games"]
    rows = [(first_game + g, *row) for g, game in enumerate(games) for row in game]
    return {
        "raw": np.array([r[2] for r in rows], dtype=np.float64),
        "stage": np.array([r[1] for r in rows], dtype=np.int8),
        "y": np.array([r[3] for r in rows], dtype=np.float64),
        "fold": np.array([r[0] % HOLDOUT_MOD for r in rows], dtype=np.int8),
        "game": np.array([r[0] for r in rows], dtype=np.int32),
        "cards": np.full(len(rows), -1, dtype=np.int8),
    }


def read_games(paths) -> list[dict]:
    """The game records of ``generate`` files; a run still going is read from its ``.partial``
    file (the batch layer keeps each game under ``"result"``)."""
    return [record.get("result", record) for record in _read([str(p) for p in paths])]


def _logits(raw):
    import numpy as np

    p = np.clip(raw, 0.005, 0.995)
    return np.log(p / (1.0 - p))


def _platt(z, y, iterations: int = 50) -> tuple[float, float]:
    """(a, b) minimising the log loss of ``sigmoid(a * z + b)`` (a tiny ridge keeps it finite
    on a separable or tiny sample; ``a`` is kept positive so the map stays increasing)."""
    import numpy as np

    w = np.array([1.0, 0.0])
    Z = np.stack([z, np.ones_like(z)], axis=1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -30.0, 30.0)))
        grad = Z.T @ (p - y) + 1e-3 * (w - [1.0, 0.0])
        hess = (Z * (p * (1.0 - p))[:, None]).T @ Z + 1e-3 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return max(float(w[0]), 0.05), float(w[1])


def platt_params(raw, y, offset: bool = True) -> tuple[float, float]:
    """The Platt map's ``(a, b)`` of raw values ``raw`` against results (or soft labels) ``y``;
    ``offset=False``: ``b = 0``, a sharpening alone (symmetric about one half)."""
    if offset:
        return _platt(_logits(raw), y)
    import numpy as np

    z = _logits(raw)
    a = 1.0
    for _ in range(50):  # Newton's method on the log loss, in a alone
        p = 1.0 / (1.0 + np.exp(-np.clip(a * z, -30.0, 30.0)))
        step = float(z @ (p - y)) / max(float((z * z) @ (p * (1.0 - p))), 1e-12)
        a -= step
        if abs(step) < 1e-9:
            break
    return max(a, 0.05), 0.0


def fit_age_map(
    rows: dict, mask=None, stages: tuple[int, ...] = (1, 2, 3), meta: dict | None = None
) -> Calibration:
    """A Platt map per Age (``stages``) fitted on the ``mask`` rows, the identity elsewhere and
    no pooled knots: the map judged against the games' outcomes per Age
    (``benchmarks/hint_age_calibration.py``). A stage with fewer than 30 hints keeps the
    identity."""
    import numpy as np

    mask = np.ones(len(rows["y"]), dtype=bool) if mask is None else mask
    params = []
    for s in range(len(STAGE_NAMES)):
        sel = mask & (rows["stage"] == s)
        params.append(
            platt_params(rows["raw"][sel], rows["y"][sel])
            if s in stages and sel.sum() >= 30
            else (1.0, 0.0)
        )
    return Calibration(tuple(params), meta or {})


def fit_map(rows: dict, mask=None, meta: dict | None = None) -> Calibration:
    """The per-stage Platt map fitted on the ``mask`` rows (default all); a stage with fewer
    than 30 hints keeps the identity."""
    import numpy as np

    mask = np.ones(len(rows["y"]), dtype=bool) if mask is None else mask
    params = []
    for s in range(len(STAGE_NAMES)):
        sel = mask & (rows["stage"] == s)
        if sel.sum() < 30:
            params.append((1.0, 0.0))
            continue
        params.append(_platt(_logits(rows["raw"][sel]), rows["y"][sel]))
    platt = Calibration(tuple(params), meta or {})
    return Calibration(
        platt.params, platt.meta, _isotonic_knots(predict(platt, rows, mask), rows["y"][mask])
    )


def _isotonic_knots(p, y, bins: int = 20) -> tuple[tuple[float, float], ...]:
    """A monotone correction of the Platt values ``p``: equal-count bins of ``p`` and their win
    rates, pooled where they fall (pool adjacent violators). The per-stage Platt map has only a
    slope and an offset; the values of a mixed playout/learned-value search are S-shaped
    against the results (too timid near one half, too sure at the ends), which a line in
    logit space cannot follow."""
    import numpy as np

    if len(p) < 10 * bins:
        return ()
    order = np.argsort(p, kind="stable")
    blocks = [
        [float(p[part].mean()), float(y[part].mean()), len(part)]
        for part in np.array_split(order, bins)
    ]
    merged: list[list[float]] = []
    for block in blocks:
        merged.append(block)
        while len(merged) > 1 and merged[-2][1] >= merged[-1][1]:
            (x0, y0, n0), (x1, y1, n1) = merged[-2], merged[-1]
            n = n0 + n1
            merged[-2:] = [[(x0 * n0 + x1 * n1) / n, (y0 * n0 + y1 * n1) / n, n]]
    return tuple((x, min(max(y, 0.0), 1.0)) for x, y, _ in merged)


def predict(cal: Calibration, rows: dict, mask=None):
    """The map applied to the ``mask`` rows (vectorised; equal to ``cal(raw, stage)``)."""
    import numpy as np

    mask = np.ones(len(rows["y"]), dtype=bool) if mask is None else mask
    a = np.array([cal.params[s][0] for s in range(len(STAGE_NAMES))])[rows["stage"][mask]]
    b = np.array([cal.params[s][1] for s in range(len(STAGE_NAMES))])[rows["stage"][mask]]
    platt = 1.0 / (1.0 + np.exp(-np.clip(a * _logits(rows["raw"][mask]) + b, -30.0, 30.0)))
    if not cal.knots:
        return platt
    xs = np.array([0.0, *(x for x, _ in cal.knots), 1.0])
    ys = np.array([0.0, *(y for _, y in cal.knots), 1.0])
    return np.interp(platt, xs, ys)


def report(records: list[dict]) -> dict:
    """Held-out figures: fold 4 under the map fitted on folds 0-3, and every game cross-fitted
    (each fold under the map of the four others), calibrated against raw, overall and per
    stage."""
    import numpy as np

    rows = hint_rows(records)
    y, fold = rows["y"], rows["fold"]
    out: dict = {}
    held = fold == HOLDOUT_FOLD
    shipped = fit_map(rows, ~held)
    cross = np.zeros(len(y))
    for k in range(HOLDOUT_MOD):
        cross[fold == k] = predict(fit_map(rows, fold != k), rows, fold == k)
    for name, mask, p in (
        ("holdout", held, predict(shipped, rows, held)),
        ("crossfit", np.ones(len(y), dtype=bool), cross),
    ):
        if not mask.any():  # too few games for a held-out fold
            out[name] = None
            continue
        raw = rows["raw"][mask]
        out[name] = {
            "games": len({int(g) for g in rows["game"][mask]}),
            "calibrated": metrics(p, y[mask]),
            "raw": metrics(raw, y[mask]),
            "calibrated_table": calibration_table(p, y[mask]),
            "raw_table": calibration_table(raw, y[mask]),
            "stages": _per_stage(p, y[mask], rows["stage"][mask], raw),
        }
    out["exact_hints"] = sum(1 for r in records for h in r["hints"] if h[4])
    return out


def _per_stage(p, y, stages, raw) -> dict:
    out = {}
    for s, name in enumerate(STAGE_NAMES):
        sel = stages == s
        n = int(sel.sum())
        out[name] = {
            "positions": n,
            "brier": metrics(p[sel], y[sel])["brier"] if n else None,
            "brier_raw": metrics(raw[sel], y[sel])["brier"] if n else None,
        }
    return out


def format_report(rep: dict) -> str:
    lines = []
    for name in ("holdout", "crossfit"):
        r = rep[name]
        if r is None:
            lines.append(f"{name}: no games")
            continue
        lines.append(
            f"{name}: {r['games']} games, {r['calibrated']['positions']} hints; Brier calibrated"
            f" {r['calibrated']['brier']:.4f} (raw {r['raw']['brier']:.4f}), log loss"
            f" {r['calibrated']['log_loss']:.4f} (raw {r['raw']['log_loss']:.4f})"
        )
        lines.append("  bin       hints  predicted  won    | raw: hints  predicted  won")
        for c, w in zip(r["calibrated_table"], r["raw_table"], strict=True):
            left = (
                f"{c['positions']:6d}  {c['predicted']:9.3f}  {c['won']:.3f}"
                if c["positions"]
                else f"{0:6d}  {'-':>9}  {'-':>5}"
            )
            right = (
                f"{w['positions']:6d}  {w['predicted']:9.3f}  {w['won']:.3f}"
                if w["positions"]
                else f"{0:6d}  {'-':>9}  -"
            )
            lines.append(f"  {c['bin']}  {left}  |      {right}")
        per = ", ".join(
            f"{k} {v['brier']:.4f} (raw {v['brier_raw']:.4f}, {v['positions']})"
            for k, v in r["stages"].items()
            if v["brier"] is not None
        )
        lines.append(f"  Brier per stage (hints): {per}")
    lines.append(f"exact hints (not calibrated): {rep['exact_hints']}")
    return "\n".join(lines)


# --- larger budgets -------------------------------------------------------------------------------
def budget_jobs(records: list[dict], iterations: int, positions: int, seed: int) -> list[dict]:
    """Jobs hinting ``positions`` decisions at ``iterations``, drawn (seeded) from the MCTS hints
    of ``records`` of every fold: the map's self-play, whose results label the positions."""
    picks = [(record, ply) for record in records for ply, *_, exact in record["hints"] if not exact]
    random.Random(seed).shuffle(picks)
    return [
        {
            "game": record["index"],
            "ply": ply,
            "iterations": iterations,
            "seed": seed,
            "moves": record["moves"][:ply],
            "winner": record["winner"],
        }
        for record, ply in picks[:positions]
    ]


def hint_budget_position(job: dict) -> dict:
    """One position of :func:`budget_jobs` hinted afresh at the job's budget (raw values, no
    exact solve); ``exact_first`` says whether a hint at that budget would try the exact solve
    first (those are left out of the fit, as in the self-play)."""
    from duel.solvers.cmcts_player import exact_cards_for_nodes
    from duel.solvers.hint import EXACT_NODES_PER_ITERATION
    from duel.solvers.search import exact_feasible

    start = time.process_time()
    state = new_game()
    for move in job["moves"]:
        state = state.apply(move, check=False)
    iterations = job["iterations"]
    info = hint_analysis(
        state,
        iterations=iterations,
        top=1,
        seed=(job["seed"] * 7919 + job["game"]) * 1000 + job["ply"],
        exact_cards=0,
        calibrate=False,
    )
    a_result = result_label(job["winner"])
    cards = exact_cards_for_nodes(EXACT_NODES_PER_ITERATION * iterations)
    return {
        "game": job["game"],
        "ply": job["ply"],
        "iterations": iterations,
        "stage": hint_stage(state),
        "raw": round(info.extra["raw"][str(info.best_move)], 5),
        "y": a_result if state.to_move == 0 else 1.0 - a_result,
        "exact_first": exact_feasible(state, cards),
        "cpu": round(time.process_time() - start, 3),
    }


def budget_rows(results: list[dict], iterations: int) -> dict:
    """:func:`hint_rows`'s arrays for the MCTS hints at ``iterations`` (fold: game % 5)."""
    import numpy as np

    kept = [r for r in results if r["iterations"] == iterations and not r["exact_first"]]
    return {
        "raw": np.array([r["raw"] for r in kept], dtype=np.float64),
        "stage": np.array([r["stage"] for r in kept], dtype=np.int8),
        "y": np.array([r["y"] for r in kept], dtype=np.float64),
        "fold": np.array([r["game"] % HOLDOUT_MOD for r in kept], dtype=np.int8),
        "game": np.array([r["game"] for r in kept], dtype=np.int32),
    }


def fit_budget(cal: Calibration, rows: dict) -> tuple[tuple[float, float], dict]:
    """The budget layer ``(a, b)`` over the map ``cal`` fitted on ``rows`` (all of them), and
    its report: Brier and deciles of the raw values, of the map alone and of the map with the
    layer cross-fitted over the game folds (each fold under the layer fitted on the others)."""
    import numpy as np

    y, fold = rows["y"], rows["fold"]
    base = predict(cal, rows)
    z = _logits(base)
    cross = np.zeros(len(y))
    for k in range(HOLDOUT_MOD):
        test = fold == k
        if test.any() and (~test).sum() >= 30:
            a, b = _platt(z[~test], y[~test])
            cross[test] = 1.0 / (1.0 + np.exp(-np.clip(a * z[test] + b, -30.0, 30.0)))
        else:
            cross[test] = base[test]
    params = _platt(z, y)
    rep = {
        "hints": int(len(y)),
        "games": len({int(g) for g in rows["game"]}),
        "raw": metrics(rows["raw"], y),
        "map": metrics(base, y),
        "layer_crossfit": metrics(cross, y),
        "map_table": calibration_table(base, y),
        "layer_table": calibration_table(cross, y),
        "a": round(params[0], 6),
        "b": round(params[1], 6),
    }
    return params, rep


def _table_gap(table: list[dict]) -> float:
    return max((abs(r["won"] - r["predicted"]) for r in table if r["positions"]), default=0.0)


def format_budget_report(iterations: int, rep: dict) -> str:
    lines = [
        f"budget {iterations}: {rep['hints']} hints from {rep['games']} games; Brier raw"
        f" {rep['raw']['brier']:.4f}, map {rep['map']['brier']:.4f}, map + layer (cross-fitted)"
        f" {rep['layer_crossfit']['brier']:.4f}; layer a = {rep['a']:.3f}, b = {rep['b']:.3f}",
        "  bin       map: hints  shown  won    | map + layer: hints  shown  won",
    ]
    for m, c in zip(rep["map_table"], rep["layer_table"], strict=True):
        cells = []
        for r in (m, c):
            cells.append(
                f"{r['positions']:6d}  {r['predicted']:5.3f}  {r['won']:.3f}"
                if r["positions"]
                else f"{0:6d}  {'-':>5}  {'-':>5}"
            )
        lines.append(f"  {m['bin']}  {cells[0]}  |  {cells[1]}")
    lines.append(
        f"  largest decile gap: map {_table_gap(rep['map_table']):.3f}, map + layer"
        f" {_table_gap(rep['layer_table']):.3f}"
    )
    tests = [calibration_test(rep[k]) for k in ("map_table", "layer_table")]
    lines.append(
        "  calibration test (Hosmer-Lemeshow over the deciles, held out): map chi2"
        f" {tests[0][0]:.2f} on {tests[0][1]} bins, p = {tests[0][2]:.2f}; map + layer chi2"
        f" {tests[1][0]:.2f} on {tests[1][1]} bins, p = {tests[1][2]:.2f}"
    )
    lines.append(
        "  the layer is kept"
        if rep["kept"]
        else "  the layer does not beat the map alone cross-fitted: the map holds (identity)"
    )
    return "\n".join(lines)


def fit_budgets_and_write(paths: list[str], map_path: str | Path, quiet: bool = False) -> dict:
    """Fit a budget layer for every budget in the results files ``paths`` over the map at
    ``map_path`` and write the map back; the reports by budget. The map's layers at those
    budgets are replaced, its layers at other budgets kept (with their fit records), so a new
    budget can be added without the results files of the earlier ones."""
    from dataclasses import replace

    cal = Calibration.load(map_path)
    results = _read(paths)
    reports: dict[str, dict] = {}
    layers = []
    for iterations in sorted({r["iterations"] for r in results}):
        rows = budget_rows(results, iterations)
        if len(rows["y"]) < 100:
            raise SystemExit(f"error: {len(rows['y'])} hints at {iterations}: too few to fit")
        (a, b), rep = fit_budget(cal, rows)
        rep["cpu_seconds"] = round(
            sum(r["cpu"] for r in results if r["iterations"] == iterations), 1
        )
        # A layer that does not beat the map alone on the held-out folds is not worth its
        # noise: the map then holds at this budget, and the identity is written down for it.
        rep["kept"] = rep["layer_crossfit"]["brier"] < rep["map"]["brier"]
        if not rep["kept"]:
            a, b = 1.0, 0.0
        reports[str(iterations)] = rep
        layers.append((iterations, a, b))
        if not quiet:
            print(format_budget_report(iterations, rep))
    fits = {
        n: {
            k: rep[k]
            if k in ("hints", "games", "cpu_seconds", "kept")
            else round(rep[k]["brier"], 5)
            for k in ("hints", "games", "cpu_seconds", "kept", "raw", "map", "layer_crossfit")
        }
        for n, rep in reports.items()
    }
    refitted = {n for n, _, _ in layers}
    kept_layers = [row for row in cal.budgets if row[0] not in refitted]
    earlier_fits = {
        n: fit for n, fit in cal.meta.get("budget_fits", {}).items() if int(n) not in refitted
    }
    meta = {
        **cal.meta,
        "budget_fits": dict(
            sorted({**earlier_fits, **fits}.items(), key=lambda item: int(item[0]))
        ),
    }
    budgets = tuple(sorted([*kept_layers, *layers]))
    replace(cal, meta=meta, budgets=budgets).save(map_path)
    return reports


# --- command line ---------------------------------------------------------------------------------
def _default_out() -> Path:
    from duel import data

    return Path(data.__file__).parent / CALIBRATION_PATH


def _read(paths: list[str]) -> list[dict]:
    from duel.solvers.train import read_records

    return read_records(paths)


def cmd_generate(args) -> None:
    from duel.solvers.train import generate_to_file

    generate_to_file(
        args.out,
        lambda partial: generate(
            games=args.games,
            seed=args.seed,
            iterations=args.iterations,
            workers=args.workers,
            resume_file=partial,
        ),
        f"by the hint engine at {args.iterations} iterations",
        args.workers,
    )


def cmd_budget(args) -> None:
    from duel.solvers.batch import run_jobs
    from duel.solvers.train import generate_to_file

    jobs = budget_jobs(_read([args.games]), args.iterations, args.positions, args.seed)
    generate_to_file(
        args.out,
        lambda partial: list(
            run_jobs(
                hint_budget_position, jobs, workers=args.workers, out=partial, label="positions"
            )
        ),
        f"hinted at {args.iterations} iterations",
        args.workers,
        what="positions",
    )


def cmd_fit_budgets(args) -> None:
    reports = fit_budgets_and_write(args.results, args.map or _default_out())
    if args.report:
        Path(args.report).write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")


def write_sample(records: list[dict], path: str | Path) -> None:
    """The held-out games' MCTS hints as ``{"games": [[[stage, raw, result], ...], ...]}``
    (the mover's view): the fixed sample on which the tests check the shipped map."""
    games = []
    for record in records:
        if record["index"] % HOLDOUT_MOD != HOLDOUT_FOLD:
            continue
        a_result = result_label(record["winner"])
        games.append(
            [
                [st, value, a_result if mover == 0 else 1.0 - a_result]
                for _ply, st, mover, value, exact in record["hints"]
                if not exact
            ]
        )
    text = json.dumps({"games": games}, separators=(",", ":"))
    Path(path).write_text(text.replace("]],[[", "]],\n[[") + "\n", encoding="utf-8")


def _brier(part: dict | None, which: str) -> float | None:
    return None if part is None else round(part[which]["brier"], 5)


def map_pays(rep: dict) -> bool:
    """Whether the fitted map beats the raw values where it was not fitted: its cross-fitted
    Brier score is lower (the rule of the budget layers, for the map itself). Positions of one
    game share its result, so a map of eight numbers and its knots can still fit the games'
    luck; a player whose raw values are calibrated already is better served by the identity.
    With too few games for a cross-fit, the map is kept."""
    cross = rep.get("crossfit")
    return cross is None or cross["calibrated"]["brier"] < cross["raw"]["brier"]


def fit_and_write(
    paths: list[str], out: str | Path | None, quiet: bool = False, sample: str | None = None
) -> dict:
    """Fit the map on folds 0-3 of the games in ``paths``, report, write it to ``out`` (and
    the held-out hints to ``sample``)."""
    from duel.solvers.players import CMctsConfig

    records = _read(paths)
    if not records:
        raise SystemExit("error: no games to fit on")
    budgets = {r["iterations"] for r in records}
    if len(budgets) != 1:
        raise SystemExit(f"error: the games mix budgets {sorted(budgets)}: fit one at a time")
    rows = hint_rows(records)
    rep = report(records)
    meta = {
        "iterations": budgets.pop(),
        "trees": TREES,
        "games": len(records),
        "fit_games": int(sum(1 for r in records if r["index"] % HOLDOUT_MOD != HOLDOUT_FOLD)),
        "hints": int(len(rows["y"])),
        "selfplay_cpu_seconds": round(sum(r["cpu"] for r in records), 1),
        "brier": _brier(rep["holdout"], "calibrated"),
        "brier_raw": _brier(rep["holdout"], "raw"),
        "brier_crossfit": _brier(rep["crossfit"], "calibrated"),
        "cmcts_config": asdict(CMctsConfig()),
    }
    meta["map_kept"] = map_pays(rep)
    if meta["map_kept"]:
        cal = fit_map(rows, rows["fold"] != HOLDOUT_FOLD, meta)
    else:  # the raw values are the better probabilities: the identity, written down
        meta["brier"] = meta["brier_raw"]
        meta["brier_crossfit"] = _brier(rep["crossfit"], "raw")
        cal = Calibration(((1.0, 0.0),) * len(STAGE_NAMES), meta)
    if out is not None:
        cal.save(out)
    if sample is not None:
        write_sample(records, sample)
    if not quiet:
        print(format_report(rep))
        if not meta["map_kept"]:
            print("the map does not beat the raw values cross-fitted: the identity is written")
        print(json.dumps(cal.to_json()["stages"]))
    rep["meta"] = meta
    return rep


def fit_ages_and_write(
    paths: list[str], out: str | Path, stages: tuple[int, ...], sample: str | None = None
) -> Calibration:
    """The per-Age Platt map (:func:`fit_age_map`, ``stages`` mapped, the identity elsewhere)
    fitted on every game of ``paths`` (and the held-out ``sample``'s), written to ``out`` over
    the map there: its budget layers and the settings it records are kept, its knots dropped.
    Whether the map pays is judged apart, cross-fitted per Age against the raw values
    (``benchmarks/hint_age_calibration.py``): this writes what it is told to."""
    from dataclasses import replace

    import numpy as np

    records = read_games(paths)
    budgets = {r["iterations"] for r in records}
    if budgets != {MAP_ITERATIONS}:
        raise SystemExit(f"error: the games' budgets {sorted(budgets)} are not the map's")
    rows = hint_rows(records, cards=True)
    # the benchmark's folds: a record's seed + index, a sample game's own number (mod 5)
    folds = np.array([records[g]["seed"] + records[g]["index"] for g in rows["game"]], dtype=int)
    games = len(records)
    if sample is not None:
        extra = sample_rows(sample, games)
        rows = {k: np.concatenate([rows[k], extra[k]]) for k in rows}
        folds = np.concatenate([folds, extra["game"] - games])
        games += len(set(extra["game"].tolist()))
    folds = folds % HOLDOUT_MOD
    fitted = fit_age_map(rows, stages=stages)
    cross = np.array(rows["raw"], dtype=np.float64)
    for k in range(HOLDOUT_MOD):
        test = folds == k
        cross[test] = predict(fit_age_map(rows, ~test, stages), rows, test)
    old = Calibration.load(out)
    # The figures of the earlier fit (its games, hints, Brier scores) go: the map's own record
    # is this fit's; its budget layers' records and its player's settings stay.
    kept = ("iterations", "trees", "cmcts_config", "budget_fits")
    meta = {
        **{k: v for k, v in old.meta.items() if k in kept},
        "games": games,
        "hints": int(len(rows["y"])),
        "selfplay_cpu_seconds": round(sum(r["cpu"] for r in records), 1),
        "brier": round(metrics(predict(fitted, rows), rows["y"])["brier"], 5),
        "brier_raw": round(metrics(rows["raw"], rows["y"])["brier"], 5),
        "brier_crossfit": round(metrics(cross, rows["y"])["brier"], 5),
        "age_fit": {
            "stages": [STAGE_NAMES[s] for s in stages],
            "hints": {STAGE_NAMES[s]: int((rows["stage"] == s).sum()) for s in stages},
            "brier_crossfit": {
                STAGE_NAMES[s]: round(
                    metrics(cross[rows["stage"] == s], rows["y"][rows["stage"] == s])["brier"], 5
                )
                for s in stages
            },
            "brier_raw": {
                STAGE_NAMES[s]: round(
                    metrics(rows["raw"][rows["stage"] == s], rows["y"][rows["stage"] == s])[
                        "brier"
                    ],
                    5,
                )
                for s in stages
            },
            "files": [Path(p).name for p in paths] + ([Path(sample).name] if sample else []),
        },
        "map_kept": True,
    }
    cal = replace(old, params=fitted.params, meta=meta, knots=())
    cal.save(out)
    return cal


def cmd_fit_ages(args) -> None:
    cal = fit_ages_and_write(
        args.games, args.out or _default_out(), tuple(args.stages), args.with_sample
    )
    print(json.dumps(cal.to_json()["stages"]))


def cmd_fit(args) -> None:
    rep = fit_and_write(args.games, args.out or _default_out(), sample=args.sample)
    if args.report:
        Path(args.report).write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")


#: The shipped map: games, seed and budget of its self-play.
RECIPE_GAMES, RECIPE_SEED = 250, 15
#: The recipe's budget layer (iterations; 120,000 is about 1.3 s of a hint on an idle core) and
#: the positions hinted afresh for it. The shipped map's layers at 200,000 (2 s, 1,000 positions,
#: about 35 min of CPU) and 900,000 (10 s, 400 positions, about 60 min) are added after it by
#: `budget` and `fit-budgets` (docs/strength.md has the commands).
RECIPE_BUDGETS, RECIPE_BUDGET_POSITIONS = "120000", 500


def cmd_recipe(args) -> None:
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"hints_{MAP_ITERATIONS}.jsonl"
    if not path.exists():
        cmd_generate(
            argparse.Namespace(
                games=args.games,
                seed=RECIPE_SEED,
                iterations=MAP_ITERATIONS,
                workers=args.workers,
                out=str(path),
            )
        )
    out = args.out or _default_out()
    rep = fit_and_write([str(path)], out, sample=args.sample)
    (folder / "report.json").write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    budget_files = []
    for iterations in [int(n) for n in args.budgets.split(",") if n.strip()]:
        budget_path = folder / f"budget_{iterations}.jsonl"
        if not budget_path.exists():
            cmd_budget(
                argparse.Namespace(
                    games=str(path),
                    iterations=iterations,
                    positions=args.budget_positions,
                    seed=RECIPE_SEED,
                    workers=args.workers,
                    out=str(budget_path),
                )
            )
        budget_files.append(str(budget_path))
    if budget_files:
        reports = fit_budgets_and_write(budget_files, out)
        text = json.dumps(reports, indent=1) + "\n"
        (folder / "budget_report.json").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m duel.solvers.hint_calibration", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="self-play by the hint engine to a JSON-lines file")
    g.add_argument("--games", type=int, required=True)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--iterations", type=int, default=MAP_ITERATIONS)
    g.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    g.add_argument("--out", required=True)
    g.set_defaults(func=cmd_generate)
    f = sub.add_parser("fit", help="fit and validate the map, write it")
    f.add_argument("games", nargs="+")
    f.add_argument("--out", default=None, help="map file (default: the package's)")
    f.add_argument("--report", default=None, help="write the validation report (JSON) here")
    f.add_argument("--sample", default=None, help="write the held-out hints (JSON) here")
    f.set_defaults(func=cmd_fit)
    fa = sub.add_parser("fit-ages", help="write a Platt map per Age fitted on every game")
    fa.add_argument("games", nargs="+", help="generate's files (a .partial one too)")
    fa.add_argument("--stages", type=int, nargs="+", default=[1, 2], help="stages mapped")
    fa.add_argument("--with-sample", default=None, help="a held-out sample's games too")
    fa.add_argument("--out", default=None, help="map file (default: the package's)")
    fa.set_defaults(func=cmd_fit_ages)
    b = sub.add_parser("budget", help="hint positions of a games file afresh at a larger budget")
    b.add_argument("games", help="a games file of `generate` (its results label the positions)")
    b.add_argument("--iterations", type=int, required=True)
    b.add_argument("--positions", type=int, default=1000)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    b.add_argument("--out", required=True)
    b.set_defaults(func=cmd_budget)
    fb = sub.add_parser("fit-budgets", help="fit the map's budget layers on `budget` results")
    fb.add_argument("results", nargs="+")
    fb.add_argument("--map", default=None, help="map file to update (default: the package's)")
    fb.add_argument("--report", default=None, help="write the reports (JSON) here")
    fb.set_defaults(func=cmd_fit_budgets)
    r = sub.add_parser("recipe", help="the whole pipeline of the shipped map")
    r.add_argument("--dir", default="runs/hints")
    r.add_argument("--games", type=int, default=RECIPE_GAMES)
    r.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    r.add_argument("--out", default=None)
    r.add_argument("--sample", default=None, help="write the held-out hints (JSON) here")
    r.add_argument("--budgets", default=RECIPE_BUDGETS, help="budget layers to fit ('' for none)")
    r.add_argument("--budget-positions", type=int, default=RECIPE_BUDGET_POSITIONS)
    r.set_defaults(func=cmd_recipe)
    args = parser.parse_args(argv)
    if args.command == "generate" and (args.games < 1 or args.iterations < 1):
        parser.error("--games and --iterations must be at least 1")
    if args.command == "budget" and (args.positions < 1 or args.iterations < 1):
        parser.error("--positions and --iterations must be at least 1")
    try:
        args.func(args)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    except OSError as exc:  # a file named on the command line that is missing or unreadable
        raise SystemExit(f"error: {exc.filename}: {exc.strerror}") from None


if __name__ == "__main__":
    main(sys.argv[1:])
