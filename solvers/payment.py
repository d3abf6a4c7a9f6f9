"""Explained cheapest payment for 7 Wonders Duel, and the bridge to the CP-SAT oracle.

The engine prices with :func:`duel.pricing.min_purchase_cost` (pricing is a rule of the game; the
argument that its greedy is optimal is there). This module explains the same cheapest plan unit
by unit (:func:`payment_plan`, for ``duel cost``) and states the same question as a generic
:class:`duel.payment_model.PaymentProblem` for the CP-SAT oracle (:func:`payment_problem`).

>>> import random
>>> from duel import new_game
>>> state, rng = new_game(), random.Random(2)
>>> while state.phase != "play":
...     state = state.apply(state.random_move(rng))
>>> plan = payment_plan(state, 0, wonder=state.wonders(0)[0])
>>> plan.item, plan.total, plan.affordable
('The Great Library', 10, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from duel.pricing import FAMILY_RAW, N_RESOURCES, cover_units, missing_units
from duel.reason import Reason

if TYPE_CHECKING:
    from duel.payment_model import PaymentProblem
    from duel.state import State


# --- explained plans (user-facing; the engine prices with duel.pricing) -------------------------


@dataclass(frozen=True)
class UnitPayment:
    """How one unit of a resource is paid: from ``source`` at ``price`` coins."""

    resource: str
    how: str  # "produced", "choice", "waived", "bought"
    source: str  # card, wonder or token name, or "bank"
    price: int = 0


@dataclass(frozen=True)
class PaymentPlan:
    """The cheapest way for ``player`` to build ``item`` in a given position."""

    item: str
    player: int
    coins_available: int
    printed_coins: int
    chained: bool
    chain_symbol: str | None
    urbanism_bonus: int
    units: tuple[UnitPayment, ...]
    economy_to_opponent: int

    @property
    def trade_coins(self) -> int:
        return sum(u.price for u in self.units if u.how == "bought")

    @property
    def total(self) -> int:
        return 0 if self.chained else self.printed_coins + self.trade_coins

    @property
    def affordable(self) -> bool:
        return self.total <= self.coins_available

    def describe(self) -> list[Reason]:
        """The plan in words, one line per fact (each a :class:`~duel.reason.Reason`: English
        text that the programs can translate)."""
        who = "AB"[self.player]
        lines = [
            Reason(
                "{item} for player {player} ({coins} coins):",
                item=self.item,
                player=who,
                coins=self.coins_available,
            )
        ]
        if self.chained:
            lines.append(
                Reason("  free through the chain symbol {symbol}", symbol=self.chain_symbol)
            )
            if self.urbanism_bonus:
                lines.append(Reason("  Urbanism: +{n} coins", n=self.urbanism_bonus))
            return lines
        if self.printed_coins:
            lines.append(Reason("  printed cost: {n} coins to the bank", n=self.printed_coins))
        for u in self.units:
            resource = Reason(u.resource)
            if u.how == "produced":
                line = Reason(
                    "  1 {resource}: produced by {source}", resource=resource, source=u.source
                )
            elif u.how == "choice":
                line = Reason(
                    "  1 {resource}: {source} (one of its resources, chosen now)",
                    resource=resource,
                    source=u.source,
                )
            elif u.how == "waived":
                line = Reason(
                    "  1 {resource}: waived by {source}", resource=resource, source=u.source
                )
            else:
                line = Reason("  1 {resource}: bought for {n} coins", resource=resource, n=u.price)
            lines.append(line)
        if not self.units and not self.printed_coins:
            lines.append(Reason("  free (no cost)"))
        if self.economy_to_opponent:
            lines.append(
                Reason(
                    "  Economy: the {n} trading coins go to the opponent",
                    n=self.economy_to_opponent,
                )
            )
        verdict = Reason("affordable") if self.affordable else Reason("NOT affordable")
        lines.append(Reason("  total: {n} coins ({verdict})", n=self.total, verdict=verdict))
        return lines

    def to_json(self) -> dict:
        return {
            "item": self.item,
            "player": "AB"[self.player],
            "coins_available": self.coins_available,
            "printed_coins": self.printed_coins,
            "chained": self.chained,
            "chain_symbol": self.chain_symbol,
            "urbanism_bonus": self.urbanism_bonus,
            "units": [
                {"resource": u.resource, "how": u.how, "source": u.source, "price": u.price}
                for u in self.units
            ],
            "trade_coins": self.trade_coins,
            "economy_to_opponent": self.economy_to_opponent,
            "total": self.total,
            "affordable": self.affordable,
        }


def payment_plan(
    state: State, player: int, *, card: int | None = None, wonder: int | None = None
) -> PaymentPlan:
    """Explain the cheapest payment of a card or wonder (exactly one of the two) for ``player``.

    See ``tests/test_payment.py`` for worked examples.
    """
    from duel.catalog import (
        CARDS,
        RESOURCES,
        T_ARCHITECTURE,
        T_ECONOMY,
        T_MASONRY,
        T_URBANISM,
        TOKENS,
        WONDERS,
    )

    if (card is None) == (wonder is None):
        raise ValueError("give exactly one of card= or wonder=")
    tokens = set(state.tokens(player))
    coins = state.coins(player)
    if card is not None:
        spec = CARDS[card]
        name, need, printed = spec.name, spec.need, spec.coin_cost
        if state.is_chained(player, card):
            return PaymentPlan(
                item=name,
                player=player,
                coins_available=coins,
                printed_coins=printed,
                chained=True,
                chain_symbol=spec.chain_from,
                urbanism_bonus=4 if T_URBANISM in tokens else 0,
                units=(),
                economy_to_opponent=0,
            )
        waiver = TOKENS[T_MASONRY].name if spec.color == "blue" and T_MASONRY in tokens else None
    else:
        assert wonder is not None
        name, need, printed = WONDERS[wonder].name, WONDERS[wonder].need, 0
        waiver = TOKENS[T_ARCHITECTURE].name if T_ARCHITECTURE in tokens else None
    producers = _fixed_producers(state, player)
    prices = state.trade_prices(player)
    units: list[UnitPayment] = []
    missing_need = list(need)
    for r, resource in enumerate(RESOURCES):
        for source in producers[r][: need[r]]:
            units.append(UnitPayment(resource, "produced", source))
            missing_need[r] -= 1
    raw_sources, man_sources = _choice_producers(state, player)
    missing = missing_units(missing_need, (0,) * N_RESOURCES, [prices[r] for r in RESOURCES])
    assigned, _ = cover_units(missing, len(raw_sources), len(man_sources), 2 if waiver else 0)
    raw_iter, man_iter = iter(raw_sources), iter(man_sources)
    for price, r, how in assigned:
        resource = RESOURCES[r]
        if how == "choice":
            source = next(raw_iter) if FAMILY_RAW[r] else next(man_iter)
            units.append(UnitPayment(resource, "choice", source))
        elif how == "waived":
            units.append(UnitPayment(resource, "waived", waiver or ""))
        else:
            units.append(UnitPayment(resource, "bought", "bank", price))
    trade = sum(u.price for u in units)
    economy = trade if T_ECONOMY in state.tokens(1 - player) else 0
    return PaymentPlan(
        item=name,
        player=player,
        coins_available=coins,
        printed_coins=printed,
        chained=False,
        chain_symbol=None,
        urbanism_bonus=0,
        units=tuple(units),
        economy_to_opponent=economy,
    )


def _fixed_producers(state: State, player: int) -> list[list[str]]:
    """For each resource, one source name per unit of fixed production."""
    from duel.catalog import CARDS

    sources: list[list[str]] = [[] for _ in range(N_RESOURCES)]
    for c in state.city(player):
        for r, n in enumerate(CARDS[c].produces):
            sources[r].extend([CARDS[c].name] * n)
    return sources


def _choice_producers(state: State, player: int) -> tuple[list[str], list[str]]:
    from duel.catalog import CARDS, WONDERS

    names = [CARDS[c].name for c in state.city(player) if CARDS[c].produce_choice]
    names += [WONDERS[w].name for w in state.built_wonders(player) if WONDERS[w].produce_choice]
    raw = [n for n in names if n in ("Caravansery", "The Great Lighthouse")]
    man = [n for n in names if n in ("Forum", "Piraeus")]
    return raw, man


def payment_problem(
    state: State, player: int, *, card: int | None = None, wonder: int | None = None
) -> PaymentProblem:
    """The same pricing question as a generic :class:`duel.payment_model.PaymentProblem`.

    Used to check the fast path against CP-SAT; chains and printed coins are outside the model
    (the caller adds ``printed_coins`` and treats a chain as free).
    """
    from duel.catalog import CARDS, RESOURCES, T_ARCHITECTURE, T_MASONRY, WONDERS
    from duel.payment_model import Market, PaymentProblem, Producer

    need = CARDS[card].need if card is not None else WONDERS[wonder].need
    tokens = set(state.tokens(player))
    if card is not None:
        waivable = 2 if CARDS[card].color == "blue" and T_MASONRY in tokens else 0
    else:
        waivable = 2 if T_ARCHITECTURE in tokens else 0
    own = [
        Producer((RESOURCES[r],), n, CARDS[c].name)
        for c in state.city(player)
        for r, n in enumerate(CARDS[c].produces)
        if n
    ]
    choices = [CARDS[c] for c in state.city(player) if CARDS[c].produce_choice]
    choices += [WONDERS[w] for w in state.built_wonders(player) if WONDERS[w].produce_choice]
    own += [Producer(tuple(RESOURCES[r] for r in x.produce_choice), 1, x.name) for x in choices]
    return PaymentProblem(
        need={RESOURCES[r]: n for r, n in enumerate(need) if n},
        own=tuple(own),
        markets=(Market("bank", state.trade_prices(player)),),
        waivable=waivable,
    )
