"""Exact cheapest payment of a resource cost, as an OR-Tools CP-SAT model.

One generic model serves two games. It is part of the engine layer (it imports nothing of the
solvers or the programs), so the base game's rules use it without depending on the solvers:

* the base game uses it as its trading engine (buy missing units from the left and right
  neighbours, each unit at most once per producer, at per-neighbour prices);
* the Duel engine uses it as an independent oracle for its fast pricing code (an unlimited bank at
  per-resource prices, plus up to two waived units from Masonry / Architecture).

The problem: ``need`` maps resources to units. Units come from the player's own producers (free),
from markets (coins per unit, paid to that market) and from a waiver (free, up to ``waivable``
units of any resource). A :class:`Producer` yields ``count`` units per payment, each of one of its
``options``; a producer with two options is a "choice" producer (one unit of ONE resource).

Tie-break among plans of equal cost, in this order (lexicographic, encoded as one weighted
objective):

1. fewest coins (the real objective);
2. fewest purchased units (use own production first);
3. fewest waived units;
4. lowest ``sum(market index * units)``: buy from earlier markets in ``markets`` first;
5. a fixed per-variable order: earlier producers and earlier resources (in the order of ``need``)
   are used first.

CP-SAT runs single-threaded with a fixed seed, so the result is reproducible.

>>> p = PaymentProblem(
...     need={"wood": 2, "ore": 1},
...     own=(Producer(("wood",), label="Lumber Yard"),),
...     markets=(
...         Market("left", {"wood": 2, "ore": 2}, (Producer(("ore",), label="Ore Vein"),)),
...         Market("right", {"wood": 1, "ore": 1}, (Producer(("wood", "ore"), label="FC"),)),
...     ),
... )
>>> s = solve(p)
>>> s.coins, s.coins_to("left"), s.coins_to("right")
(3, 2, 1)
>>> brute_force(p)
3
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

__all__ = [
    "Market",
    "PaymentProblem",
    "PaymentSolution",
    "Producer",
    "Purchase",
    "brute_force",
    "check_solution",
    "solve",
]


@dataclass(frozen=True)
class Producer:
    """A source of ``count`` units per payment, each unit one of ``options``.

    ``Producer(("wood",), 2)`` is a Sawmill (two wood); ``Producer(("wood", "clay"))`` is a Tree
    Farm (one wood OR one clay, never both).

    >>> Producer(("clay", "ore"), label="Clay Pit").count
    1
    """

    options: tuple[str, ...]
    count: int = 1
    label: str = ""


@dataclass(frozen=True)
class Market:
    """Somewhere units can be bought, at ``prices[resource]`` coins per unit.

    ``producers=None`` means an unlimited supply (the Duel bank). Otherwise only the units of
    ``producers`` can be bought, each at most once. A resource absent from ``prices`` cannot be
    bought here.

    >>> Market("left", {"wood": 2}, (Producer(("wood",), label="Lumber Yard"),)).label
    'left'
    """

    label: str
    prices: Mapping[str, int]
    producers: tuple[Producer, ...] | None = None


@dataclass(frozen=True)
class PaymentProblem:
    """What must be paid (``need``) and what is available to pay it.

    >>> PaymentProblem({"stone": 1}, own=(Producer(("stone",)),)).waivable
    0
    """

    need: Mapping[str, int]
    own: tuple[Producer, ...] = ()
    markets: tuple[Market, ...] = ()
    waivable: int = 0


@dataclass(frozen=True)
class Purchase:
    """``units`` of ``resource`` bought from ``market`` at ``unit_price`` each.

    >>> Purchase("left", "ore", 2, 2, "Ore Vein").units
    2
    """

    market: str
    resource: str
    units: int
    unit_price: int
    source: str = ""


@dataclass(frozen=True)
class PaymentSolution:
    """An optimal plan: own production used, purchases and waived units.

    >>> PaymentSolution(4, (), (Purchase("left", "ore", 2, 2),), ()).coins_to("left")
    4
    """

    coins: int
    own_used: tuple[tuple[str, str, int], ...]
    purchases: tuple[Purchase, ...]
    waived: tuple[tuple[str, int], ...]

    def coins_to(self, market: str) -> int:
        """Coins paid to the market labelled ``market``."""
        return sum(p.units * p.unit_price for p in self.purchases if p.market == market)


def _cp_model() -> Any:
    from ortools.sat.python import cp_model  # imported lazily: only this module uses OR-Tools

    return cp_model


@cache
def _lean_model_class() -> Any:
    """``CpModel`` without its per-instance camelCase alias set-up (about 0.7 ms per model, half
    the cost of a whole small solve). Falls back to ``CpModel`` if OR-Tools' internals change."""
    cp_model = _cp_model()
    helper: Any = getattr(cp_model, "cmh", None)
    base: Any = cp_model.CpModel
    if helper is None or not hasattr(helper, "CpBaseModel"):
        return base

    class LeanCpModel(base):
        def __init__(self) -> None:
            helper.CpBaseModel.__init__(self, None)

    return LeanCpModel


def _relevant(problem: PaymentProblem) -> list[str]:
    return [r for r, n in problem.need.items() if n > 0]


def solve(problem: PaymentProblem, *, time_limit_s: float = 5.0) -> PaymentSolution | None:
    """Return a provably cheapest plan, or ``None`` when ``need`` cannot be covered at all.

    Raises ``RuntimeError`` if CP-SAT does not prove optimality within ``time_limit_s``.

    >>> solve(PaymentProblem({"glass": 1})) is None
    True
    >>> solve(PaymentProblem({"glass": 1}, waivable=2)).waived
    (('glass', 1),)
    """
    resources = _relevant(problem)
    if not resources:
        return PaymentSolution(0, (), (), ())
    cp_model = _cp_model()
    need = {r: problem.need[r] for r in resources}
    total = sum(need.values())
    model = _lean_model_class()()
    cover: dict[str, list[Any]] = {r: [] for r in resources}
    own_vars: list[tuple[Any, str, str, int]] = []  # var, producer label, resource, order weight
    buy_vars: list[tuple[Any, int, str, str, int, int]] = []  # var, market, res, src, price, order
    order = 0

    def producer_vars(prod: Producer, allowed: list[str]) -> list[tuple[Any, str]]:
        out = []
        for r in allowed:
            out.append((model.new_int_var(0, min(prod.count, need[r]), ""), r))
        if len(out) > 1:
            model.add(sum(v for v, _ in out) <= prod.count)
        return out

    for prod in problem.own:
        allowed = [r for r in dict.fromkeys(prod.options) if r in need]
        for var, r in producer_vars(prod, allowed):
            order += 1
            cover[r].append(var)
            own_vars.append((var, prod.label, r, order))
    for mi, market in enumerate(problem.markets):
        sellable = [r for r in resources if r in market.prices]
        if market.producers is None:
            for r in sellable:
                order += 1
                var = model.new_int_var(0, need[r], "")
                cover[r].append(var)
                buy_vars.append((var, mi, r, "", int(market.prices[r]), order))
            continue
        for prod in market.producers:
            allowed = [r for r in dict.fromkeys(prod.options) if r in need and r in sellable]
            for var, r in producer_vars(prod, allowed):
                order += 1
                cover[r].append(var)
                buy_vars.append((var, mi, r, prod.label, int(market.prices[r]), order))
    waive_vars: dict[str, Any] = {}
    if problem.waivable > 0:
        for r in resources:
            var = model.new_int_var(0, min(need[r], problem.waivable), "")
            waive_vars[r] = var
            cover[r].append(var)
        model.add(sum(waive_vars.values()) <= problem.waivable)
    for r in resources:
        if not cover[r]:
            return None
        model.add(sum(cover[r]) == need[r])

    coins = sum(price * var for var, _, _, _, price, _ in buy_vars)
    bought = sum(var for var, *_ in buy_vars)
    waived = sum(waive_vars.values())
    market_rank = sum(mi * var for var, mi, *_ in buy_vars)
    var_rank = sum(o * var for var, *_, o in own_vars) + sum(o * var for var, *_, o in buy_vars)
    max_price = max((price for *_, price, _ in buy_vars), default=0)
    bounds = [total * max_price, total, total, total * len(problem.markets), total * (order + 1)]
    weights = [1] * len(bounds)
    for k in range(len(bounds) - 2, -1, -1):
        weights[k] = weights[k + 1] * (bounds[k + 1] + 1)
    terms = (coins, bought, waived, market_rank, var_rank)
    model.minimize(sum(w * t for w, t in zip(weights, terms, strict=True)))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = time_limit_s
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT did not prove optimality: {solver.status_name(status)}")

    own_used = tuple((label, r, v) for var, label, r, _ in own_vars if (v := solver.value(var)) > 0)
    purchases = tuple(
        Purchase(problem.markets[mi].label, r, v, price, src)
        for var, mi, r, src, price, _ in buy_vars
        if (v := solver.value(var)) > 0
    )
    waived_out = tuple((r, v) for r, var in waive_vars.items() if (v := solver.value(var)) > 0)
    total_coins = sum(p.units * p.unit_price for p in purchases)
    return PaymentSolution(total_coins, own_used, purchases, waived_out)


def check_solution(problem: PaymentProblem, solution: PaymentSolution) -> list[str]:
    """List every way ``solution`` fails to be a valid plan for ``problem`` (empty if valid).

    Checks: ``need`` covered exactly, no producer used beyond its ``count`` or outside its
    ``options``, purchases at the market's price and only what it sells, waiver within bounds,
    and ``coins`` equal to the sum of the purchases.

    >>> prob = PaymentProblem({"wood": 1}, own=(Producer(("wood",), label="LY"),))
    >>> check_solution(prob, PaymentSolution(0, (("LY", "wood", 1),), (), ()))
    []
    """
    errors: list[str] = []
    got: dict[str, int] = {}
    labels_own: dict[str, list[Producer]] = {}
    for prod in problem.own:
        labels_own.setdefault(prod.label, []).append(prod)
    used_own: dict[str, int] = {}
    for label, r, units in solution.own_used:
        prods = labels_own.get(label)
        if not prods:
            errors.append(f"own producer {label!r} does not exist")
            continue
        if not any(r in p.options for p in prods):
            errors.append(f"own producer {label!r} cannot give {r}")
        used_own[label] = used_own.get(label, 0) + units
        got[r] = got.get(r, 0) + units
    for label, units in used_own.items():
        if units > sum(p.count for p in labels_own[label]):
            errors.append(f"own producer {label!r} used for {units} units")
    markets = {m.label: m for m in problem.markets}
    used_src: dict[tuple[str, str], int] = {}
    for p in solution.purchases:
        market = markets.get(p.market)
        if market is None:
            errors.append(f"no market {p.market!r}")
            continue
        if p.resource not in market.prices or market.prices[p.resource] != p.unit_price:
            errors.append(f"{p.market} does not sell {p.resource} at {p.unit_price}")
        if market.producers is not None:
            prods = [q for q in market.producers if q.label == p.source]
            if not any(p.resource in q.options for q in prods):
                errors.append(f"{p.market} producer {p.source!r} cannot give {p.resource}")
            key = (p.market, p.source)
            used_src[key] = used_src.get(key, 0) + p.units
            if used_src[key] > sum(q.count for q in prods):
                errors.append(f"{p.market} producer {p.source!r} oversold")
        got[p.resource] = got.get(p.resource, 0) + p.units
    waived = 0
    for r, units in solution.waived:
        waived += units
        got[r] = got.get(r, 0) + units
    if waived > problem.waivable:
        errors.append(f"waived {waived} > {problem.waivable}")
    need = {r: n for r, n in problem.need.items() if n > 0}
    got = {r: n for r, n in got.items() if n > 0}
    if got != need:
        errors.append(f"covers {got}, needs {need}")
    if solution.coins != sum(p.units * p.unit_price for p in solution.purchases):
        errors.append("coins differ from the purchases")
    return errors


def brute_force(problem: PaymentProblem) -> int | None:
    """Exhaustive minimum number of coins (``None`` if impossible); for tests on small problems.

    Every producer's split of its units between its options is enumerated, then every waiver
    split; units still missing are bought from the cheapest unlimited market.

    >>> brute_force(PaymentProblem({"ore": 2}, markets=(Market("bank", {"ore": 3}),)))
    6
    """
    resources = _relevant(problem)
    need0 = tuple(problem.need[r] for r in resources)
    slots: list[tuple[int, tuple[tuple[int, int], ...]]] = []  # (count, ((res idx, price), ...))
    for prod in problem.own:
        opts = tuple((resources.index(r), 0) for r in dict.fromkeys(prod.options) if r in resources)
        if opts:
            slots.append((prod.count, opts))
    unlimited: list[int | None] = [None] * len(resources)
    for market in problem.markets:
        if market.producers is None:
            for i, r in enumerate(resources):
                if r in market.prices:
                    price = int(market.prices[r])
                    best = unlimited[i]
                    unlimited[i] = price if best is None else min(best, price)
            continue
        for prod in market.producers:
            opts = tuple(
                (resources.index(r), int(market.prices[r]))
                for r in dict.fromkeys(prod.options)
                if r in resources and r in market.prices
            )
            if opts:
                slots.append((prod.count, opts))

    def splits(
        count: int, opts: tuple[tuple[int, int], ...], rem: tuple[int, ...]
    ) -> Iterator[tuple[int, ...]]:
        # every way to give at most `count` units to the options, within what is still needed
        if not opts:
            yield ()
            return
        (ri, _), rest = opts[0], opts[1:]
        for k in range(min(count, rem[ri]) + 1):
            for tail in splits(count - k, rest, rem):
                yield (k, *tail)

    def finish(rem: tuple[int, ...]) -> float:
        best = float("inf")

        def waive(i: int, left: int, acc: float) -> None:
            nonlocal best
            if i == len(rem):
                best = min(best, acc)
                return
            for w in range(min(left, rem[i]) + 1):
                buy = rem[i] - w
                if buy and unlimited[i] is None:
                    continue
                waive(i + 1, left - w, acc + buy * (unlimited[i] or 0))

        waive(0, problem.waivable, 0)
        return best

    @cache
    def go(i: int, rem: tuple[int, ...]) -> float:
        if i == len(slots):
            return finish(rem)
        count, opts = slots[i]
        best = float("inf")
        for split in splits(count, opts, rem):
            new = list(rem)
            cost = 0
            for (ri, price), k in zip(opts, split, strict=True):
                new[ri] -= k
                cost += k * price
            best = min(best, cost + go(i + 1, tuple(new)))
        return best

    result = go(0, need0)
    return None if result == float("inf") else int(result)
