"""An expansion player on the compiled core: the expansion MCTS over the player's own view.

``duel.solvers._xmcts`` (``solvers/csrc/xmcts_module.c``, docs/xmcts.md) searches from
``state.view(state.to_move)``: the opponent's face-down Divinity, unseen Conspiracies and the
decks are not in the state it searches, and every chance node (including the turning up of what
the player cannot see) is sampled with the view's exact probabilities. Open-loop PUCT with the
plan policy's prior, playouts cut after a few decisions and judged by the learned value of
``data/models/xvalue.json`` (trained by ``solvers/xtrain.py`` on the player's own games).

>>> import random
>>> from duel import xcore
>>> state, rng = xcore.new_game(("pantheon",)), random.Random(1)
>>> while state.is_chance():
...     state = state.apply(state.random_move(rng), check=False)
>>> if AVAILABLE:
...     assert XCMctsPlayer(iterations=200).choose(state) in state.legal_moves()
"""

from __future__ import annotations

import json
from array import array
from importlib import resources
from pathlib import Path
from types import ModuleType

from duel import xcore
from duel.expansions import XMove, XState


def _load() -> ModuleType | None:
    if not xcore.AVAILABLE:
        return None
    try:
        from duel.solvers import _xmcts
    except ImportError:
        return None
    return _xmcts


xmcts: ModuleType | None = _load()
AVAILABLE: bool = xmcts is not None

#: The learned value's weights (data/models/xvalue.json, written by solvers/xtrain.py).
MODEL_PATH = Path(str(resources.files("duel.data").joinpath("models/xvalue.json")))


def load_model(path: Path = MODEL_PATH) -> bytes | None:
    """The model's weights as the C search takes them (doubles, Age by Age), or None when the
    file is absent; a file whose features are not the C side's is refused."""
    if xmcts is None or not path.exists():
        return None
    model = json.loads(path.read_text())
    if model["features"] != xmcts.feature_names():
        raise ValueError(f"{path}: its features are not the compiled search's; retrain it")
    flat = [w for stage in model["weights"] for w in stage]
    if len(flat) != xmcts.N_WEIGHTS:
        raise ValueError(f"{path}: {len(flat)} weights, the search takes {xmcts.N_WEIGHTS}")
    return array("d", flat).tobytes()


MODEL: bytes | None = load_model()

#: The search's knobs and their defaults (XCMctsPlayer(**knobs) overrides them): PUCT's
#: exploration constant, first-play urgency, the uniform share of the prior (1: a uniform prior;
#: the plan policy's prior lost its matches, docs/xmcts.md), the decisions played out before the
#: learned value (-1: to the end), the value's weight against the playout's end (0: playouts to
#: the end), and the tree's memory bound in megabytes (docs/xmcts.md has the measurements).
KNOBS: dict[str, float] = {
    "exploration": 1.0,
    "fpu": 0.1,
    "prior_mix": 1.0,
    "playout_plies": 16,
    "value_mix": 1.0,
    "tree_mb": 512,
}
_NODE_BYTES = 32


class XCMctsPlayer:
    """The most visited decision after a search of ``iterations`` descents or ``seconds`` of
    thinking (the deadline is checked in C after every descent; with both, whichever comes
    first), from the mover's view.

    ``analyse`` answers ``[(move, visits, value)]``, most visited first, where the value is the
    mover's P(win) + P(shared) / 2 in [0, 1]. The descents of the last search are in
    ``last_iterations``. ``knobs`` override :data:`KNOBS`.
    """

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
        **knobs: float,
    ) -> None:
        if xmcts is None:
            raise RuntimeError("the compiled expansion search is not built (pip install -e .)")
        if iterations is None and seconds is None:
            iterations = 2000
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and not 0 < seconds <= 86_400:
            raise ValueError("seconds must be above 0 and at most 86,400")
        unknown = set(knobs) - set(KNOBS)
        if unknown:
            raise ValueError(f"unknown knob(s): {', '.join(sorted(unknown))}")
        self.iterations = iterations
        self.seconds = seconds
        self.seed = seed
        self.knobs = {**KNOBS, **knobs}
        self.last_iterations = 0

    def analyse(self, state: XState | xcore.CXState) -> list[tuple[XMove, int, float]]:
        """[(move, visits, the mover's value in [0, 1])], most visited first."""
        compiled = state if isinstance(state, xcore.CXState) else xcore.CXState.from_xstate(state)
        view = compiled.view(compiled.to_move)
        self.seed += 1
        k = self.knobs
        done, found = xmcts.search(
            view.core.to_bytes(),
            -1 if self.iterations is None else self.iterations,
            -1.0 if self.seconds is None else self.seconds,
            self.seed,
            k["exploration"],
            k["fpu"],
            k["prior_mix"],
            int(k["playout_plies"]),
            k["value_mix"] if MODEL is not None else 0.0,
            int(k["tree_mb"] * 2**20 / _NODE_BYTES),
            MODEL,
        )
        self.last_iterations = done
        rows = [(xcore.decode_move(m, compiled.expansions), n, v) for m, n, v in found]
        return sorted(rows, key=lambda row: (-row[1], -row[2]))

    def choose(self, state: XState | xcore.CXState) -> XMove:
        return self.analyse(state)[0][0]
