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

# The search's knobs and their defaults (XCMctsPlayer(**knobs) overrides them).
KNOBS: dict[str, float] = {"exploration": 0.5}


class XCMctsPlayer:
    """The most visited decision after a search of ``iterations`` descents or ``seconds`` of
    thinking (the deadline is checked in C after every descent; with both, whichever comes
    first), from the mover's view.

    ``analyse`` answers ``[(move, visits, value)]``, most visited first, where the value is the
    mover's P(win) + P(shared) / 2 in [0, 1]. ``iterations`` in the last search are in
    ``last_iterations``. Knobs: ``exploration`` (the selection's constant).
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
        done, found = xmcts.search(
            view.core.to_bytes(),
            -1 if self.iterations is None else self.iterations,
            -1.0 if self.seconds is None else self.seconds,
            self.seed,
            self.knobs["exploration"],
        )
        self.last_iterations = done
        rows = [(xcore.decode_move(m, compiled.expansions), n, v) for m, n, v in found]
        return sorted(rows, key=lambda row: (-row[1], -row[2]))

    def choose(self, state: XState | xcore.CXState) -> XMove:
        return self.analyse(state)[0][0]
