"""7 Wonders Duel with its expansions: Pantheon (Agora next), in a readable engine of its own.

>>> import random
>>> from duel.expansions import new_xgame, play_random_xgame
>>> final = play_random_xgame(random.Random(1), new_xgame(("pantheon",)))
>>> final.is_terminal()
True
"""

from duel.expansions.moves import XMove
from duel.expansions.state import XState, observe
from duel.expansions.state import new_game as new_xgame
from duel.expansions.state import play_random_game as play_random_xgame
from duel.expansions.table import (
    CHANCE_MODEL,
    EXPANSIONS,
    NAMED_SETS,
    XIllegalMoveError,
    XScore,
)

__all__ = [
    "CHANCE_MODEL",
    "EXPANSIONS",
    "NAMED_SETS",
    "XIllegalMoveError",
    "XMove",
    "XScore",
    "XState",
    "new_xgame",
    "observe",
    "play_random_xgame",
]
