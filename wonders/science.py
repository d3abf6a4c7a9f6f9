"""Science scoring of the base game, with wildcards placed optimally.

Score = sum of (symbol count)^2 + 7 per complete compass/gear/tablet set. Each wildcard
(Babylon, the Scientists Guild, a copied Scientists Guild) is assigned at game end to maximise the
score; every assignment is enumerated (no greedy rule).

>>> science_score(4, 1, 1, 1)
34
>>> best_assignment(2, 2, 1, 1)
(2, 2, 2)
"""

from __future__ import annotations

from functools import cache


def raw_score(compass: int, gear: int, tablet: int) -> int:
    """Score without wildcards: squares plus 7 per full set."""
    return compass**2 + gear**2 + tablet**2 + 7 * min(compass, gear, tablet)


@cache
def best_assignment(compass: int, gear: int, tablet: int, wild: int) -> tuple[int, int, int]:
    """The symbol counts after placing ``wild`` wildcards as well as possible."""
    best = (compass, gear, tablet)
    best_score = -1
    for a in range(wild + 1):
        for b in range(wild - a + 1):
            counts = (compass + a, gear + b, tablet + wild - a - b)
            score = raw_score(*counts)
            if score > best_score:
                best, best_score = counts, score
    return best


def science_score(compass: int, gear: int, tablet: int, wild: int = 0) -> int:
    """The best science score for these symbols and ``wild`` wildcards."""
    return raw_score(*best_assignment(compass, gear, tablet, wild))
