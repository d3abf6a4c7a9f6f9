"""The rules tests run on both engines: every move they apply is mirrored in the C core.

Each ``State.apply`` made by a test in this directory is replayed on ``CoreState.from_state``
of the same position, and the two results must be equal (with the same legal moves and chance
weights), so every known-answer rule test is also a test of the compiled core.
"""

import pytest

from duel import state as engine
from duel.core import AVAILABLE, CoreState


@pytest.fixture(autouse=True)
def mirror_every_move_in_the_c_core(monkeypatch):
    if not AVAILABLE:
        yield
        return
    original = engine.State.apply

    def apply_on_both(self, move, *, check=True):
        result = original(self, move, check=check)  # raises first if illegal
        child = CoreState.from_state(self).apply(move)
        assert child.to_state() == result, f"C core differs after {move!r}"
        if result.is_chance():
            outcomes, total = result.chance_weights()
            assert child.chance_weights() == ([(int(m), w) for m, w in outcomes], total)
        else:
            assert child.legal_moves() == [int(m) for m in result.legal_moves()]
        return result

    monkeypatch.setattr(engine.State, "apply", apply_on_both)
    yield
