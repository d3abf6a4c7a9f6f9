"""The 7 Wonders Duel rules engine: an immutable, persistent game state.

A :class:`State` is one of three kinds of node, as in OpenSpiel:

* a **decision** for the player ``to_move`` (``legal_moves()``);
* a **chance** node (``is_chance()``, ``chance_outcomes()`` with exact probabilities): a card turned
  face up, a wonder or progress token dealt at setup, the slots of the three guilds when Age III is
  laid out, The Great Library's draw;
* **terminal** (``is_terminal()``, ``returns()``, ``winner``, ``victory``).

The state holds only public information. A face-down card is not in the state at all: it is
decided by the chance node that turns it face up, drawn from the cards of that Age nobody has
seen (the three removed at setup are among them). In Age III the backs are public: guilds have
their own back, so the state knows which slots hold a guild (``guild_slots``), and a guild-backed
slot reveals one of the unseen guilds, any other slot one of the unseen Age III cards. That makes
the engine fair by construction: a solver that reads the state cannot see a hidden card, because
there is none to read.

Representation: every field is an int (bit masks for sets of cards, wonders and tokens, packed
production) in one ``pyrsistent.pvector``; the pyramid is a nested pvector of 20 slots. Applying a
move edits the vector through an evolver and returns a new state; the old one is untouched and
both share structure.

>>> import random
>>> from duel import Move, new_game
>>> state = new_game()
>>> state.is_chance(), len(state.chance_outcomes())
(True, 10)
>>> state = state.apply(Move.parse("reveal token Law"))
>>> state.board_tokens
('Law',)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pyrsistent import PVector, pvector

from duel.catalog import (
    AGE_DECK,
    ALL_TOKENS,
    ALL_WONDERS,
    CARDS,
    CHAIN_SYMBOLS,
    COLOR_MASK,
    GUILDS,
    MAX_WONDERS_BUILT,
    RESOURCES,
    SCIENCE_SYMBOLS,
    T_ARCHITECTURE,
    T_ECONOMY,
    T_LAW,
    T_MASONRY,
    T_MATHEMATICS,
    T_STRATEGY,
    T_THEOLOGY,
    T_URBANISM,
    TOKENS,
    WONDERS,
    bits,
    pack_production,
    unpack_production,
)
from duel.moves import GUILD_SLOT_MASKS, GUILD_SLOT_SETS, MOVES, PLAYER_NAMES, Kind, Move
from duel.pricing import min_purchase_cost
from duel.pyramid_layouts import LAYOUTS, SLOTS

if TYPE_CHECKING:
    from pyrsistent.typing import PVectorEvolver

    #: What the move functions edit: the evolver of a state's fields (ints and card vectors).
    Evolver = PVectorEvolver[Any]

# --- field layout -------------------------------------------------------------------------------
(
    PHASE,
    TO_MOVE,
    AGE,
    PYRAMID,
    PRESENT,
    ACCESSIBLE,
    REVEAL,
    UNSEEN,
    PAWN,
    MILITARY,
    BOARD,
    DISCARD,
    OFFER,
    WONDERS_UNSEEN,
    PICKS,
    EXTRA,
    LIBRARY,
    WINNER,
    VICTORY,
    DESTROYING,
    GUILD_SLOTS,  # Age III: mask of the 3 slots dealt a guild (public: guilds have their own back)
) = range(21)
PLAYER_FIELDS = 9
COINS, CITY, UNDER, WONDERS_OWNED, BUILT, TOKENS_HELD, SCIENCE, CHAINS, ECON = range(PLAYER_FIELDS)
BASE = (21, 21 + PLAYER_FIELDS)
N_FIELDS = 21 + 2 * PLAYER_FIELDS

# --- phases -------------------------------------------------------------------------------------
(
    SETUP_TOKENS,
    SETUP_WONDERS,
    DRAFT,
    REVEAL_CARDS,
    PLAY,
    CHOOSE_TOKEN,
    LIBRARY_DRAW,
    LIBRARY_CHOOSE,
    DESTROY,
    MAUSOLEUM,
    CHOOSE_STARTER,
    GAME_OVER,
    DEAL_GUILDS,
) = range(13)
PHASE_NAMES = (
    "setup_tokens",
    "setup_wonders",
    "draft",
    "reveal",
    "play",
    "choose_token",
    "library_draw",
    "library_choose",
    "destroy",
    "mausoleum",
    "choose_starter",
    "game_over",
    "deal_guilds",
)
CHANCE_PHASES = frozenset({SETUP_TOKENS, SETUP_WONDERS, REVEAL_CARDS, LIBRARY_DRAW, DEAL_GUILDS})

#: Victory kinds, as stored in the VICTORY field.
VICTORY_NAMES = ("", "military", "science", "civilian")
MILITARY_VICTORY, SCIENCE_VICTORY, CIVILIAN_VICTORY = 1, 2, 3
SHARED = 2  # WINNER value of a shared victory

TAKEN, HIDDEN = -1, -2
DRAFT_ORDER = (0, 1, 1, 0, 1, 0, 0, 1)
START_COINS = 7
BOARD_TOKEN_COUNT = 5
#: Military tokens: bit (side, zone) -> coins lost. Side 0 = A's half (pawn < 0).
LOOT = ((3, 2, 0b0001), (6, 5, 0b0010))  # (distance, coins, bit for B's side << 2)
ALL_MILITARY = 0b1111

# --- packed economy: production (15 bits) | raw choices | man choices | fixed | masonry | archi --
PROD_MASK = (1 << 15) - 1
RAW_CHOICE_SHIFT, MAN_CHOICE_SHIFT, FIXED_SHIFT = 15, 17, 19
MASONRY_BIT, ARCHITECTURE_BIT = 1 << 24, 1 << 25
CORE_MASK = (1 << 24) - 1

N_CARDS = len(CARDS)
_SCIENCE_BIT = {s: 1 << i for i, s in enumerate(SCIENCE_SYMBOLS)}
_CHAIN_BIT = {s: 1 << i for i, s in enumerate(CHAIN_SYMBOLS)}
BLUE, GREEN, YELLOW, RED = (COLOR_MASK[c] for c in ("blue", "green", "yellow", "red"))
BROWN, GREY, PURPLE = COLOR_MASK["brown"], COLOR_MASK["grey"], COLOR_MASK["purple"]
_DESTROY_MASK = {"brown": BROWN, "grey": GREY}


def _econ_delta(produces: tuple[int, ...], choice: tuple[int, ...], fixed: tuple[int, ...]) -> int:
    delta = pack_production(produces)
    if len(choice) == 3:
        delta += 1 << RAW_CHOICE_SHIFT
    elif choice:
        delta += 1 << MAN_CHOICE_SHIFT
    for r in fixed:
        delta += 1 << (FIXED_SHIFT + r)
    return delta


# Items priced by the payment code: cards 0..72, then wonders 73..84.
ITEM_WONDER = N_CARDS
_NEEDS = [c.need for c in CARDS] + [w.need for w in WONDERS]
_COIN_COST = [c.coin_cost for c in CARDS] + [0] * len(WONDERS)
_UNIQUE_NEEDS = sorted(set(_NEEDS))
_NEED_ID = [_UNIQUE_NEEDS.index(n) for n in _NEEDS]
_NEEDS_NOTHING = [not any(n) for n in _NEEDS]

_CARD_ECON = [_econ_delta(c.produces, c.produce_choice, c.trade_fixed) for c in CARDS]
_CARD_CHAIN_FROM = [_CHAIN_BIT[c.chain_from] if c.chain_from else 0 for c in CARDS]
_CARD_CHAIN_GIVES = [_CHAIN_BIT[c.chain_gives] if c.chain_gives else 0 for c in CARDS]
_CARD_SCIENCE = [_SCIENCE_BIT[c.science] if c.science else 0 for c in CARDS]
_WONDER_ECON = [_econ_delta((0,) * 5, w.produce_choice, ()) for w in WONDERS]

_price_cache: dict[int, int] = {}
PRICE_CACHE_LIMIT = 1 << 20


def trade_price(econ: int, opponent_econ: int, resource: int) -> int:
    """Coins for one unit of ``resource`` bought from the bank."""
    if econ >> (FIXED_SHIFT + resource) & 1:
        return 1
    return 2 + ((opponent_econ >> (3 * resource)) & 7)


def _purchase_cost(item: int, econ: int, opponent_econ: int, waivable: int) -> int:
    """Cheapest coins spent on trading for ``item`` (memoised on the inputs that matter)."""
    key = (((opponent_econ & PROD_MASK) << 24 | (econ & CORE_MASK)) << 8 | _NEED_ID[item]) << 1 | (
        waivable > 0
    )
    cost = _price_cache.get(key)
    if cost is None:
        if len(_price_cache) >= PRICE_CACHE_LIMIT:
            _price_cache.clear()
        cost = min_purchase_cost(
            _NEEDS[item],
            unpack_production(econ),
            (econ >> RAW_CHOICE_SHIFT) & 3,
            (econ >> MAN_CHOICE_SHIFT) & 3,
            [trade_price(econ, opponent_econ, r) for r in range(5)],
            waivable,
        )
        _price_cache[key] = cost
    return cost


def _waivable(item: int, econ: int) -> int:
    if item >= ITEM_WONDER:
        return 2 if econ & ARCHITECTURE_BIT else 0
    return 2 if econ & MASONRY_BIT and (BLUE >> item) & 1 else 0


class IllegalMoveError(ValueError):
    """A move that is not legal here; the message says why."""


@dataclass(frozen=True)
class Score:
    """A city's victory points by category, as on the score sheet."""

    blue: int
    green: int
    yellow: int
    purple: int
    wonders: int
    tokens: int
    coins: int
    military: int

    @property
    def total(self) -> int:
        return (
            self.blue
            + self.green
            + self.yellow
            + self.purple
            + self.wonders
            + self.tokens
            + self.coins
            + self.military
        )

    CATEGORIES = ("blue", "green", "yellow", "purple", "wonders", "tokens", "coins", "military")


class State:
    """An immutable 7 Wonders Duel position. See the module docstring.

    Players are 0 (A) and 1 (B). The Conflict pawn is at -9..9, positive towards B's capital
    (A leads). Equal states compare equal and hash alike (for transposition tables).
    """

    __slots__ = ("_f", "_hash")

    def __init__(self, fields: PVector[Any]) -> None:
        # Immutable by contract: the fields are a persistent vector and nothing assigns them
        # after construction (a __setattr__ guard would cost a third of apply()).
        self._f = fields
        self._hash: int | None = None

    # --- identity ------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._f == other._f

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._f)
        return self._hash

    def __repr__(self) -> str:
        return f"<State {self.describe()}>"

    @property
    def fields(self) -> PVector[Any]:
        """The raw field vector (for serialisation and tests)."""
        return self._f

    # --- node kind -----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._f[PHASE]]

    def is_chance(self) -> bool:
        return self._f[PHASE] in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self._f[PHASE] == GAME_OVER

    @property
    def to_move(self) -> int:
        """The player who decides at this node (at a chance node: who decides next; while Age II
        or III is laid out, who will choose who begins it)."""
        return self._f[TO_MOVE]

    @property
    def age(self) -> int:
        return self._f[AGE]

    @property
    def pawn(self) -> int:
        return self._f[PAWN]

    @property
    def winner(self) -> int | None:
        """0 or 1, ``None`` while the game runs or after a shared victory."""
        w = self._f[WINNER]
        return w if w in (0, 1) else None

    @property
    def victory(self) -> str:
        """ "military", "science", "civilian" or "" while the game runs."""
        return VICTORY_NAMES[self._f[VICTORY]]

    @property
    def is_shared_victory(self) -> bool:
        return self._f[WINNER] == SHARED

    def returns(self) -> tuple[float, float]:
        """(+1, -1) for a win of A, (-1, +1) for B, (0, 0) shared or not over."""
        w = self._f[WINNER]
        if w == 0:
            return (1.0, -1.0)
        if w == 1:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    # --- readable accessors --------------------------------------------------------------------
    def coins(self, player: int) -> int:
        return self._f[BASE[player] + COINS]

    def city(self, player: int) -> list[int]:
        """Ids of the cards built by ``player``."""
        return bits(self._f[BASE[player] + CITY])

    def city_mask(self, player: int) -> int:
        return self._f[BASE[player] + CITY]

    def cards_under_wonders(self, player: int) -> list[int]:
        return bits(self._f[BASE[player] + UNDER])

    def wonders(self, player: int) -> list[int]:
        """Wonders ``player`` owns and has not built yet."""
        return bits(self._f[BASE[player] + WONDERS_OWNED])

    def built_wonders(self, player: int) -> list[int]:
        return bits(self._f[BASE[player] + BUILT])

    def tokens(self, player: int) -> list[int]:
        return bits(self._f[BASE[player] + TOKENS_HELD])

    def science(self, player: int) -> list[str]:
        return [SCIENCE_SYMBOLS[i] for i in bits(self._f[BASE[player] + SCIENCE])]

    def chain_symbols(self, player: int) -> list[str]:
        return [CHAIN_SYMBOLS[i] for i in bits(self._f[BASE[player] + CHAINS])]

    def production(self, player: int) -> dict[str, int]:
        """Fixed production from brown and grey cards (what sets the opponent's prices)."""
        units = unpack_production(self._f[BASE[player] + ECON])
        return {RESOURCES[r]: n for r, n in enumerate(units) if n}

    def choice_production(self, player: int) -> tuple[int, int]:
        """Number of "one of" producers: (wood/clay/stone, glass/papyrus)."""
        econ = self._f[BASE[player] + ECON]
        return (econ >> RAW_CHOICE_SHIFT) & 3, (econ >> MAN_CHOICE_SHIFT) & 3

    def trade_prices(self, player: int) -> dict[str, int]:
        econ, other = self._f[BASE[player] + ECON], self._f[BASE[1 - player] + ECON]
        return {RESOURCES[r]: trade_price(econ, other, r) for r in range(5)}

    def count(self, player: int, color: str) -> int:
        return (self._f[BASE[player] + CITY] & COLOR_MASK[color]).bit_count()

    @property
    def pyramid(self) -> tuple[int, ...]:
        """20 slots: a card id, ``TAKEN`` (-1) or ``HIDDEN`` (-2, face down / not dealt)."""
        return tuple(self._f[PYRAMID])

    @property
    def accessible_slots(self) -> list[int]:
        return bits(self._f[ACCESSIBLE])

    def is_accessible(self, slot: int) -> bool:
        return bool(self._f[ACCESSIBLE] >> slot & 1)

    @property
    def discard_pile(self) -> list[int]:
        return bits(self._f[DISCARD])

    @property
    def board_tokens(self) -> tuple[str, ...]:
        return tuple(TOKENS[t].name for t in bits(self._f[BOARD]))

    @property
    def board_token_ids(self) -> list[int]:
        return bits(self._f[BOARD])

    @property
    def box_tokens(self) -> list[int]:
        """The tokens set aside at setup (The Great Library draws from these), once dealt."""
        if self._f[PHASE] == SETUP_TOKENS:
            return []
        owned = self._f[BASE[0] + TOKENS_HELD] | self._f[BASE[1] + TOKENS_HELD]
        return bits(ALL_TOKENS & ~self._f[BOARD] & ~owned & ~self._f[LIBRARY])

    @property
    def library_offer(self) -> list[int]:
        return bits(self._f[LIBRARY])

    @property
    def wonder_offer(self) -> list[int]:
        return bits(self._f[OFFER])

    @property
    def military_tokens(self) -> tuple[str, ...]:
        """Looting tokens still on the board: "A2", "A5" (on A's side), "B2", "B5"."""
        names = ("A2", "A5", "B2", "B5")
        return tuple(names[i] for i in bits(self._f[MILITARY]))

    @property
    def reveal_slot(self) -> int | None:
        """The slot the pending chance event turns face up (``None`` outside reveals)."""
        reveal = self._f[REVEAL]
        if self._f[PHASE] != REVEAL_CARDS or not reveal:
            return None
        return (reveal & -reveal).bit_length() - 1

    @property
    def guild_slots(self) -> list[int]:
        """Age III: the slots dealt a guild (public), also once taken; empty before the deal."""
        return bits(self._f[GUILD_SLOTS])

    def is_guild_slot(self, slot: int) -> bool:
        """True if ``slot`` of the Age III structure holds (or held) a guild."""
        return bool(self._f[GUILD_SLOTS] >> slot & 1)

    @property
    def unseen_cards(self) -> list[int]:
        """Cards of the current Age nobody has seen: face down, or removed at setup."""
        return bits(self._f[UNSEEN])

    @property
    def wonders_built_count(self) -> int:
        f = self._f
        return (f[BASE[0] + BUILT] | f[BASE[1] + BUILT]).bit_count()

    def extra_turn_pending(self) -> bool:
        return bool(self._f[EXTRA])

    def describe(self) -> str:
        f = self._f
        if f[PHASE] == GAME_OVER:
            if f[WINNER] == SHARED:
                return "game over: shared victory"
            return f"game over: {PLAYER_NAMES[f[WINNER]]} wins ({self.victory})"
        who = "chance" if self.is_chance() else PLAYER_NAMES[f[TO_MOVE]]
        age = f"age {f[AGE]}" if f[AGE] else "setup"
        return f"{age}, {self.phase}, {who} to move"

    # --- prices ----------------------------------------------------------------------------------
    def card_cost(self, player: int, card: int) -> int:
        """Coins ``player`` pays to build ``card`` now (0 through a chain)."""
        f = self._f
        b = BASE[player]
        if f[b + CHAINS] & _CARD_CHAIN_FROM[card]:
            return 0
        return _COIN_COST[card] + self._trade_cost(player, card)

    def wonder_cost(self, player: int, wonder: int) -> int:
        return self._trade_cost(player, ITEM_WONDER + wonder)

    def _trade_cost(self, player: int, item: int) -> int:
        if _NEEDS_NOTHING[item]:
            return 0
        f = self._f
        econ = f[BASE[player] + ECON]
        return _purchase_cost(item, econ, f[BASE[1 - player] + ECON], _waivable(item, econ))

    def is_chained(self, player: int, card: int) -> bool:
        return bool(self._f[BASE[player] + CHAINS] & _CARD_CHAIN_FROM[card])

    # --- moves -----------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal decision here, in a fixed order (empty at chance and terminal nodes)."""
        f = self._f
        phase = f[PHASE]
        if phase == PLAY:
            return self._play_moves()
        if phase == DRAFT:
            return [MOVES[Kind.PICK_WONDER << 16 | w << 8] for w in bits(f[OFFER])]
        if phase == CHOOSE_TOKEN:
            return [MOVES[Kind.TOKEN << 16 | t << 8] for t in bits(f[BOARD])]
        if phase == LIBRARY_CHOOSE:
            return [MOVES[Kind.TOKEN << 16 | t << 8] for t in bits(f[LIBRARY])]
        if phase == DESTROY:
            return [MOVES[Kind.DESTROY << 16 | c] for c in bits(self._destroy_targets())]
        if phase == MAUSOLEUM:
            return [MOVES[Kind.MAUSOLEUM << 16 | c] for c in bits(f[DISCARD])]
        if phase == CHOOSE_STARTER:
            return [MOVES[Kind.STARTER << 16], MOVES[Kind.STARTER << 16 | 1 << 8]]
        return []

    def _play_moves(self) -> list[Move]:
        f = self._f
        p = f[TO_MOVE]
        b = BASE[p]
        coins = f[b + COINS]
        chains = f[b + CHAINS]
        econ, opp_econ = f[b + ECON], f[BASE[1 - p] + ECON]
        wonder_codes = []
        if (f[BASE[0] + BUILT] | f[BASE[1] + BUILT]).bit_count() < MAX_WONDERS_BUILT:
            wonders = f[b + WONDERS_OWNED]
            architecture = 2 if econ & ARCHITECTURE_BIT else 0
            while wonders:
                low = wonders & -wonders
                w = low.bit_length() - 1
                wonders ^= low
                item = ITEM_WONDER + w
                if _purchase_cost(item, econ, opp_econ, architecture) <= coins:
                    wonder_codes.append(Kind.WONDER << 16 | w << 8)
        masonry = econ & MASONRY_BIT
        pyramid = f[PYRAMID]
        moves: list[Move] = []
        append = moves.append
        acc = f[ACCESSIBLE]
        while acc:
            low = acc & -acc
            acc ^= low
            c = pyramid[low.bit_length() - 1]
            if chains & _CARD_CHAIN_FROM[c]:
                cost = 0  # a chain waives coins as well as resources (Barracks: 3 coins)
            elif _NEEDS_NOTHING[c]:
                cost = _COIN_COST[c]
            else:
                waive = 2 if masonry and (BLUE >> c) & 1 else 0
                cost = _COIN_COST[c] + _purchase_cost(c, econ, opp_econ, waive)
            if cost <= coins:
                append(MOVES[c])
            append(MOVES[Kind.DISCARD << 16 | c])
            for code in wonder_codes:
                append(MOVES[code | c])
        return moves

    def _destroy_targets(self) -> int:
        f = self._f
        return f[BASE[1 - f[TO_MOVE]] + CITY] & f[DESTROYING]

    def why_illegal(self, move: int) -> str | None:
        """``None`` if ``move`` is legal here, else a sentence saying why not."""
        from duel.explain import why_illegal

        return why_illegal(self, Move(move))

    def apply(self, move: int, *, check: bool = True) -> State:
        """The state after ``move``. Raises :class:`IllegalMoveError` with the reason if illegal.

        ``check=False`` skips validation, for search over moves that came from
        ``legal_moves()`` or ``chance_outcomes()``.
        """
        if check:
            reason = self.why_illegal(move)
            if reason is not None:
                raise IllegalMoveError(reason)
        e = self._f.evolver()
        _APPLY[move >> 16](e, move)
        return State(e.persistent())

    # --- chance ----------------------------------------------------------------------------------
    def chance_weights(self) -> tuple[list[tuple[Move, int]], int]:
        """Exact chance distribution: [(outcome, weight)] and the total weight."""
        f = self._f
        phase = f[PHASE]
        if phase == SETUP_TOKENS:
            left = bits(ALL_TOKENS & ~f[BOARD])
            return [(MOVES[Kind.REVEAL_TOKEN << 16 | t << 8], 1) for t in left], len(left)
        if phase == SETUP_WONDERS:
            left = bits(f[WONDERS_UNSEEN])
            return [(MOVES[Kind.REVEAL_WONDER << 16 | w << 8], 1) for w in left], len(left)
        if phase == LIBRARY_DRAW:
            box = self.box_tokens
            draws = _subsets(box, min(3, len(box)))
            return [(MOVES[Kind.LIBRARY_DRAW << 16 | m], 1) for m in draws], len(draws)
        if phase == DEAL_GUILDS:
            return list(_GUILD_DEALS), len(_GUILD_DEALS)
        if phase != REVEAL_CARDS:
            return [], 0
        slot = (f[REVEAL] & -f[REVEAL]).bit_length() - 1
        code = Kind.REVEAL_CARD << 16 | slot << 8
        cards = bits(_reveal_pool(f, slot))
        return [(MOVES[code | c], 1) for c in cards], len(cards)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """[(outcome, probability)] at a chance node; probabilities sum to 1."""
        outcomes, total = self.chance_weights()
        return [(m, w / total) for m, w in outcomes]

    def chance_probability(self, move: int) -> Fraction:
        """Exact probability of one outcome (0 if impossible)."""
        outcomes, total = self.chance_weights()
        for m, w in outcomes:
            if m == move:
                return Fraction(w, total)
        return Fraction(0)

    def sample_chance(self, rng: random.Random) -> Move:
        """One outcome drawn with the exact probabilities."""
        f = self._f
        phase = f[PHASE]
        if phase == REVEAL_CARDS:
            slot = (f[REVEAL] & -f[REVEAL]).bit_length() - 1
            card = _uniform_bit(rng, _reveal_pool(f, slot))
            return MOVES[Kind.REVEAL_CARD << 16 | slot << 8 | card]
        if phase == DEAL_GUILDS:
            return _GUILD_DEALS[int(rng.random() * len(_GUILD_DEALS))][0]
        if phase == SETUP_TOKENS:
            token = _uniform_bit(rng, ALL_TOKENS & ~f[BOARD])
            return MOVES[Kind.REVEAL_TOKEN << 16 | token << 8]
        if phase == SETUP_WONDERS:
            return MOVES[Kind.REVEAL_WONDER << 16 | _uniform_bit(rng, f[WONDERS_UNSEEN]) << 8]
        outcomes, total = self.chance_weights()
        x = rng.random() * total
        for m, w in outcomes:
            x -= w
            if x < 0:
                return m
        return outcomes[-1][0]

    def random_move(self, rng: random.Random) -> Move:
        """A uniformly random legal move (or chance outcome with its probability).

        In the play phase this samples (card, action) pairs from the superset "any accessible
        card, any of build / discard / each unbuilt wonder" and rejects illegal ones, which is
        exactly uniform over the legal moves without pricing every card.
        """
        f = self._f
        phase = f[PHASE]
        if phase in CHANCE_PHASES:
            return self.sample_chance(rng)
        if phase != PLAY:
            moves = self.legal_moves()
            if not moves:  # no game reaches one; the position loader rejects them
                raise IllegalMoveError(f"no legal move here ({self.describe()})")
            return moves[int(rng.random() * len(moves))]
        p = f[TO_MOVE]
        b = BASE[p]
        slots = _slots_of(f[ACCESSIBLE])
        wonders = f[b + WONDERS_OWNED]
        if (f[BASE[0] + BUILT] | f[BASE[1] + BUILT]).bit_count() >= MAX_WONDERS_BUILT:
            wonders = 0
        wonder_list = _BITS[wonders]
        actions = 2 + len(wonder_list)
        coins = f[b + COINS]
        econ, opp_econ = f[b + ECON], f[BASE[1 - p] + ECON]
        pyramid = f[PYRAMID]
        n = len(slots) * actions
        while True:
            x = int(rng.random() * n)
            c = pyramid[slots[x // actions]]
            a = x % actions
            if a == 1:
                return MOVES[Kind.DISCARD << 16 | c]
            if a == 0:
                if f[b + CHAINS] & _CARD_CHAIN_FROM[c]:
                    cost = 0
                elif _NEEDS_NOTHING[c]:
                    cost = _COIN_COST[c]
                else:
                    waive = 2 if econ & MASONRY_BIT and (BLUE >> c) & 1 else 0
                    cost = _COIN_COST[c] + _purchase_cost(c, econ, opp_econ, waive)
                if cost <= coins:
                    return MOVES[c]
                continue
            w = wonder_list[a - 2]
            waive = 2 if econ & ARCHITECTURE_BIT else 0
            if _purchase_cost(ITEM_WONDER + w, econ, opp_econ, waive) <= coins:
                return MOVES[Kind.WONDER << 16 | w << 8 | c]

    # --- scoring ---------------------------------------------------------------------------------
    def score(self, player: int) -> Score:
        """Victory points now (the civilian count if the game ended after Age III)."""
        f = self._f
        b = BASE[player]
        cards = f[b + CITY]
        return Score(
            blue=card_points(cards & BLUE),
            green=card_points(cards & GREEN),
            yellow=card_points(cards & YELLOW),
            purple=guild_points(f, cards),
            wonders=WONDER_POINTS[f[b + BUILT]],
            tokens=TOKEN_POINTS[f[b + TOKENS_HELD]],
            coins=f[b + COINS] // 3,
            military=MILITARY_POINTS[player][f[PAWN] + 9],
        )

    def scores(self) -> tuple[Score, Score]:
        return self.score(0), self.score(1)


# --- scoring tables (shared with the search's evaluation) ---------------------------------------
_CARD_POINTS = [c.points for c in CARDS]
_PLAIN_POINTS = BLUE | GREEN | YELLOW
_GUILD_RULE = {c.id: c.points_per_max for c in CARDS if c.points_per_max}
#: Points of every set of built wonders / owned tokens (Mathematics included), by mask.
WONDER_POINTS = [sum(WONDERS[w].points for w in bits(m)) for m in range(1 << len(WONDERS))]
TOKEN_POINTS = [
    sum(TOKENS[t].points for t in bits(m)) + (3 * m.bit_count() if m >> T_MATHEMATICS & 1 else 0)
    for m in range(1 << len(TOKENS))
]
#: Military points of A and of B by pawn position (index pawn + 9).
_MILITARY_A = [0 if p <= 0 else 2 if p <= 2 else 5 if p <= 5 else 10 for p in range(-9, 10)]
MILITARY_POINTS = (_MILITARY_A, _MILITARY_A[::-1])
_card_points_cache: dict[int, int] = {}


def card_points(cards: int) -> int:
    """Printed points of a set of cards (memoised: the same cities recur in search)."""
    points = _card_points_cache.get(cards)
    if points is None:
        if len(_card_points_cache) > 200_000:
            _card_points_cache.clear()
        points = _card_points_cache[cards] = sum(_CARD_POINTS[c] for c in bits(cards))
    return points


def guild_points(f: PVector[Any], cards: int) -> int:
    """Points of the guilds in ``cards``: each counts the city with the most of its category."""
    total = 0
    guilds = cards & PURPLE
    while guilds:
        low = guilds & -guilds
        guilds ^= low
        categories, each = _GUILD_RULE[low.bit_length() - 1]
        total += each * max(_category_count(f, 0, categories), _category_count(f, 1, categories))
    return total


def total_points(f: PVector[Any], player: int) -> int:
    """``State.score(player).total`` without building the breakdown (the hot path of search)."""
    b = BASE[player]
    cards = f[b + CITY]
    total = card_points(cards & _PLAIN_POINTS) + WONDER_POINTS[f[b + BUILT]]
    if cards & PURPLE:
        total += guild_points(f, cards)
    return (
        total
        + TOKEN_POINTS[f[b + TOKENS_HELD]]
        + MILITARY_POINTS[player][f[PAWN] + 9]
        + f[b + COINS] // 3
    )


def _category_count(f: Sequence[Any], player: int, categories: tuple[str, ...]) -> int:
    b = BASE[player]
    total = 0
    for category in categories:
        if category == "wonder":
            total += f[b + BUILT].bit_count()
        elif category == "coins_div3":
            total += f[b + COINS] // 3
        else:
            total += (f[b + CITY] & COLOR_MASK[category]).bit_count()
    return total


def _reveal_pool(f: PVector[Any], slot: int) -> int:
    """The cards ``slot`` can turn out to be, each equally likely: the unseen cards of the Age,
    in Age III only the unseen guilds for a guild-backed slot and only the unseen Age III cards
    for any other (the 4 guilds and 3 Age III cards left in the box are among the unseen)."""
    unseen = f[UNSEEN]
    if f[AGE] < 3:
        return unseen
    return unseen & (GUILDS if f[GUILD_SLOTS] >> slot & 1 else AGE_DECK[3])


def _uniform_bit(rng: random.Random, mask: int) -> int:
    """A uniformly random set bit of ``mask`` (rejection over its span: no list built)."""
    low = (mask & -mask).bit_length() - 1
    span = mask.bit_length() - low
    while True:
        i = low + int(rng.random() * span)
        if mask >> i & 1:
            return i


_SLOT_LISTS: dict[int, list[int]] = {}


def _slots_of(mask: int) -> list[int]:
    """``bits(mask)`` memoised: accessible-slot masks recur constantly."""
    slots = _SLOT_LISTS.get(mask)
    if slots is None:
        slots = _SLOT_LISTS[mask] = bits(mask)
    return slots


def _subsets(items: list[int], k: int) -> list[int]:
    from itertools import combinations

    return [sum(1 << i for i in combo) for combo in combinations(items, k)]


_BITS: list[list[int]] = [bits(m) for m in range(1 << len(WONDERS))]
_LAYOUT_COVERED_BY = {age: layout.covered_by_mask for age, layout in LAYOUTS.items()}
_LAYOUT_COVERS = {age: layout.covers for age, layout in LAYOUTS.items()}
_LAYOUT_FACE_UP = {age: layout.face_up_mask for age, layout in LAYOUTS.items()}
_LAYOUT_START = {
    age: sum(1 << s for s in layout.initially_accessible) for age, layout in LAYOUTS.items()
}
_ALL_SLOTS = (1 << SLOTS) - 1
_EMPTY_PYRAMID = pvector([HIDDEN] * SLOTS)
#: The Age III guild deal: every 3-slot set once, weight 1 (probability 1 / C(20, 3) = 1/1140).
_GUILD_DEALS = tuple(
    (MOVES[Kind.DEAL_GUILDS << 16 | rank], 1) for rank in range(len(GUILD_SLOT_SETS))
)


# --- applying moves: each takes an evolver and the move code -----------------------------------
def _take_from_pyramid(e: Evolver, card: int) -> None:
    pyramid = e[PYRAMID]
    slot = pyramid.index(card)
    e[PYRAMID] = pyramid.set(slot, TAKEN)
    present = e[PRESENT] & ~(1 << slot)
    e[PRESENT] = present
    accessible = e[ACCESSIBLE] & ~(1 << slot)
    age = e[AGE]
    covered_by = _LAYOUT_COVERED_BY[age]
    for under in _LAYOUT_COVERS[age][slot]:
        if not present & covered_by[under]:
            accessible |= 1 << under
            if pyramid[under] == HIDDEN:
                e[REVEAL] = e[REVEAL] | 1 << under
    e[ACCESSIBLE] = accessible


def _gain_coins(e: Evolver, player: int, amount: int) -> None:
    i = BASE[player] + COINS
    e[i] = e[i] + amount


def _lose_coins(e: Evolver, player: int, amount: int) -> None:
    i = BASE[player] + COINS
    e[i] = max(0, e[i] - amount)


def _end_game(e: Evolver, winner: int, victory: int) -> None:
    e[PHASE] = GAME_OVER
    e[WINNER] = winner
    e[VICTORY] = victory
    e[EXTRA] = 0


def _move_pawn(e: Evolver, player: int, shields: int) -> bool:
    """Move the pawn ``shields`` spaces towards the opponent; loot tokens. True if the game ends."""
    pawn = e[PAWN]
    sign = 1 if player == 0 else -1
    old = pawn * sign
    new = min(9, old + shields)
    military = e[MILITARY]
    side_shift = 2 if player == 0 else 0  # player A loots the tokens on B's side
    for distance, coins, bit in LOOT:
        token = bit << side_shift
        if old < distance <= new and military & token:
            military &= ~token
            _lose_coins(e, 1 - player, coins)
    e[MILITARY] = military
    e[PAWN] = new * sign
    if new >= 9:
        _end_game(e, player, MILITARY_VICTORY)
        return True
    return False


def _gain_science(e: Evolver, player: int, symbol_bit: int) -> bool:
    """Add a symbol; True if that wins (6 different). Sets CHOOSE_TOKEN on a pair."""
    i = BASE[player] + SCIENCE
    science = e[i]
    if science & symbol_bit:
        if e[BOARD]:
            e[PHASE] = CHOOSE_TOKEN
        return False
    science |= symbol_bit
    e[i] = science
    if science.bit_count() >= 6:
        _end_game(e, player, SCIENCE_VICTORY)
        return True
    return False


def _construct_card(e: Evolver, player: int, card: int) -> bool:
    """Put ``card`` in ``player``'s city with its immediate effects; True if the game ended."""
    b = BASE[player]
    e[b + CITY] = e[b + CITY] | 1 << card
    spec = CARDS[card]
    if _CARD_ECON[card]:
        e[b + ECON] = e[b + ECON] + _CARD_ECON[card]
    if _CARD_CHAIN_GIVES[card]:
        e[b + CHAINS] = e[b + CHAINS] | _CARD_CHAIN_GIVES[card]
    if spec.coins:
        _gain_coins(e, player, spec.coins)
    if spec.coins_per:
        categories, each = spec.coins_per
        _gain_coins(e, player, each * _category_count(e, player, categories))
    if spec.coins_per_max:
        categories, each = spec.coins_per_max
        best = max(_category_count(e, p, categories) for p in (0, 1))
        _gain_coins(e, player, each * best)
    if spec.shields:
        bonus = 1 if e[b + TOKENS_HELD] >> T_STRATEGY & 1 else 0
        if _move_pawn(e, player, spec.shields + bonus):
            return True
    if _CARD_SCIENCE[card]:
        return _gain_science(e, player, _CARD_SCIENCE[card])
    return False


def _gain_token(e: Evolver, player: int, token: int) -> bool:
    b = BASE[player]
    e[b + TOKENS_HELD] = e[b + TOKENS_HELD] | 1 << token
    if TOKENS[token].coins:
        _gain_coins(e, player, TOKENS[token].coins)
    if token == T_MASONRY:
        e[b + ECON] = e[b + ECON] | MASONRY_BIT
    elif token == T_ARCHITECTURE:
        e[b + ECON] = e[b + ECON] | ARCHITECTURE_BIT
    elif token == T_LAW:
        return _gain_science(e, player, _SCIENCE_BIT["law"])
    return False


def _pay(e: Evolver, player: int, coin_cost: int, trade_cost: int) -> None:
    _lose_coins(e, player, coin_cost + trade_cost)
    if trade_cost and e[BASE[1 - player] + TOKENS_HELD] >> T_ECONOMY & 1:
        _gain_coins(e, 1 - player, trade_cost)


def _finish_turn(e: Evolver) -> None:
    """End of the active player's turn: next Age, replay, or the other player."""
    player = e[TO_MOVE]
    extra = e[EXTRA]
    e[EXTRA] = 0
    if e[PRESENT]:
        e[TO_MOVE] = player if extra else 1 - player
        e[PHASE] = REVEAL_CARDS if e[REVEAL] else PLAY
        return
    # The Age is over; a pending Play Again is lost.
    if e[AGE] == 3:
        _civilian_end(e)
        return
    # The next Age's structure is laid out first (Age III: the guild deal; then every face-up
    # card turned over); then the weaker player (pawn in the centre: who took the last card)
    # chooses who begins, seeing it (rules section 10; docs/rules.md). Until that choice
    # TO_MOVE is the chooser.
    pawn = e[PAWN]
    _start_age(e, e[AGE] + 1, 1 if pawn > 0 else 0 if pawn < 0 else player)


def _civilian_end(e: Evolver) -> None:
    f = e.persistent()
    a, b = total_points(f, 0), total_points(f, 1)
    if a != b:
        winner = 0 if a > b else 1
    else:
        blue_a = card_points(f[BASE[0] + CITY] & BLUE)
        blue_b = card_points(f[BASE[1] + CITY] & BLUE)
        winner = SHARED if blue_a == blue_b else 0 if blue_a > blue_b else 1
    _end_game(e, winner, CIVILIAN_VICTORY)


def _start_age(e: Evolver, age: int, to_move: int) -> None:
    """Lay out ``age``'s structure: its chance nodes (the guild deal of Age III, the face-up
    reveals) come next; ``to_move`` is who begins Age I, or who chooses who begins Age II/III
    once the layout is done (:func:`_apply_reveal_card`)."""
    e[AGE] = age
    e[PYRAMID] = _EMPTY_PYRAMID
    e[PRESENT] = _ALL_SLOTS
    e[ACCESSIBLE] = _LAYOUT_START[age]
    e[REVEAL] = _LAYOUT_FACE_UP[age]
    e[UNSEEN] = AGE_DECK[age] | (GUILDS if age == 3 else 0)
    e[GUILD_SLOTS] = 0
    e[TO_MOVE] = to_move
    # Age III is laid out with its guilds, whose backs differ: where they lie is dealt first.
    e[PHASE] = DEAL_GUILDS if age == 3 else REVEAL_CARDS


def _apply_build(e: Evolver, code: int) -> None:
    card = code & 0xFF
    player = e[TO_MOVE]
    b = BASE[player]
    _take_from_pyramid(e, card)
    if e[b + CHAINS] & _CARD_CHAIN_FROM[card]:
        if e[b + TOKENS_HELD] >> T_URBANISM & 1:
            _gain_coins(e, player, 4)
    elif not _NEEDS_NOTHING[card] or _COIN_COST[card]:
        econ = e[b + ECON]
        trade = (
            0
            if _NEEDS_NOTHING[card]
            else _purchase_cost(card, econ, e[BASE[1 - player] + ECON], _waivable(card, econ))
        )
        _pay(e, player, _COIN_COST[card], trade)
    if _construct_card(e, player, card):
        return
    if e[PHASE] == PLAY:
        _finish_turn(e)


def _apply_discard(e: Evolver, code: int) -> None:
    card = code & 0xFF
    player = e[TO_MOVE]
    _take_from_pyramid(e, card)
    _gain_coins(e, player, 2 + (e[BASE[player] + CITY] & YELLOW).bit_count())
    e[DISCARD] = e[DISCARD] | 1 << card
    _finish_turn(e)


def _apply_wonder(e: Evolver, code: int) -> None:
    card = code & 0xFF
    w = (code >> 8) & 0xFF
    player = e[TO_MOVE]
    b, o = BASE[player], BASE[1 - player]
    _take_from_pyramid(e, card)
    e[b + UNDER] = e[b + UNDER] | 1 << card
    econ = e[b + ECON]
    _pay(
        e,
        player,
        0,
        _purchase_cost(ITEM_WONDER + w, econ, e[o + ECON], _waivable(ITEM_WONDER + w, econ)),
    )
    e[b + WONDERS_OWNED] = e[b + WONDERS_OWNED] & ~(1 << w)
    e[b + BUILT] = e[b + BUILT] | 1 << w
    if (e[b + BUILT] | e[o + BUILT]).bit_count() >= MAX_WONDERS_BUILT:
        e[b + WONDERS_OWNED] = 0  # the eighth wonder goes back to the box
        e[o + WONDERS_OWNED] = 0
    spec = WONDERS[w]
    if _WONDER_ECON[w]:
        e[b + ECON] = e[b + ECON] + _WONDER_ECON[w]
    if spec.extra_turn or e[b + TOKENS_HELD] >> T_THEOLOGY & 1:
        e[EXTRA] = 1
    if spec.coins:
        _gain_coins(e, player, spec.coins)
    if spec.opponent_loses:
        _lose_coins(e, 1 - player, spec.opponent_loses)
    if spec.shields and _move_pawn(e, player, spec.shields):
        return
    if spec.destroy:
        if e[o + CITY] & _DESTROY_MASK[spec.destroy]:
            e[DESTROYING] = _DESTROY_MASK[spec.destroy]
            e[PHASE] = DESTROY
            return
    elif spec.mausoleum:
        if e[DISCARD]:
            e[PHASE] = MAUSOLEUM
            return
    elif spec.library:
        owned = e[b + TOKENS_HELD] | e[o + TOKENS_HELD]
        if ALL_TOKENS & ~e[BOARD] & ~owned:
            e[PHASE] = LIBRARY_DRAW
            return
    _finish_turn(e)


def _apply_pick_wonder(e: Evolver, code: int) -> None:
    w = (code >> 8) & 0xFF
    picks = e[PICKS]
    player = DRAFT_ORDER[picks]
    b = BASE[player]
    e[b + WONDERS_OWNED] = e[b + WONDERS_OWNED] | 1 << w
    offer = e[OFFER] & ~(1 << w)
    picks += 1
    if offer.bit_count() == 1:  # the last wonder of a group of four has no choice left
        last_player = DRAFT_ORDER[picks]
        e[BASE[last_player] + WONDERS_OWNED] = e[BASE[last_player] + WONDERS_OWNED] | offer
        offer = 0
        picks += 1
    e[OFFER] = offer
    e[PICKS] = picks
    if picks == 8:
        e[WONDERS_UNSEEN] = 0  # the four wonders never revealed are out of the game
        _start_age(e, 1, 0)
    elif offer:
        e[TO_MOVE] = DRAFT_ORDER[picks]
    else:
        e[PHASE] = SETUP_WONDERS
        e[TO_MOVE] = DRAFT_ORDER[picks]


def _apply_token(e: Evolver, code: int) -> None:
    token = (code >> 8) & 0xFF
    player = e[TO_MOVE]
    if e[PHASE] == LIBRARY_CHOOSE:
        e[LIBRARY] = 0
    else:
        e[BOARD] = e[BOARD] & ~(1 << token)
    e[PHASE] = PLAY
    if _gain_token(e, player, token):
        return
    _finish_turn(e)


def _apply_destroy(e: Evolver, code: int) -> None:
    card = code & 0xFF
    victim = 1 - e[TO_MOVE]
    b = BASE[victim]
    e[b + CITY] = e[b + CITY] & ~(1 << card)
    e[b + ECON] = e[b + ECON] - _CARD_ECON[card]
    e[DISCARD] = e[DISCARD] | 1 << card
    e[DESTROYING] = 0
    e[PHASE] = PLAY
    _finish_turn(e)


def _apply_mausoleum(e: Evolver, code: int) -> None:
    card = code & 0xFF
    e[DISCARD] = e[DISCARD] & ~(1 << card)
    e[PHASE] = PLAY
    if _construct_card(e, e[TO_MOVE], card):
        return
    if e[PHASE] == PLAY:
        _finish_turn(e)


def _apply_starter(e: Evolver, code: int) -> None:
    # The structure is laid out and its face-up cards revealed already: play begins.
    e[TO_MOVE] = (code >> 8) & 0xFF
    e[PHASE] = PLAY


def _apply_reveal_card(e: Evolver, code: int) -> None:
    card = code & 0xFF
    slot = (code >> 8) & 0xFF
    e[PYRAMID] = e[PYRAMID].set(slot, card)
    e[UNSEEN] = e[UNSEEN] & ~(1 << card)
    reveal = e[REVEAL] & ~(1 << slot)
    e[REVEAL] = reveal
    if not reveal:
        # The last face-up card of a new Age II/III structure: the chooser decides who begins.
        # Only a layout has every slot present at a reveal (a reveal during play follows a take).
        e[PHASE] = CHOOSE_STARTER if e[PRESENT] == _ALL_SLOTS and e[AGE] > 1 else PLAY


def _apply_reveal_wonder(e: Evolver, code: int) -> None:
    w = (code >> 8) & 0xFF
    e[WONDERS_UNSEEN] = e[WONDERS_UNSEEN] & ~(1 << w)
    offer = e[OFFER] | 1 << w
    e[OFFER] = offer
    if offer.bit_count() == 4:
        e[PHASE] = DRAFT


def _apply_reveal_token(e: Evolver, code: int) -> None:
    board = e[BOARD] | 1 << ((code >> 8) & 0xFF)
    e[BOARD] = board
    if board.bit_count() == BOARD_TOKEN_COUNT:
        e[PHASE] = SETUP_WONDERS


def _apply_library_draw(e: Evolver, code: int) -> None:
    e[LIBRARY] = code & 0xFFFF
    e[PHASE] = LIBRARY_CHOOSE


def _apply_deal_guilds(e: Evolver, code: int) -> None:
    e[GUILD_SLOTS] = GUILD_SLOT_MASKS[code & 0xFFFF]
    e[PHASE] = REVEAL_CARDS


_APPLY_BY_KIND = {
    Kind.BUILD: _apply_build,
    Kind.DISCARD: _apply_discard,
    Kind.WONDER: _apply_wonder,
    Kind.PICK_WONDER: _apply_pick_wonder,
    Kind.TOKEN: _apply_token,
    Kind.DESTROY: _apply_destroy,
    Kind.MAUSOLEUM: _apply_mausoleum,
    Kind.STARTER: _apply_starter,
    Kind.REVEAL_CARD: _apply_reveal_card,
    Kind.REVEAL_WONDER: _apply_reveal_wonder,
    Kind.REVEAL_TOKEN: _apply_reveal_token,
    Kind.LIBRARY_DRAW: _apply_library_draw,
    Kind.DEAL_GUILDS: _apply_deal_guilds,
}
#: By move kind (a move's code >> 16): a list is the quickest lookup.
_APPLY = [_APPLY_BY_KIND[k] for k in sorted(_APPLY_BY_KIND)]


def _initial_fields() -> list[int | PVector[Any]]:
    fields: list[int | PVector[Any]] = [0] * N_FIELDS
    fields[PHASE] = SETUP_TOKENS
    fields[PYRAMID] = _EMPTY_PYRAMID
    fields[MILITARY] = ALL_MILITARY
    fields[WONDERS_UNSEEN] = ALL_WONDERS
    fields[WINNER] = -1
    for b in BASE:
        fields[b + COINS] = START_COINS
    return fields


def new_game() -> State:
    """The state before setup: a chance node dealing the five board progress tokens."""
    return State(pvector(_initial_fields()))


def play_random_game(rng: random.Random, state: State | None = None) -> State:
    """Uniformly random legal moves (exact chance) from ``state`` to the end of the game."""
    state = new_game() if state is None else state
    while state._f[PHASE] != GAME_OVER:
        state = state.apply(state.random_move(rng), check=False)
    return state


def replay(moves: Iterable[int | str], state: State | None = None) -> State:
    """Apply moves (or their notation) from ``state`` (default: a new game), checking each."""
    state = new_game() if state is None else state
    for move in moves:
        state = state.apply(Move.parse(move) if isinstance(move, str) else move)
    return state
