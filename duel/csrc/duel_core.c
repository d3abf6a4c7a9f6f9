/*
 * duel_core.c -- the C mirror of duel/state.py (see duel_core.h for the API and how to use it).
 *
 * Each static helper below carries the name of the Python function it mirrors; the order of
 * effects inside each one is the Python order, because later effects read earlier ones (a card's
 * coins-per-colour counts the card itself, a military loot happens before the science check...).
 */
#include "duel_core.h"

typedef struct dc_category {
    dc_cards colours;   /* cards of these colours count */
    uint8_t wonder;     /* built wonders count */
    uint8_t coins_div3; /* coins / 3 count */
    uint8_t each;       /* coins or points per unit; 0 = no such effect */
} dc_category;

typedef struct dc_card_spec {
    uint8_t need[5];
    uint8_t coin_cost;
    uint8_t needs_nothing; /* no resource in the cost */
    uint32_t chain_from;   /* chain symbol bit that makes it free, or 0 */
    uint32_t chain_gives;  /* chain symbol bit it gives, or 0 */
    uint32_t econ;         /* added to the packed economy */
    uint8_t science;       /* science symbol bit, or 0 */
    int8_t points, coins, shields;
    dc_category coins_per, coins_per_max, points_per_max;
} dc_card_spec;

typedef struct dc_wonder_spec {
    uint8_t need[5];
    uint8_t needs_nothing;
    int8_t points, shields, coins, opponent_loses, extra_turn;
    uint8_t destroy; /* 0, 1 = brown, 2 = grey */
    uint32_t econ;
    uint8_t library, mausoleum;
} dc_wonder_spec;

typedef struct dc_token_spec {
    int8_t points, coins;
} dc_token_spec;

#include "duel_tables.h"

_Static_assert(sizeof(dc_player) == 64, "dc_player has implicit padding");
_Static_assert(sizeof(dc_state) == 224, "dc_state has implicit padding");

#define DC_ALL_TOKENS ((uint16_t)((1u << DC_N_TOKENS) - 1))
#define DC_ALL_WONDERS ((uint16_t)((1u << DC_N_WONDERS) - 1))
#define DC_ALL_MILITARY 0xF
#define DC_MAX_WONDERS_BUILT 7
#define DC_BOARD_TOKEN_COUNT 5
#define DC_START_COINS 7

static const uint8_t DC_DRAFT_ORDER[8] = {0, 1, 1, 0, 1, 0, 0, 1};
/* --- bit helpers ---------------------------------------------------------------------------- */
/* Bit counts. x86-64 compilers without -mpopcnt (the default) turn __builtin_popcount into a
 * libgcc call, which the exact solver spent 8% of its time in: count inline there instead. */
#if defined(__x86_64__) && !defined(__POPCNT__)
static inline int dc_pop64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
#else
static inline int dc_pop64(uint64_t x) { return __builtin_popcountll(x); }
#endif
static inline int dc_pop32(uint32_t x) { return dc_pop64(x); }
static inline int dc_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int dc_pop_cards(dc_cards x) {
    return dc_pop64((uint64_t)x) + dc_pop64((uint64_t)(x >> 64));
}
static inline int dc_has_card(dc_cards x, int c) { return (int)((x >> c) & 1); }

/* The k-th (0-based) set bit of a 64-bit word. */
static inline int dc_select64(uint64_t x, int k) {
    while (k--) x &= x - 1;
    return __builtin_ctzll(x);
}

/* The k-th set bit of a card set. */
static inline int dc_select_cards(dc_cards x, int k) {
    uint64_t lo = (uint64_t)x;
    int n = dc_pop64(lo);
    if (k < n) return dc_select64(lo, k);
    return 64 + dc_select64((uint64_t)(x >> 64), k - n);
}

/* Set bits of a card set, lowest first, into out; returns how many. */
static inline int dc_card_list(dc_cards x, int *out) {
    int n = 0;
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    while (lo) { out[n++] = __builtin_ctzll(lo); lo &= lo - 1; }
    while (hi) { out[n++] = 64 + __builtin_ctzll(hi); hi &= hi - 1; }
    return n;
}

/* --- PRNG: xoshiro256** seeded by splitmix64 ------------------------------------------------ */
static inline uint64_t dc_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

DC_API void dc_rng_seed(dc_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++) rng->s[i] = dc_splitmix64(&seed);
}

static inline uint64_t dc_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

DC_API uint64_t dc_rng_next(dc_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = dc_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = dc_rotl(s[3], 45);
    return result;
}

/* Lemire's nearly divisionless bounded integer, with rejection: exactly uniform. */
DC_API uint64_t dc_rng_below(dc_rng *rng, uint64_t n) {
    __extension__ unsigned __int128 m = (unsigned __int128)dc_rng_next(rng) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (unsigned __int128)dc_rng_next(rng) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* --- pricing (duel.pricing.min_purchase_cost and duel.state._purchase_cost) ------------------ */
DC_API int dc_min_purchase_cost(const uint8_t need[5], const uint8_t prod[5], int raw_choices,
                                int man_choices, const int prices[5], int waivable) {
    /* Units by decreasing price, equal prices in resource order (the stable sort of the Python
     * greedy); the units of one resource are consecutive, so they are handled as a block. */
    int order[5], missing[5], n = 0;
    for (int r = 0; r < 5; r++) {
        int m = (int)need[r] - (int)prod[r];
        if (m <= 0) continue;
        int i = n++;
        while (i > 0 && prices[order[i - 1]] < prices[r]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = r;
        missing[r] = m;
    }
    int coins = 0;
    for (int i = 0; i < n; i++) {
        int r = order[i], m = missing[r], k;
        if (r < 3) {
            k = m < raw_choices ? m : raw_choices;
            raw_choices -= k;
        } else {
            k = m < man_choices ? m : man_choices;
            man_choices -= k;
        }
        m -= k;
        k = m < waivable ? m : waivable;
        waivable -= k;
        m -= k;
        coins += m * prices[r];
    }
    return coins;
}

/* trade_price + _purchase_cost: coins spent trading for `need` with this economy. */
static inline int dc_trade_cost(uint32_t econ, uint32_t opp_econ, const uint8_t need[5],
                                int waivable) {
    uint8_t prod[5];
    int prices[5], any = 0, plain = 0;
    for (int r = 0; r < 5; r++) {
        prod[r] = (econ >> (3 * r)) & 7;
        prices[r] = (econ >> (DC_FIXED_SHIFT + r)) & 1 ? 1 : 2 + (int)((opp_econ >> (3 * r)) & 7);
        int m = (int)need[r] - (int)prod[r];
        if (m > 0) {
            any = 1;
            plain += m * prices[r];
        }
    }
    if (!any) return 0;
    /* No free source to assign (the common case): every missing unit is bought. */
    if (!waivable && !(econ >> DC_RAW_CHOICE_SHIFT & 0xF)) return plain;
    return dc_min_purchase_cost(need, prod, (econ >> DC_RAW_CHOICE_SHIFT) & 3,
                                (econ >> DC_MAN_CHOICE_SHIFT) & 3, prices, waivable);
}

/* What building `card` costs `p` now, chains and printed coins included. */
static inline int dc_card_price(const dc_state *s, int p, int c) {
    const dc_player *me = &s->p[p];
    const dc_card_spec *spec = &DC_CARDS_TABLE[c];
    if (me->chains & spec->chain_from) return 0; /* a chain waives coins as well as resources */
    if (spec->needs_nothing) return spec->coin_cost;
    int waive = (me->econ & DC_MASONRY_BIT) && dc_has_card(DC_BLUE, c) ? 2 : 0;
    return spec->coin_cost + dc_trade_cost(me->econ, s->p[1 - p].econ, spec->need, waive);
}

static inline int dc_wonder_price(const dc_state *s, int p, int w) {
    const dc_wonder_spec *spec = &DC_WONDERS_TABLE[w];
    if (spec->needs_nothing) return 0;
    uint32_t econ = s->p[p].econ;
    return dc_trade_cost(econ, s->p[1 - p].econ, spec->need,
                         econ & DC_ARCHITECTURE_BIT ? 2 : 0);
}

DC_API int dc_card_cost(const dc_state *s, int player, int card) {
    return dc_card_price(s, player, card);
}

DC_API int dc_wonder_cost(const dc_state *s, int player, int wonder) {
    return dc_wonder_price(s, player, wonder);
}

/* --- scoring -------------------------------------------------------------------------------- */
static inline int dc_card_points(dc_cards cards) {
    return dc_pop_cards(cards & DC_POINTS_BIT_0) + 2 * dc_pop_cards(cards & DC_POINTS_BIT_1) +
           4 * dc_pop_cards(cards & DC_POINTS_BIT_2);
}

/* _category_count */
static inline int dc_category_count(const dc_state *s, int p, const dc_category *cat) {
    const dc_player *pl = &s->p[p];
    int n = dc_pop_cards(pl->cards & cat->colours);
    if (cat->wonder) n += dc_pop32(pl->built);
    if (cat->coins_div3) n += pl->coins / 3;
    return n;
}

static inline int dc_guild_points(const dc_state *s, dc_cards cards) {
    int list[DC_N_CARDS], n = dc_card_list(cards & DC_PURPLE, list), total = 0;
    for (int i = 0; i < n; i++) {
        const dc_category *rule = &DC_CARDS_TABLE[list[i]].points_per_max;
        int a = dc_category_count(s, 0, rule), b = dc_category_count(s, 1, rule);
        total += rule->each * (a > b ? a : b);
    }
    return total;
}

static inline int dc_wonder_points(uint32_t built) {
    int total = 0;
    while (built) {
        total += DC_WONDERS_TABLE[dc_ctz32(built)].points;
        built &= built - 1;
    }
    return total;
}

static inline int dc_token_points(uint32_t tokens) {
    int total = 0;
    for (uint32_t m = tokens; m; m &= m - 1) total += DC_TOKENS_TABLE[dc_ctz32(m)].points;
    if (tokens >> DC_T_MATHEMATICS & 1) total += 3 * dc_pop32(tokens);
    return total;
}

static inline int dc_military_points(int player, int pawn) {
    int p = player == 0 ? pawn : -pawn;
    return p <= 0 ? 0 : p <= 2 ? 2 : p <= 5 ? 5 : 10;
}

DC_API void dc_score_breakdown(const dc_state *s, int player, int out[DC_SCORE_CATEGORIES]) {
    const dc_player *pl = &s->p[player];
    out[DC_SCORE_BLUE] = dc_card_points(pl->cards & DC_BLUE);
    out[DC_SCORE_GREEN] = dc_card_points(pl->cards & DC_GREEN);
    out[DC_SCORE_YELLOW] = dc_card_points(pl->cards & DC_YELLOW);
    out[DC_SCORE_PURPLE] = dc_guild_points(s, pl->cards);
    out[DC_SCORE_WONDERS] = dc_wonder_points(pl->built);
    out[DC_SCORE_TOKENS] = dc_token_points(pl->tokens);
    out[DC_SCORE_COINS] = pl->coins / 3;
    out[DC_SCORE_MILITARY] = dc_military_points(player, s->pawn);
}

DC_API int dc_total_points(const dc_state *s, int player) {
    const dc_player *pl = &s->p[player];
    int total = dc_card_points(pl->cards & (DC_BLUE | DC_GREEN | DC_YELLOW));
    if (pl->cards & DC_PURPLE) total += dc_guild_points(s, pl->cards);
    return total + dc_wonder_points(pl->built) + dc_token_points(pl->tokens) +
           dc_military_points(player, s->pawn) + pl->coins / 3;
}

/* --- node kind ------------------------------------------------------------------------------ */
DC_API void dc_new_game(dc_state *s) {
    memset(s, 0, sizeof *s);
    s->phase = DC_SETUP_TOKENS;
    memset(s->pyramid, DC_HIDDEN, sizeof s->pyramid);
    s->military = DC_ALL_MILITARY;
    s->wonders_unseen = DC_ALL_WONDERS;
    s->winner = -1;
    s->p[0].coins = s->p[1].coins = DC_START_COINS;
}

DC_API int dc_is_chance(const dc_state *s) {
    int ph = s->phase;
    return ph == DC_SETUP_TOKENS || ph == DC_SETUP_WONDERS || ph == DC_REVEAL_CARDS ||
           ph == DC_LIBRARY_DRAW || ph == DC_DEAL_GUILDS;
}

DC_API int dc_is_terminal(const dc_state *s) { return s->phase == DC_GAME_OVER; }

DC_API int dc_state_equal(const dc_state *a, const dc_state *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

DC_API uint64_t dc_state_hash(const dc_state *s) {
    uint64_t h = 0x243f6a8885a308d3ull, w;
    const unsigned char *bytes = (const unsigned char *)s;
    for (size_t i = 0; i < sizeof *s; i += 8) {
        memcpy(&w, bytes + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return h;
}

/* --- applying moves (the _apply_* functions of duel/state.py) ------------------------------- */
static void dc_take_from_pyramid(dc_state *s, int card) {
    /* A legal move takes an accessible card: search those slots only (State uses index()). */
    int slot = 0;
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        slot = dc_ctz32(acc);
        if (s->pyramid[slot] == card) break;
    }
    s->pyramid[slot] = DC_TAKEN;
    uint32_t present = s->present & ~(1u << slot);
    s->present = present;
    uint32_t accessible = s->accessible & ~(1u << slot);
    int age = s->age;
    for (uint32_t under = DC_COVERS[age][slot]; under; under &= under - 1) {
        int u = dc_ctz32(under);
        if (!(present & DC_COVERED_BY[age][u])) {
            accessible |= 1u << u;
            if (s->pyramid[u] == DC_HIDDEN) s->reveal |= 1u << u;
        }
    }
    s->accessible = accessible;
}

static inline void dc_gain_coins(dc_state *s, int p, int amount) { s->p[p].coins += amount; }

static inline void dc_lose_coins(dc_state *s, int p, int amount) {
    int c = s->p[p].coins - amount;
    s->p[p].coins = c > 0 ? c : 0;
}

static void dc_end_game(dc_state *s, int winner, int victory) {
    s->phase = DC_GAME_OVER;
    s->winner = (int8_t)winner;
    s->victory = (uint8_t)victory;
    s->extra = 0;
}

/* _move_pawn: returns 1 if the game ends. */
static int dc_move_pawn(dc_state *s, int player, int shields) {
    int sign = player == 0 ? 1 : -1;
    int old = s->pawn * sign;
    int new_ = old + shields < 9 ? old + shields : 9;
    int side_shift = player == 0 ? 2 : 0; /* player A loots the tokens on B's side */
    static const int distance[2] = {3, 6}, loot[2] = {2, 5}, bit[2] = {1, 2};
    for (int i = 0; i < 2; i++) {
        int token = bit[i] << side_shift;
        if (old < distance[i] && distance[i] <= new_ && (s->military & token)) {
            s->military &= (uint8_t)~token;
            dc_lose_coins(s, 1 - player, loot[i]);
        }
    }
    s->pawn = (int8_t)(new_ * sign);
    if (new_ >= 9) {
        dc_end_game(s, player, DC_MILITARY);
        return 1;
    }
    return 0;
}

/* _gain_science's symbols, shared with the expansion core: adds `symbol_bit` to `science`;
 * 0 if it was there (a pair), else the number of different symbols now. */
static inline int dc_add_symbol(uint8_t *science, int symbol_bit) {
    if (*science & symbol_bit) return 0;
    *science |= (uint8_t)symbol_bit;
    return dc_pop32(*science);
}

/* _gain_science: returns 1 if that wins; a pair with tokens on the board opens CHOOSE_TOKEN. */
static int dc_gain_science(dc_state *s, int player, int symbol_bit) {
    int symbols = dc_add_symbol(&s->p[player].science, symbol_bit);
    if (!symbols) {
        if (s->board) s->phase = DC_CHOOSE_TOKEN;
        return 0;
    }
    if (symbols >= 6) {
        dc_end_game(s, player, DC_SCIENCE);
        return 1;
    }
    return 0;
}

static int dc_construct_card(dc_state *s, int player, int card) {
    dc_player *pl = &s->p[player];
    const dc_card_spec *spec = &DC_CARDS_TABLE[card];
    pl->cards |= DC_CARD_BIT(card);
    pl->econ += spec->econ;
    pl->chains |= spec->chain_gives;
    if (spec->coins) dc_gain_coins(s, player, spec->coins);
    if (spec->coins_per.each)
        dc_gain_coins(s, player, spec->coins_per.each * dc_category_count(s, player, &spec->coins_per));
    if (spec->coins_per_max.each) {
        int a = dc_category_count(s, 0, &spec->coins_per_max);
        int b = dc_category_count(s, 1, &spec->coins_per_max);
        dc_gain_coins(s, player, spec->coins_per_max.each * (a > b ? a : b));
    }
    if (spec->shields) {
        int bonus = pl->tokens >> DC_T_STRATEGY & 1;
        if (dc_move_pawn(s, player, spec->shields + bonus)) return 1;
    }
    if (spec->science) return dc_gain_science(s, player, spec->science);
    return 0;
}

static int dc_gain_token(dc_state *s, int player, int token) {
    dc_player *pl = &s->p[player];
    pl->tokens |= (uint16_t)(1u << token);
    if (DC_TOKENS_TABLE[token].coins) dc_gain_coins(s, player, DC_TOKENS_TABLE[token].coins);
    if (token == DC_T_MASONRY)
        pl->econ |= DC_MASONRY_BIT;
    else if (token == DC_T_ARCHITECTURE)
        pl->econ |= DC_ARCHITECTURE_BIT;
    else if (token == DC_T_LAW)
        return dc_gain_science(s, player, DC_SCIENCE_LAW_BIT);
    return 0;
}

static void dc_pay(dc_state *s, int player, int coin_cost, int trade_cost) {
    dc_lose_coins(s, player, coin_cost + trade_cost);
    if (trade_cost && (s->p[1 - player].tokens >> DC_T_ECONOMY & 1))
        dc_gain_coins(s, 1 - player, trade_cost);
}

/* The civilian victory's winner for totals `a` and `b`: blue points break a tie */
static inline int dc_civilian_winner(const dc_state *s, int a, int b) {
    if (a != b) return a > b ? 0 : 1;
    int blue_a = dc_card_points(s->p[0].cards & DC_BLUE);
    int blue_b = dc_card_points(s->p[1].cards & DC_BLUE);
    return blue_a == blue_b ? DC_SHARED : blue_a > blue_b ? 0 : 1;
}

static void dc_civilian_end(dc_state *s) {
    int a = dc_total_points(s, 0), b = dc_total_points(s, 1);
    dc_end_game(s, dc_civilian_winner(s, a, b), DC_CIVILIAN);
}

/* Lay out `age`'s structure; `to_move` begins Age I, or chooses who begins Age II/III once the
 * layout's chance nodes are done (dc_apply_reveal_card). */
static void dc_start_age(dc_state *s, int age, int to_move) {
    s->age = (int8_t)age;
    memset(s->pyramid, DC_HIDDEN, sizeof s->pyramid);
    s->present = DC_ALL_SLOTS;
    s->accessible = DC_START_ACCESSIBLE[age];
    s->reveal = DC_FACE_UP[age];
    s->unseen = age == 1 ? DC_AGE_DECK_1 : age == 2 ? DC_AGE_DECK_2 : DC_AGE_DECK_3 | DC_AGE_DECK_4;
    s->guild_slots = 0;
    s->to_move = (int8_t)to_move;
    /* Age III is laid out with its guilds, whose backs differ: where they lie is dealt first. */
    s->phase = age == 3 ? DC_DEAL_GUILDS : DC_REVEAL_CARDS;
}

static void dc_finish_turn(dc_state *s) {
    int player = s->to_move, extra = s->extra;
    s->extra = 0;
    if (s->present) {
        s->to_move = (int8_t)(extra ? player : 1 - player);
        s->phase = s->reveal ? DC_REVEAL_CARDS : DC_PLAY;
        return;
    }
    /* The Age is over; a pending Play Again is lost. */
    if (s->age == 3) {
        dc_civilian_end(s);
        return;
    }
    /* The next Age's structure is laid out first (Age III: the guild deal; then every face-up
     * card turned over); then the weaker player (pawn in the centre: who took the last card)
     * chooses who begins, seeing it. Until that choice to_move is the chooser. */
    dc_start_age(s, s->age + 1, s->pawn > 0 ? 1 : s->pawn < 0 ? 0 : player);
}

static void dc_apply_build(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code), player = s->to_move;
    dc_player *me = &s->p[player];
    const dc_card_spec *spec = &DC_CARDS_TABLE[card];
    dc_take_from_pyramid(s, card);
    if (me->chains & spec->chain_from) {
        if (me->tokens >> DC_T_URBANISM & 1) dc_gain_coins(s, player, 4);
    } else if (!spec->needs_nothing || spec->coin_cost) {
        int trade = 0;
        if (!spec->needs_nothing) {
            int waive = (me->econ & DC_MASONRY_BIT) && dc_has_card(DC_BLUE, card) ? 2 : 0;
            trade = dc_trade_cost(me->econ, s->p[1 - player].econ, spec->need, waive);
        }
        dc_pay(s, player, spec->coin_cost, trade);
    }
    if (dc_construct_card(s, player, card)) return;
    if (s->phase == DC_PLAY) dc_finish_turn(s);
}

static void dc_apply_discard(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code), player = s->to_move;
    dc_take_from_pyramid(s, card);
    dc_gain_coins(s, player, 2 + dc_pop_cards(s->p[player].cards & DC_YELLOW));
    s->discard |= DC_CARD_BIT(card);
    dc_finish_turn(s);
}

static void dc_apply_wonder(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code), w = DC_MOVE_A(code), player = s->to_move;
    dc_player *me = &s->p[player], *op = &s->p[1 - player];
    const dc_wonder_spec *spec = &DC_WONDERS_TABLE[w];
    dc_take_from_pyramid(s, card);
    me->under |= DC_CARD_BIT(card);
    dc_pay(s, player, 0, dc_wonder_price(s, player, w));
    me->wonders &= (uint16_t)~(1u << w);
    me->built |= (uint16_t)(1u << w);
    if (dc_pop32(me->built | op->built) >= DC_MAX_WONDERS_BUILT) {
        me->wonders = 0; /* the eighth wonder goes back to the box */
        op->wonders = 0;
    }
    me->econ += spec->econ;
    if (spec->extra_turn || (me->tokens >> DC_T_THEOLOGY & 1)) s->extra = 1;
    if (spec->coins) dc_gain_coins(s, player, spec->coins);
    if (spec->opponent_loses) dc_lose_coins(s, 1 - player, spec->opponent_loses);
    if (spec->shields && dc_move_pawn(s, player, spec->shields)) return;
    if (spec->destroy) {
        dc_cards colour = spec->destroy == 1 ? DC_BROWN : DC_GREY;
        if (op->cards & colour) {
            s->destroying = spec->destroy;
            s->phase = DC_DESTROY;
            return;
        }
    } else if (spec->mausoleum) {
        if (s->discard) {
            s->phase = DC_MAUSOLEUM;
            return;
        }
    } else if (spec->library) {
        uint32_t owned = me->tokens | op->tokens;
        if (DC_ALL_TOKENS & ~s->board & ~owned) {
            s->phase = DC_LIBRARY_DRAW;
            return;
        }
    }
    dc_finish_turn(s);
}

static void dc_apply_pick_wonder(dc_state *s, int32_t code) {
    int w = DC_MOVE_A(code), picks = s->picks;
    int player = DC_DRAFT_ORDER[picks];
    s->p[player].wonders |= (uint16_t)(1u << w);
    uint16_t offer = s->offer & (uint16_t)~(1u << w);
    picks++;
    if (dc_pop32(offer) == 1) { /* the last wonder of a group of four has no choice left */
        s->p[DC_DRAFT_ORDER[picks]].wonders |= offer;
        offer = 0;
        picks++;
    }
    s->offer = offer;
    s->picks = (uint8_t)picks;
    if (picks == 8) {
        s->wonders_unseen = 0; /* the four wonders never revealed are out of the game */
        dc_start_age(s, 1, 0);
    } else if (offer) {
        s->to_move = (int8_t)DC_DRAFT_ORDER[picks];
    } else {
        s->phase = DC_SETUP_WONDERS;
        s->to_move = (int8_t)DC_DRAFT_ORDER[picks];
    }
}

static void dc_apply_token(dc_state *s, int32_t code) {
    int token = DC_MOVE_A(code), player = s->to_move;
    if (s->phase == DC_LIBRARY_CHOOSE)
        s->library = 0;
    else
        s->board &= (uint16_t)~(1u << token);
    s->phase = DC_PLAY;
    if (dc_gain_token(s, player, token)) return;
    dc_finish_turn(s);
}

static void dc_apply_destroy(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code);
    dc_player *victim = &s->p[1 - s->to_move];
    victim->cards &= ~DC_CARD_BIT(card);
    victim->econ -= DC_CARDS_TABLE[card].econ;
    s->discard |= DC_CARD_BIT(card);
    s->destroying = 0;
    s->phase = DC_PLAY;
    dc_finish_turn(s);
}

static void dc_apply_mausoleum(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code);
    s->discard &= ~DC_CARD_BIT(card);
    s->phase = DC_PLAY;
    if (dc_construct_card(s, s->to_move, card)) return;
    if (s->phase == DC_PLAY) dc_finish_turn(s);
}

static void dc_apply_reveal_card(dc_state *s, int32_t code) {
    int card = DC_MOVE_B(code), slot = DC_MOVE_A(code);
    s->pyramid[slot] = (int8_t)card;
    s->unseen &= ~DC_CARD_BIT(card);
    s->reveal &= ~(1u << slot);
    /* The last face-up card of a new Age II/III structure: the chooser decides who begins (only
     * a layout has every slot present at a reveal; a reveal during play follows a take). */
    if (!s->reveal)
        s->phase = s->present == DC_ALL_SLOTS && s->age > 1 ? DC_CHOOSE_STARTER : DC_PLAY;
}

static void dc_apply_reveal_wonder(dc_state *s, int32_t code) {
    int w = DC_MOVE_A(code);
    s->wonders_unseen &= (uint16_t)~(1u << w);
    s->offer |= (uint16_t)(1u << w);
    if (dc_pop32(s->offer) == 4) s->phase = DC_DRAFT;
}

static void dc_apply_reveal_token(dc_state *s, int32_t code) {
    s->board |= (uint16_t)(1u << DC_MOVE_A(code));
    if (dc_pop32(s->board) == DC_BOARD_TOKEN_COUNT) s->phase = DC_SETUP_WONDERS;
}

DC_API void dc_apply(dc_state *s, int32_t move) {
    switch (DC_MOVE_KIND(move)) {
    case DC_BUILD: dc_apply_build(s, move); break;
    case DC_DISCARD: dc_apply_discard(s, move); break;
    case DC_WONDER: dc_apply_wonder(s, move); break;
    case DC_PICK_WONDER: dc_apply_pick_wonder(s, move); break;
    case DC_TOKEN: dc_apply_token(s, move); break;
    case DC_DESTROY_CARD: dc_apply_destroy(s, move); break;
    case DC_MAUSOLEUM_CARD: dc_apply_mausoleum(s, move); break;
    case DC_STARTER: /* the structure is laid out and revealed already: play begins */
        s->to_move = (int8_t)DC_MOVE_A(move);
        s->phase = DC_PLAY;
        break;
    case DC_REVEAL_CARD: dc_apply_reveal_card(s, move); break;
    case DC_REVEAL_WONDER: dc_apply_reveal_wonder(s, move); break;
    case DC_REVEAL_TOKEN: dc_apply_reveal_token(s, move); break;
    case DC_LIBRARY_DRAW_MOVE:
        s->library = (uint16_t)(move & 0xFFFF);
        s->phase = DC_LIBRARY_CHOOSE;
        break;
    case DC_DEAL_GUILDS_MOVE:
        s->guild_slots = DC_GUILD_DEALS[move & 0xFFFF];
        s->phase = DC_REVEAL_CARDS;
        break;
    default: break;
    }
}

/* --- legal moves ---------------------------------------------------------------------------- */
static int dc_play_moves(const dc_state *s, int32_t *out) {
    int p = s->to_move, n = 0, nw = 0;
    const dc_player *me = &s->p[p];
    int coins = me->coins;
    int32_t wonder_codes[DC_N_WONDERS];
    if (dc_pop32(s->p[0].built | s->p[1].built) < DC_MAX_WONDERS_BUILT) {
        for (uint32_t ws = me->wonders; ws; ws &= ws - 1) {
            int w = dc_ctz32(ws);
            if (dc_wonder_price(s, p, w) <= coins) wonder_codes[nw++] = DC_MOVE(DC_WONDER, w, 0);
        }
    }
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int c = s->pyramid[dc_ctz32(acc)];
        if (dc_card_price(s, p, c) <= coins) out[n++] = DC_MOVE(DC_BUILD, 0, c);
        out[n++] = DC_MOVE(DC_DISCARD, 0, c);
        for (int i = 0; i < nw; i++) out[n++] = wonder_codes[i] | c;
    }
    return n;
}

static int dc_mask_moves(uint32_t mask, int32_t base, int shift, int32_t *out) {
    int n = 0;
    for (; mask; mask &= mask - 1) out[n++] = base | dc_ctz32(mask) << shift;
    return n;
}

static int dc_card_moves(dc_cards cards, int kind, int32_t *out) {
    int list[DC_N_CARDS], n = dc_card_list(cards, list);
    for (int i = 0; i < n; i++) out[i] = DC_MOVE(kind, 0, list[i]);
    return n;
}

DC_API int dc_legal_moves(const dc_state *s, int32_t *out) {
    switch (s->phase) {
    case DC_PLAY: return dc_play_moves(s, out);
    case DC_DRAFT: return dc_mask_moves(s->offer, DC_PICK_WONDER << 16, 8, out);
    case DC_CHOOSE_TOKEN: return dc_mask_moves(s->board, DC_TOKEN << 16, 8, out);
    case DC_LIBRARY_CHOOSE: return dc_mask_moves(s->library, DC_TOKEN << 16, 8, out);
    case DC_DESTROY: {
        dc_cards colour = s->destroying == 1 ? DC_BROWN : s->destroying == 2 ? DC_GREY : 0;
        return dc_card_moves(s->p[1 - s->to_move].cards & colour, DC_DESTROY_CARD, out);
    }
    case DC_MAUSOLEUM: return dc_card_moves(s->discard, DC_MAUSOLEUM_CARD, out);
    case DC_CHOOSE_STARTER:
        out[0] = DC_MOVE(DC_STARTER, 0, 0);
        out[1] = DC_MOVE(DC_STARTER, 1, 0);
        return 2;
    default: return 0;
    }
}

/* --- chance --------------------------------------------------------------------------------- */
static inline int dc_reveal_slot(const dc_state *s) { return dc_ctz32(s->reveal); }

/* The Great Library's draws: every min(3, |box|)-subset of the box, in combinations order. */
static int dc_library_draws(const dc_state *s, int32_t *moves) {
    uint32_t owned = s->p[0].tokens | s->p[1].tokens;
    uint32_t box = DC_ALL_TOKENS & ~s->board & ~owned & ~s->library;
    int items[DC_N_TOKENS], m = 0, n = 0;
    for (; box; box &= box - 1) items[m++] = dc_ctz32(box);
    int k = m < 3 ? m : 3, idx[3] = {0, 1, 2};
    for (;;) {
        int mask = 0;
        for (int i = 0; i < k; i++) mask |= 1 << items[idx[i]];
        moves[n++] = DC_MOVE(DC_LIBRARY_DRAW_MOVE, 0, 0) | mask;
        int i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    return n;
}

/* _reveal_pool: the cards a reveal may show, each with weight 1 (in Age III, the unseen guilds
 * for a guild-backed slot, the unseen Age III cards for any other). */
static inline dc_cards dc_reveal_candidates(const dc_state *s) {
    if (s->age < 3) return s->unseen;
    if (s->guild_slots >> dc_reveal_slot(s) & 1) return s->unseen & DC_AGE_DECK_4;
    return s->unseen & DC_AGE_DECK_3;
}

DC_API int dc_chance_outcomes(const dc_state *s, int32_t *moves, int64_t *weights,
                              int64_t *total) {
    int n = 0;
    switch (s->phase) {
    case DC_SETUP_TOKENS:
        n = dc_mask_moves(DC_ALL_TOKENS & ~s->board, DC_REVEAL_TOKEN << 16, 8, moves);
        break;
    case DC_SETUP_WONDERS:
        n = dc_mask_moves(s->wonders_unseen, DC_REVEAL_WONDER << 16, 8, moves);
        break;
    case DC_LIBRARY_DRAW: n = dc_library_draws(s, moves); break;
    case DC_DEAL_GUILDS:
        for (n = 0; n < DC_N_GUILD_DEALS; n++) moves[n] = DC_MOVE(DC_DEAL_GUILDS_MOVE, 0, 0) | n;
        break;
    case DC_REVEAL_CARDS: {
        int32_t code = DC_MOVE(DC_REVEAL_CARD, dc_reveal_slot(s), 0);
        int list[DC_N_CARDS], m;
        m = dc_card_list(dc_reveal_candidates(s), list);
        for (n = 0; n < m; n++) moves[n] = code | list[n];
        break;
    }
    default: *total = 0; return 0;
    }
    for (int i = 0; i < n; i++) weights[i] = 1;
    *total = n;
    return n;
}

static inline int dc_uniform_bit(dc_rng *rng, uint32_t mask) {
    uint32_t k = (uint32_t)dc_rng_below(rng, (uint64_t)dc_pop32(mask));
    return dc_select64(mask, (int)k);
}

static inline int dc_uniform_card(dc_rng *rng, dc_cards cards) {
    return dc_select_cards(cards, (int)dc_rng_below(rng, (uint64_t)dc_pop_cards(cards)));
}

DC_API int32_t dc_sample_chance(const dc_state *s, dc_rng *rng) {
    switch (s->phase) {
    case DC_REVEAL_CARDS: {
        int32_t code = DC_MOVE(DC_REVEAL_CARD, dc_reveal_slot(s), 0);
        dc_cards candidates = dc_reveal_candidates(s);
        if (!candidates) return -1; /* an inconsistent hand-made position: nothing to reveal */
        return code | dc_uniform_card(rng, candidates);
    }
    case DC_SETUP_TOKENS:
        if ((DC_ALL_TOKENS & ~s->board) == 0) return -1;
        return DC_MOVE(DC_REVEAL_TOKEN, dc_uniform_bit(rng, DC_ALL_TOKENS & ~s->board), 0);
    case DC_SETUP_WONDERS:
        if (!s->wonders_unseen) return -1;
        return DC_MOVE(DC_REVEAL_WONDER, dc_uniform_bit(rng, s->wonders_unseen), 0);
    case DC_DEAL_GUILDS:
        return DC_MOVE(DC_DEAL_GUILDS_MOVE, 0, 0) | (int32_t)dc_rng_below(rng, DC_N_GUILD_DEALS);
    default: break;
    }
    /* The general case: walk the exact weights. */
    int32_t moves[DC_MAX_OUTCOMES];
    int64_t weights[DC_MAX_OUTCOMES], total;
    int n = dc_chance_outcomes(s, moves, weights, &total);
    if (n == 0 || total <= 0) return -1;
    int64_t x = (int64_t)dc_rng_below(rng, (uint64_t)total);
    for (int i = 0; i < n; i++) {
        x -= weights[i];
        if (x < 0) return moves[i];
    }
    return moves[n - 1];
}

DC_API int dc_is_legal(const dc_state *s, int32_t move) {
    int32_t moves[DC_MAX_OUTCOMES];
    int n;
    if (dc_is_chance(s)) {
        int64_t weights[DC_MAX_OUTCOMES], total;
        n = dc_chance_outcomes(s, moves, weights, &total);
    } else {
        n = dc_legal_moves(s, moves);
    }
    for (int i = 0; i < n; i++)
        if (moves[i] == move) return 1;
    return 0;
}

/* --- random play ---------------------------------------------------------------------------- */
/* Uniform over the legal moves of the play phase without pricing every card: draw (card,
 * action) from the superset "accessible card x {build, discard, each unbuilt wonder}" and reject
 * the unaffordable ones (uniform on the accepted set, as State.random_move). */
static int32_t dc_random_play_move(const dc_state *s, dc_rng *rng) {
    int p = s->to_move, slots[DC_SLOTS], ns = 0, wonders[DC_N_WONDERS], nw = 0;
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) slots[ns++] = dc_ctz32(acc);
    if (dc_pop32(s->p[0].built | s->p[1].built) < DC_MAX_WONDERS_BUILT)
        for (uint32_t ws = s->p[p].wonders; ws; ws &= ws - 1) wonders[nw++] = dc_ctz32(ws);
    uint32_t actions = 2 + (uint32_t)nw, n = (uint32_t)ns * actions; /* 32-bit: fast division */
    int coins = s->p[p].coins;
    for (;;) {
        uint32_t x = (uint32_t)dc_rng_below(rng, n);
        int c = s->pyramid[slots[x / actions]], a = (int)(x % actions);
        if (a == 1) return DC_MOVE(DC_DISCARD, 0, c);
        if (a == 0) {
            if (dc_card_price(s, p, c) <= coins) return DC_MOVE(DC_BUILD, 0, c);
        } else if (dc_wonder_price(s, p, wonders[a - 2]) <= coins) {
            return DC_MOVE(DC_WONDER, wonders[a - 2], c);
        }
    }
}

DC_API int32_t dc_random_move(const dc_state *s, dc_rng *rng) {
    if (dc_is_chance(s)) return dc_sample_chance(s, rng);
    if (s->phase == DC_PLAY && s->accessible) return dc_random_play_move(s, rng);
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(s, moves);
    if (n == 0) return -1;
    return moves[dc_rng_below(rng, (uint64_t)n)];
}

DC_API int dc_random_playout(dc_state *s, dc_rng *rng) {
    int steps = 0;
    while (s->phase != DC_GAME_OVER) {
        int32_t move = dc_random_move(s, rng);
        if (move < 0) break; /* a stuck hand-made position: nothing to play */
        dc_apply(s, move);
        steps++;
    }
    return steps;
}
