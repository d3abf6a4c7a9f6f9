"""An expansion player on the compiled core: open-loop UCT over the player's own view.

``duel.solvers._xmcts`` (``solvers/csrc/xmcts_module.c``) searches from
``state.view(state.to_move)``: the opponent's face-down Divinity, unseen Conspiracies and the
decks are not in the state it searches, and every chance node (including the turning up of what
the player cannot see) is sampled with the view's exact probabilities. It is the first step of
issue 63's expansion AI: random playouts, no learned value yet.

>>> import random
>>> from duel import xcore
>>> state, rng = xcore.new_game(("pantheon",)), random.Random(1)
>>> while state.is_chance():
...     state = state.apply(state.random_move(rng), check=False)
>>> if AVAILABLE:
...     assert XCMctsPlayer(iterations=200).choose(state) in state.legal_moves()
"""

from __future__ import annotations

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


class XCMctsPlayer:
    """The most visited decision after ``iterations`` of open-loop UCT from the mover's view."""

    def __init__(self, iterations: int = 2000, seed: int = 0, exploration: float = 1.0) -> None:
        if xmcts is None:
            raise RuntimeError("the compiled expansion search is not built (pip install -e .)")
        self.iterations = iterations
        self.seed = seed
        self.exploration = exploration

    def analyse(self, state: XState | xcore.CXState) -> list[tuple[XMove, int, float]]:
        """[(move, visits, mean return for the mover)], most visited first."""
        compiled = state if isinstance(state, xcore.CXState) else xcore.CXState.from_xstate(state)
        view = compiled.view(compiled.to_move)
        self.seed += 1
        found = xmcts.search(view.core.to_bytes(), self.iterations, self.seed, self.exploration)
        rows = [(xcore.decode_move(m, compiled.expansions), n, v) for m, n, v in found]
        return sorted(rows, key=lambda row: -row[1])

    def choose(self, state: XState | xcore.CXState) -> XMove:
        return self.analyse(state)[0][0]
