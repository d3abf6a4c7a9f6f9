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

``--hidden`` adds the value's hidden layer of tanh units to the fit (:func:`fit_prior_hidden`;
the compiled search evaluates it too). Held-out games (index % 5 == 4) are not fitted; the
report gives their cross-entropy and how often the prior's favourite is the search's most
visited move, for the start and the fit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from duel.solvers.features import N_FEATURES, STAGES, features, stage
from duel.solvers.players import CMctsConfig
from duel.solvers.value import HIDDEN_UNITS, ValueModel, named_model
from duel.state import State, new_game

if TYPE_CHECKING:  # numpy is imported where a fit runs: playing never needs it
    import numpy as np

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
    if model.hidden is not None:
        h = np.tanh(data["X"][rows] @ np.array(model.hidden["u"]).T)
        z += (h * np.array(model.hidden["v"])[data["stage"][rows]]).sum(axis=1)
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


def layered_grads(
    params: dict,
    stage: np.ndarray,
    taper: np.ndarray,
    x: np.ndarray,
    hidden: np.ndarray,
    dz: np.ndarray,
) -> dict:
    """The gradients of a tapered linear model with a tanh layer (``hidden`` = its activations
    on the standardised features ``x``) from ``dz``, the loss's derivative by each row's logit:
    the one backward pass the layered prior and the layered value share (no L2 terms)."""
    import numpy as np

    grads = {k: np.zeros_like(params[k]) for k in ("w0", "w1", "v")}
    np.add.at(grads["w0"], stage, (dz * (1.0 - taper))[:, None] * x)
    np.add.at(grads["w1"], stage, (dz * taper)[:, None] * x)
    np.add.at(grads["v"], stage, dz[:, None] * hidden)
    back = (dz[:, None] * params["v"][stage]) * (1.0 - hidden * hidden)
    grads["u"] = back.T @ x
    return grads


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


def fit_prior_hidden(
    data: dict,
    start: ValueModel,
    l2: float,
    rows,
    validation,
    *,
    hidden_l2: float = 1e-4,
    epochs: int = 30,
    batch: int = 256,
    rate: float = 1e-3,
    seed: int = 0,
    log=None,
) -> ValueModel:
    """``start``'s linear model plus a hidden layer of ``HIDDEN_UNITS`` tanh units (the value's
    layer, :class:`~duel.solvers.value.ValueModel`, so the compiled search evaluates it), every
    weight fitted jointly by mini-batch Adam on the mean cross-entropy against the visit shares
    of the decisions in ``rows`` (``batch`` decisions a step), plus ``l2 / 2`` times the squared
    change of the linear weights from ``start``'s and ``hidden_l2 / 2`` times the layer's squared
    weights (on standardised features). The layer starts with its output at 0, so the fit starts
    from ``start``'s prior. The epoch with the least cross-entropy on the decisions in
    ``validation`` is kept (stopping after 3 epochs without a gain)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    X = data["X"]
    scale = X[rows].std(axis=0)
    scale[scale < 1e-9] = 1.0
    Xs = X / scale  # the layer learns on standardised features; its raw weights are U / scale
    st, taper, sign, share = data["stage"], data["taper"], data["sign"], data["share"]
    group = data["group"]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[starts[1:], len(group)]
    w0s, w1s = np.array(start.w0) * scale, np.array(start.w1) * scale
    params = {
        "w0": w0s.copy(),
        "w1": w1s.copy(),
        "u": rng.normal(0.0, 1.0 / np.sqrt(X.shape[1]), size=(HIDDEN_UNITS, X.shape[1])),
        "v": np.zeros((STAGES, HIDDEN_UNITS)),
    }

    def rows_of(chosen):
        """The rows of the decisions ``chosen`` and each row's decision within them."""
        lengths = ends[chosen] - starts[chosen]
        offsets = np.repeat(starts[chosen] - np.r_[0, np.cumsum(lengths)[:-1]], lengths)
        return np.arange(lengths.sum()) + offsets, np.repeat(np.arange(len(chosen)), lengths)

    def forward(p, idx):
        xs, s, t = Xs[idx], st[idx], taper[idx]
        h = np.tanh(xs @ p["u"].T)
        lin0 = np.einsum("ij,ij->i", xs, p["w0"][s])
        lin1 = np.einsum("ij,ij->i", xs, p["w1"][s])
        z = lin0 + (lin1 - lin0) * t + np.einsum("ij,ij->i", h, p["v"][s])
        return z, h, xs, s, t

    def cross_entropy(p, chosen) -> float:
        total = 0.0
        for a in range(0, len(chosen), 4096):
            idx, local = rows_of(chosen[a : a + 4096])
            q, _ = _softmax_by_group(sign[idx] * forward(p, idx)[0] / PRIOR_TEMPERATURE, local)
            total -= float((share[idx] * np.log(np.maximum(q, 1e-12))).sum())
        return total / max(1, len(chosen))

    train, held = np.flatnonzero(rows[starts]), np.flatnonzero(validation[starts])
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0
    best = (cross_entropy(params, held), {k: v.copy() for k, v in params.items()}, 0)
    if log:
        log(f"  epoch 0: validation cross-entropy {best[0]:.4f} (the start's prior)")
    for epoch in range(1, epochs + 1):
        rng.shuffle(train)
        for a in range(0, len(train), batch):
            chosen = train[a : a + batch]
            idx, local = rows_of(chosen)
            z, h, xs, s, t = forward(params, idx)
            q, _ = _softmax_by_group(sign[idx] * z / PRIOR_TEMPERATURE, local)
            dz = sign[idx] * (q - share[idx]) / PRIOR_TEMPERATURE / len(chosen)
            grads = layered_grads(params, s, t, xs, h, dz)
            grads["w0"] += l2 * (params["w0"] - w0s) / scale**2
            grads["w1"] += l2 * (params["w1"] - w1s) / scale**2
            grads["v"] += hidden_l2 * params["v"]
            grads["u"] += hidden_l2 * params["u"]
            step += 1
            adam_step(params, grads, moments, step, rate)
        loss = cross_entropy(params, held)
        if log:
            log(f"  epoch {epoch}: validation cross-entropy {loss:.4f}")
        if loss < best[0]:
            best = (loss, {k: v.copy() for k, v in params.items()}, epoch)
        elif epoch - best[2] >= 3:
            break
    params = best[1]
    model = ValueModel(
        (params["w0"] / scale).tolist(),
        (params["w1"] / scale).tolist(),
        hidden={"u": (params["u"] / scale).tolist(), "v": params["v"].tolist()},
    )
    model.meta = {"hidden_epochs": best[2], "hidden_l2": hidden_l2, "validation_ce": best[0]}
    return model


def train_prior(
    records: list[dict],
    start: str,
    l2: float,
    out: str | Path | None,
    *,
    folds: int,
    holdout_fold: int,
    epochs: int = 300,
    hidden: bool = False,
    quiet: bool = False,
) -> dict:
    """Fit the prior on the game ``records`` (those with ``index % folds == holdout_fold``
    held out) from the value ``start`` (``cmcts``, ``search``, ``cmcts-prior`` or a weights
    file), report, write the weights. With ``hidden``, :func:`fit_prior_hidden` adds the hidden
    layer, stopped early on the games with ``index % (folds * folds) == holdout_fold - 1``
    (which it does not fit). (``python -m duel.solvers.train fit-prior`` reads the records and
    gives the value's folds.)"""
    begin = time.process_time()
    data = build_prior_dataset(records, folds)
    if not len(data["share"]):
        raise SystemExit("error: no searched decisions with visits in these games")
    start_model = named_model(start)
    if start_model.hidden is not None:
        raise SystemExit("error: the prior is fitted from a linear value (no hidden layer)")
    train_rows = data["fold"] != holdout_fold
    held = data["fold"] == holdout_fold
    log = None if quiet else print
    extra: dict = {}
    if hidden:
        validation = data["game"] % (folds * folds) == (holdout_fold - 1) % folds
        model = fit_prior_hidden(
            data, start_model, l2, train_rows & ~validation, validation, epochs=epochs, log=log
        )
        extra = model.meta
    else:
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
        **extra,
        "fit_cpu_seconds": round(time.process_time() - begin, 1),
    }
    if out is not None:
        model.save(out)
    if not quiet:
        print(json.dumps(model.meta, indent=1))
    return report
