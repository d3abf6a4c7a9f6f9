"""Positions for the expansions' known-answer tests: reached by seeded random play, then
arranged field by field, so that each test states the situation it checks in a few lines."""

import random

from duel.expansions import new_xgame


def reach(predicate, seed=0, expansions=("pantheon",)):
    """The first state of a seeded random game that satisfies ``predicate``."""
    rng = random.Random(seed)
    s = new_xgame(expansions)
    while not predicate(s):
        assert not s.is_terminal(), "the random game ended first"
        s = s.apply(s.random_move(rng), check=False)
    return s


def arrange(state, cities=None, **fields):
    """``state`` with some fields replaced (``cities``: {player: {field: value}})."""
    t = state._copy()
    for name, value in fields.items():
        setattr(t, name, value)
    for player, changes in (cities or {}).items():
        for name, value in changes.items():
            setattr(t.cities[player], name, value)
    return t._freeze()
