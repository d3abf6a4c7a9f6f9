"""The learned value of a position: estimated P(A wins) + P(shared) / 2.

A logistic model over the antisymmetric features of :mod:`duel.solvers.features`, one pair of weight
vectors per stage (the draft, Ages I, II, III) blended by the taper ``t``:

    logit = sum_k ((1 - t) * W0[s][k] + t * W1[s][k]) * d[k]

Terminal states get their exact value (1, 0 or 1/2). The weights ship in the package data
(``data/models/value.json``) and are written by ``python -m duel.solvers.train`` (see
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

from duel import data
from duel.catalog import CARDS, COLOR_MASK, SCIENCE_SYMBOLS
from duel.solvers.features import (
    _DESTROY_PHASES,
    _SETUP_PHASES,
    _TAKING_PHASES,
    _TOKEN_PHASES,
    FEATURE_NAMES,
    STAGES,
    _accessible_cards,
    player_features,
    stage,
    take_now,
)
from duel.state import (
    _CARD_CHAIN_FROM as _CHAIN_FROM,
)
from duel.state import (
    AGE,
    BASE,
    BUILT,
    CHAINS,
    CITY,
    COINS,
    CORE_MASK,
    ECON,
    EXTRA,
    GAME_OVER,
    MASONRY_BIT,
    MILITARY,
    MILITARY_POINTS,
    PAWN,
    PHASE,
    PICKS,
    PRESENT,
    PROD_MASK,
    SCIENCE,
    TO_MOVE,
    TOKEN_POINTS,
    TOKENS_HELD,
    WINNER,
    WONDER_POINTS,
    WONDERS_OWNED,
    State,
    card_points,
    guild_points,
    trade_price,
)

__all__ = [
    "CMCTS2_MODEL_PATH",
    "CMCTS2_PRIOR_PATH",
    "CMCTS_MODEL_PATH",
    "MODEL_PATH",
    "ValueModel",
    "default_model",
    "shipped_model",
    "value",
    "value_function",
]

#: Where the shipped weights live inside the ``duel.data`` package.
MODEL_PATH = "models/value.json"
#: The compiled MCTS's own model: the same features fitted with its own self-play games added
#: (expert iteration; its ``meta`` says how it was made).
CMCTS_MODEL_PATH = "models/value_cmcts.json"
#: The learned prior fitted to the compiled MCTS's root visits (``train fit-prior``; the
#: ``cmcts`` option ``prior_value=cmcts-prior``; its ``meta`` says how it was made).
CMCTS_PRIOR_PATH = "models/prior_cmcts.json"
#: The second generation over the feature table with what each side can take now
#: (``best_pts``..``move_wonders``): value and prior fitted to 4,600 games of the first
#: generation's player (``value=cmcts2``, ``prior_value=cmcts2-prior``, the defaults).
CMCTS2_MODEL_PATH = "models/value_cmcts2.json"
CMCTS2_PRIOR_PATH = "models/prior_cmcts2.json"
#: A third-generation candidate, not a default: the same features fitted to 2,500 games of the
#: second generation's player (``value=cmcts3``, ``prior_value=cmcts3-prior``).
CMCTS3_MODEL_PATH = "models/value_cmcts3.json"
CMCTS3_PRIOR_PATH = "models/prior_cmcts3.json"
#: The models a ``cmcts`` option can name.
NAMED_MODELS = {
    "cmcts": CMCTS_MODEL_PATH,
    "search": MODEL_PATH,
    "cmcts-prior": CMCTS_PRIOR_PATH,
    "cmcts2": CMCTS2_MODEL_PATH,
    "cmcts2-prior": CMCTS2_PRIOR_PATH,
    "cmcts3": CMCTS3_MODEL_PATH,
    "cmcts3-prior": CMCTS3_PRIOR_PATH,
}


class ValueModel:
    """Weights of the learned value: ``w0[s]``, ``w1[s]`` (one list per stage).

    >>> m = ValueModel.zeros()
    >>> from duel import new_game
    >>> m(new_game())
    0.5
    """

    def __init__(
        self,
        w0: list[list[float]],
        w1: list[list[float]],
        meta: dict | None = None,
    ):
        n = len(FEATURE_NAMES)
        if len(w0) != STAGES or len(w1) != STAGES or any(len(w) != n for w in w0 + w1):
            raise ValueError(f"value weights must be {STAGES} stages x {n} features")
        self.w0 = [list(map(float, w)) for w in w0]
        self.w1 = [list(map(float, w)) for w in w1]
        self.meta = meta or {}
        self._fast: _Tables | None = None

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
        """The model of a weights file. A file over an earlier, shorter feature table (the
        features it knows are the first ones of today's) gets weight 0 for the features added
        since, so it values every position as it did."""
        names = list(obj.get("features", []))
        if not names or names != list(FEATURE_NAMES[: len(names)]):
            raise ValueError("value weights were trained on other features: retrain them")
        pad = [0.0] * (len(FEATURE_NAMES) - len(names))
        w0 = [list(w) + pad for w in obj["w0"]]
        w1 = [list(w) + pad for w in obj["w1"]]
        if "hidden" in obj:
            raise ValueError("value weights with a hidden layer: not supported (linear only)")
        return cls(w0, w1, obj.get("meta"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    def flat_weights(self) -> tuple[float, ...]:
        """The weights as one flat tuple, ``w0`` stage by stage then ``w1``: the
        ``value_weights`` of the compiled MCTS (``solvers/csrc/value_model.h``).

        >>> len(ValueModel.zeros().flat_weights()) == 2 * STAGES * len(FEATURE_NAMES)
        True
        """
        return tuple(x for w in (self.w0, self.w1) for stage_w in w for x in stage_w)

    # -- evaluation ----------------------------------------------------------------------------
    def reference_logit(self, state: State) -> float:
        """The model's log-odds for A, straight from :func:`~duel.solvers.features.player_features`
        (the definition; :meth:`logit` computes the same number from lookup tables)."""
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

    def logit(self, state: State) -> float:
        """The model's log-odds for A (not defined at terminal states), fast."""
        fast = self._fast
        if fast is None:
            fast = self._fast = _Tables(self.w0, self.w1)
        return fast.logit(state)

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


def shipped_model(relative_path: str) -> ValueModel:
    """A model shipped in the package's data (``data/``), e.g. :data:`CMCTS_MODEL_PATH`."""
    if relative_path == MODEL_PATH:
        return default_model()
    return ValueModel.from_json(data.load(relative_path))


def named_model(name: str) -> ValueModel:
    """The model a ``cmcts`` option names (:data:`NAMED_MODELS`: ``cmcts2`` and
    ``cmcts2-prior`` the defaults, ``cmcts`` and ``cmcts-prior`` the first generation,
    ``cmcts3`` and ``cmcts3-prior`` the third generation's candidates, ``search``) or the path
    of a weights file."""
    if name in NAMED_MODELS:
        return shipped_model(NAMED_MODELS[name])
    return ValueModel.load(name)


def value(state: State) -> float:
    """Estimated P(A wins) + P(shared) / 2 under the shipped model (exact at terminal states)."""
    model = _default if _default is not None else default_model()
    return model(state)


def value_function(spec: str | None) -> Callable[[State], float]:
    """A value function by name: ``"learned"`` (the shipped model), ``"v1"`` (the hand-made
    :func:`duel.solvers.search.evaluate`), or the path of a weights file."""
    if spec in (None, "", "learned"):
        return value
    if spec == "v1":
        from duel.solvers.search import evaluate

        return evaluate
    return ValueModel.load(spec)


# --- the fast path ----------------------------------------------------------------------------
# logit = S(A) - S(B) with S(p) = sum_k w_k * g_k(p) and w = w0 + t (w1 - w0): each player's
# sum is taken over groups of features that depend on one field (the cards built, the wonders,
# the tokens, the coins, the pawn, the economy...), each group's contribution read from a table
# or a cache. The two taper weights travel together as one complex number, w0 + i w1, so one
# addition accumulates both.
_IDX = {name: i for i, name in enumerate(FEATURE_NAMES)}
_PLAIN = COLOR_MASK["blue"] | COLOR_MASK["green"] | COLOR_MASK["yellow"]
_BLUE, _GREEN, _YELLOW = COLOR_MASK["blue"], COLOR_MASK["green"], COLOR_MASK["yellow"]
_PURPLE = COLOR_MASK["purple"]
_COLOR_MASKS = [
    COLOR_MASK[c] for c in ("brown", "grey", "blue", "green", "yellow", "red", "purple")
]
_SHIELDS = [c.shields for c in CARDS]
_NOW, _MOVE = _IDX["best_pts"], _IDX["move_pts"]
_SCIENCE_BIT = [1 << SCIENCE_SYMBOLS.index(c.science) if c.science else 0 for c in CARDS]
_COST_KEY_MASK = CORE_MASK | MASONRY_BIT
_T_LAW, _T_STRATEGY = 3, 7
_CACHE_LIMIT = 400_000


class _Tables:
    """Lookup tables of one model (see the comment above); ``logit`` equals the reference."""

    def __init__(self, w0: list[list[float]], w1: list[list[float]]) -> None:
        self.w = [[complex(a, b) for a, b in zip(w0[s], w1[s], strict=True)] for s in range(STAGES)]
        self.built = [self._mask_table(w, "built_", "pts_wonders", WONDER_POINTS) for w in self.w]
        self.owns = [self._mask_table(w, "owns_", None, None) for w in self.w]
        self.tokens = [self._mask_table(w, "token_", "pts_tokens", TOKEN_POINTS) for w in self.w]
        self.coins = [
            [
                w[_IDX["coins"]] * c
                + w[_IDX["pts_coins"]] * (c // 3)
                + w[_IDX["coins_cap8"]] * min(c, 8)
                for c in range(128)
            ]
            for w in self.w
        ]
        self.lead = [
            [
                w[_IDX["pts_military"]] * MILITARY_POINTS[0][lead + 9]
                + sum(w[_IDX[f"lead_ge{k}"]] for k in range(1, 9) if lead >= k)
                for lead in range(-9, 10)
            ]
            for w in self.w
        ]
        self.loot = [
            [w[_IDX["loot2"]] * (v & 1) + w[_IDX["loot5"]] * (v >> 1) for v in range(4)]
            for w in self.w
        ]
        self.science = [
            [
                sum(w[_IDX[f"sci_ge{k}"]] for k in range(2, 6) if d >= k) - w[_IDX["sci_pairs"]] * d
                for d in range(8)
            ]
            for w in self.w
        ]
        # A model over the earlier, shorter feature table has no weight on what each side can
        # take now: its stages skip that work (the pure-Python search's value is one of them).
        self.takes = [any(w[k] for k in range(_NOW, len(FEATURE_NAMES))) for w in self.w]
        self.cards_cache: list[dict[int, complex]] = [{} for _ in self.w]
        self.econ_cache: list[dict[int, complex]] = [{} for _ in self.w]
        self.cost_cache: dict[int, int] = {}

    @staticmethod
    def _mask_table(w, prefix, points_name, points) -> list[complex]:
        names = [n for n in FEATURE_NAMES if n.startswith(prefix)]
        weights = [w[_IDX[n]] for n in names]
        table = []
        for mask in range(1 << len(names)):
            v = sum((weights[i] for i in range(len(names)) if mask >> i & 1), 0j)
            if points_name is not None:
                v += w[_IDX[points_name]] * points[mask]
            table.append(v)
        return table

    def _cards(self, s: int, cards: int) -> complex:
        w = self.w[s]
        v = (
            w[_IDX["pts_blue"]] * card_points(cards & _BLUE)
            + w[_IDX["pts_green"]] * card_points(cards & _GREEN)
            + w[_IDX["pts_yellow"]] * card_points(cards & _YELLOW)
            + w[_IDX["sci_pairs"]] * (cards & _GREEN).bit_count()
        )
        for i, mask in enumerate(_COLOR_MASKS):
            v += w[_IDX["n_brown"] + i] * (cards & mask).bit_count()
        cache = self.cards_cache[s]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[cards] = v
        return v

    def _econ(self, s: int, key: int, econ: int, opp_econ: int) -> complex:
        w = self.w[s]
        v = 0j
        base = _IDX["prod_wood_ge1"]
        for r in range(5):
            units = (econ >> (3 * r)) & 7
            if units >= 1:
                v += w[base + 2 * r]
            if units >= 2:
                v += w[base + 2 * r + 1]
        v += w[_IDX["choice_raw"]] * ((econ >> 15) & 3) + w[_IDX["choice_man"]] * ((econ >> 17) & 3)
        for r in range(5):
            v += w[_IDX["fixed_wood"] + r] * ((econ >> (19 + r)) & 1)
            v += w[_IDX["price_wood"] + r] * trade_price(econ, opp_econ, r)
        cache = self.econ_cache[s]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[key] = v
        return v

    def _player(self, state: State, f, s: int, p: int, accessible: list[int]) -> complex:
        w = self.w[s]
        b = BASE[p]
        cards = f[b + CITY]
        tokens = f[b + TOKENS_HELD]
        coins = f[b + COINS]
        econ = f[b + ECON]
        opp_econ = f[BASE[1 - p] + ECON]
        lead = f[PAWN] if p == 0 else -f[PAWN]
        v = self.cards_cache[s].get(cards)
        if v is None:
            v = self._cards(s, cards)
        if cards & _PURPLE:
            v += w[_IDX["pts_guilds"]] * guild_points(f, cards)
        v += self.built[s][f[b + BUILT]] + self.owns[s][f[b + WONDERS_OWNED]]
        v += self.tokens[s][tokens]
        v += self.coins[s][coins] if coins < 128 else self._coins_beyond(w, coins)
        v += self.lead[s][lead + 9]
        v += self.loot[s][(f[MILITARY] >> (2 if p == 0 else 0)) & 3]
        key = (econ & CORE_MASK) << 15 | (opp_econ & PROD_MASK)
        e = self.econ_cache[s].get(key)
        v += e if e is not None else self._econ(s, key, econ, opp_econ)
        science = f[b + SCIENCE]
        distinct = science.bit_count()
        v += self.science[s][distinct]
        if tokens >> _T_LAW & 1:
            v += w[_IDX["sci_pairs"]]
        chains = f[b + CHAINS]
        if chains:
            v += w[_IDX["chains"]] * chains.bit_count()
        # The accessible cards: affordable, free, shields and new science symbols; what p can
        # take now (solvers.features.take_now).
        afford = free = best = new = 0
        affordable = []
        cost_cache = self.cost_cache
        cost_key = (econ & _COST_KEY_MASK) << 15 | (opp_econ & PROD_MASK)
        for c in accessible:
            k = (cost_key << 7 | c) << 1 | (1 if chains & _CHAIN_FROM[c] else 0)
            cost = cost_cache.get(k)
            if cost is None:
                if len(cost_cache) > _CACHE_LIMIT:
                    cost_cache.clear()
                cost = cost_cache[k] = state.card_cost(p, c)
            if cost <= coins:
                affordable.append(c)
                afford += 1
                if cost == 0:
                    free += 1
            if _SHIELDS[c] > best:
                best = _SHIELDS[c]
            sci = _SCIENCE_BIT[c]
            if sci and not science & sci:
                new += 1
        if afford:
            v += w[_IDX["afford"]] * afford + w[_IDX["free"]] * free
        if best:
            if tokens >> _T_STRATEGY & 1:
                best += 1
            if lead + best >= 9:
                v += w[_IDX["mil_reach"]]
        if new:
            v += w[_IDX["sci_new"]] * new
            if distinct >= 5:
                v += w[_IDX["sci_reach"]]
        if not self.takes[s]:
            return v
        now, win_cards = take_now(state, p, affordable)
        taking = f[PHASE] in _TAKING_PHASES and f[TO_MOVE] == p
        for i, x in enumerate(now):
            if x:
                v += w[_NOW + i] * x
                if taking:
                    v += w[_MOVE + i] * x
        if win_cards:
            v += w[_IDX["win_cards"]] * win_cards
        return v

    @staticmethod
    def _coins_beyond(w, coins: int) -> complex:
        return (
            w[_IDX["coins"]] * coins
            + w[_IDX["pts_coins"]] * (coins // 3)
            + w[_IDX["coins_cap8"]] * 8
        )

    def logit(self, state: State) -> float:
        f = state.fields
        phase = f[PHASE]
        if phase in _SETUP_PHASES:
            s, num, den = 0, f[PICKS], 8
        else:
            s, num, den = f[AGE], 20 - f[PRESENT].bit_count(), 20
        accessible = _accessible_cards(f)
        z = self._player(state, f, s, 0, accessible) - self._player(state, f, s, 1, accessible)
        w = self.w[s]
        mover = f[TO_MOVE]
        side = w[_IDX["to_move"]]
        if phase in _TOKEN_PHASES:
            side += w[_IDX["pending_token"]]
        elif phase in _DESTROY_PHASES:
            side += w[_IDX["pending_destroy"]]
        if f[EXTRA]:
            side += w[_IDX["extra_turn"]]
        z += side if mover == 0 else -side
        return z.real + (z.imag - z.real) * num / den
