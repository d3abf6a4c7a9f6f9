"""The cheapest price of a card or wonder: a rule of the game, computed fast and exactly.

The problem: a card or wonder needs some resource units. The city's brown and grey cards give fixed
units; "one of" producers (Caravansery and The Great Lighthouse for wood/clay/stone, Forum and
Piraeus for glass/papyrus) give one unit each of a resource chosen at each payment; Masonry (blue
cards) and Architecture (wonders) waive up to two units of the player's choice; every unit still
missing is bought from the bank at ``2 + the opponent's brown/grey production`` of it, or 1 coin
with the matching Reserve / Customs House.

Fixed production is always used first (it is free and serves only its own resource). The remaining
missing units are then covered for free by the choice producers and the waiver, and that is a
maximum-weight selection in a transversal matroid: each missing unit, weighted by its price, can be
matched to a producer of its family or to a waiver slot. Greedy by decreasing price, giving each
unit to a producer of its own family when one is free and to a waiver slot otherwise, is therefore
optimal (the family producers can serve nothing else, so keeping the waiver free is never worse).
``duel.payment_model`` solves the same problem with CP-SAT and the tests check that both
agree; ``duel.solvers.payment`` explains the plan unit by unit. The compiled core
(``duel/csrc``) runs the same greedy.

Ties between equally cheap plans are broken in a fixed order: units are considered by decreasing
price, then by resource order wood, clay, stone, glass, papyrus; the first ones get the free
sources. So for two equally priced units, the choice producer or the waiver covers the wood rather
than the clay.

>>> min_purchase_cost((0, 2, 1, 0, 0), prod=(0, 1, 0, 0, 0), raw_choices=0, man_choices=0,
...                   unit_prices=(2, 3, 2, 2, 2), waivable=0)
5
>>> min_purchase_cost((0, 2, 1, 0, 0), prod=(0, 1, 0, 0, 0), raw_choices=1, man_choices=0,
...                   unit_prices=(2, 3, 2, 2, 2), waivable=0)
2
"""

from __future__ import annotations

from collections.abc import Sequence

N_RESOURCES = 5
#: Wood, clay and stone are raw materials; glass and papyrus are manufactured goods.
FAMILY_RAW = (True, True, True, False, False)


def min_purchase_cost(
    need: Sequence[int],
    prod: Sequence[int],
    raw_choices: int,
    man_choices: int,
    unit_prices: Sequence[int],
    waivable: int,
) -> int:
    """Minimum coins spent buying resources (printed coin costs not included)."""
    coins = 0
    units = []
    for r in range(N_RESOURCES):
        missing = need[r] - prod[r]
        if missing > 0:
            units.extend(
                [unit_prices[r]] * missing if FAMILY_RAW[r] else [-unit_prices[r]] * missing
            )
    if not units:
        return 0
    # Sign encodes the family so one sort orders by price; raw and manufactured kept apart.
    # The sort is stable, so equal prices keep resource order (the documented tie-break).
    units.sort(key=abs, reverse=True)
    for signed in units:
        if signed > 0 and raw_choices:
            raw_choices -= 1
        elif signed < 0 and man_choices:
            man_choices -= 1
        elif waivable:
            waivable -= 1
        else:
            coins += abs(signed)
    return coins


def missing_units(
    need: Sequence[int], prod: Sequence[int], unit_prices: Sequence[int]
) -> list[tuple[int, int]]:
    """The units fixed production does not cover, as (price, resource), most expensive first."""
    units = [(unit_prices[r], r) for r in range(N_RESOURCES) for _ in range(need[r] - prod[r])]
    units.sort(key=lambda u: (-u[0], u[1]))
    return units


def cover_units(
    units: list[tuple[int, int]], raw_choices: int, man_choices: int, waivable: int
) -> tuple[list[tuple[int, int, str]], int]:
    """Assign free sources greedily; returns [(price, resource, how)] and the coins still to pay.

    ``how`` is "choice" (a one-of producer), "waived" (Masonry/Architecture) or "bought". The
    same greedy as :func:`min_purchase_cost`, keeping each unit's fate.
    """
    plan = []
    coins = 0
    for price, r in units:
        if FAMILY_RAW[r] and raw_choices:
            raw_choices -= 1
            how = "choice"
        elif not FAMILY_RAW[r] and man_choices:
            man_choices -= 1
            how = "choice"
        elif waivable:
            waivable -= 1
            how = "waived"
        else:
            coins += price
            how = "bought"
        plan.append((price, r, how))
    return plan, coins
