"""Base-game trading: the cheapest way to buy missing resources from the two neighbours.

A city pays a resource cost with its own production (fixed units plus "one of" producers, some of
them private) and buys the missing units from its neighbours, only from what they may sell (board
resource, brown and grey cards), each sold unit at most once, at the buyer's price for that
neighbour and resource (2, or 1 with a discount).

Every plan is provably minimal. The work is done, in this order, by:

1. **no purchase needed**: own production covers the cost (exact bipartite check) -> 0 coins;
2. **one seller, one price**: only one neighbour sells any of the needed resources, at a single
   unit price ``p``. Own units and that seller's units form a transversal matroid over the needed
   units, so a largest own-only matching extends to a full one: the minimum is exactly
   ``p * (units needed - largest number of units own production can cover)``;
3. otherwise the OR-Tools CP-SAT model of :mod:`duel.payment_model`.

Inputs are first projected onto the needed resources (counts capped at the need, single-option
choices turned into fixed units, unused prices zeroed), and results are memoised on that
projection, so repeated situations cost a dictionary lookup. ``tests/base/test_trading.py`` checks
the result against :func:`duel.payment_model.brute_force`.

Among equally cheap plans: fewest purchased units, then the earlier market in the given order
(left before right for players; the Free City's controller first for the Free City).

>>> own = Supply((0, 0, 0, 1, 0, 0, 0), ())
>>> left = Supply((0, 0, 0, 2, 0, 0, 0), ())
>>> right = Supply((0, 0, 0, 0, 0, 0, 0), ((2, 3),))
>>> cheapest((0, 0, 0, 3, 0, 0, 0), own, ((left, (2,) * 7), (right, (1,) * 7)))
Price(total=3, paid=(2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from wonders.cards import RESOURCES


@dataclass(frozen=True, slots=True)
class Supply:
    """Production available to someone: fixed units per resource, plus "one of" producers."""

    fixed: tuple[int, ...]
    choices: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Price:
    """Cheapest purchase: ``total`` coins, ``paid[i]`` of them to market ``i``."""

    total: int
    paid: tuple[int, ...]


FREE2 = Price(0, (0, 0))
STATS = {"calls": 0, "own": 0, "single": 0, "solver": 0}


def _project(supply: Supply, rel: tuple[int, ...], need: tuple[int, ...]):
    fixed = [min(supply.fixed[r], n) for r, n in zip(rel, need, strict=True)]
    choices = []
    for opts in supply.choices:
        sub = tuple(j for j, r in enumerate(rel) if r in opts)
        if len(sub) == 1:
            fixed[sub[0]] = min(fixed[sub[0]] + 1, need[sub[0]])
        elif sub:
            choices.append(sub)
    return tuple(fixed), tuple(sorted(choices))


@cache
def max_cover(deficit: tuple[int, ...], choices: tuple[tuple[int, ...], ...]) -> int:
    """Most deficit units that the "one of" producers can cover (exact search)."""
    if not choices or not any(deficit):
        return 0
    first, rest = choices[0], choices[1:]
    best = max_cover(deficit, rest)
    for j in first:
        if deficit[j]:
            d = list(deficit)
            d[j] -= 1
            best = max(best, 1 + max_cover(tuple(d), rest))
            if best == sum(deficit):
                break
    return best


def _own_cover(need: tuple[int, ...], fixed: tuple[int, ...], choices) -> int:
    deficit = tuple(n - f for n, f in zip(need, fixed, strict=True))
    return sum(fixed) + max_cover(deficit, choices)


@lru_cache(maxsize=1 << 18)
def cheapest(
    need: tuple[int, ...],
    own: Supply,
    markets: tuple[tuple[Supply, tuple[int, ...]], ...],
) -> Price | None:
    """Cheapest purchase for a 7-resource ``need``; ``None`` if it cannot be covered at all.

    ``markets`` is a tuple of ``(supply the market may sell, buyer's unit prices)``. Memoised on
    the raw arguments too (``STATS["calls"]`` counts the misses).
    """
    STATS["calls"] += 1
    if all(f >= n for f, n in zip(own.fixed, need, strict=True)):
        STATS["own"] += 1
        return Price(0, (0,) * len(markets))
    rel = tuple(i for i, n in enumerate(need) if n)
    need_rel = tuple(need[i] for i in rel)
    own_fixed, own_choices = _project(own, rel, need_rel)
    # Own fixed units serve only their resource and are free: some cheapest plan uses all of them
    # (exchange argument), so take them off the need before anything else.
    need_rel = tuple(n - f for n, f in zip(need_rel, own_fixed, strict=True))
    if max_cover(need_rel, own_choices) == sum(need_rel):
        STATS["own"] += 1
        return Price(0, (0,) * len(markets))
    keep = [j for j, n in enumerate(need_rel) if n]
    pos = {j: k for k, j in enumerate(keep)}
    rel = tuple(rel[j] for j in keep)
    need_rel = tuple(need_rel[j] for j in keep)
    # the remaining own producers are the "one of" ones, restricted to what is still needed
    choices = (tuple(pos[j] for j in c if j in pos) for c in own_choices)
    own_p = ((0,) * len(keep), tuple(sorted(c for c in choices if c)))
    key_markets = []
    for supply, prices in markets:
        fixed, choices = _project(supply, rel, need_rel)
        avail = [fixed[j] > 0 or any(j in c for c in choices) for j in range(len(rel))]
        key_markets.append(
            (fixed, choices, tuple(prices[r] if a else 0 for r, a in zip(rel, avail, strict=True)))
        )
    need_c, own_c, markets_c = _canonical(need_rel, own_p, key_markets)
    return _cheapest_projected(need_c, own_c, markets_c)


def _canonical(need, own, markets):
    """Relabel the resources in a fixed order of their (need, supply, price) signature, so that
    situations equal up to resource names share one memo entry."""
    sig = [
        (need[j], *(m[0][j] for m in markets), *(m[2][j] for m in markets))
        for j in range(len(need))
    ]
    order = sorted(range(len(need)), key=lambda j: sig[j])
    pos = {j: k for k, j in enumerate(order)}

    def relabel(supply):
        fixed, choices = supply
        return (
            tuple(fixed[j] for j in order),
            tuple(sorted(tuple(sorted(pos[j] for j in c)) for c in choices)),
        )

    return (
        tuple(need[j] for j in order),
        relabel(own),
        tuple((*relabel((f, c)), tuple(p[j] for j in order)) for f, c, p in markets),
    )


@cache
def _cheapest_projected(need, own, markets) -> Price | None:
    n_markets = len(markets)
    total_need = sum(need)
    sellers = [i for i, (fixed, choices, _) in enumerate(markets) if any(fixed) or choices]
    if not sellers:
        return None
    if len(sellers) == 1:
        i = sellers[0]
        fixed, choices, prices = markets[i]
        unit_prices = {p for j, p in enumerate(prices) if fixed[j] or any(j in c for c in choices)}
        if len(unit_prices) == 1:
            STATS["single"] += 1
            both = tuple(a + b for a, b in zip(own[0], fixed, strict=True))
            if _own_cover(need, both, tuple(sorted(own[1] + choices))) < total_need:
                return None
            units = total_need - _own_cover(need, *own)
            paid = [0] * n_markets
            paid[i] = units * unit_prices.pop()
            return Price(paid[i], tuple(paid))
    STATS["solver"] += 1
    return _solve_with_model(need, own, markets)


def _solve_with_model(need, own, markets) -> Price | None:
    from duel.payment_model import solve

    problem = to_problem(need, own, markets)
    solution = solve(problem)
    if solution is None:
        return None
    return Price(solution.coins, tuple(solution.coins_to(str(i)) for i in range(len(markets))))


def _producers(fixed, choices, names):
    from duel.payment_model import Producer

    out = [Producer((names[j],), n, f"fixed {names[j]}") for j, n in enumerate(fixed) if n]
    out += [Producer(tuple(names[j] for j in c), 1, f"choice {k}") for k, c in enumerate(choices)]
    return tuple(out)


def to_problem(need, own, markets, names=None):
    """Build the :class:`duel.payment_model.PaymentProblem` for a projected situation."""
    from duel.payment_model import Market, PaymentProblem

    names = names or [f"r{j}" for j in range(len(need))]
    return PaymentProblem(
        need={names[j]: n for j, n in enumerate(need)},
        own=_producers(own[0], own[1], names),
        markets=tuple(
            Market(str(i), {names[j]: p for j, p in enumerate(prices)}, _producers(f, c, names))
            for i, (f, c, prices) in enumerate(markets)
        ),
    )


def full_problem(
    need: tuple[int, ...],
    own: Supply,
    markets: tuple[tuple[Supply, tuple[int, ...]], ...],
    labels: tuple[str, ...],
):
    """The unprojected problem with real resource names and market ``labels`` (for explanations
    and tests)."""
    from duel.payment_model import Market, PaymentProblem

    def producers(s: Supply):
        from duel.payment_model import Producer

        out = [Producer((RESOURCES[r],), n, RESOURCES[r]) for r, n in enumerate(s.fixed) if n]
        out += [
            Producer(tuple(RESOURCES[r] for r in c), 1, "/".join(RESOURCES[r] for r in c))
            for c in s.choices
        ]
        return tuple(out)

    return PaymentProblem(
        need={RESOURCES[r]: n for r, n in enumerate(need) if n},
        own=producers(own),
        markets=tuple(
            Market(label, {RESOURCES[r]: p for r, p in enumerate(prices)}, producers(s))
            for label, (s, prices) in zip(labels, markets, strict=True)
        ),
    )
