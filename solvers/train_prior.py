"""The learned prior fitted to the search's visits (expert iteration's policy target).

``cmcts``'s prior (``prior=learned``) weighs a root or tree move by the learned value of the
position it leads to: ``weight = (v / (1 - v)) ** (1 / T)`` for the mover, a softmax of the
value's logits at temperature ``T``. Fitted to game results, the value predicts who wins a
position; it was never asked to rank the moves of one position, which is all a prior does. Here
the same linear model (:class:`~duel.solvers.value.ValueModel`, so the compiled search evaluates
it unchanged) is fitted to that job: the target of each searched decision is the share of the
teacher's root visits each move got (``visits`` in the game records of
``train generate --teacher cmcts``), the loss the cross-entropy of the prior's softmax against
it, started from a value model and held near it by an L2 penalty on the difference.

    python -m duel.solvers.train fit-prior runs/games.jsonl --start cmcts --out prior.json
    CMCTS=prior_value=prior.json ...   # cmcts with that prior (CMctsConfig.prior_value)

Held-out games (index % 5 == 4) are not fitted; the
report gives their cross-entropy and how often the prior's favourite is the search's most
visited move, for the start and the fit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from duel.solvers.features import N_FEATURES, STAGES, features, stage
from duel.solvers.players import CMctsConfig
from duel.solvers.value import ValueModel, named_model
from duel.state import State, new_game

#: The prior's temperature the fit assumes: the ``cmcts`` player's default.
PRIOR_TEMPERATURE = CMctsConfig.prior_temperature
#: The penalty on the change from the starting value that the shipped prior was fitted with
#: (1e-4 fitted the held-out visits a little worse, 1 hardly moved the weights).
DEFAULT_L2 = 1e-5


def build_prior_dataset(records: list[dict], folds: int = 5):
    """One row per move of every searched decision: features ``X`` of the position after the
    move, ``stage``, ``taper``, ``sign`` (+1 where A moves: the value is A's), ``share`` (the
    move's share of the root's visits), ``group`` (the decision, rows contiguous) and ``fold``
    (the game's index % ``folds``) and ``game`` (its index).

    >>> build_prior_dataset([{"moves": [], "index": 0, "visits": []}])["X"].shape == (0, N_FEATURES)
    True
    """
    import numpy as np

    X, stages, tapers, signs, shares, groups, fold, game = ([] for _ in range(8))
    group = 0
    for record in records:
        searched = {int(i): rows for i, rows in record.get("visits", ())}
        state: State = new_game()
        for i, move in enumerate(record["moves"]):
            rows = searched.get(i)
            if rows:
                total = sum(n for _, n in rows)
                sign = 1.0 if state.to_move == 0 else -1.0
                for m, n in rows:
                    after = state.apply(m, check=False)
                    s, num, den = stage(after.fields)
                    X.append(features(after))
                    stages.append(s)
                    tapers.append(num / den)
                    signs.append(sign)
                    shares.append(n / total)
                    groups.append(group)
                    fold.append(record["index"] % folds)
                    game.append(record["index"])
                group += 1
            state = state.apply(move, check=False)
    return {
        "X": np.array(X, dtype=np.float64).reshape(-1, N_FEATURES),
        "stage": np.array(stages, dtype=np.int64),
        "taper": np.array(tapers, dtype=np.float64),
        "sign": np.array(signs, dtype=np.float64),
        "share": np.array(shares, dtype=np.float64),
        "group": np.array(groups, dtype=np.int64),
        "fold": np.array(fold, dtype=np.int8),
        "game": np.array(game, dtype=np.int64),
    }


def _by_stage(data, rows):
    """The rows' features split by stage, once: ``[(positions, X, taper)]`` per stage, so that
    each epoch is two matrix-vector products a stage."""
    import numpy as np

    where = np.flatnonzero(rows)
    st = data["stage"][where]
    parts = []
    for s in range(STAGES):
        pos = np.flatnonzero(st == s)
        parts.append((pos, data["X"][where[pos]], data["taper"][where[pos]]))
    return parts


def _logits(W0, W1, parts, n):
    """The model's logits (A's view) of the ``n`` rows split by :func:`_by_stage`."""
    import numpy as np

    z = np.zeros(n)
    for s, (pos, X, t) in enumerate(parts):
        z[pos] = (X @ W0[s]) * (1.0 - t) + (X @ W1[s]) * t
    return z


def _softmax_by_group(x, group):
    """Softmax of ``x`` within each run of equal ``group`` values (contiguous)."""
    import numpy as np

    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    peak = np.maximum.reduceat(x, starts)
    e = np.exp(x - np.repeat(peak, np.diff(np.r_[starts, len(x)])))
    sums = np.add.reduceat(e, starts)
    return e / np.repeat(sums, np.diff(np.r_[starts, len(x)])), starts


def prior_metrics(model: ValueModel, data: dict, rows) -> dict:
    """Cross-entropy of the model's prior against the visit shares (per decision) and the share
    of decisions whose prior favourite is the most visited move, on ``rows``."""
    import numpy as np

    W0, W1 = np.array(model.w0), np.array(model.w1)
    group, share = data["group"][rows], data["share"][rows]
    z = _logits(W0, W1, _by_stage(data, rows), len(share))
    x = data["sign"][rows] * z / PRIOR_TEMPERATURE
    p, starts = _softmax_by_group(x, group)
    ends = np.r_[starts[1:], len(x)]
    ce = -np.add.reduceat(share * np.log(np.maximum(p, 1e-12)), starts)
    top = [
        int(np.argmax(p[a:b]) == np.argmax(share[a:b])) for a, b in zip(starts, ends, strict=True)
    ]
    return {
        "decisions": int(len(starts)),
        "cross_entropy": float(ce.mean()) if len(ce) else 0.0,
        "top1": float(np.mean(top)) if top else 0.0,
    }


def adam_step(params: dict, grads: dict, moments: dict, step: int, rate: float) -> None:
    """One Adam update (beta 0.9 and 0.999, eps 1e-8) of the numpy arrays ``params`` in place,
    from ``grads`` and the running ``moments`` (a pair of arrays per key, updated in place);
    ``step`` counts from 1."""
    import numpy as np

    for k, grad in grads.items():
        m, v2 = moments[k]
        m *= 0.9
        m += 0.1 * grad
        v2 *= 0.999
        v2 += 0.001 * grad * grad
        params[k] -= rate * (m / (1.0 - 0.9**step)) / (np.sqrt(v2 / (1.0 - 0.999**step)) + 1e-8)


def fit_prior(
    data: dict,
    start: ValueModel,
    l2: float,
    rows,
    epochs: int = 300,
    rate: float = 0.01,
    log=None,
) -> ValueModel:
    """Weights minimising the mean cross-entropy of the prior against the visit shares on
    ``rows`` plus ``l2 / 2 * |w - w_start|^2`` (full-batch Adam from ``start``'s weights)."""
    import numpy as np

    W0s, W1s = np.array(start.w0, dtype=np.float64), np.array(start.w1, dtype=np.float64)
    W0, W1 = W0s.copy(), W1s.copy()
    parts = _by_stage(data, rows)
    sign, group, share = data["sign"][rows], data["group"][rows], data["share"][rows]
    decisions = max(1, len(np.unique(group)))
    moments = {k: (np.zeros_like(W0), np.zeros_like(W0)) for k in ("w0", "w1")}
    for epoch in range(1, epochs + 1):
        z = _logits(W0, W1, parts, len(share))
        p, _ = _softmax_by_group(sign * z / PRIOR_TEMPERATURE, group)
        dz = sign * (p - share) / PRIOR_TEMPERATURE / decisions  # d(mean CE) / dz
        g0, g1 = l2 * (W0 - W0s), l2 * (W1 - W1s)
        for s, (pos, X, t) in enumerate(parts):
            g0[s] += X.T @ (dz[pos] * (1.0 - t))
            g1[s] += X.T @ (dz[pos] * t)
        adam_step({"w0": W0, "w1": W1}, {"w0": g0, "w1": g1}, moments, epoch, rate)
        if log and epoch % 50 == 0:
            ce = -(share * np.log(np.maximum(p, 1e-12))).sum() / decisions
            log(f"  epoch {epoch}: training cross-entropy {ce:.4f}")
    return ValueModel(W0.tolist(), W1.tolist())


def train_prior(
    records: list[dict],
    start: str,
    l2: float,
    out: str | Path | None,
    *,
    folds: int,
    holdout_fold: int,
    epochs: int = 300,
    quiet: bool = False,
) -> dict:
    """Fit the prior on the game ``records`` (those with ``index % folds == holdout_fold``
    held out) from the value ``start`` (``cmcts``, ``search``, ``cmcts-prior`` or a weights
    file), report, write the weights. (``python -m duel.solvers.train fit-prior`` reads the
    records and gives the value's folds.)"""
    begin = time.process_time()
    data = build_prior_dataset(records, folds)
    if not len(data["share"]):
        raise SystemExit("error: no searched decisions with visits in these games")
    start_model = named_model(start)
    train_rows = data["fold"] != holdout_fold
    held = data["fold"] == holdout_fold
    log = None if quiet else print
    model = fit_prior(data, start_model, l2, train_rows, epochs=epochs, log=log)
    report = {
        "start": prior_metrics(start_model, data, held),
        "fitted": prior_metrics(model, data, held),
    }
    model.meta = {
        "kind": "prior: fitted to the search's root visits (python -m duel.solvers.train "
        "fit-prior)",
        "start": start,
        "games": len(records),
        "rows": int(len(data["share"])),
        "l2": l2,
        "epochs": epochs,
        "temperature": PRIOR_TEMPERATURE,
        "holdout": report,
        "fit_cpu_seconds": round(time.process_time() - begin, 1),
    }
    if out is not None:
        model.save(out)
    if not quiet:
        print(json.dumps(model.meta, indent=1))
    return report
