"""The learned value of a position: estimated P(A wins) + P(shared) / 2.

A logistic model over the antisymmetric features of :mod:`solvers.features`, one pair of weight
vectors per stage (the draft, Ages I, II, III) blended by the taper ``t``:

    logit = sum_k ((1 - t) * W0[s][k] + t * W1[s][k]) * d[k]

Terminal states get their exact value (1, 0 or 1/2). The weights ship in the package data
(``data/models/value.json``) and are written by ``python -m solvers.train`` (see
``docs/strength.md``). Playing needs no dependency beyond the standard library: the dot product
is plain Python (about 30k calls/s on one core, see ``benchmarks/value.py``).

>>> from duel import new_game
>>> v = value(new_game())
>>> 0.0 < v < 1.0
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import data
from duel.state import GAME_OVER, PHASE, WINNER, State
from solvers.features import FEATURE_NAMES, STAGES, _accessible_cards, player_features, stage

__all__ = ["MODEL_PATH", "ValueModel", "default_model", "value", "value_function"]

#: Where the shipped weights live inside the ``data`` package.
MODEL_PATH = "models/value.json"


class ValueModel:
    """Weights of the learned value: ``w0[s]``, ``w1[s]`` (one list per stage).

    >>> m = ValueModel.zeros()
    >>> from duel import new_game
    >>> m(new_game())
    0.5
    """

    def __init__(self, w0: list[list[float]], w1: list[list[float]], meta: dict | None = None):
        n = len(FEATURE_NAMES)
        if len(w0) != STAGES or len(w1) != STAGES or any(len(w) != n for w in w0 + w1):
            raise ValueError(f"value weights must be {STAGES} stages x {n} features")
        self.w0 = [list(map(float, w)) for w in w0]
        self.w1 = [list(map(float, w)) for w in w1]
        self.meta = meta or {}

    @classmethod
    def zeros(cls) -> ValueModel:
        n = len(FEATURE_NAMES)
        return cls([[0.0] * n for _ in range(STAGES)], [[0.0] * n for _ in range(STAGES)])

    # -- files -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "format": "wonders-duel value v1",
            "features": list(FEATURE_NAMES),
            "w0": [[round(x, 6) for x in w] for w in self.w0],
            "w1": [[round(x, 6) for x in w] for w in self.w1],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, obj: dict) -> ValueModel:
        if list(obj.get("features", [])) != list(FEATURE_NAMES):
            raise ValueError("value weights were trained on other features: retrain them")
        return cls(obj["w0"], obj["w1"], obj.get("meta"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    # -- evaluation ----------------------------------------------------------------------------
    def logit(self, state: State) -> float:
        """The model's log-odds for A (not defined at terminal states)."""
        f = state.fields
        s, num, den = stage(f)
        accessible = _accessible_cards(f)
        ga = player_features(state, 0, accessible)
        gb = player_features(state, 1, accessible)
        w0, w1 = self.w0[s], self.w1[s]
        x0 = x1 = 0.0
        for k, a in enumerate(ga):
            d = a - gb[k]
            if d:
                x0 += w0[k] * d
                x1 += w1[k] * d
        return x0 + (x1 - x0) * num / den

    def __call__(self, state: State) -> float:
        """P(A wins) + P(shared) / 2: exact at terminal states, estimated elsewhere."""
        f = state.fields
        if f[PHASE] == GAME_OVER:
            w = f[WINNER]
            return 1.0 if w == 0 else 0.0 if w == 1 else 0.5
        x = self.logit(state)
        if x < -30.0:
            x = -30.0
        return 1.0 / (1.0 + math.exp(-x))


_default: ValueModel | None = None


def default_model() -> ValueModel:
    """The shipped model (loaded once)."""
    global _default
    if _default is None:
        _default = ValueModel.from_json(data.load(MODEL_PATH))
    return _default


def value(state: State) -> float:
    """Estimated P(A wins) + P(shared) / 2 under the shipped model (exact at terminal states)."""
    model = _default if _default is not None else default_model()
    return model(state)


def value_function(spec: str | None) -> Callable[[State], float]:
    """A value function by name: ``"learned"`` (the shipped model), ``"v1"`` (the hand-made
    :func:`solvers.search.evaluate`), or the path of a weights file."""
    if spec in (None, "", "learned"):
        return value
    if spec == "v1":
        from solvers.search import evaluate

        return evaluate
    return ValueModel.load(spec)
