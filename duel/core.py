"""The compiled core: a C mirror of :mod:`duel.state`, when it is built.

``duel/csrc/duel_core.{h,c}`` re-implements the engine rule for rule on a fixed-size C struct,
and ``duel._ccore`` exposes it as :class:`CoreState`, which converts exactly to and from
:class:`duel.state.State` (``from_state`` / ``to_state``). The Python engine stays the reference:
``tests/test_ccore.py`` plays thousands of seeded games through both and requires identical
states, moves, chance weights, prices and results.

``pip install -e .`` builds the extension where a C compiler works; otherwise, or with the
environment variable ``DUEL_PURE=1``, :data:`AVAILABLE` is False and :data:`CoreState` is None.

>>> from duel import new_game
>>> if AVAILABLE:
...     core = CoreState.from_state(new_game())
...     assert core.to_state() == new_game() and core.is_chance()
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

#: Environment variable that forces the pure-Python engine ("1", "true" or "yes").
PURE_ENV = "DUEL_PURE"


def _load() -> ModuleType | None:
    if os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes"):
        return None
    try:
        import duel._ccore as _ccore
    except ImportError:
        return None
    module: ModuleType = _ccore
    return module


ccore: ModuleType | None = _load()
#: True when the C core is built and not disabled.
AVAILABLE: bool = ccore is not None
#: ``duel._ccore.CoreState``, or None on the pure path.
CoreState: Any = ccore.CoreState if ccore is not None else None


def require() -> ModuleType:
    """The C core module, or a one-line error saying why it is missing."""
    if ccore is None:
        why = (
            f"{PURE_ENV} is set"
            if os.environ.get(PURE_ENV)
            else "the extension is not built (pip install -e . with a C compiler)"
        )
        raise RuntimeError(f"the C core is not available: {why}")
    return ccore
