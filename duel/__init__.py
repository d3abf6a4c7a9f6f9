"""7 Wonders Duel: a faithful, fast, immutable rules engine.

>>> import random
>>> from duel import new_game, play_random_game
>>> final = play_random_game(random.Random(1))
>>> final.is_terminal(), final.victory in ("military", "science", "civilian")
(True, True)
"""

from duel.catalog import CARDS, TOKENS, WONDERS, card_named, token_named, wonder_named
from duel.moves import Kind, Move, MoveParseError
from duel.state import IllegalMoveError, Score, State, new_game, play_random_game, replay

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
