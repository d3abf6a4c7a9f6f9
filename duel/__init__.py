"""7 Wonders Duel: a faithful, fast, immutable rules engine.

>>> import random
>>> from duel import new_game, play_random_game
>>> final = play_random_game(random.Random(1))
>>> final.is_terminal(), final.victory in ("military", "science", "civilian")
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from duel.catalog import CARDS, TOKENS, WONDERS, card_named, token_named, wonder_named
from duel.moves import Kind, Move, MoveParseError
from duel.state import IllegalMoveError, Score, State, play_random_game, replay
from duel.state import new_game as _new_base_game

if TYPE_CHECKING:
    from duel.expansions.state import XState


def new_game(*, expansions: Iterable[str] = ()) -> State | XState:
    """The state before setup (a chance node dealing the board's progress tokens).

    With ``expansions`` (``("pantheon",)``, ``("agora",)`` or both), a game of
    :mod:`duel.expansions`, whose :class:`~duel.expansions.XState` has the same API; the base
    game stays on :mod:`duel.state`, the engine the solvers are built on.

    >>> new_game(expansions=("pantheon", "agora")).describe()
    'setup, setup_tokens, chance to move'
    """
    if expansions:
        from duel.expansions.state import new_game as new_expansion_game

        return new_expansion_game(expansions)
    return _new_base_game()

__all__ = [
    "CARDS",
    "TOKENS",
    "WONDERS",
    "IllegalMoveError",
    "Kind",
    "Move",
    "MoveParseError",
    "Score",
    "State",
    "card_named",
    "new_game",
    "play_random_game",
    "replay",
    "token_named",
    "wonder_named",
]
