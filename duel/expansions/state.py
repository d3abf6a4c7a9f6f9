"""The rules engine of 7 Wonders Duel with its expansions: Pantheon now, Agora next (issue 27).

An :class:`XState` is a node of the game as in OpenSpiel and as :class:`duel.State` is: a decision
of ``to_move`` (``legal_moves()``), a chance node (``chance_outcomes()`` with exact
probabilities) or terminal (``returns()``). It is immutable: ``apply`` returns a new state that
shares the unchanged parts (tuples, frozensets and the pyramid's ``pvector``) with the old one.

Why a second engine: the base engine (:mod:`duel.state`) is bit-packed, mirrored rule for rule in
C and tuned for the solvers; the expansions change its prices, military track, coins, science
and scoring at many points. This engine is written for clarity over speed, plays the base game
too (``expansions=()``), and a test plays random base games through both engines and requires
the same moves, outcomes and results, so the two agree on every base rule
(``tests/expansions/test_base_agreement.py``).

**Private information** (``docs/engine.md``, "Private information"). A state has an
``observer``: ``None`` for the referee, who sees everything, or a player, whose *view* holds only
what that player knows. In Pantheon the private facts are a Divinity seated face down in Age I
(its seater knows it) and the Divinity put back on top of its deck (its drawer knows it). In a
view the opponent's private cards are ``None``, and where the rules turn one up the view is at a
chance node over the cards the observer cannot rule out. Genuine random draws have their exact
probabilities; for a card the opponent *chose* the view takes every card it cannot rule out as
equally likely (:data:`CHANCE_MODEL`). :meth:`XState.view` makes a view and :func:`observe` maps
a move to what a player sees of it; ``view(apply(R, m), p) == apply(view(R, p), observe(m, p))``
holds for every referee state ``R``, move ``m`` and player ``p`` (tested on random games).

>>> import random
>>> state = new_game(("pantheon",))
>>> state.is_chance(), len(state.chance_outcomes())
(True, 13)
>>> final = play_random_game(random.Random(3), state)
>>> final.is_terminal(), final.victory in ("military", "science", "civilian")
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pyrsistent import pmap, pvector

from duel.catalog import (
    CARDS,
    MAX_WONDERS_BUILT,
    RESOURCES,
    T_AGRICULTURE,
    T_ARCHITECTURE,
    T_MASONRY,
    T_MATHEMATICS,
    T_PHILOSOPHY,
    TOKENS,
    bits,
)
from duel.expansions.agora import CONSPIRACIES, REBATES, WAIVERS
from duel.expansions.components import (
    BY_MYTHOLOGY,
    DIVINITY,
    GATE,
    GATE_MULTIPLIER,
    MYSTICISM_POINTS,
    MYTHOLOGIES,
    SANCTUARY_DISCOUNT,
    SPACES,
    T_CORRUPTION,
    T_ENGINEERING,
    T_MYSTICISM,
    TEMPLE_IDS,
    TEMPLE_MYTHOLOGY,
    TEMPLE_POINTS,
    W_SANCTUARY,
    XCARDS,
    XTOKENS,
    XWONDERS,
    space_price,
)
from duel.expansions.legal import CHANCE, DECISIONS
from duel.expansions.moves import MILITARY_TOKEN_NAMES, XMove
from duel.expansions.queries import in_force, senate_points
from duel.expansions.rules import APPLY
from duel.expansions.table import (
    ALL_MILITARY,
    COLOR_OF,
    EXPANSIONS,
    FIELDS,
    GUILD_SET,
    HIDDEN,
    MILITARY_POINTS,
    SENATOR_SET,
    TEMPLE_SET,
    City,
    DeckCard,
    Space,
    XIllegalMoveError,
    XScore,
    category_count,
    token_pool,
    wonder_pool,
)
from duel.moves import PLAYER_NAMES
from duel.pricing import min_purchase_cost
from duel.pyramid_layouts import SLOTS
from duel.reason import Reason

if TYPE_CHECKING:
    from pyrsistent.typing import PMap, PVector


def draw_weighted(outcomes: list[tuple[XMove, int]], total: int, rng: random.Random) -> XMove:
    """One outcome of a chance node, drawn with its integer weight (of ``total``); the compiled
    core's states draw theirs the same way (``duel.xcore``)."""
    x = rng.random() * total
    for move, weight in outcomes:
        x -= weight
        if x < 0:
            return move
    return outcomes[-1][0]

class XState:
    """A position of a game with expansions (see the module docstring)."""

    __slots__ = (*FIELDS, "_hash")

    # The fields (table.FIELDS), as the rules set them. A step of Agora's queue is a tuple whose
    # first item names it (senate.py); its other items depend on the step.
    expansions: tuple[str, ...]
    observer: int | None  # None: the referee; 0 or 1: that player's view
    phase: str
    to_move: int
    age: int
    pyramid: PVector[int]
    present: int
    accessible: int
    reveal: int
    unseen: frozenset[int]
    back_slots: int
    pawn: int
    military: int
    minerva: int | None
    board: frozenset[int]
    library: frozenset[int]
    enki_tokens: frozenset[int]
    discard: frozenset[int]
    offer: frozenset[int]
    wonders_unseen: frozenset[int]
    picks: int
    extra: bool
    winner: int
    victory: str
    destroying: str | None
    cities: Any  # a pair of City: a list while a move is applied, then a tuple
    spaces: tuple[Space | None, ...]
    deck_size: tuple[int, ...]
    deck_tops: tuple[tuple[DeckCard, ...], ...]
    mythology_on: PMap[int, str]
    offering_on: PMap[int, int]
    drawing: str | None
    drawn: tuple[str, ...] | None
    revealing: tuple[Any, ...]
    chosen: tuple[Any, ...]
    senate: tuple[tuple[int, int], ...]
    decrees: tuple[tuple[Any, ...], ...]
    plot_size: int
    plot_top: tuple[Any, ...]
    plot_bottom: tuple[Any, ...]
    drawn_plots: Any
    pending: tuple[Any, ...]
    continuation: Any
    triggered: bool
    backs: tuple[Any, ...]
    senators_seen: frozenset[int]
    removed: frozenset[int]
    removed_now: tuple[int, ...] | None
    removed_by: int | None
    step: Any
    locked: frozenset[Any]
    _hash: int | None

    # --- identity --------------------------------------------------------------------------------
    def _copy(self) -> XState:
        other = XState.__new__(XState)
        for name in FIELDS:
            setattr(other, name, getattr(self, name))
        other._hash = None
        other.cities = [self.cities[0].copy(), self.cities[1].copy()]
        return other

    def _freeze(self) -> XState:
        self.cities = tuple(self.cities)
        return self

    def key(self) -> tuple:
        return tuple(
            (self.cities[0].key(), self.cities[1].key())
            if name == "cities"
            else getattr(self, name)
            for name in FIELDS
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XState) and self.key() == other.key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.key())
        return self._hash

    def __repr__(self) -> str:
        return f"<XState {self.describe()}>"

    # --- node kind -------------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.phase in CHANCE

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    @property
    def pantheon(self) -> bool:
        return "pantheon" in self.expansions

    @property
    def agora(self) -> bool:
        return "agora" in self.expansions

    @property
    def winner_player(self) -> int | None:
        return self.winner if self.winner in (0, 1) else None

    @property
    def is_shared_victory(self) -> bool:
        return self.winner == 2

    def returns(self) -> tuple[float, float]:
        """(+1, -1) for a win of A, (-1, +1) for B, (0, 0) shared or not over."""
        if self.winner == 0:
            return (1.0, -1.0)
        if self.winner == 1:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def describe(self) -> str:
        if self.is_terminal():
            if self.winner == 2:
                # both players at six science symbols at once (Coercion) is a draw
                both = " (science)" if self.victory == "science" else ""
                return f"game over: shared victory{both}"
            return f"game over: {PLAYER_NAMES[self.winner]} wins ({self.victory})"
        who = "chance" if self.is_chance() else PLAYER_NAMES[self.to_move]
        age = f"age {self.age}" if self.age else "setup"
        return f"{age}, {self.phase}, {who} to move"

    # --- prices ----------------------------------------------------------------------------------
    def _production(self, player: int) -> tuple[tuple[int, ...], int, int, set[int]]:
        """Fixed units, raw and manufactured "one of" producers, resources bought for 1 coin."""
        city = self.cities[player]
        units = [0] * len(RESOURCES)
        raw = man = 0
        fixed: set[int] = set()
        for c in city.cards:
            card = XCARDS[c]
            for r, n in enumerate(card.produces):
                units[r] += n
            if len(card.produce_choice) == 3:
                raw += 1
            elif card.produce_choice:
                man += 1
            fixed.update(card.trade_fixed)
        for w in city.built_wonders:
            choice = XWONDERS[w].produce_choice
            if len(choice) == 3:
                raw += 1
            elif choice:
                man += 1
        return tuple(units), raw, man, fixed

    def trade_prices(self, player: int) -> tuple[int, ...]:
        """Coins for one unit of each resource bought from the bank (Agora's rebates: 1 less,
        never below 1)."""
        _, _, _, fixed = self._production(player)
        opponent_units = self._production(1 - player)[0]
        prices = [1 if r in fixed else 2 + opponent_units[r] for r in range(len(RESOURCES))]
        for decree, resources in REBATES.items():
            if in_force(self, player, decree):
                for r in resources:
                    prices[r] = max(1, prices[r] - 1)
        return tuple(prices)

    def _trade_cost(self, player: int, need: tuple[int, ...], waivable: int) -> int:
        if not any(need):
            return 0
        units, raw, man, _ = self._production(player)
        return min_purchase_cost(need, units, raw, man, self.trade_prices(player), waivable)

    def is_chained(self, player: int, card: int) -> bool:
        """Whether ``player`` builds ``card`` for free through a chain (or a Mythology token;
        with Agora's Shared chains, the opponent's count too)."""
        cities = [self.cities[player]]
        if in_force(self, player, "Shared chains"):
            cities.append(self.cities[1 - player])
        if card in TEMPLE_MYTHOLOGY:
            return any(TEMPLE_MYTHOLOGY[card] in city.mythology for city in cities)
        symbol = XCARDS[card].chain_from
        return symbol is not None and any(
            XCARDS[c].chain_gives == symbol for city in cities for c in city.cards
        )

    def card_price(self, player: int, card: int) -> tuple[int, int]:
        """(total coins, the part of it paid for resources) to build ``card`` now."""
        if card in SENATOR_SET:  # as many coins as Senators already recruited
            city = self.cities[player]
            if T_CORRUPTION in city.tokens:
                return 0, 0
            return sum(1 for c in city.cards if c in SENATOR_SET), 0
        if self.is_chained(player, card):
            return 0, 0
        spec = XCARDS[card]
        city = self.cities[player]
        waive = 2 if T_MASONRY in city.tokens and spec.color == "blue" else 0
        trade = self._trade_cost(player, spec.need, waive)
        total = spec.coin_cost + trade
        if any(
            colour == spec.color and in_force(self, player, decree)
            for decree, colour in WAIVERS.items()
        ):  # ignore one symbol of the cost: one resource unit, or the whole coin cost
            options = [(trade, trade)] if spec.coin_cost else []
            for r, n in enumerate(spec.need):
                if n:
                    fewer = tuple(u - (i == r) for i, u in enumerate(spec.need))
                    cheaper = self._trade_cost(player, fewer, waive)
                    options.append((spec.coin_cost + cheaper, cheaper))
            if options:
                total, trade = min(options + [(total, trade)])
        chain_symbol = spec.chain_from is not None or card in TEMPLE_MYTHOLOGY
        if T_ENGINEERING in city.tokens and chain_symbol and total > 1:
            return 1, 0  # paid to the bank: not a trade (Economy) and not a chain (Urbanism)
        return total, trade

    def card_cost(self, player: int, card: int) -> int:
        return self.card_price(player, card)[0]

    def wonder_cost(self, player: int, wonder: int) -> int:
        waive = 2 if T_ARCHITECTURE in self.cities[player].tokens else 0
        if in_force(self, player, "Wonder waiver"):
            waive += 1
        return self._trade_cost(player, XWONDERS[wonder].need, waive)

    def activation_price(self, player: int, space: int) -> int:
        """Coins to activate the card on ``space`` (1-6) before Offering tokens."""
        price = space_price(player, space)
        seated = self.spaces[space - 1]
        if seated is not None and seated.divinity == GATE:
            price *= GATE_MULTIPLIER
        if W_SANCTUARY in self.cities[player].built_wonders:
            price -= SANCTUARY_DISCOUNT
        return max(0, price)

    def wonders_built_count(self) -> int:
        return len(self.cities[0].built) + len(self.cities[1].built)

    # --- moves ------------------------------------------------------------------------------------
    def legal_moves(self) -> list[XMove]:
        """Every legal decision here, in a fixed order (empty at chance and terminal nodes)."""
        if self.is_chance() or self.is_terminal():
            return []
        return DECISIONS[self.phase](self)

    def _completed(self, move: XMove) -> XMove:
        """A move typed without what the state knows: ``trigger plot 2`` names its plot."""
        if move.kind == "trigger" and move.args[1] is None and not self.is_chance():
            plots = self.cities[self.to_move].plots
            if 1 <= move.args[0] <= len(plots):
                return XMove("trigger", (move.args[0], plots[move.args[0] - 1].name))
        return move

    def why_illegal(self, move: XMove) -> str | None:
        """``None`` if ``move`` is legal here, else a sentence saying why not (a
        :class:`~duel.reason.Reason`: the programs translate it)."""
        move = self._completed(move)
        if self.is_terminal():
            return Reason("the game is over")
        if self.is_chance():
            if any(m == move for m, _ in self.chance_weights()[0]):
                return None
            return Reason(
                "{move} is not a possible outcome here ({hint})",
                move=str(move),
                hint=self.describe(),
            )
        if move in self.legal_moves():
            return None
        player = self.to_move
        city = self.cities[player]
        if self.phase == "play" and move.kind in ("build", "wonder"):
            card = move.args[-1]
            slot = self.pyramid.index(card) if card in self.pyramid else -1
            if slot < 0 or not self.accessible >> slot & 1:
                return Reason(
                    "{card} is not an accessible card of the structure", card=XCARDS[card].name
                )
            if move.kind == "build":
                cost = self.card_cost(player, card)
                return Reason(
                    "{card} costs {cost} coins, you have {funds}",
                    card=XCARDS[card].name,
                    cost=cost,
                    funds=city.funds,
                )
            wonder = move.args[0]
            if wonder not in city.wonders:
                return Reason("{wonder} is not one of your wonders", wonder=XWONDERS[wonder].name)
            if self.wonders_built_count() >= MAX_WONDERS_BUILT:
                return Reason("seven wonders have been built: no more wonders can be built")
            cost = self.wonder_cost(player, wonder)
            return Reason(
                "{card} costs {cost} coins, you have {funds}",
                card=XWONDERS[wonder].name,
                cost=cost,
                funds=city.funds,
            )
        if self.phase == "play" and move.kind == "activate":
            if self.age < 2:
                return Reason("Divinities are activated from Age II on")
            return Reason(
                "{move} is not possible: not on a face-up space, or you cannot pay for it",
                move=str(move),
            )
        return Reason(
            "{move} is not legal here ({position}); legal moves include {moves}",
            move=str(move),
            position=self.describe(),
            moves=tuple(str(m) for m in self.legal_moves()[:6]),
        )

    def apply(self, move: XMove | str, *, check: bool = True) -> XState:
        """The state after ``move`` (or its notation); raises :class:`XIllegalMoveError` if
        illegal. ``check=False`` skips the check, for moves that came from ``legal_moves()`` or
        ``chance_outcomes()``."""
        if isinstance(move, str):
            move = XMove.parse(move)
        move = self._completed(move)
        if check:
            reason = self.why_illegal(move)
            if reason is not None:
                raise XIllegalMoveError(reason)
        t = self._copy()
        APPLY[move.kind](t, move)
        return t._freeze()

    def random_move(self, rng: random.Random) -> XMove:
        """A uniformly random legal move, or a chance outcome with its probability."""
        if self.is_chance():
            return self.sample_chance(rng)
        moves = self.legal_moves()
        if not moves:
            raise XIllegalMoveError(f"no legal move here ({self.describe()})")
        return moves[int(rng.random() * len(moves))]

    # --- chance -----------------------------------------------------------------------------------
    def chance_weights(self) -> tuple[list[tuple[XMove, int]], int]:
        """Exact chance distribution: [(outcome, weight)] and the total weight."""
        outcomes = CHANCE[self.phase](self) if self.is_chance() else []
        return outcomes, sum(w for _, w in outcomes)

    def chance_outcomes(self) -> list[tuple[XMove, float]]:
        """[(outcome, probability)] at a chance node; the probabilities sum to 1."""
        outcomes, total = self.chance_weights()
        return [(m, w / total) for m, w in outcomes]

    def chance_probability(self, move: XMove) -> Fraction:
        outcomes, total = self.chance_weights()
        return next((Fraction(w, total) for m, w in outcomes if m == move), Fraction(0))

    def sample_chance(self, rng: random.Random) -> XMove:
        return draw_weighted(*self.chance_weights(), rng)

    # --- private information ----------------------------------------------------------------------
    def view(self, player: int) -> XState:
        """What ``player`` knows: the opponent's private cards become ``None``."""
        if self.observer is not None and self.observer != player:
            raise ValueError(f"a view for {PLAYER_NAMES[self.observer]} cannot give another's")
        t = self._copy()
        t.observer = player
        t.spaces = tuple(
            Space(None, s.mythology, s.owner, False)
            if s is not None and not s.face_up and s.owner != player
            else s
            for s in self.spaces
        )
        t.deck_tops = tuple(
            tuple(c if player in c.known_to else DeckCard(None, c.known_to) for c in tops)
            for tops in self.deck_tops
        )
        if self.phase == "seat" and self.to_move != player:
            t.drawn = None
        if self.agora:
            other = t.cities[1 - player]
            other.plots = tuple(p if p.used else replace(p, name=None) for p in other.plots)
            other.removed_seen = frozenset()
            hide = lambda c: c if player in c.known_to else DeckCard(None, c.known_to)  # noqa: E731
            t.plot_top = tuple(hide(c) for c in self.plot_top)
            t.plot_bottom = tuple(hide(c) for c in self.plot_bottom)
            if self.phase == "keep_plot" and self.to_move != player:
                t.drawn_plots = None
            if self.removed_by is not None and self.removed_by != player:
                t.removed_now = None
        return t._freeze()

    def unaccounted(self, mythology: str) -> tuple[str, ...]:
        """The Divinities of ``mythology`` whose place the observer does not know."""
        known = {s.divinity for s in self.spaces if s is not None}
        known.update(c.divinity for tops in self.deck_tops for c in tops)
        for city in self.cities:
            known.update(city.divinities)
        if self.drawn:
            known.update(self.drawn)
        return tuple(d for d in BY_MYTHOLOGY[mythology] if d not in known)

    # --- readable accessors -----------------------------------------------------------------------
    def city(self, player: int) -> City:
        return self.cities[player]

    @property
    def accessible_slots(self) -> list[int]:
        return bits(self.accessible)

    @property
    def box_tokens(self) -> list[int]:
        """Progress tokens in the box (The Great Library and Enki draw from them)."""
        if self.phase == "setup_tokens":
            return []
        owned = self.cities[0].tokens | self.cities[1].tokens
        used = set(self.board) | set(self.library) | set(self.enki_tokens) | owned | self.locked
        return [t for t in token_pool(self.expansions) if t not in used]

    # --- scoring ---------------------------------------------------------------------------------
    def score(self, player: int) -> XScore:
        """Victory points now (the civilian count if the game ended after Age III)."""
        city = self.cities[player]
        points = {color: 0 for color in ("blue", "green", "yellow")}
        for c in city.cards:
            if COLOR_OF[c] in points:
                points[COLOR_OF[c]] += XCARDS[c].points
        purple = TEMPLE_POINTS[len(city.cards & TEMPLE_SET)]
        for c in city.cards & GUILD_SET:
            categories, each = XCARDS[c].points_per_max
            purple += each * max(category_count(self, p, categories) for p in (0, 1))
        tokens = sum(XTOKENS[t].points for t in city.tokens)
        if T_MATHEMATICS in city.tokens:
            tokens += 3 * len(city.tokens)
        if T_MYSTICISM in city.tokens:
            tokens += MYSTICISM_POINTS * (len(city.mythology) + len(city.offerings))
        divinities = city.astarte + sum(
            DIVINITY[d].amount for d in city.divinities if d == "Aphrodite"
        )
        return XScore(
            blue=points["blue"],
            green=points["green"],
            yellow=points["yellow"],
            purple=purple,
            wonders=sum(XWONDERS[w].points for w in city.built_wonders),
            tokens=tokens,
            coins=city.coins // 3,
            military=MILITARY_POINTS[player][self.pawn + 9],
            divinities=divinities,
            senate=senate_points(self, player) if self.agora else 0,
        )


def observe(state: XState, move: XMove, player: int) -> XMove:
    """What ``player`` sees of ``move`` played in the referee's ``state``: the move itself, or
    its public shadow when it carries the opponent's private card (the two Divinities drawn,
    the one seated face down)."""
    if player == state.to_move:
        return move
    if move.kind == "draw_divinities":
        return XMove("draw_divinities", (move.args[0], None))
    if move.kind == "seat":
        return XMove("seat", (None, move.args[1], move.args[2]))
    if move.kind == "draw_plots":
        return XMove("draw_plots", (None,))
    if move.kind == "keep":
        return XMove("keep", (None, None, move.args[2]) if move.args[2] else (None, None, None))
    if move.kind == "treason_deal":
        return XMove("treason_deal", (None,))
    return move


def new_game(expansions: Iterable[str] = ("pantheon",)) -> XState:
    """The state before setup (a chance node dealing the board's progress tokens)."""
    chosen = tuple(sorted(set(expansions)))
    unknown = [e for e in chosen if e not in EXPANSIONS]
    if unknown:
        raise ValueError(f"unknown expansion {unknown[0]!r}: expected {', '.join(EXPANSIONS)}")
    s = XState.__new__(XState)
    s._hash = None
    s.expansions = chosen
    s.observer = None
    s.phase = "setup_tokens"
    s.to_move = 0
    s.age = 0
    s.pyramid = pvector([HIDDEN] * SLOTS)
    s.present = s.accessible = s.reveal = 0
    s.unseen = frozenset()
    s.back_slots = 0
    s.pawn = 0
    s.military = ALL_MILITARY
    s.minerva = None
    s.board = s.library = s.enki_tokens = s.discard = s.offer = frozenset()
    s.wonders_unseen = wonder_pool(chosen)
    s.picks = 0
    s.extra = False
    s.winner = -1
    s.victory = ""
    s.destroying = None
    s.cities = (City(), City())
    s.spaces = (None,) * SPACES
    s.deck_size = tuple(len(BY_MYTHOLOGY[m]) for m in MYTHOLOGIES) if s.pantheon else (0,) * 5
    s.deck_tops = ((),) * len(MYTHOLOGIES)
    s.mythology_on = pmap()
    s.offering_on = pmap()
    s.drawing = None
    s.drawn = ()
    s.revealing = ()
    s.chosen = ()
    # Agora
    s.senate = ((0, 0),) * 6
    s.decrees = ((),) * 6
    s.plot_size = len(CONSPIRACIES) if "agora" in chosen else 0
    s.plot_top = s.plot_bottom = ()
    s.drawn_plots = ()
    s.pending = ()
    s.continuation = None
    s.triggered = False
    s.backs = ()
    s.senators_seen = frozenset()
    s.removed = frozenset()
    s.removed_now = None
    s.removed_by = None
    s.step = None
    s.locked = frozenset()
    return s


def play_random_game(rng: random.Random, state: XState | None = None) -> XState:
    """Uniformly random legal moves (exact chance) from ``state`` to the end of the game."""
    state = new_game() if state is None else state
    while not state.is_terminal():
        state = state.apply(state.random_move(rng), check=False)
    return state


assert len(CARDS) == TEMPLE_IDS[0] and T_AGRICULTURE == 0 and len(TOKENS) > T_PHILOSOPHY
assert MILITARY_TOKEN_NAMES == ("A2", "A5", "B2", "B5")
