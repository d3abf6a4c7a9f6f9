"""The base game of 7 Wonders (2010 first edition) for 2 to 7 players, as an immutable state.

OpenSpiel-like API: :func:`new_game` makes the initial :class:`GameState`;
``state.current_players()`` lists who must decide, ``state.legal_moves(player)`` their options,
``state.apply(move)`` returns a new state (the old one is unchanged), ``state.is_terminal()``,
``state.scores()`` and ``state.returns()`` finish the game.

Turns are simultaneous: every player's choice is recorded (hidden) and the turn resolves when the
last one arrives, all against the state at the start of the turn (coins, neighbours' production,
discounts). In the 2-player variant the player holding the Free City card decides twice: first for
their own city, then for the Free City (city 2).

Cities are numbered clockwise; the **left** neighbour of city ``c`` is ``c + 1`` and the right one
``c - 1`` (mod the number of cities). Ages I and III pass hands to the left, Age II to the right.

>>> s = new_game(3, seed=1)
>>> s.current_players()
(0, 1, 2)
>>> for p in s.current_players():
...     s = s.apply(s.legal_moves(p)[-1])  # everyone discards
>>> s.turn, [c.coins for c in s.cities]
(2, [6, 6, 6])
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache

from duel.reason import Reason, template
from wonders.cards import (
    CARD_BY_NAME,
    CARDS,
    COLORS,
    RESOURCES,
    SYMBOLS,
    WONDERS,
    WORDS,
    Card,
    Wonder,
    _joined,
    age_deck,
)
from wonders.science import science_score
from wonders.trading import Price, Supply, cheapest

ACTIONS = ("build", "wonder", "discard", "free", "pick")
VICTORY = {1: 1, 2: 3, 3: 5}
FREE_CITY_NAME = "Free City"


class IllegalMoveError(ValueError):
    """A move that the rules do not allow here; the message says why."""


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One decision: ``action`` (build / wonder / discard / free / pick) with ``card``, for city
    ``city``. ``free`` is Olympia A's free build, ``pick`` Halicarnassus' build from the discard.

    >>> str(Move(0, "wonder", "Temple"))
    'wonder Temple'
    """

    city: int
    action: str
    card: str

    def __str__(self) -> str:
        return f"{self.action} {self.card}"


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything derived from a city's built cards and Wonder stages."""

    names: frozenset[str]
    colors: tuple[int, ...]  # counts in COLORS order
    own: Supply  # what the city itself can use
    sell: Supply  # what neighbours may buy from it
    prices: tuple[tuple[int, ...], tuple[int, ...]]  # buyer's unit prices (left, right)
    shields: int
    science: tuple[int, int, int, int]  # compass, gear, tablet, wildcards
    chain_free: frozenset[str]
    free_build: bool
    last_card: bool
    copy_guild: bool

    def color(self, name: str) -> int:
        return self.colors[COLORS.index(name)]


@lru_cache(maxsize=1 << 16)
def _profile(wonder_id: int, built: tuple[int, ...], stages: int) -> Profile:
    w = WONDERS[wonder_id]
    fixed = [0] * 7
    fixed[w.resource] += 1
    own_choices: list[tuple[int, ...]] = []
    sell_choices: list[tuple[int, ...]] = []
    prices = ([2] * 7, [2] * 7)
    colors = [0] * len(COLORS)
    science = [0, 0, 0, 0]
    shields = 0
    chain_free: set[str] = set()
    flags: set[str] = set()
    effects = []
    for cid in built:
        card = CARDS[cid]
        colors[COLORS.index(card.color)] += 1
        chain_free.update(card.chains_to)
        effects.extend(card.effects)
    for stage in w.stages[:stages]:
        effects.extend(stage.effects)
    for e in effects:
        t = e.type
        if t == "produce":
            fixed[e.resource] += e.count
        elif t == "produce_choice":
            own_choices.append(e.options)
            if e.tradable:
                sell_choices.append(e.options)
        elif t == "trade_discount":
            side = prices[0 if e.side == "left" else 1]
            for r in e.resources:
                side[r] = min(side[r], e.price)
        elif t == "shields":
            shields += e.count
        elif t == "science":
            science[3 if e.symbol == "any" else SYMBOLS.index(e.symbol)] += 1
        elif t in ("free_build_once_per_age", "play_last_card_each_age", "copy_neighbor_guild"):
            flags.add(t)
    fixed_t = tuple(fixed)
    return Profile(
        names=frozenset(CARDS[cid].name for cid in built),
        colors=tuple(colors),
        own=Supply(fixed_t, tuple(own_choices)),
        sell=Supply(fixed_t, tuple(sell_choices)),
        prices=(tuple(prices[0]), tuple(prices[1])),
        shields=shields,
        science=(science[0], science[1], science[2], science[3]),
        chain_free=frozenset(chain_free),
        free_build="free_build_once_per_age" in flags,
        last_card="play_last_card_each_age" in flags,
        copy_guild="copy_neighbor_guild" in flags,
    )


@dataclass(frozen=True, slots=True)
class City:
    """One city: its board (``wonder`` id), coins, built structures (card ids), stages built,
    cards tucked under the board, conflict tokens, and the Age Olympia's free build was used."""

    wonder: int
    coins: int = 3
    built: tuple[int, ...] = ()
    stages: int = 0
    stage_cards: tuple[int, ...] = ()
    tokens: tuple[int, ...] = ()
    free_used_age: int = 0

    @property
    def board(self) -> Wonder:
        return WONDERS[self.wonder]

    @property
    def profile(self) -> Profile:
        return _profile(self.wonder, self.built, self.stages)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The scoring pad, one column per city."""

    military: int
    treasury: int
    wonder: int
    civilian: int
    science: int
    commerce: int
    guilds: int
    coins: int

    @property
    def total(self) -> int:
        return (
            self.military
            + self.treasury
            + self.wonder
            + self.civilian
            + self.science
            + self.commerce
            + self.guilds
        )


CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commerce", "guilds")


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game. Never mutated: :meth:`apply` returns a new state."""

    players: int
    cities: tuple[City, ...]
    hands: tuple[tuple[int, ...], ...]
    decks: tuple[tuple[int, ...], ...]  # decks of the Ages still to deal, next one first
    discard: tuple[int, ...] = ()
    box: tuple[int, ...] = ()  # cards set aside at setup
    fc_pile: tuple[int, ...] = ()
    fc_holder: int = -1  # player holding the Free City card (2-player variant), else -1
    age: int = 1
    turn: int = 1  # 1..6; 7 is Babylon B's extra step after the 6th turn
    phase: str = "choose"  # choose / pick / last / over
    to_act: tuple[int, ...] = ()  # cities with a decision in this phase
    pending: tuple[Move | None, ...] = ()
    log: tuple[str, ...] = ()  # what happened in the last resolution
    _memo: dict = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)

    # ----------------------------------------------------------------- seating
    @property
    def n(self) -> int:
        return len(self.cities)

    @property
    def free_city(self) -> int | None:
        """The Free City's index (2-player variant), else ``None``."""
        return 2 if self.players == 2 else None

    def left(self, c: int) -> int:
        return (c + 1) % self.n

    def right(self, c: int) -> int:
        return (c - 1) % self.n

    def controller(self, c: int) -> int:
        """The player who decides for city ``c``."""
        return self.fc_holder if c == self.free_city else c

    def city_name(self, c: int) -> str:
        base = FREE_CITY_NAME if c == self.free_city else f"P{c}"
        return f"{base} ({self.cities[c].board.label})"

    # ----------------------------------------------------------------- API
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_players(self) -> tuple[int, ...]:
        """Players who still owe a decision in this phase (sorted)."""
        return tuple(sorted({self.controller(c) for c in self.to_act if self.pending[c] is None}))

    def decision_city(self, player: int) -> int | None:
        """The city ``player`` decides for next (their own city before the Free City)."""
        todo = [c for c in self.to_act if self.pending[c] is None and self.controller(c) == player]
        if not todo:
            return None
        return player if player in todo else todo[0]

    def options(self, player: int) -> tuple[int, ...]:
        """Card ids ``player`` chooses from for their next decision."""
        c = self.decision_city(player)
        return () if c is None else self._source(c)

    def legal_moves(self, player: int) -> list[Move]:
        """Legal moves for ``player``'s next decision (empty if they have none)."""
        c = self.decision_city(player)
        if c is None:
            return []
        key = ("moves", c)
        if key not in self._memo:
            self._memo[key] = self._legal_for_city(c)
        return list(self._memo[key])

    def apply(self, move: Move) -> GameState:
        """Record ``move``; resolve the step once everyone has decided. Returns a new state."""
        if self.phase == "over":
            raise IllegalMoveError(Reason("the game is over"))
        c = move.city
        if not 0 <= c < self.n or c not in self.to_act or self.pending[c] is not None:
            raise IllegalMoveError(
                Reason("{city} has no decision to make now", city=self._city_ref(c))
            )
        player = self.controller(c)
        if self.decision_city(player) != c:
            raise IllegalMoveError(
                Reason("choose the card for your own city before the Free City's")
            )
        if move not in self.legal_moves(player):
            raise IllegalMoveError(self.why_illegal(move))
        pending = list(self.pending)
        pending[c] = move
        state = replace(self, pending=tuple(pending))
        if any(pending[x] is None for x in self.to_act):
            return state
        return state._resolve()

    def apply_all(self, moves: list[Move]) -> GameState:
        """Apply several moves in order (e.g. one per player for a whole turn)."""
        state = self
        for m in moves:
            state = state.apply(m)
        return state

    def scores(self) -> tuple[ScoreSheet, ...]:
        """Score sheets for every city (valid at any time; final once terminal)."""
        return tuple(score_city(self, c) for c in range(self.n))

    def winners(self) -> tuple[int, ...]:
        """Winning players: highest total, then most coins; a coin tie is a shared win."""
        sheets = self.scores()[: self.players]
        best = max((s.total, s.coins) for s in sheets)
        return tuple(p for p, s in enumerate(sheets) if (s.total, s.coins) == best)

    def returns(self) -> tuple[float, ...]:
        """Per player: 1 for a sole win, 1/k for a win shared by k players, else 0."""
        if not self.is_terminal():
            return (0.0,) * self.players
        win = self.winners()
        return tuple(1.0 / len(win) if p in win else 0.0 for p in range(self.players))

    # ----------------------------------------------------------------- prices
    def card_price(self, c: int, card: Card) -> Price | None:
        """Coins city ``c`` pays to build ``card`` now (bank coin cost included in ``total``;
        ``paid`` = coins to the left and right neighbours). ``None``: resources unavailable."""
        if card.name in self.cities[c].profile.chain_free:
            return Price(0, (0, 0))
        trade = self._trade_price(c, card.cost)
        if trade is None or not card.coins:
            return trade
        return Price(trade.total + card.coins, trade.paid)

    def stage_price(self, c: int) -> Price | None:
        """Coins city ``c`` pays for its next Wonder stage (``None``: none left, or impossible)."""
        city = self.cities[c]
        if city.stages >= len(city.board.stages):
            return None
        return self._trade_price(c, city.board.stages[city.stages].cost)

    def _markets(self, c: int) -> tuple[tuple[Supply, tuple[int, ...]], ...]:
        prices = self.cities[c].profile.prices
        lp = self.cities[self.left(c)].profile.sell
        rp = self.cities[self.right(c)].profile.sell
        return ((lp, prices[0]), (rp, prices[1]))

    def _trade_price(self, c: int, need: tuple[int, ...]) -> Price | None:
        if not any(need):
            return Price(0, (0, 0))
        key = ("price", c, need)
        if key in self._memo:
            return self._memo[key]
        markets = self._markets(c)
        own = self.cities[c].profile.own
        # the Free City prefers to pay its controller among equally cheap plans
        if c == self.free_city and self.fc_holder == self.right(c):
            price = cheapest(need, own, markets[::-1])
            price = None if price is None else Price(price.total, price.paid[::-1])
        else:
            price = cheapest(need, own, markets)
        self._memo[key] = price
        return price

    # ----------------------------------------------------------------- moves
    def _source(self, c: int) -> tuple[int, ...]:
        """Card ids city ``c`` decides from in this phase."""
        if self.phase == "pick":
            return self.discard
        if self.phase == "last":
            return self.fc_pile if c == self.free_city else self.hands[c]
        ctrl = self.controller(c)
        hand = self.hands[ctrl]
        if c != ctrl and self.pending[ctrl] is not None:
            hand = _without(hand, self.pending[ctrl].card)
        return hand

    def _legal_for_city(self, c: int) -> tuple[Move, ...]:
        city = self.cities[c]
        prof = city.profile
        names = list(dict.fromkeys(CARDS[i].name for i in self._source(c)))
        if self.phase == "pick":
            return tuple(Move(c, "pick", n) for n in names if n not in prof.names)
        stage = self.stage_price(c)
        stage_ok = stage is not None and stage.total <= city.coins
        free_ok = prof.free_build and city.free_used_age != self.age and self.phase == "choose"
        moves: list[Move] = []
        playable = False
        for name in names:
            if name not in prof.names:
                price = self.card_price(c, CARD_BY_NAME[name])
                if price is not None and price.total <= city.coins:
                    moves.append(Move(c, "build", name))
                    playable = True
                if free_ok and (price is None or price.total > 0):
                    moves.append(Move(c, "free", name))
                    playable = True
            if stage_ok:
                moves.append(Move(c, "wonder", name))
                playable = True
            moves.append(Move(c, "discard", name))
        if c == self.free_city and playable:
            # the Free City discards only a card it can neither build nor use for a stage, and
            # its controller must give it a playable card when one exists
            moves = [m for m in moves if m.action != "discard"]
        return tuple(moves)

    def why_illegal(self, move: Move) -> Reason:
        """A sentence saying why ``move`` is not legal (or that it is)."""
        c = move.city
        if move.action not in ACTIONS:
            return Reason(
                "unknown action {action} (use one of {actions})",
                action=repr(move.action),
                actions=", ".join(ACTIONS),
            )
        if c not in self.to_act:
            return Reason("{city} has no decision to make now", city=self._city_ref(c))
        ids = self._source(c)
        if move.card not in {CARDS[i].name for i in ids}:
            if self.phase == "pick":
                return Reason("{card} is not in the discard pile", card=move.card)
            return Reason("{card} is not in your hand", card=move.card)
        if move in self._legal_for_city(c):
            return Reason("the move is legal")
        city = self.cities[c]
        prof = city.profile
        card = CARD_BY_NAME[move.card]
        if self.phase == "pick" and move.action != "pick":
            return Reason("choose a card from the discard pile to build for free (pick <card>)")
        if self.phase != "pick" and move.action == "pick":
            return Reason("pick is only for Halicarnassus' build from the discard pile")
        if move.action in ("build", "free", "pick") and card.name in prof.names:
            return Reason("you already built {card} (no two identical structures)", card=card.name)
        if move.action == "free":
            if not prof.free_build:
                return Reason("free builds need Olympia A's second stage")
            if city.free_used_age == self.age:
                return Reason("Olympia's free build was already used this Age")
            if self.phase != "choose":
                return Reason("Olympia's free build is only for cards of your hand")
            return Reason(
                "{card} can be built at no cost anyway; keep the free build", card=card.name
            )
        if move.action == "discard" and c == self.free_city:
            return Reason(
                "the Free City may only discard when none of its cards can be built or staged"
            )
        if move.action == "build":
            return self._cannot_pay(c, card.name, card.cost, card.coins)
        if move.action == "wonder":
            if city.stages >= len(city.board.stages):
                return Reason("your Wonder is complete")
            return self._cannot_pay(
                c,
                Reason("stage {n}", n=city.stages + 1),
                city.board.stages[city.stages].cost,
                0,
            )
        return Reason("not allowed now")

    def _cannot_pay(self, c: int, what: str, cost: tuple[int, ...], coins: int) -> Reason:
        from duel.payment_model import solve
        from wonders.trading import full_problem

        city = self.cities[c]
        units = tuple(
            Reason("{n} {resource}", n=n, resource=WORDS[RESOURCES[r]])
            for r, n in enumerate(cost)
            if n
        )
        needs: Reason | tuple = units or Reason("no resources")
        if coins:
            bank = Reason("{n} coin", n=coins) if coins == 1 else Reason("{n} coins", n=coins)
            needs = Reason("{needs} and {coins} for the bank", needs=needs, coins=bank)
        problem = full_problem(cost, city.profile.own, self._markets(c), ("left", "right"))
        plan = solve(problem)
        if plan is None:
            return Reason(
                "{what} needs {needs}: you and your neighbours cannot produce all of it",
                what=what,
                needs=needs,
            )
        parts = []
        for side in ("left", "right"):
            bought = [p for p in plan.purchases if p.market == side]
            if bought:
                units = tuple(
                    Reason("{n} {resource}", n=p.units, resource=WORDS[p.resource]) for p in bought
                )
                parts.append(
                    Reason(
                        "{n} coins to the {side} neighbour for {units}",
                        n=plan.coins_to(side),
                        side=WORDS[side],
                        units=units,
                    )
                )
        if coins:
            parts.append(Reason("{n} to the bank", n=coins))
        total = plan.coins + coins
        return Reason(
            "{what} needs {needs}: {parts} = {total} coins, you have {coins}",
            what=what,
            needs=needs,
            parts=_joined(parts, template("{first} + {rest}")),
            total=total,
            coins=city.coins,
        )

    def _city_ref(self, c: int) -> str:
        return Reason("city {c}", c=c) if not 0 <= c < self.n else self.city_name(c)

    # ----------------------------------------------------------------- resolution
    def _resolve(self) -> GameState:
        moves = [m for m in self.pending if m is not None]
        if self.phase == "pick":
            state, _ = self._execute(moves)
            return state._advance()
        state, triggers = self._execute(moves)
        if self.phase == "choose" and self.turn == 6:
            state = state._discard_leftovers()
        picks = [
            c
            for c in triggers
            if any(CARDS[i].name not in state.cities[c].profile.names for i in state.discard)
        ]
        if picks:
            log = state.log + tuple(
                Reason("{city} may build a card from the discard pile", city=state.city_name(c))
                for c in picks
            )
            return replace(
                state,
                phase="pick",
                to_act=tuple(picks),
                pending=(None,) * self.n,
                log=log,
            )
        if triggers:
            state = replace(
                state, log=state.log + (Reason("no card in the discard pile to build"),)
            )
        return state._advance()

    def _execute(self, moves: list[Move]) -> tuple[GameState, list[int]]:
        """Resolve ``moves`` simultaneously against this state. Returns the new state and the
        cities whose new Wonder stage lets them build from the discard pile."""
        n = self.n
        coins = [city.coins for city in self.cities]
        income = [0] * n
        built = [list(city.built) for city in self.cities]
        stages = [city.stages for city in self.cities]
        stage_cards = [list(city.stage_cards) for city in self.cities]
        free_used = [city.free_used_age for city in self.cities]
        hands = [list(h) for h in self.hands]
        pile = list(self.fc_pile)
        discard = list(self.discard)
        placed: list[tuple[int, Card | None, int]] = []  # (city, card built, stage index built)
        log: list[str] = []
        for m in moves:
            c = m.city
            # take the card from where it is
            if self.phase == "pick":
                container = discard
            elif self.phase == "last" and c == self.free_city:
                container = pile
            else:
                container = hands[self.controller(c)]
            cid = next(i for i in container if CARDS[i].name == m.card)
            container.remove(cid)
            card = CARDS[cid]
            name = self.city_name(c)
            if m.action in ("build", "free", "pick"):
                if m.action == "build":
                    price = self.card_price(c, card)
                    assert price is not None
                    coins[c] -= price.total
                    income[self.left(c)] += price.paid[0]
                    income[self.right(c)] += price.paid[1]
                    log.append(
                        Reason(
                            "{city} builds {card}{paid}",
                            city=name,
                            card=card.name,
                            paid=_paid_text(price),
                        )
                    )
                elif m.action == "free":
                    free_used[c] = self.age
                    log.append(
                        Reason("{city} builds {card} free (Olympia)", city=name, card=card.name)
                    )
                else:
                    log.append(
                        Reason(
                            "{city} builds {card} from the discard pile", city=name, card=card.name
                        )
                    )
                built[c].append(cid)
                placed.append((c, card, -1))
            elif m.action == "wonder":
                price = self.stage_price(c)
                assert price is not None
                coins[c] -= price.total
                income[self.left(c)] += price.paid[0]
                income[self.right(c)] += price.paid[1]
                stage_cards[c].append(cid)
                placed.append((c, None, stages[c]))
                stages[c] += 1
                log.append(
                    Reason(
                        "{city} builds Wonder stage {n}{paid}",
                        city=name,
                        n=stages[c],
                        paid=_paid_text(price),
                    )
                )
            else:
                discard.append(cid)
                income[c] += 3
                log.append(Reason("{city} discards {card} for 3 coins", city=name, card=card.name))
            if coins[c] < 0:
                raise AssertionError(f"{name} would have {coins[c]} coins")
        cities = [
            replace(
                city,
                built=tuple(built[c]),
                stages=stages[c],
                stage_cards=tuple(stage_cards[c]),
                free_used_age=free_used[c],
            )
            for c, city in enumerate(self.cities)
        ]
        # "now" effects, once every card of the step is in place (same-turn cards count)
        triggers: list[int] = []
        for c, card, stage in placed:
            effects = card.effects if card is not None else cities[c].board.stages[stage].effects
            for e in effects:
                gain = self._now_effect(cities, c, e)
                if gain:
                    income[c] += gain
                    what = card.name if card else Reason("stage {n}", n=stage + 1)
                    log.append(
                        Reason(
                            "{city} takes {n} coins ({what})",
                            city=self.city_name(c),
                            n=gain,
                            what=what,
                        )
                    )
                if e.type == "build_from_discard":
                    triggers.append(c)
        cities = [
            replace(city, coins=coins[c] + income[c])
            if coins[c] + income[c] != city.coins
            else city
            for c, city in enumerate(cities)
        ]
        state = replace(
            self,
            cities=tuple(cities),
            hands=tuple(tuple(h) for h in hands),
            fc_pile=tuple(pile),
            discard=tuple(discard),
            log=tuple(log),
        )
        return state, triggers

    def _now_effect(self, cities: list[City], c: int, e) -> int:
        t = e.type
        if t == "coins":
            return e.count
        if t == "coins_per_card":
            total = 0
            for x in self._scope(c, e.scope):
                prof = cities[x].profile
                total += sum(prof.color(col) for col in e.colors)
            return total * e.each
        if t == "coins_per_wonder_stage":
            return e.each * sum(cities[x].stages for x in self._scope(c, e.scope))
        return 0

    def _scope(self, c: int, scope: tuple[str, ...]) -> list[int]:
        where = {"self": c, "left": self.left(c), "right": self.right(c)}
        return [where[s] for s in scope]

    def _last_card_cities(self) -> list[int]:
        out = []
        for c in range(self.n):
            if self.cities[c].profile.last_card:
                source = self.fc_pile if c == self.free_city else self.hands[c]
                if source:
                    out.append(c)
        return out

    def _discard_leftovers(self) -> GameState:
        """After the 6th turn, the last cards are discarded without coins (except Babylon B's)."""
        keep = set(self._last_card_cities())
        discard = list(self.discard)
        hands = list(self.hands)
        for c in range(self.players):
            if c not in keep:
                discard.extend(hands[c])
                hands[c] = ()
        pile = self.fc_pile
        if self.free_city is not None and self.free_city not in keep:
            discard.extend(pile)
            pile = ()
        return replace(self, hands=tuple(hands), fc_pile=pile, discard=tuple(discard))

    def _advance(self) -> GameState:
        if self.turn < 6:
            return self._pass_hands()._start_turn(self.turn + 1)
        if self.turn == 6:
            last = self._last_card_cities()
            if last:
                return replace(
                    self,
                    turn=7,
                    phase="last",
                    to_act=tuple(last),
                    pending=(None,) * self.n,
                    log=self.log
                    + tuple(
                        Reason("{city} may play its last card", city=self.city_name(c))
                        for c in last
                    ),
                )
        return self._end_age()

    def _pass_hands(self) -> GameState:
        hands = list(self.hands)
        if self.free_city is not None:
            hands[0], hands[1] = hands[1], hands[0]
            return replace(self, hands=tuple(hands), fc_holder=1 - self.fc_holder)
        new = [()] * self.n
        for c in range(self.n):
            to = self.left(c) if self.age != 2 else self.right(c)
            new[to] = hands[c]
        return replace(self, hands=tuple(new))

    def _start_turn(self, turn: int) -> GameState:
        hands = self.hands
        pile = self.fc_pile
        if self.free_city is not None:
            h = list(hands)
            h[self.fc_holder] = h[self.fc_holder] + pile[:1]
            hands, pile = tuple(h), pile[1:]
        return replace(
            self,
            hands=hands,
            fc_pile=pile,
            turn=turn,
            phase="choose",
            to_act=tuple(range(self.n)),
            pending=(None,) * self.n,
        )

    def _end_age(self) -> GameState:
        cities = list(self.cities)
        log = list(self.log)
        shields = [city.profile.shields for city in self.cities]
        for c in range(self.n):
            tokens = list(cities[c].tokens)
            for other in (self.left(c), self.right(c)):
                if shields[c] > shields[other]:
                    tokens.append(VICTORY[self.age])
                elif shields[c] < shields[other]:
                    tokens.append(-1)
            cities[c] = replace(cities[c], tokens=tuple(tokens))
            got = tokens[len(self.cities[c].tokens) :]
            log.append(
                Reason(
                    "Age {age} conflicts: {city} {tokens}",
                    age=self.age,
                    city=self.city_name(c),
                    tokens=_signed(got),
                )
            )
        state = replace(self, cities=tuple(cities), log=tuple(log))
        if self.age == 3:
            return replace(
                state, phase="over", to_act=(), pending=(None,) * self.n, hands=((),) * self.n
            )
        return state._deal(self.age + 1)

    def _deal(self, age: int) -> GameState:
        deck = self.decks[0]
        hands = tuple(deck[7 * p : 7 * p + 7] for p in range(self.players))
        pile: tuple[int, ...] = ()
        holder = -1
        if self.free_city is not None:
            hands += ((),)
            pile = deck[14:21]
            # Age I and III: the player to the left of the Free City; Age II: to its right
            fc = self.free_city
            holder = self.left(fc) if age != 2 else self.right(fc)
        state = replace(
            self, age=age, hands=hands, fc_pile=pile, fc_holder=holder, decks=self.decks[1:]
        )
        return state._start_turn(1)


def _without(hand: tuple[int, ...], name: str) -> tuple[int, ...]:
    out = list(hand)
    for i in out:
        if CARDS[i].name == name:
            out.remove(i)
            break
    return tuple(out)


def _paid_text(price: Price) -> Reason | str:
    parts = []
    bank = price.total - sum(price.paid)
    if bank:
        parts.append(Reason("{n} to the bank", n=bank))
    for side, amount in zip(("left", "right"), price.paid, strict=True):
        if amount:
            parts.append(Reason("{n} to the {side}", n=amount, side=WORDS[side]))
    return Reason(" (paying {parts})", parts=tuple(parts)) if parts else ""


def _signed(tokens: list[int]) -> Reason | str:
    return " ".join(f"{t:+d}" for t in tokens) or Reason("no token")


def new_game(
    players: int,
    seed: int = 0,
    *,
    sides: str = "random",
    wonders: list[tuple[str, str]] | None = None,
) -> GameState:
    """A new game for 2 to 7 players (2 = the Free City variant, with a third city).

    ``sides``: ``"random"`` (the dealt card's face decides), ``"A"`` or ``"B"``. ``wonders``
    fixes the boards instead, as ``[(city, side), ...]`` for every city.
    """
    from wonders.cards import CITIES
    from wonders.cards import wonder as find_wonder

    if not 2 <= players <= 7:
        raise ValueError("7 Wonders is played by 2 to 7 players (2 = Free City variant)")
    rng = random.Random(seed)
    n = max(players, 3)
    if wonders is not None:
        if len(wonders) != n:
            raise ValueError(f"give {n} wonders, one per city")
        boards = [find_wonder(city, side).id for city, side in wonders]
    else:
        cities = rng.sample(CITIES, n)
        boards = []
        for city in cities:
            side = rng.choice("AB") if sides == "random" else sides
            boards.append(find_wonder(city, side).id)
    decks = [tuple(age_deck(age, players, rng)) for age in (1, 2, 3)]
    in_play = {i for d in decks for i in d}
    box = tuple(c.id for c in CARDS if c.id not in in_play)
    state = GameState(
        players=players,
        cities=tuple(City(wonder=b) for b in boards),
        hands=((),) * n,
        decks=tuple(decks),
        box=box,
        pending=(None,) * n,
    )
    return state._deal(1)


def score_city(state: GameState, c: int) -> ScoreSheet:
    """The score sheet of city ``c`` (Olympia B's copied Guild chosen to maximise it)."""
    cities = state.cities
    city = cities[c]
    prof = city.profile
    civilian = commerce = guilds = wonder_pts = 0
    for cid in city.built:
        card = CARDS[cid]
        for e in card.effects:
            pts = _end_points(state, c, e)
            if card.color == "blue":
                civilian += pts
            elif card.color == "yellow":
                commerce += pts
            elif card.color == "purple":
                guilds += pts
    for stage in city.board.stages[: city.stages]:
        for e in stage.effects:
            wonder_pts += _end_points(state, c, e)
    compass, gear, tablet, wild = prof.science
    science = science_score(compass, gear, tablet, wild)
    if prof.copy_guild:
        best_gain, best_sci = 0, 0
        for other in {state.left(c), state.right(c)}:
            for cid in cities[other].built:
                card = CARDS[cid]
                if card.color != "purple":
                    continue
                gain = sum(_end_points(state, c, e) for e in card.effects)
                sci = 0
                if any(e.type == "science" for e in card.effects):
                    sci = science_score(compass, gear, tablet, wild + 1) - science
                if gain + sci > best_gain + best_sci:
                    best_gain, best_sci = gain, sci
        guilds += best_gain
        science += best_sci
    return ScoreSheet(
        military=sum(city.tokens),
        treasury=city.coins // 3,
        wonder=wonder_pts,
        civilian=civilian,
        science=science,
        commerce=commerce,
        guilds=guilds,
        coins=city.coins,
    )


def _end_points(state: GameState, c: int, e) -> int:
    t = e.type
    if t == "points":
        return e.count
    if t == "points_per_card":
        scope = state._scope(c, e.scope)
        return e.each * sum(state.cities[x].profile.color(col) for x in scope for col in e.colors)
    if t == "points_per_wonder_stage":
        return e.each * sum(state.cities[x].stages for x in state._scope(c, e.scope))
    if t == "points_per_defeat_token":
        scope = state._scope(c, e.scope)
        return e.each * sum(1 for x in scope for tok in state.cities[x].tokens if tok < 0)
    return 0


def all_card_ids(state: GameState) -> Counter[int]:
    """Every card id wherever it is (for conservation checks): should be each id exactly once."""
    ids: Counter[int] = Counter()
    for group in (state.discard, state.box, state.fc_pile, *state.hands, *state.decks):
        ids.update(group)
    for city in state.cities:
        ids.update(city.built)
        ids.update(city.stage_cards)
    return ids
