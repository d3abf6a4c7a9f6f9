"""Train the expansion search's learned value by expert iteration (issue 63).

    python -m duel.solvers.xtrain generate --games 600 --iterations 300 --out build/x0.npz
    python -m duel.solvers.xtrain fit build/x0.npz [build/x1.npz ...] --out data/models/xvalue.json

``generate`` plays ``XCMctsPlayer`` against itself (the model in ``data/models/xvalue.json`` as
it stands, or random playouts to the end when ``--no-value``), over Pantheon, Agora and both in
turn, and keeps every decision's referee state with the game's result. ``fit`` turns each
position into the C side's features (``duel.solvers._xmcts.features`` over the view of player
A, so a hidden card never reaches the model), fits the logistic model of
``solvers/csrc/xvalue.h`` (one logistic regression per Age, L2-regularised Newton steps) on
games whose index is not 0 mod 5 (each Age's L2 strength chosen on those 1 mod 5 among them),
reports the held-out log-loss and Brier score on the games 0 mod 5 against
the constant and a points-and-pawn baseline, and writes the weights as JSON. Each round of
expert iteration generates games with the previous round's model and fits on all the games.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

import numpy as np

from duel import xcore
from duel.solvers.xcmcts import MODEL_PATH, XCMctsPlayer, xmcts

SETS: tuple[tuple[str, ...], ...] = (("pantheon",), ("agora",), ("agora", "pantheon"))


def play_game(expansions: tuple[str, ...], seed: int, iterations: int, value: bool):
    """One self-play game: (referee state bytes at each decision, winner, victory)."""
    rng = random.Random(seed)
    state = xcore.new_game(expansions)
    knobs = {} if value else {"value_mix": 0.0, "playout_plies": -1.0}
    players = [XCMctsPlayer(iterations=iterations, seed=seed * 2 + p, **knobs) for p in (0, 1)]
    positions: list[bytes] = []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng), check=False)
            continue
        positions.append(state.core.to_bytes())
        state = state.apply(players[state.to_move].choose(state), check=False)
    return positions, state.winner, state.core.victory if hasattr(state.core, "victory") else 0


def generate(games: int, iterations: int, out: Path, value: bool, first_seed: int) -> None:
    rows: list[bytes] = []
    labels: list[float] = []
    game_ids: list[int] = []
    sets: list[int] = []
    start = time.process_time()
    wins = [0, 0, 0]
    for g in range(games):
        which = g % len(SETS)
        positions, winner, _ = play_game(SETS[which], first_seed + g, iterations, value)
        label = 1.0 if winner == 0 else 0.0 if winner == 1 else 0.5
        wins[winner if winner in (0, 1) else 2] += 1
        rows += positions
        labels += [label] * len(positions)
        game_ids += [first_seed + g] * len(positions)
        sets += [which] * len(positions)
        if (g + 1) % 20 == 0 or g + 1 == games:
            np.savez_compressed(
                out,
                states=np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), -1),
                labels=np.array(labels),
                games=np.array(game_ids),
                sets=np.array(sets),
            )
            print(
                f"{g + 1} games, {len(rows)} positions, A/B/shared {wins},"
                f" {time.process_time() - start:.0f} CPU s",
                flush=True,
            )


def _features(states: np.ndarray, sets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(features, stage) of each position, over player A's view."""
    stages, rows = [], []
    for raw, which in zip(states, sets, strict=True):
        c = xcore.CXState(xcore.xcore.from_bytes(raw.tobytes()), SETS[int(which)])
        stage, f = xmcts.features(c.view(0).core.to_bytes())
        stages.append(stage)
        rows.append(f)
    return np.array(rows, dtype=float), np.array(stages)


def _loss(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    logloss = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    return logloss, float(np.mean((p - y) ** 2))


def _fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 25) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def _predict(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))


def _design(f: np.ndarray, stages: np.ndarray) -> np.ndarray:
    """One block of the feature vector per stage (weights per Age, as xvalue.h applies them)."""
    blocks = [f * (stages == a)[:, None] for a in (0, 1, 2)]
    return np.concatenate(blocks, axis=1)


def _chosen(
    x: np.ndarray, y: np.ndarray, train: np.ndarray, valid: np.ndarray, l2s: list[float]
) -> float:
    """The L2 strength best on the validation games."""

    def loss(l2: float) -> float:
        return _loss(_predict(x[valid], _fit(x[train], y[train], l2)), y[valid])[0]

    return min(l2s, key=loss)


def fit(files: list[Path], out: Path, l2s: list[float]) -> None:
    data = [np.load(f) for f in files]
    states = np.concatenate([d["states"] for d in data])
    labels = np.concatenate([d["labels"] for d in data])
    games = np.concatenate([d["games"] + 1_000_000 * i for i, d in enumerate(data)])
    sets = np.concatenate([d["sets"] for d in data])
    f, stages = _features(states, sets)
    names = xmcts.feature_names()
    hand = [names.index(n) for n in ("points", "pawn", "bias")]
    held, valid = games % 5 == 0, games % 5 == 1
    train = ~held & ~valid
    p, pp = np.zeros(len(labels)), np.zeros(len(labels))
    weights, chosen = [], []
    for stage in range(3):  # the model is one logistic regression per Age: fit them apart
        at = stages == stage
        x, y = f[at], labels[at]
        l2 = _chosen(x, y, train[at], valid[at], l2s)
        p[at] = _predict(x, _fit(x[~held[at]], y[~held[at]], l2))
        xh = x[:, hand]
        l2_hand = _chosen(xh, y, train[at], valid[at], l2s)
        pp[at] = _predict(xh, _fit(xh[~held[at]], y[~held[at]], l2_hand))
        weights.append(_fit(x, y, l2).round(6).tolist())  # the shipped weights: every game
        chosen.append(l2)
    const = np.full(len(labels), labels[~held].mean())

    def losses(mask: np.ndarray) -> dict:
        m = held & mask
        return {
            "positions": int(m.sum()),
            "model": _loss(p[m], labels[m]),
            "points_pawn_only": _loss(pp[m], labels[m]),
            "constant": _loss(const[m], labels[m]),
        }

    everything = losses(np.ones(len(labels), dtype=bool))
    report = {
        "positions": int(len(labels)),
        "games": int(len(set(games.tolist()))),
        "held_out_positions": everything["positions"],
        "model": everything["model"],
        "points_pawn_only": everything["points_pawn_only"],
        "constant": everything["constant"],
        "per_age": {str(a + 1): losses(stages == a) for a in range(3)},
        "per_set": {"+".join(x): losses(sets == i) for i, x in enumerate(SETS)},
        "l2_per_age": chosen,
    }
    model = {
        "features": names,
        "weights": weights,
        "training": {**report, "files": [str(path) for path in files]},
    }
    out.write_text(json.dumps(model, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    print(f"wrote {out}: log-loss {report['model'][0]:.4f} (constant {report['constant'][0]:.4f})")
    assert all(math.isfinite(v) for stage in weights for v in stage)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=300)
    g.add_argument("--iterations", type=int, default=300)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--no-value", action="store_true", help="random playouts to the end")
    g.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--l2", type=float, nargs="+", default=[1.0, 10.0, 100.0, 1000.0, 10000.0])
    f.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.games, args.iterations, args.out, not args.no_value, args.seed)
    else:
        fit(args.files, args.out, args.l2)


if __name__ == "__main__":
    main()
