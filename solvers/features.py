"""Features of a 7 Wonders Duel position for the learned value (:mod:`duel.solvers.value`).

Every feature is a small integer computed from the state's fields (``duel/state.py`` layout), so
that the same computation can be written in C on the engine core. The value model is

    logit = sum_k ((1 - t) * W0[s][k] + t * W1[s][k]) * d[k],    d = g(A) - g(B)
    value = 1 / (1 + exp(-logit))          (P(A wins) + P(shared)/2)

where ``g(p)`` is the **per-player feature vector** below, ``s`` the stage (0 = setup and wonder
draft, 1..3 = Age I..III) and ``t`` the taper, the fraction of the stage done (cards taken from
the pyramid / 20; wonders picked / 8 in the draft). There is no bias term: swapping the players
swaps ``g(A)`` and ``g(B)``, negates ``d`` and therefore the logit, so
``value(swapped) = 1 - value`` holds exactly (the model is antisymmetric by construction, no
data augmentation is needed). "Who is to move" and pending decisions are per-player features
(1 for the player concerned), so they enter ``d`` as +1 / -1 as well.

``g(p)``, with ``o`` the opponent, ``f`` the fields, ``b = BASE[p]``, in this order:

==========================  =============================================================
name                        integer
==========================  =============================================================
pts_blue..pts_military (8)  the score sheet now: blue, green, yellow, guild points, wonder
                            points, token points (Mathematics included), coins // 3, military
coins                       coins
coins_cap8                  min(coins, 8) (buying power saturates)
prod_R_ge1, prod_R_ge2 (10) fixed production of resource R at least 1 / at least 2
choice_raw, choice_man      "one of" producers (wood/clay/stone; glass/papyrus)
fixed_R (5)                 1 if p buys R at the fixed price of 1
price_R (5)                 p's trade price for R: 1 if fixed, else 2 + o's production of R
afford                      accessible cards p could build now (price <= coins; chains count)
free                        accessible cards p could build for 0 coins
lead_ge1..lead_ge8 (8)      1 if the pawn is at least k spaces towards o's capital
loot2, loot5                o's 2- and 5-coin looting tokens still on the board
mil_reach                   1 if lead + the most shields of an accessible red card (+1 with
                            Strategy) reaches 9 (a military win is one card away)
sci_ge2..sci_ge5 (4)        at least k different science symbols (Law counts)
sci_pairs                   green cards + Law - different symbols (symbols held twice)
sci_new                     accessible green cards with a symbol p lacks
sci_reach                   1 if p has 5 different symbols and one of those cards is accessible
token_T (10)                owns progress token T (catalog order)
built_W (12)                has built wonder W (catalog order)
owns_W (12)                 owns wonder W not built yet (0 for all once seven are built)
n_COLOR (7)                 cards in the city: brown grey blue green yellow red purple
chains                      chain symbols held
to_move                     1 if p decides next (at a chance node too: while Age II or III is
                            laid out, p is the player who will choose who begins it)
pending_token               1 if p is choosing a progress token (science pair, Great Library)
extra_turn                  1 if p has a Play Again pending
pending_destroy             1 if p is choosing a card to destroy or to take from the discard
best_pts                    the most points an accessible card p can afford would give now
                            (printed points; a guild counts what it would score now)
best_shields                the most shields of an accessible card p can afford (+1 with
                            Strategy)
sci_pair_now                1 if p can afford an accessible green card whose symbol it holds
                            (a pair: a progress token)
mil_win_now                 1 if lead + best_shields reaches 9 (a military win p can pay for)
sci_win_now                 1 if p has 5 different symbols and can afford a green card with
                            a sixth
win_cards                   accessible cards p can afford that would win the game at once
wonders_now                 wonders of p it can afford now (0 once seven are built)
move_pts..move_wonders (6)  best_pts, best_shields, sci_pair_now, mil_win_now, sci_win_now
                            and wonders_now again, 0 unless p takes the next card (phase
                            play, or a reveal before it): what the side to move can take, the
                            other can only hope is left
==========================  =============================================================

>>> from duel import new_game
>>> state = new_game()
>>> len(player_features(state, 0)) == len(FEATURE_NAMES)
True
>>> sum(abs(x) for x in features(state))  # a new game is symmetric but A is to move
1
"""

from __future__ import annotations

from duel.catalog import CARDS, COLOR_MASK, SCIENCE_SYMBOLS
from duel.state import (
    ACCESSIBLE,
    AGE,
    BASE,
    BUILT,
    CHAINS,
    CHOOSE_TOKEN,
    CITY,
    COINS,
    DESTROY,
    DRAFT,
    ECON,
    EXTRA,
    FIXED_SHIFT,
    GAME_OVER,
    LIBRARY_CHOOSE,
    LIBRARY_DRAW,
    MAN_CHOICE_SHIFT,
    MAUSOLEUM,
    MAX_WONDERS_BUILT,
    MILITARY,
    MILITARY_POINTS,
    PAWN,
    PHASE,
    PICKS,
    PLAY,
    PRESENT,
    PYRAMID,
    RAW_CHOICE_SHIFT,
    REVEAL_CARDS,
    SCIENCE,
    SETUP_TOKENS,
    SETUP_WONDERS,
    TO_MOVE,
    TOKEN_POINTS,
    TOKENS_HELD,
    WONDER_POINTS,
    WONDERS_OWNED,
    State,
    card_points,
    guild_points,
    trade_price,
)

__all__ = [
    "FEATURE_NAMES",
    "N_FEATURES",
    "features",
    "player_features",
    "stage",
    "STAGES",
    "take_now",
]

_COLORS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
_RES = ("wood", "clay", "stone", "glass", "papyrus")
_TOKEN_NAMES = (
    "agriculture",
    "architecture",
    "economy",
    "law",
    "masonry",
    "mathematics",
    "philosophy",
    "strategy",
    "theology",
    "urbanism",
)
_WONDER_KEYS = (
    "appian_way",
    "circus_maximus",
    "colossus",
    "great_library",
    "great_lighthouse",
    "hanging_gardens",
    "mausoleum",
    "piraeus",
    "pyramids",
    "sphinx",
    "statue_of_zeus",
    "temple_of_artemis",
)
#: What p can take now (the ``move_`` copies count only for the side to take a card).
_NOW_NAMES = (
    "best_pts",
    "best_shields",
    "sci_pair_now",
    "mil_win_now",
    "sci_win_now",
    "wonders_now",
)
FEATURE_NAMES: tuple[str, ...] = (
    (
        "pts_blue",
        "pts_green",
        "pts_yellow",
        "pts_guilds",
        "pts_wonders",
        "pts_tokens",
        "pts_coins",
        "pts_military",
        "coins",
        "coins_cap8",
    )
    + tuple(f"prod_{r}_ge{k}" for r in _RES for k in (1, 2))
    + ("choice_raw", "choice_man")
    + tuple(f"fixed_{r}" for r in _RES)
    + tuple(f"price_{r}" for r in _RES)
    + ("afford", "free")
    + tuple(f"lead_ge{k}" for k in range(1, 9))
    + ("loot2", "loot5", "mil_reach")
    + tuple(f"sci_ge{k}" for k in range(2, 6))
    + ("sci_pairs", "sci_new", "sci_reach")
    + tuple(f"token_{t}" for t in _TOKEN_NAMES)
    + tuple(f"built_{w}" for w in _WONDER_KEYS)
    + tuple(f"owns_{w}" for w in _WONDER_KEYS)
    + tuple(f"n_{c}" for c in _COLORS)
    + ("chains", "to_move", "pending_token", "extra_turn", "pending_destroy")
    + _NOW_NAMES
    + ("win_cards",)
    + tuple(f"move_{name.removesuffix('_now').removeprefix('best_')}" for name in _NOW_NAMES)
)
N_FEATURES = len(FEATURE_NAMES)
#: Stages of the game, each with its own pair of weight vectors: the draft, Ages I, II, III.
STAGES = 4

_BLUE, _GREEN, _YELLOW = COLOR_MASK["blue"], COLOR_MASK["green"], COLOR_MASK["yellow"]
_RED, _PURPLE = COLOR_MASK["red"], COLOR_MASK["purple"]
_COLOR_MASKS = tuple(COLOR_MASK[c] for c in _COLORS)
_LAW_SCIENCE_BIT = 1 << SCIENCE_SYMBOLS.index("law")
_T_LAW, _T_MASONRY, _T_STRATEGY = 3, 4, 7
_CARD_SHIELDS = [c.shields for c in CARDS]
_CARD_POINTS = [c.points for c in CARDS]
_CARD_BIT = [c.bit for c in CARDS]
_CARD_SCIENCE_BIT = [1 << SCIENCE_SYMBOLS.index(c.science) if c.science else 0 for c in CARDS]
_TOKEN_PHASES = (CHOOSE_TOKEN, LIBRARY_CHOOSE, LIBRARY_DRAW)
_DESTROY_PHASES = (DESTROY, MAUSOLEUM)
_SETUP_PHASES = (SETUP_TOKENS, SETUP_WONDERS, DRAFT)
#: The side to move takes the next card (a card uncovered by the last one is turned first).
_TAKING_PHASES = (PLAY, REVEAL_CARDS)


def stage(f) -> tuple[int, int, int]:
    """(stage, numerator, denominator) of the taper ``t = numerator / denominator``.

    Stage 0 is the setup and the wonder draft (t = wonders picked / 8); stages 1..3 are Ages
    I..III (t = cards taken from the pyramid / 20; 20 / 20 between two Ages).

    >>> from duel import new_game
    >>> stage(new_game().fields)
    (0, 0, 8)
    """
    if f[PHASE] in _SETUP_PHASES:
        return 0, f[PICKS], 8
    return f[AGE], 20 - f[PRESENT].bit_count(), 20


def _accessible_cards(f) -> list[int]:
    """Face-up accessible cards (a slot waiting to be revealed holds no card yet)."""
    pyramid = f[PYRAMID]
    acc = f[ACCESSIBLE]
    out = []
    while acc:
        low = acc & -acc
        acc ^= low
        c = pyramid[low.bit_length() - 1]
        if c >= 0:
            out.append(c)
    return out


def player_features(state: State, p: int, accessible: list[int] | None = None) -> list[int]:
    """The per-player vector ``g(p)`` of the module docstring (``len(FEATURE_NAMES)`` ints)."""
    f = state.fields
    o = 1 - p
    b, bo = BASE[p], BASE[o]
    cards = f[b + CITY]
    built = f[b + BUILT]
    tokens = f[b + TOKENS_HELD]
    coins = f[b + COINS]
    econ = f[b + ECON]
    opp_econ = f[bo + ECON]
    pawn = f[PAWN]
    lead = pawn if p == 0 else -pawn
    phase = f[PHASE]
    if accessible is None:
        accessible = _accessible_cards(f) if phase != GAME_OVER else []

    out = [
        card_points(cards & _BLUE),
        card_points(cards & _GREEN),
        card_points(cards & _YELLOW),
        guild_points(f, cards) if cards & _PURPLE else 0,
        WONDER_POINTS[built],
        TOKEN_POINTS[tokens],
        coins // 3,
        MILITARY_POINTS[p][pawn + 9],
        coins,
        coins if coins < 8 else 8,
    ]
    for r in range(5):
        units = (econ >> (3 * r)) & 7
        out.append(1 if units >= 1 else 0)
        out.append(1 if units >= 2 else 0)
    out.append((econ >> RAW_CHOICE_SHIFT) & 3)
    out.append((econ >> MAN_CHOICE_SHIFT) & 3)
    for r in range(5):
        out.append((econ >> (FIXED_SHIFT + r)) & 1)
    for r in range(5):
        out.append(trade_price(econ, opp_econ, r))

    # Accessible cards: what p could build now, military and science one card away.
    chains = f[b + CHAINS]
    science = f[b + SCIENCE]
    card_cost = state.card_cost
    distinct = science.bit_count()
    afford = free = 0
    best_shields = 0
    sci_new = 0
    affordable = []
    for c in accessible:
        cost = card_cost(p, c)
        if cost <= coins:
            affordable.append(c)
            afford += 1
            if cost == 0:
                free += 1
        if _CARD_SHIELDS[c] > best_shields:
            best_shields = _CARD_SHIELDS[c]
        sci = _CARD_SCIENCE_BIT[c]
        if sci and not science & sci:
            sci_new += 1
    out.append(afford)
    out.append(free)
    for k in range(1, 9):
        out.append(1 if lead >= k else 0)
    loot = (f[MILITARY] >> (2 if p == 0 else 0)) & 3
    out.append(loot & 1)
    out.append(loot >> 1)
    if best_shields and tokens >> _T_STRATEGY & 1:
        best_shields += 1
    out.append(1 if best_shields and lead + best_shields >= 9 else 0)
    for k in range(2, 6):
        out.append(1 if distinct >= k else 0)
    out.append((cards & _GREEN).bit_count() + (tokens >> _T_LAW & 1) - distinct)
    out.append(sci_new)
    out.append(1 if distinct >= 5 and sci_new else 0)
    for t in range(10):
        out.append(tokens >> t & 1)
    for w in range(12):
        out.append(built >> w & 1)
    owned = f[b + WONDERS_OWNED]
    for w in range(12):
        out.append(owned >> w & 1)
    for mask in _COLOR_MASKS:
        out.append((cards & mask).bit_count())
    out.append(chains.bit_count())
    mine = phase != GAME_OVER and f[TO_MOVE] == p
    out.append(1 if mine else 0)
    out.append(1 if mine and phase in _TOKEN_PHASES else 0)
    out.append(1 if mine and f[EXTRA] else 0)
    out.append(1 if mine and phase in _DESTROY_PHASES else 0)
    now, win_cards = take_now(state, p, affordable)
    out.extend(now)
    out.append(win_cards)
    if mine and phase in _TAKING_PHASES:
        out.extend(now)
    else:
        out.extend([0] * len(now))
    return out


def take_now(state: State, p: int, affordable: list[int]) -> tuple[list[int], int]:
    """What ``p`` can take now, from the accessible cards it can pay for (``affordable``):
    ``best_pts`` .. ``wonders_now`` of the module docstring, and ``win_cards``.

    >>> from duel import new_game
    >>> take_now(new_game(), 0, [])
    ([0, 0, 0, 0, 0, 0], 0)
    """
    f = state.fields
    b = BASE[p]
    science = f[b + SCIENCE]
    distinct = science.bit_count()
    strategy = f[b + TOKENS_HELD] >> _T_STRATEGY & 1
    lead = f[PAWN] if p == 0 else -f[PAWN]
    best_pts = best_shields = pair = sci_win = win_cards = 0
    for c in affordable:
        pts = _CARD_POINTS[c]
        if _CARD_BIT[c] & _PURPLE:
            pts += guild_points(f, _CARD_BIT[c])
        if pts > best_pts:
            best_pts = pts
        shields = _CARD_SHIELDS[c]
        if shields:
            shields += strategy
            if shields > best_shields:
                best_shields = shields
            if lead + shields >= 9:
                win_cards += 1
        sci = _CARD_SCIENCE_BIT[c]
        if sci:
            if science & sci:
                pair = 1
            elif distinct >= 5:
                sci_win = 1
                win_cards += 1
    wonders = 0
    coins = f[b + COINS]
    built = f[b + BUILT]
    if f[PHASE] != GAME_OVER and (built | f[BASE[1 - p] + BUILT]).bit_count() < MAX_WONDERS_BUILT:
        unbuilt = f[b + WONDERS_OWNED] & ~built
        while unbuilt:
            low = unbuilt & -unbuilt
            unbuilt ^= low
            if state.wonder_cost(p, low.bit_length() - 1) <= coins:
                wonders += 1
    mil_win = 1 if best_shields and lead + best_shields >= 9 else 0
    return [best_pts, best_shields, pair, mil_win, sci_win, wonders], win_cards


def features(state: State) -> list[int]:
    """``d = g(A) - g(B)``: the antisymmetric feature vector of ``state``.

    >>> from duel import new_game
    >>> len(features(new_game())) == N_FEATURES
    True
    """
    f = state.fields
    accessible = _accessible_cards(f) if f[PHASE] != GAME_OVER else []
    ga = player_features(state, 0, accessible)
    gb = player_features(state, 1, accessible)
    return [x - y for x, y in zip(ga, gb, strict=True)]
