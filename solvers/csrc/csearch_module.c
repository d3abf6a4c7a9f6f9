/*
 * solvers._csearch -- the expectiminimax of solvers/search.py, compiled.
 *
 * The Python Searcher (solvers/search.py) is the reference: this mirrors its recursive search
 * node for node (alpha-beta, Star1 at chance nodes, the same move ordering, the same sampling
 * rule for wide chance nodes, the hand-made evaluation of `_margin`), on the C engine of
 * duel/csrc (compiled in as a unity build). What differs, on purpose:
 *
 *   - the transposition table is a fixed array of 64-byte buckets of two 32-byte entries, sized
 *     from the memory budget, keyed by the 64-bit hash of the state (dc_state_hash). A full
 *     bucket replaces its less valuable entry (exact entries, then those of the current
 *     iteration, then the deeper ones are kept) -- the same priorities as the Python table.
 *     A 64-bit key can collide: with 10^7 entries about one lookup in 10^12 would read another
 *     position's bounds; the solver accepts that risk, as chess engines do.
 *   - a sampled chance node draws its sample from a generator seeded by (seed, state hash) on
 *     every visit instead of caching it: the same node still always gets the same sample.
 *
 * Exact solves (depth >= INF_DEPTH / 2, no cut-off anywhere) go further than the reference, each
 * lever a switch on the Searcher object (tests/test_csearch.py turns each off and compares):
 *   - null_windows: the root first asks "does A surely win?" and "does A surely lose?" (solve);
 *   - endgame: decision_exact (children generated and hashed once, a move that wins on the spot
 *     ends the node, etc: probing the children in the table, use_history: history ordering
 *     below 7 cards) and chance_exact (children's table bounds first, star2: probing);
 *   - small_cards: the last cards (3) without the table (small_search);
 *   - final_picks: The Mausoleum's pick skips the cards another card of the pile beats
 *     (prune_picks);
 *   - bounds: surely_wins, a static proof that the trailing side cannot catch up any more (also
 *     in small_search from bound_cards, 3, cards left);
 *   - chance nodes sum weight x value, so sure wins and losses are exactly 1 and 0.
 * Depth-limited searches (hints) are unchanged: the reference's algorithm node for node.
 *
 * The Python side (solvers/search.py, CSearcher) drives it: iterative deepening, the root move
 * list, the principal variation and the expected margin stay in Python and call in here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <time.h>
#include <pthread.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "../../duel/csrc/duel_core.c"
#include "../../duel/csrc/ccore_capi.h"

/* The conversions of duel._ccore (CoreState <-> dc_state), through its capsule. */
static const dc_capi *capi;

#include "csearch/common.h"
#include "heuristic.h"
#include "csearch/profile.h"
#include "csearch/prices.h"
#include "csearch/context.h"
#include "csearch/tt.h"
#include "csearch/exact_key.h"

#include "csearch/movepick.h"

/* The recursion: the nodes below call back into search() and search_keyed() (csearch/node.h),
 * which dispatch to them; small_search and skip_beaten are called before they are defined. */
static double search(Ctx *c, const dc_state *st, int depth, double alpha, double beta);
static double search_keyed(Ctx *c, const dc_state *st, uint64_t key, int depth,
                           double alpha, double beta);
static double small_search(Ctx *c, const dc_state *st, double alpha, double beta);
static int skip_beaten(const Ctx *c, const dc_state *st, int32_t *moves, int n);

#include "csearch/search.h"
/* --- a sound static bound for exact solves: a side that cannot catch up any more ----------- */
/* Can `y` be sure to win from here, whatever the other player `x` does and whatever is dealt?
 * It is enough that y wins when y discards every card it takes from now on ("y discards"),
 * against every line of x. Under that policy y builds nothing, so y's points only fall through
 * x's doing: coins (looting, wonders that take coins, spending none), the military track, and
 * the guild counts (x destroying y's brown/grey cards). So y surely wins if x can reach neither
 * military nor science supremacy and
 *     (a lower bound of y's final score) > (an upper bound of x's final score),
 * both computed from what is still available: the cards left in the structure (a face-down one
 * may be any unseen card), the discard pile through an unbuilt Mausoleum, x's unbuilt wonders.
 * x takes at most ceil(R/2) + 1 of the R cards left, plus one per wonder x may still build (a
 * replay); each card is worth at most its best use for x (built: its points, coins / 3, guild
 * value; discarded: coins / 3). If x may still win progress tokens (a science pair with tokens on
 * the board), every token on the board counts as x's. Anything the bound does not model -- The
 * Great Library, a guild that counts coins -- makes it give up (return 0): always sound.
 * Only at a card-taking decision or a reveal (no one is mid-turn).
 * That first look bounds each of x's gains on its own: its k best cards, its k strongest shields
 * and its k best tokens, as if every take served all three. Where it misses by a little and x
 * takes at most TAKES_MAX cards, a second look (uses_best) gives each take one use and keeps the
 * best combination. */
static void sort_desc(double *v, int n) { /* insertion sort: n is small */
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] < x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static void sort_int_desc(int *v, int n) { /* insertion sort: n is small */
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] < x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static int milpts(int p) { return p <= 0 ? 0 : p <= 2 ? 2 : p <= 5 ? 5 : 10; }

/* Card sets and tables the static bound reads instead of looping over every card: it runs at
 * most nodes of an exact solve, and with The Mausoleum buildable its cards include the whole
 * discard pile. Filled once by bound_tables_init. */
static dc_cards SW_PRODUCERS;    /* cards that produce a resource */
static dc_cards SW_ECONOMY;      /* cards that change the packed economy at all */
static dc_cards SW_CHAINS;       /* cards that give a chain symbol */
static dc_cards SW_COINS;        /* cards that bring coins when built */
static dc_cards SW_PER;          /* cards whose coins or points count other cards */
static int8_t SW_PLAIN_ORDER[DC_N_CARDS]; /* the other cards, by 3 x points + coins, largest first */
static int SW_N_PLAIN;
static double SW_THIRD[256];     /* i / 3.0, the same doubles without a division */

static inline double third(int i) { return i >= 0 && i < 256 ? SW_THIRD[i] : i / 3.0; }

/* floor(v + 1e-6) for a score bound v >= 0 (scores are whole numbers; the margin absorbs
 * rounding), without a call to floor(). */
static inline int whole(double v) { return (int)(v + 1e-6); }

/* The Mausoleum's pick (exact solves, final_picks). Its builder M takes one card of the discard
 * pile; a card that another card of the pile beats needs no search, because the other is at
 * least as good for M whatever follows:
 *   - anywhere, a card equal in every effect but with more points (PICK_BEATEN_BY);
 *   - as M's last action (the game then ends, or the other side O takes the last card), its
 *     chain, one-of production and fixed prices serve nobody any more, so the card only has to
 *     be equal in colour, science, coins and counts, with at least the points
 *     (LAST_BEATEN_BY); and, unless a guild that counts coins is owned or may be the last
 *     card, at least the shields and the production of each resource too
 *     (LAST_FREE_BEATEN_BY[0]): the pawn further towards O and O's prices higher only take coins
 *     and options from O (such a guild is the exception: the richest city's count moves with
 *     the coins O loses, or M gains through Economy).
 * Equal cards: the lower id beats the other, so the beaten are never all of them. */
static dc_cards PICK_BEATEN_BY[DC_N_CARDS], LAST_BEATEN_BY[DC_N_CARDS];
static dc_cards MORE_BEATEN_BY[DC_N_CARDS], MORE_CHAIN_BEATEN_BY[DC_N_CARDS];
static dc_cards COIN_GUILDS; /* guilds that count coins */

static int same_category(const dc_category *a, const dc_category *b) {
    return a->colours == b->colours && a->wonder == b->wonder && a->coins_div3 == b->coins_div3 &&
           a->each == b->each;
}

static const dc_cards PICK_COLOURS[7] = {DC_BROWN, DC_GREY, DC_BLUE, DC_GREEN, DC_YELLOW, DC_RED, DC_PURPLE};

static int colour_of(int card) {
    for (int i = 0; i < 7; i++)
        if (PICK_COLOURS[i] >> card & 1) return i;
    return 7;
}

/* 0: a is not as good as b for its owner; 1: as good, on the points; 2: also on the shields and
 * production; 3: equal but for the points, whatever follows (chain and economy too). Colours
 * in `free` (a bit per PICK_COLOURS index) count for nothing: two cards of such colours compare
 * as if of one colour. */
static int pick_order_free(int a, int b, int free) {
    int ca = colour_of(a), cb = colour_of(b);
    if (ca != cb && !((free >> ca & 1) && (free >> cb & 1))) return 0;
    const dc_card_spec *x = &DC_CARDS_TABLE[a], *y = &DC_CARDS_TABLE[b];
    if (x->points < y->points || x->science != y->science || x->coins != y->coins ||
        !same_category(&x->coins_per, &y->coins_per) ||
        !same_category(&x->coins_per_max, &y->coins_per_max) ||
        !same_category(&x->points_per_max, &y->points_per_max))
        return 0;
    int equal = x->shields == y->shields && (x->econ & 0x7FFF) == (y->econ & 0x7FFF);
    if (equal) return x->econ == y->econ && x->chain_gives == y->chain_gives ? 3 : 1;
    if (x->shields < y->shields) return 0;
    for (int r = 0; r < 5; r++)
        if ((x->econ >> (3 * r) & 7) < (y->econ >> (3 * r) & 7)) return 0;
    return 2;
}

static int pick_order(int a, int b) { return pick_order_free(a, b, 0); }

/* At the last action, by `free`: a card beaten on the points, shields and production, the colours
 * of `free` counting for nothing ([0]: every colour counts). Filled at import for the masks
 * counted_colours() can leave (blue and purple always count: 32 of 128, about 340K comparisons). */
static dc_cards LAST_FREE_BEATEN_BY[128][DC_N_CARDS];

static void last_free_init(void) {
    for (int free = 0; free < 128; free++)
        for (int b = 0; b < DC_N_CARDS && !(free & (1 << 2 | 1 << 6)); b++) {
            dc_cards beaten = 0;
            for (int a = 0; a < DC_N_CARDS; a++) {
                if (a == b) continue;
                int ab = pick_order_free(a, b, free), ba = pick_order_free(b, a, free);
                if (ab >= 1 && (!ba || a < b)) beaten |= DC_CARD_BIT(a);
            }
            LAST_FREE_BEATEN_BY[free][b] = beaten;
        }
}

/* The colours whose count may still matter after the builder's last action: those the owned
 * guilds count, and the last card's if it is (or may be) a guild; blue always (ties). */
static int counted_colours(const dc_state *st) {
    dc_cards counted = DC_BLUE;
    for (dc_cards g = (st->p[0].cards | st->p[1].cards) & DC_PURPLE; g; g &= g - 1)
        counted |= DC_CARDS_TABLE[low_card(g)].points_per_max.colours;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int card = st->pyramid[__builtin_ctz(m)];
        if (card < 0) return 127;
        if (DC_PURPLE >> card & 1)
            counted |= DC_CARDS_TABLE[card].points_per_max.colours | DC_CARDS_TABLE[card].coins_per_max.colours;
    }
    int mask = 0;
    for (int i = 0; i < 7; i++)
        if (counted & PICK_COLOURS[i]) mask |= 1 << i;
    return mask | 1 << 6; /* a guild's own effect sets it apart anyway */
}

/* Not the last action (final_picks 4): a as good as b for its owner M whatever follows, unless a
 * guild counts coins -- the same colour, science and coins, and at least the points, shields,
 * production (the other side's prices), one-of production and fixed prices (M's own); and, if
 * `chain`, b's chain symbol too (else b's chain is of no use any more). */
static int pick_more(int a, int b, int chain) {
    if (!pick_order(a, b)) return 0;
    uint32_t ea = DC_CARDS_TABLE[a].econ, eb = DC_CARDS_TABLE[b].econ;
    if ((ea >> DC_RAW_CHOICE_SHIFT & 3) < (eb >> DC_RAW_CHOICE_SHIFT & 3) ||
        (ea >> DC_MAN_CHOICE_SHIFT & 3) < (eb >> DC_MAN_CHOICE_SHIFT & 3) ||
        ((eb >> DC_FIXED_SHIFT) & 31 & ~((ea >> DC_FIXED_SHIFT) & 31)))
        return 0;
    uint32_t ca = DC_CARDS_TABLE[a].chain_gives, cb = DC_CARDS_TABLE[b].chain_gives;
    return !chain || !cb || ca == cb;
}

static void pick_tables_init(void) {
    last_free_init();
    for (int b = 0; b < DC_N_CARDS; b++) {
        if ((DC_PURPLE >> b & 1) && DC_CARDS_TABLE[b].points_per_max.coins_div3) COIN_GUILDS |= DC_CARD_BIT(b);
        for (int a = 0; a < DC_N_CARDS; a++) {
            if (a == b) continue;
            int ab = pick_order(a, b), ba = pick_order(b, a);
            /* a beats b: as good, and b not as good back (or the lower id of two equal) */
            if (ab >= 3 && (ba < 3 || a < b)) PICK_BEATEN_BY[b] |= DC_CARD_BIT(a);
            if (ab >= 1 && ab != 2 && (!(ba >= 1 && ba != 2) || a < b)) LAST_BEATEN_BY[b] |= DC_CARD_BIT(a);
            for (int chain = 0; chain < 2; chain++) {
                int m_ab = pick_more(a, b, chain), m_ba = pick_more(b, a, chain);
                if (m_ab && (!m_ba || a < b)) (chain ? MORE_CHAIN_BEATEN_BY : MORE_BEATEN_BY)[b] |= DC_CARD_BIT(a);
            }
        }
    }
}

/* The picks worth searching (moves: the pile's cards, in dc_legal_moves' order, kept); `level`
 * as final_picks: 1 PICK_BEATEN_BY, 2 LAST_BEATEN_BY at the last action, 3 LAST_FREE_BEATEN_BY[0]
 * there, 4 also MORE_(CHAIN_)BEATEN_BY before it, 5 LAST_FREE_BEATEN_BY by the uncounted colours. */
static int prune_picks(const dc_state *st, int32_t *moves, int n, int level) {
    int last = level >= 2 && (!st->present || (dc_pop32(st->present) == 1 && !st->extra));
    /* a guild that counts coins, owned or maybe still to come, rules out the monotone tables */
    int coin_guild = ((st->p[0].cards | st->p[1].cards) & COIN_GUILDS) != 0;
    uint32_t chains_wanted = 0; /* chain symbols a card still to come is free with */
    for (uint32_t m = st->present; m; m &= m - 1) {
        int card = st->pyramid[__builtin_ctz(m)];
        coin_guild |= card < 0 || (COIN_GUILDS >> card & 1);
        chains_wanted |= card < 0 ? ~0u : DC_CARDS_TABLE[card].chain_from;
    }
    chains_wanted &= ~st->p[st->to_move].chains;
    int monotone = !coin_guild && level >= (last ? 3 : 4);
    /* one table for every card, or NULL: MORE_(CHAIN_)BEATEN_BY by the card's chain */
    const dc_cards *table = !monotone ? (last ? LAST_BEATEN_BY : PICK_BEATEN_BY)
                            : last    ? LAST_FREE_BEATEN_BY[level >= 5 ? 127 & ~counted_colours(st) : 0]
                                      : NULL;
    int m = 0;
    for (int i = 0; i < n; i++) {
        int card = DC_MOVE_B(moves[i]);
        const dc_cards *by = table                                             ? table
                             : DC_CARDS_TABLE[card].chain_gives & chains_wanted ? MORE_CHAIN_BEATEN_BY
                                                                                : MORE_BEATEN_BY;
        if (!(by[card] & st->discard)) moves[m++] = moves[i];
    }
    return m;
}

/* A progress token chosen as its owner's last action (final_picks): Architecture, Masonry,
 * Strategy and Theology then do nothing, and Philosophy or Mathematics (points, nothing else) is
 * at least as good as any of them; of those four, one is enough. */
static int prune_tokens(const dc_state *st, int32_t *moves, int n) {
    if (st->present && (dc_pop32(st->present) > 1 || st->extra)) return n;
    const uint32_t idle = 1u << DC_T_ARCHITECTURE | 1u << DC_T_MASONRY | 1u << DC_T_STRATEGY |
                          1u << DC_T_THEOLOGY;
    const uint32_t points = 1u << DC_T_PHILOSOPHY | 1u << DC_T_MATHEMATICS;
    int keep_idle = !(st->board & points), m = 0;
    for (int i = 0; i < n; i++) {
        int token = DC_MOVE_A(moves[i]);
        if (idle >> token & 1) {
            if (!keep_idle) continue;
            keep_idle = 0;
        }
        moves[m++] = moves[i];
    }
    return m;
}

/* The moves of a Mausoleum pick or a token choice worth searching (see prune_picks and
 * prune_tokens); other phases' moves unchanged. */
static int skip_beaten(const Ctx *c, const dc_state *st, int32_t *moves, int n) {
    if (st->phase == DC_MAUSOLEUM && c->final_picks) return prune_picks(st, moves, n, c->final_picks);
    if (st->phase == DC_CHOOSE_TOKEN && c->final_picks >= 2) return prune_tokens(st, moves, n);
    return n;
}

static void bound_tables_init(void) {
    pick_tables_init();
    for (int i = 0; i < 256; i++) SW_THIRD[i] = i / 3.0;
    SW_N_PLAIN = 0;
    for (int c = 0; c < DC_N_CARDS; c++) {
        const dc_card_spec *spec = &DC_CARDS_TABLE[c];
        if (spec->econ & 0x7FFF) SW_PRODUCERS |= DC_CARD_BIT(c);
        if (spec->econ) SW_ECONOMY |= DC_CARD_BIT(c);
        if (spec->chain_gives) SW_CHAINS |= DC_CARD_BIT(c);
        if (spec->coins || spec->coins_per.each || spec->coins_per_max.each) SW_COINS |= DC_CARD_BIT(c);
        if (spec->coins_per.each || spec->coins_per_max.each || spec->points_per_max.each)
            SW_PER |= DC_CARD_BIT(c);
        else {
            int j = SW_N_PLAIN++, key = 3 * spec->points + spec->coins;
            while (j > 0 && 3 * DC_CARDS_TABLE[SW_PLAIN_ORDER[j - 1]].points +
                                    DC_CARDS_TABLE[SW_PLAIN_ORDER[j - 1]].coins < key) {
                SW_PLAIN_ORDER[j] = SW_PLAIN_ORDER[j - 1];
                j--;
            }
            SW_PLAIN_ORDER[j] = (int8_t)c;
        }
    }
}

/* What x may still get, for the counts of guilds and of cards that pay per card: the face-up
 * cards of the structure, `h_age`/`h_guild` unseen cards of each kind, one card of the discard
 * pile (The Mausoleum), `wonders` wonders, and at most `takes` of all those. */
typedef struct {
    dc_cards known, unseen_age, unseen_guild, discard;
    int h_age, h_guild, wonders, takes;
} sw_reach;

static int category_ub(const dc_state *st, int x, const dc_category *cat, const sw_reach *r) {
    int n = dc_pop_cards(st->p[x].cards & cat->colours);
    if (cat->wonder) n += dc_pop32(st->p[x].built);
    int age = dc_pop_cards(r->unseen_age & cat->colours);
    int guild = dc_pop_cards(r->unseen_guild & cat->colours);
    int more = dc_pop_cards(r->known & cat->colours) + (age < r->h_age ? age : r->h_age) +
               (guild < r->h_guild ? guild : r->h_guild) + ((r->discard & cat->colours) != 0) +
               (cat->wonder ? r->wonders : 0);
    return n + (more < r->takes ? more : r->takes);
}

/* The most coins a card's "per card" effects may bring x when built: per card of x's (its reach)
 * and per card of the city with the most (y's: the cards it owns or may build, `y_may`). */
static int coins_per_card_ub(const dc_state *st, int x, const dc_card_spec *spec, const sw_reach *r,
                             dc_cards y_may) {
    int coins = 0;
    if (spec->coins_per.each) coins += spec->coins_per.each * category_ub(st, x, &spec->coins_per, r);
    if (spec->coins_per_max.each) {
        int nx = category_ub(st, x, &spec->coins_per_max, r);
        int ny = dc_pop_cards(y_may & spec->coins_per_max.colours) +
                 (spec->coins_per_max.wonder ? dc_pop32(st->p[1 - x].built) : 0);
        coins += spec->coins_per_max.each * (nx > ny ? nx : ny);
    }
    return coins;
}

/* What the static bound can at most add to y's score today: the coins of y's discards to come
 * (counted twice with The Moneylenders) and what y's plan may build (see surely_wins: a card's
 * points less at least one point of coins forgone). Its y_low is at most y's score today plus
 * this, and its x_high at least x's score today, so a side further behind than this is turned
 * away without the full bound -- mostly the trailing side, at every node of an exact solve. */
static int bound_headroom(const dc_state *st, int y) {
    const dc_player *py = &st->p[y];
    int left = dc_pop32(st->present);
    int y_takes = left - (left + (st->to_move != y)) / 2; /* at most: x may have replays */
    int discard_y = 2 + dc_pop_cards(py->cards & DC_YELLOW);
    int gain = (y_takes * discard_y + 2) / 3;
    for (dc_cards g = py->cards & DC_PURPLE; g; g &= g - 1)
        if (DC_CARDS_TABLE[low_card(g)].points_per_max.coins_div3) gain *= 2;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int c = st->pyramid[__builtin_ctz(m)];
        if (c >= 0 && DC_CARDS_TABLE[c].points > 1) gain += DC_CARDS_TABLE[c].points - 1;
    }
    return gain;
}

/* The worth of x's `count` best tokens of `board`, each its points and coins / 3, and 3 more
 * with Mathematics (owned, or Mathematics itself: 3 per token x would then hold). */
static double best_tokens(uint32_t board, uint16_t owned, int count) {
    int maths = owned >> DC_T_MATHEMATICS & 1;
    double value[DC_N_TOKENS], sum = 0.0;
    int n = 0;
    for (uint32_t t = board; t; t &= t - 1) {
        int id = __builtin_ctz(t);
        double v = DC_TOKENS_TABLE[id].points + DC_TOKENS_TABLE[id].coins / 3.0 + 3 * maths;
        if (id == DC_T_MATHEMATICS) v += 3 * (dc_pop32(owned) + count);
        value[n++] = v;
    }
    sort_desc(value, n);
    for (int i = 0; i < count && i < n; i++) sum += value[i];
    return sum;
}

/* The part of y's least final score that x's shields and wonders change: its coins (looting, and
 * what x's wonders take), military points, and guilds that count coins. */
typedef struct {
    int y, pawn_x, y_takes, discard_y, destroy_brown, destroy_grey;
} sw_y_side;

static int y_low_variable(const dc_state *st, const sw_y_side *ys, int shields, int take) {
    const int y = ys->y;
    const dc_player *px = &st->p[1 - y], *py = &st->p[y];
    int loot = 0; /* the looting tokens on y's side that x's shields reach */
    if ((st->military & (y == 0 ? 1 : 4)) && ys->pawn_x + shields >= 3) loot += 2;
    if ((st->military & (y == 0 ? 2 : 8)) && ys->pawn_x + shields >= 6) loot += 5;
    int coins_y = py->coins - loot - take + ys->y_takes * ys->discard_y;
    if (coins_y < 0) coins_y = 0;
    int v = coins_y / 3 + milpts(-ys->pawn_x - shields);
    for (dc_cards g = py->cards & DC_PURPLE; g; g &= g - 1) {
        int c = low_card(g);
        const dc_category *cat = &DC_CARDS_TABLE[c].points_per_max;
        int ny = dc_pop_cards(py->cards & cat->colours), nx = dc_pop_cards(px->cards & cat->colours);
        if (cat->colours & DC_BROWN) ny -= ys->destroy_brown;
        if (cat->colours & DC_GREY) ny -= ys->destroy_grey;
        if (cat->wonder) {
            ny += dc_pop32(py->built);
            nx += dc_pop32(px->built);
        }
        if (cat->coins_div3) ny += coins_y / 3; /* the richest city's coins: at least y's */
        v += cat->each * (ny > nx ? ny : nx);
    }
    return v;
}

/* The static bound's second look, when x may take few cards (k <= TAKES_MAX): instead of the
 * best k cards, the k strongest shields and the best k tokens all at once, each of x's takes is
 * one use: a card built (its value, its shields if red, a science pair if green), discarded, or
 * put under a wonder (The Mausoleum's pick: a red card, a green one or its best value). */
#define TAKES_MAX 3
#define SPECIAL_MAX 8
#define USES_GAP 12
typedef struct {
    int n;                         /* cards of which building may bring shields or a pair */
    double build[SPECIAL_MAX], other[SPECIAL_MAX]; /* built; discarded or of no other use */
    int shields[SPECIAL_MAX];
    uint8_t symbol[SPECIAL_MAX];   /* its science symbol, 0 if none */
    uint8_t wild[SPECIAL_MAX];     /* a face-down slot whose card may pair */
    int n_plain;
    double plain[DC_SLOTS + 1];    /* the other cards' best uses, largest first */
    int nw;
    double wonder[DC_N_WONDERS];
    int wonder_shields[DC_N_WONDERS], wonder_take[DC_N_WONDERS];
    uint8_t wonder_mausoleum[DC_N_WONDERS];
    int room, takes, maus_shields, maus_pair, tokens_max;
    uint8_t science; /* x's symbols */
    double plan_sorted[DC_SLOTS];
    int n_plan;
    double tokens[TAKES_MAX + 2];  /* x's best tokens' worth, by how many */
    double x_fixed;
    int y_low_fixed;
} sw_uses;

/* The largest floor(x's score) - y's score over x's uses of its takes (see sw_uses). */
static int uses_best(const dc_state *st, const sw_uses *u, const sw_y_side *ys) {
    int best = -1 << 20;
    int n = u->n, combos = 1;
    for (int i = 0; i < n; i++) combos *= 3;
    for (uint32_t wset = 0; wset < 1u << u->nw; wset++) {
        int wcount = __builtin_popcount(wset);
        if (wcount > u->room || wcount > u->takes) continue;
        double wg = 0.0;
        int ws = 0, wt = 0, has_maus = 0;
        for (int j = 0; j < u->nw; j++)
            if (wset >> j & 1) {
                wg += u->wonder[j];
                ws += u->wonder_shields[j];
                wt += u->wonder_take[j];
                has_maus |= u->wonder_mausoleum[j];
            }
        for (int i = 0; i < wcount && i < u->n_plan; i++) wg += u->plan_sorted[i];
        for (int pick = 0; pick < (has_maus ? 3 : 1); pick++) { /* 0 value, 1 red, 2 green */
            for (int code = 0; code < combos; code++) {
                int left = u->takes - wcount, S = ws + (pick == 1 ? u->maus_shields : 0);
                int T = pick == 2 ? u->maus_pair : 0;
                double G = wg;
                uint8_t seen = u->science;
                int ok = 1;
                for (int i = 0, c = code; i < n; i++, c /= 3) {
                    int mode = c % 3; /* 0 not taken, 1 built, 2 other use */
                    if (!mode) continue;
                    if (!left--) {
                        ok = 0;
                        break;
                    }
                    if (mode == 2) {
                        G += u->other[i];
                        continue;
                    }
                    G += u->build[i];
                    S += u->shields[i];
                    if (u->wild[i]) T++;
                    else if (u->symbol[i]) {
                        if (seen & u->symbol[i]) T++;
                        seen |= u->symbol[i];
                    }
                }
                if (!ok) continue;
                for (int i = 0; i < left && i < u->n_plain; i++) G += u->plain[i];
                if (T > u->tokens_max) T = u->tokens_max;
                double x_high = u->x_fixed + G + u->tokens[T] + milpts(ys->pawn_x + S);
                int d = whole(x_high) - (u->y_low_fixed + y_low_variable(st, ys, S, wt));
                if (d > best) best = d;
            }
        }
    }
    return best;
}

/* The denial game (surely_wins): x takes cards worth at most slot[] each to it (or puts one under
 * a wonder, the i-th worth at most wonder[i], some with a Play Again), while y only discards and
 * picks which: the card x would want most. y's choice is a strategy of its own, so the value is
 * an upper bound of x's gain from its takes against it -- lower than x's k best cards, which
 * assumes y never takes one of them. Only the pyramid's own uncovering limits both sides. */
#define DENIAL_CARDS 5
#define DENIAL_GAP 12
typedef struct {
    double slot[DC_SLOTS];
    double wonder[DC_N_WONDERS];
    int wonders, replays, age;
} denial_game;

static double denial_value(const denial_game *g, uint32_t present, uint32_t accessible,
                           int x_moves, int used, int replayed) {
    if (!present) return 0.0;
    double best = x_moves ? -1.0 : 1e9;
    for (uint32_t acc = accessible; acc; acc &= acc - 1) {
        int slot = __builtin_ctz(acc);
        uint32_t p = present & ~(1u << slot), a = accessible & ~(1u << slot);
        for (uint32_t under = DC_COVERS[g->age][slot]; under; under &= under - 1) {
            int u = __builtin_ctz(under);
            if (!(p & DC_COVERED_BY[g->age][u])) a |= 1u << u;
        }
        if (!x_moves) {
            double v = denial_value(g, p, a, 1, used, replayed);
            if (v < best) best = v;
            continue;
        }
        double v = g->slot[slot] + denial_value(g, p, a, 0, used, replayed);
        if (v > best) best = v;
        if (used < g->wonders) {
            double w = denial_value(g, p, a, 0, used + 1, replayed);
            if (replayed < g->replays) {
                double r = denial_value(g, p, a, 1, used + 1, replayed + 1);
                if (r > w) w = r;
            }
            w += g->wonder[used];
            if (w > best) best = w;
        }
    }
    return best;
}

/* Can `y` be sure to win from here (called through static_winner, which has checked the phase
 * and the pre-test)? `level` 2 takes the second look (uses_best) where the first one misses;
 * 1 does not. Prices come through the thread's cache `pc`. */
static int surely_wins(const dc_state *st, int y, price_cache *pc, int level) {
    int x = 1 - y;
    const dc_player *px = &st->p[x], *py = &st->p[y];
    /* Cards x may still get: those face up in the structure (`known`) and, for each face-down
     * slot, any unseen card of its kind (with guild backs a slot shows whether it is a guild). */
    dc_cards known = 0;
    int h_age = 0, h_guild = 0;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int slot = __builtin_ctz(m), c = st->pyramid[slot];
        if (c >= 0) known |= DC_CARD_BIT(c);
        else if (!dc_guild_backs()) h_age++, h_guild++;
        else if (st->guild_slots >> slot & 1) h_guild++;
        else h_age++;
    }
    dc_cards unseen_age = h_age ? st->unseen & DC_AGE_DECK_3 : 0;
    dc_cards unseen_guild = h_guild ? st->unseen & DC_AGE_DECK_4 : 0;
    dc_cards avail = known | unseen_age | unseen_guild;
    int buildable = dc_pop32((uint32_t)(px->built | py->built)) < DC_MAX_WONDERS_BUILT;
    uint32_t xw = buildable ? px->wonders : 0; /* x's wonders that may still be built */
    int x_wonders = dc_pop32(xw);
    if (xw >> 3 & 1) return 0; /* The Great Library: a token */
    /* The Mausoleum: one more card, from the discard pile (which may by then hold any card) */
    int maus = xw >> 6 & 1;
    dc_cards sure = known | (maus ? st->discard : 0); /* greens/reds x may surely pick */
    int extra_picks = h_age + maus;                    /* unseen Age III cards x may get */
    dc_cards all = avail | (maus ? st->discard : 0);
    /* x may win a progress token (a science pair with tokens on the board): give up */
    uint32_t sym = px->science, twice = 0;
    for (dc_cards g = sure & DC_GREEN; g; g &= g - 1) {
        uint32_t b = DC_CARDS_TABLE[low_card(g)].science;
        twice |= sym & b;
        sym |= b;
    }
    uint32_t unseen_sym = 0;
    int unseen_twice = 0;
    for (dc_cards g = unseen_age & DC_GREEN; g; g &= g - 1) {
        uint32_t b = DC_CARDS_TABLE[low_card(g)].science;
        unseen_twice |= (unseen_sym & b) != 0;
        unseen_sym |= b;
    }
    /* x may win progress tokens (a science pair with tokens on the board): then count every
     * token on the board as x's (points, coins, Law's symbol, Strategy's and Urbanism's
     * effects); Economy brings nothing against a side that never trades */
    uint32_t gain_tokens = 0;
    if (st->board &&
        (twice || (extra_picks >= 1 && (unseen_sym & sym)) || (extra_picks >= 2 && unseen_twice)))
        gain_tokens = st->board;
    /* --- how many cards x may still take --- */
    /* With R cards left and j Play Agains, x takes at most ceil((R + j) / 2) cards when x takes
     * the next one, floor((R + j) / 2) otherwise: after each card x takes without a Play Again,
     * y takes the next (y discards, so y never earns a Play Again). */
    int left = dc_pop32(st->present);
    int room = buildable ? DC_MAX_WONDERS_BUILT - dc_pop32((uint32_t)(px->built | py->built))
                         : 0; /* wonders that may still be built, by anyone */
    int theology = (px->tokens | gain_tokens) >> DC_T_THEOLOGY & 1;
    int replays = 0;
    for (uint32_t w = xw; w; w &= w - 1)
        replays += theology || DC_WONDERS_TABLE[__builtin_ctz(w)].extra_turn;
    if (replays > room) replays = room;
    int k = (left + replays + (st->to_move == x)) / 2; /* cards x may take */
    int y_takes = left - k;                              /* cards y takes, at least */
    if (y_takes < 0) y_takes = 0;
    /* science supremacy: each new symbol takes one of x's cards (at most extra_picks of them
     * unseen ones), and so does Law's (the pair that wins the token brings no new symbol) */
    int new_sym = dc_pop32(unseen_sym & ~sym);
    int law = (gain_tokens >> DC_T_LAW & 1) && !(sym & DC_SCIENCE_LAW_BIT);
    uint32_t sym_known = 0, sym_discard = 0; /* the symbols x may add: The Mausoleum adds one */
    for (dc_cards g = known & DC_GREEN; g; g &= g - 1) sym_known |= DC_CARDS_TABLE[low_card(g)].science;
    for (dc_cards g = maus ? st->discard & DC_GREEN & ~known : 0; g; g &= g - 1)
        sym_discard |= DC_CARDS_TABLE[low_card(g)].science;
    sym_known &= ~px->science;
    int reach = dc_pop32(sym_known) + law + (new_sym < extra_picks ? new_sym : extra_picks) +
                ((sym_discard & ~px->science & ~sym_known) != 0);
    if (reach > k + maus) reach = k + maus;
    if (dc_pop32(px->science) + reach >= 6) return 0;
    /* military: the shields of x's k strongest takes (red cards, the unseen ones among the
     * extra_picks strongest, wonders), The Mausoleum's pick one more */
    int strategy = (px->tokens | gain_tokens) >> DC_T_STRATEGY & 1;
    int top_shields[DC_N_CARDS + DC_N_WONDERS], nr = 0, nu = 0;
    int unseen_shields[DC_N_CARDS];
    for (dc_cards r = unseen_age & DC_RED; r; r &= r - 1)
        unseen_shields[nu++] = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    sort_int_desc(unseen_shields, nu);
    for (int i = 0; i < nu && i < extra_picks; i++) top_shields[nr++] = unseen_shields[i];
    for (dc_cards r = known & DC_RED; r; r &= r - 1)
        top_shields[nr++] = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    int best_discard_red = 0; /* The Mausoleum's one pick */
    for (dc_cards r = maus ? st->discard & DC_RED & ~known : 0; r; r &= r - 1)
        if (DC_CARDS_TABLE[low_card(r)].shields + strategy > best_discard_red)
            best_discard_red = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    if (best_discard_red) top_shields[nr++] = best_discard_red;
    for (uint32_t w = xw; w; w &= w - 1)
        if (DC_WONDERS_TABLE[__builtin_ctz(w)].shields)
            top_shields[nr++] = DC_WONDERS_TABLE[__builtin_ctz(w)].shields;
    sort_int_desc(top_shields, nr);
    int shields = 0;
    for (int i = 0; i < nr && i < k + maus; i++) shields += top_shields[i];
    int pawn_x = x == 0 ? st->pawn : -st->pawn;
    if (pawn_x + shields >= 9) return 0;
    /* --- coins: y's at least (y discards), and both players' at most (The Moneylenders) --- */
    int loot = 0; /* the looting tokens on y's side that x's shields may reach */
    if ((st->military & (y == 0 ? 1 : 4)) && pawn_x + shields >= 3) loot += 2;
    if ((st->military & (y == 0 ? 2 : 8)) && pawn_x + shields >= 6) loot += 5;
    int take = 0;
    for (uint32_t w = xw; w; w &= w - 1) take += DC_WONDERS_TABLE[__builtin_ctz(w)].opponent_loses;
    int discard_y = 2 + dc_pop_cards(py->cards & DC_YELLOW);
    /* --- y builds some cards: a plan fixed now, every card of it surely affordable --- */
    /* y may do better than discard: it builds the cards of `plan` that come to it (face-up cards
     * whose price it can pay, all of them together, out of the coins x cannot take from it) and
     * discards the rest. Building c instead of discarding it is worth at least plan_gain[c] to y:
     * its points less the coins it costs and forgoes (floor((A - B) / 3) >= floor(A / 3) -
     * ceil(B / 3); twice with The Moneylenders). Which plan cards y gets is x's choice, so each is
     * also worth that much to x if x takes it (x_high below); the cards y may then own count in
     * x's "richest city" effects (y_may). Only while y's prices cannot rise (x can gain no
     * production and destroy nothing), and with no trading if x may own Economy. */
    dc_cards plan = 0, y_may = py->cards;
    double plan_gain[DC_N_CARDS], plan_sorted[DC_SLOTS]; /* by card; all of them, largest first */
    int n_plan = 0, plan_total = 0;
    int y_ml = 0;
    for (dc_cards g = py->cards & DC_PURPLE; g; g &= g - 1)
        y_ml |= DC_CARDS_TABLE[low_card(g)].points_per_max.coins_div3;
    int y_prices_fixed = 1;
    for (uint32_t w = xw; w && y_prices_fixed; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        y_prices_fixed = !ws->destroy && !(ws->econ & 0x7FFF);
    }
    if (all & SW_PRODUCERS) y_prices_fixed = 0;
    int budget = py->coins - loot - take;
    if (y_prices_fixed && budget >= 0) {
        int x_economy = ((px->tokens | gain_tokens) >> DC_T_ECONOMY) & 1;
        int cand[DC_SLOTS], price_of[DC_SLOTS], nc = 0;
        double gain_of[DC_SLOTS];
        for (dc_cards a = known; a; a &= a - 1) {
            int c = low_card(a);
            const dc_card_spec *spec = &DC_CARDS_TABLE[c];
            if (!spec->points) continue;
            int price = card_price(pc, st, y, c);
            if (price > budget) continue;
            if (x_economy && price > spec->coin_cost && !(py->chains & spec->chain_from)) continue;
            double g = spec->points - (double)((price + discard_y + 2) / 3) * (1 + y_ml);
            if (g <= 0) continue;
            int j = nc++;
            while (j > 0 && gain_of[j - 1] < g) {
                cand[j] = cand[j - 1], price_of[j] = price_of[j - 1], gain_of[j] = gain_of[j - 1];
                j--;
            }
            cand[j] = c, price_of[j] = price, gain_of[j] = g;
        }
        for (int i = 0; i < nc; i++) {
            if (price_of[i] > budget) continue;
            budget -= price_of[i];
            plan |= DC_CARD_BIT(cand[i]);
            plan_gain[cand[i]] = gain_of[i];
            plan_sorted[n_plan++] = gain_of[i];
            plan_total += (int)gain_of[i];
        }
        y_may |= plan;
    }
    const sw_reach reach_x = {known, unseen_age, unseen_guild, maus ? st->discard & ~known : 0,
                              h_age, h_guild, x_wonders < room ? x_wonders : room, k + maus};
    const dc_category yellow_cat = {DC_YELLOW, 0, 0, 1};
    int yellow_ub = category_ub(st, x, &yellow_cat, &reach_x);
    int urbanism_coins = ((px->tokens | gain_tokens) >> DC_T_URBANISM & 1) ? 4 : 0;
    int coins_x_base = px->coins; /* x's coins besides those its cards, wonders, tokens bring */
    /* the richest purse, at most: only a guild that counts coins reads it (x's, or one x may get) */
    int richest_ub = 0;
    if ((px->cards | all) & COIN_GUILDS) {
        int coins_x_fixed = coins_x_base; /* ... and with every wonder and token */
        for (uint32_t t = gain_tokens; t; t &= t - 1) coins_x_fixed += DC_TOKENS_TABLE[__builtin_ctz(t)].coins;
        for (uint32_t w = xw; w; w &= w - 1) coins_x_fixed += DC_WONDERS_TABLE[__builtin_ctz(w)].coins;
        int card_coins_ub = 2 + yellow_ub; /* the most coins one card may bring x */
        if (all && urbanism_coins > card_coins_ub) card_coins_ub = urbanism_coins;
        for (dc_cards a = all & SW_COINS; a; a &= a - 1) {
            const dc_card_spec *spec = &DC_CARDS_TABLE[low_card(a)];
            int coins = spec->coins + urbanism_coins + coins_per_card_ub(st, x, spec, &reach_x, y_may);
            if (coins > card_coins_ub) card_coins_ub = coins;
        }
        int coins_x_ub = coins_x_fixed + (k + maus) * card_coins_ub;
        int coins_y_ub = py->coins + left * discard_y;
        if (py->tokens >> DC_T_ECONOMY & 1) coins_y_ub += coins_x_ub; /* x's trading pays y */
        richest_ub = (coins_x_ub > coins_y_ub ? coins_x_ub : coins_y_ub) / 3;
    }
    /* --- y's final score, at least (y discards from now on) --- */
    int destroy_brown = 0, destroy_grey = 0;
    for (uint32_t w = xw; w; w &= w - 1) {
        int d = DC_WONDERS_TABLE[__builtin_ctz(w)].destroy;
        destroy_brown += d == 1;
        destroy_grey += d == 2;
    }
    const int y_low_fixed = dc_card_points(py->cards & ~DC_PURPLE) + dc_wonder_points(py->built) +
                            dc_token_points(py->tokens) + plan_total;
    const sw_y_side ys = {y, pawn_x, y_takes, discard_y, destroy_brown, destroy_grey};
    int y_low = y_low_fixed + y_low_variable(st, &ys, shields, take);
    /* --- x's final score, at most --- */
    double x_high = dc_card_points(px->cards & ~DC_PURPLE) + dc_wonder_points(px->built) +
                    dc_token_points(px->tokens) + milpts(pawn_x + shields);
    for (dc_cards g = px->cards & DC_PURPLE; g; g &= g - 1) {
        int c = low_card(g);
        const dc_category *cat = &DC_CARDS_TABLE[c].points_per_max;
        int nx = category_ub(st, x, cat, &reach_x);
        int ny = dc_pop_cards(y_may & cat->colours) + (cat->wonder ? dc_pop32(py->built) : 0);
        if (cat->coins_div3) nx = ny = richest_ub;
        x_high += cat->each * (nx > ny ? nx : ny);
    }
    double discard_value = (2.0 + yellow_ub) / 3.0;
    double urbanism = urbanism_coins / 3.0;
    /* tokens: one per science pair, so at most one per card x takes; their best ones */
    double x_tok = 0.0;
    if (gain_tokens) {
        /* each pair takes a green card: face-up, unseen (one per face-down slot), or The
         * Mausoleum's pick */
        int unseen_green = dc_pop_cards(unseen_age & DC_GREEN);
        int greens = dc_pop_cards(known & DC_GREEN) + (unseen_green < h_age ? unseen_green : h_age) +
                     (maus && (st->discard & DC_GREEN & ~known));
        int count = dc_pop32(gain_tokens);
        if (count > k + maus) count = k + maus;
        if (count > greens) count = greens;
        x_tok = best_tokens(gain_tokens, px->tokens, count);
        x_high += x_tok;
    }
    /* What x pays to build: prices only fall if x's economy or chains grow (a wonder or card
     * that produces, Masonry or Architecture won, a new chain) or y's production shrinks (a
     * wonder that destroys): otherwise today's price of a face-up card is what x will pay. */
    int fixed_prices = !((gain_tokens >> DC_T_MASONRY & 1) || (gain_tokens >> DC_T_ARCHITECTURE & 1));
    for (uint32_t w = xw; w && fixed_prices; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        fixed_prices = !ws->econ && !ws->destroy;
    }
    if (all & SW_ECONOMY) fixed_prices = 0;
    for (dc_cards a = all & SW_CHAINS; a && fixed_prices; a &= a - 1)
        fixed_prices = !(DC_CARDS_TABLE[low_card(a)].chain_gives & ~px->chains);
    /* each card's best use for x; face-down slots: the best unseen cards of their kind */
    double value[DC_N_CARDS], of_age[DC_N_CARDS], of_guild[DC_N_CARDS];
    double card_built[DC_N_CARDS], card_other[DC_N_CARDS]; /* face-up cards: built; discarded */
    double card_value[DC_N_CARDS]; /* face-up cards: best use */
    int n = 0, na = 0, ng = 0;
    double best_maus = 0.0;
    /* The Mausoleum's pick from the discard pile: only its value counts, and of the cards whose
     * value counts no other card the first in SW_PLAIN_ORDER is the best */
    dc_cards pile = all & ~avail;
    if (pile) {
        for (int i = 0; i < SW_N_PLAIN; i++)
            if (pile >> SW_PLAIN_ORDER[i] & 1) {
                pile &= SW_PER;
                pile |= DC_CARD_BIT(SW_PLAIN_ORDER[i]);
                break;
            }
    }
    /* of the face-down slots' cards only the h best of each kind count: of the plain ones, the
     * first h in SW_PLAIN_ORDER */
    dc_cards hidden = unseen_age | unseen_guild;
    if (hidden & ~SW_PER) {
        dc_cards keep = hidden & SW_PER;
        int want_age = h_age, want_guild = h_guild;
        for (int i = 0; i < SW_N_PLAIN && (want_age || want_guild); i++) {
            int c = SW_PLAIN_ORDER[i];
            if ((unseen_age >> c & 1) && want_age) keep |= DC_CARD_BIT(c), want_age--;
            else if ((unseen_guild >> c & 1) && want_guild) keep |= DC_CARD_BIT(c), want_guild--;
        }
        hidden = keep;
    }
    for (dc_cards a = known | hidden | pile; a; a &= a - 1) {
        int c = low_card(a);
        const dc_card_spec *spec = &DC_CARDS_TABLE[c];
        double v = spec->points + urbanism;
        v += third(spec->coins + coins_per_card_ub(st, x, spec, &reach_x, y_may));
        if (spec->points_per_max.each) {
            const dc_category *cat = &spec->points_per_max;
            int nx = category_ub(st, x, cat, &reach_x);
            int ny = dc_pop_cards(y_may & cat->colours) + (cat->wonder ? dc_pop32(py->built) : 0);
            if (cat->coins_div3) nx = ny = richest_ub;
            v += cat->each * (nx > ny ? nx : ny);
        }
        if (maus && v > best_maus) best_maus = v; /* The Mausoleum builds it for free */
        if (fixed_prices && (known >> c & 1)) v -= third(card_price(pc, st, x, c));
        double built = v;
        if (v < discard_value) v = discard_value;
        if (plan >> c & 1) v += plan_gain[c]; /* x taking it denies y that much */
        if ((known >> c) & 1) {
            value[n++] = v;
            card_value[c] = v;
            card_built[c] = built + (v - (built > discard_value ? built : discard_value));
            card_other[c] = v - (built > discard_value ? built : discard_value) + discard_value;
        }
        else if ((unseen_age >> c) & 1) of_age[na++] = v;
        else if ((unseen_guild >> c) & 1) of_guild[ng++] = v;
    }
    sort_desc(of_age, na);
    sort_desc(of_guild, ng);
    for (int i = 0; i < na && i < h_age; i++) value[n++] = of_age[i];
    for (int i = 0; i < ng && i < h_guild; i++) value[n++] = of_guild[i];
    sort_desc(value, n);
    /* x's wonders, each worth its points and coins (The Mausoleum: the best card of the discard
     * pile too); a card x builds a wonder with brings nothing else, so of x's k cards, w go under
     * wonders and k - w are worth their best use */
    double wonder_value[DC_N_WONDERS];
    sw_uses uses;
    int nw = 0;
    for (uint32_t w = xw; w; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        int price = fixed_prices ? wonder_price(pc, st, x, __builtin_ctz(w)) : 0;
        wonder_value[nw] = ws->points + third(ws->coins - price) + (ws->mausoleum ? best_maus : 0.0);
        uses.wonder[nw] = wonder_value[nw];
        uses.wonder_shields[nw] = ws->shields;
        uses.wonder_take[nw] = ws->opponent_loses;
        uses.wonder_mausoleum[nw] = ws->mausoleum;
        nw++;
    }
    sort_desc(wonder_value, nw);
    double cards_sum[DC_N_CARDS + 1];
    cards_sum[0] = 0.0;
    for (int i = 0; i < k; i++) cards_sum[i + 1] = cards_sum[i] + (i < n ? value[i] : 0.0);
    double gain = cards_sum[k], wonders_sum = 0.0;
    for (int w = 1; w <= nw && w <= room && w <= k; w++) {
        /* the card under it may be one of y's plan: denied, as if built */
        wonders_sum += wonder_value[w - 1] + (w - 1 < n_plan ? plan_sorted[w - 1] : 0.0);
        if (cards_sum[k - w] + wonders_sum > gain) gain = cards_sum[k - w] + wonders_sum;
    }
    x_high += coins_x_base / 3.0 + gain;
    /* Scores are whole numbers: x's is at most floor(x_high) (the margin absorbs rounding). */
    double x_top = whole(x_high);
    if ((double)y_low > x_top) return 1;
    if (left <= DENIAL_CARDS && !n_plan && x_top - y_low <= DENIAL_GAP) {
        denial_game g;
        int ok = 1;
        for (uint32_t m = st->present; m; m &= m - 1) {
            int slot = __builtin_ctz(m), c = st->pyramid[slot];
            if (c >= 0) g.slot[slot] = card_value[c];
            else {
                int guild = !dc_guild_backs() || (st->guild_slots >> slot & 1);
                int age = !dc_guild_backs() || !(st->guild_slots >> slot & 1);
                double v = -1.0;
                if (age) v = na ? of_age[0] : -1.0;
                if (guild && ng && of_guild[0] > v) v = of_guild[0];
                if (v < 0.0) ok = 0;
                g.slot[slot] = v;
            }
        }
        if (ok) {
            g.wonders = nw < room ? nw : room;
            for (int i = 0; i < g.wonders; i++) g.wonder[i] = wonder_value[i];
            g.replays = replays;
            g.age = st->age;
            double dg = denial_value(&g, st->present, st->accessible, st->to_move == x, 0, 0);
            if (dg < gain) {
                x_high -= gain - dg;
                gain = dg;
                x_top = whole(x_high);
                if ((double)y_low > x_top) return 1;
            }
        }
    }
    if (level >= 2 && k <= TAKES_MAX && x_top - y_low <= USES_GAP) {
        /* Not proved: look again with each of x's takes given one use (uses_best). Measured (a
         * 14-card solve): that proves about half the positions within 4 points, and nearly none
         * beyond USES_GAP, where most calls are. */
        uses.n = uses.n_plain = 0;
        uint8_t green_symbols = 0; /* of the green cards x may take or pick */
        for (dc_cards g = (known | (maus ? st->discard : 0)) & DC_GREEN; g; g &= g - 1)
            green_symbols |= DC_CARDS_TABLE[low_card(g)].science;
        uint8_t pairs_with = px->science | green_symbols | (unseen_twice ? unseen_sym : 0);
        int ok = 1;
        for (dc_cards a = known; a; a &= a - 1) {
            int c = low_card(a);
            const dc_card_spec *spec = &DC_CARDS_TABLE[c];
            int red = (DC_RED >> c) & 1, green = (DC_GREEN >> c) & 1;
            if (!red && !green) {
                uses.plain[uses.n_plain++] = card_built[c] > card_other[c] ? card_built[c] : card_other[c];
                continue;
            }
            if (uses.n == SPECIAL_MAX) {
                ok = 0;
                break;
            }
            int i = uses.n++;
            uses.build[i] = card_built[c], uses.other[i] = card_other[c];
            uses.shields[i] = red ? spec->shields + strategy : 0;
            uses.symbol[i] = green ? spec->science : 0;
            uses.wild[i] = 0;
        }
        int slot_shields = nu ? unseen_shields[0] : 0, slot_pair = (unseen_sym & pairs_with) != 0;
        for (int i = 0; i < na && i < h_age && ok; i++) {
            if (!slot_shields && !slot_pair) {
                uses.plain[uses.n_plain++] = of_age[i];
                continue;
            }
            if (uses.n == SPECIAL_MAX) {
                ok = 0;
                break;
            }
            int j = uses.n++;
            uses.build[j] = of_age[i], uses.other[j] = discard_value;
            uses.shields[j] = slot_shields, uses.symbol[j] = 0, uses.wild[j] = slot_pair;
        }
        for (int i = 0; i < ng && i < h_guild; i++) uses.plain[uses.n_plain++] = of_guild[i];
        if (ok && uses.n <= 6) {
            sort_desc(uses.plain, uses.n_plain);
            uses.nw = nw;
            uses.room = room;
            uses.takes = k;
            uses.maus_shields = best_discard_red;
            uses.maus_pair = 0;
            for (dc_cards g = maus ? st->discard & DC_GREEN & ~known : 0; g; g &= g - 1)
                if (DC_CARDS_TABLE[low_card(g)].science & pairs_with) uses.maus_pair = 1;
            uses.tokens_max = dc_pop32(gain_tokens);
            uses.science = px->science;
            uses.n_plan = n_plan;
            for (int i = 0; i < n_plan; i++) uses.plan_sorted[i] = plan_sorted[i];
            for (int t = 0; t <= TAKES_MAX + 1; t++) uses.tokens[t] = best_tokens(gain_tokens, px->tokens, t);
            uses.x_fixed = x_high - gain - x_tok - milpts(pawn_x + shields);
            uses.y_low_fixed = y_low_fixed;
            int d = uses_best(st, &uses, &ys);
            if (d < 0) return 1;
            if (d > 0 && y_low != x_top) return 0; /* (the first look's tie may still hold) */
        } else if (y_low != x_top) return 0;
    } else if (y_low != x_top) return 0;
    /* Equal scores: the most civilian (blue) points win. y's cannot fall; x's may rise by its k
     * best blue cards still to come (The Mausoleum: one more, from the discard pile). */
    int blue[DC_N_CARDS], nb = 0, best_discard_blue = 0;
    for (dc_cards b = (known | unseen_age) & DC_BLUE; b; b &= b - 1) {
        int v = DC_CARDS_TABLE[low_card(b)].points, j = nb++;
        while (j > 0 && blue[j - 1] < v) {
            blue[j] = blue[j - 1];
            j--;
        }
        blue[j] = v;
    }
    if (maus)
        for (dc_cards b = st->discard & DC_BLUE; b; b &= b - 1)
            if (DC_CARDS_TABLE[low_card(b)].points > best_discard_blue)
                best_discard_blue = DC_CARDS_TABLE[low_card(b)].points;
    int x_blue = dc_card_points(px->cards & DC_BLUE) + best_discard_blue;
    for (int i = 0; i < nb && i < k; i++) x_blue += blue[i];
    return dc_card_points(py->cards & DC_BLUE) > x_blue;
}

/* The side the static bound proves the winner (0 or 1), or -1. Only at a card-taking decision or
 * a reveal of Age III; both scores are counted once, for the pre-test of each side. `level`: see
 * surely_wins. `slack`: the pre-test asks y's score today plus its headroom to exceed x's by this
 * much. 0 turns away only a side the bound cannot prove; a margin turns away the close calls it
 * nearly never proves. Measured (random:500, 60M nodes): with 3 cards left, of the sides it
 * proved none had a margin under 5 and 0.2% under 10, against 1.6M failed calls under 10; with
 * 4-5 cards none under 8 and 0.2% under 12, against 1.7M failed calls. A failed call costs as
 * much as a proof (about 600 cycles with 3 cards, 1,100 with more), and with 3 cards a proof
 * saves little more than that. */
static int static_winner(const dc_state *st, price_cache *pc, int level, int slack) {
    if ((st->phase != DC_PLAY && st->phase != DC_REVEAL_CARDS) || st->age != 3) return -1;
    int total[2] = {dc_total_points(st, 0), dc_total_points(st, 1)};
    for (int y = 0; y < 2; y++)
        if (total[y] + bound_headroom(st, y) >= total[1 - y] + slack && surely_wins(st, y, pc, level)) return y;
    return -1;
}

/* The last few cards of an exact solve: a plain alpha-beta / Star1 recursion with no table. Near
 * the end of the Age most nodes of a solve are here and few of them recur, so hashing, probing
 * and storing them would cost more than it saves -- and their entries would crowd out the
 * costlier ones above (see keep_value). Values and bounds are as search()'s (fail-soft). */
static double small_search(Ctx *c, const dc_state *st, double alpha, double beta) {
    widen(&alpha, &beta);
    c->nodes++;
    STAT(c, ST_SMALL, st);
    if (c->nodes >= c->checkpoint) {
        tick(c);
        if (c->aborted) return 0.0;
    }
    if (st->phase == DC_GAME_OVER) return terminal_value(st);
    if (dc_is_chance(st)) {
        int32_t moves[DC_MAX_OUTCOMES];
        int64_t weights[DC_MAX_OUTCOMES];
        int64_t total = 0;
        int n = dc_chance_outcomes(st, moves, weights, &total);
        const double t = (double)total;
        double alpha_w = alpha * t, beta_w = beta * t, acc_w = 0.0, rest_w = t;
        for (int i = 0; i < n; i++) {
            double w = (double)weights[i];
            rest_w -= w;
            double a_i = (alpha_w - acc_w - rest_w) / w, b_i = (beta_w - acc_w) / w;
            /* as in chance_exact: an empty window (rounding) means the node is decided */
            if (b_i <= 0.0) return acc_w / t;
            if (a_i >= 1.0) return (acc_w + w + rest_w) / t;
            dc_state child = *st;
            dc_apply(&child, moves[i]);
            double v = small_search(c, &child, a_i > 0.0 ? a_i : 0.0, b_i < 1.0 ? b_i : 1.0);
            if (c->aborted) return 0.0;
            acc_w += w * v;
            if (v <= a_i) return (acc_w + rest_w) / t;
            if (v >= b_i) return acc_w / t;
        }
        return acc_w / t;
    }
    /* The static bound where the tail is deepest (bound_cards, 3): without the table, it ends
     * most of these nodes at a fraction of their search. Its first look only (tail_bounds 1):
     * here the second one costs more time than the nodes it saves (measured). */
    if (c->bound_cards && c->bounds && dc_pop32(st->present) >= c->bound_cards) {
        int winner = static_winner(st, &c->prices, c->bounds < c->tail_bounds ? c->bounds : c->tail_bounds,
                                   c->tail_slack);
        STAT(c, ST_BOUND, st);
        if (winner >= 0) {
            STAT(c, ST_BOUND_CUT, st);
            c->bound_cuts++;
            return winner == 0 ? 1.0 : 0.0;
        }
    }
    int me = st->to_move, maximise = me == 0;
    double best = maximise ? -1.0 : 2.0;
    /* One child: 1 if it ends the node (a cut-off, or an abort) */
#define SMALL_CHILD(move)                                                                          \
    do {                                                                                           \
        dc_state child = *st;                                                                      \
        dc_apply(&child, (move));                                                                  \
        double v = small_search(c, &child, alpha, beta);                                           \
        if (c->aborted) return 0.0;                                                                \
        if (maximise) {                                                                            \
            if (v > best) {                                                                        \
                best = v;                                                                          \
                if (v > alpha) {                                                                   \
                    alpha = v;                                                                     \
                    if (v >= beta) return best;                                                    \
                }                                                                                  \
            }                                                                                      \
        } else if (v < best) {                                                                     \
            best = v;                                                                              \
            if (v < beta) {                                                                        \
                beta = v;                                                                          \
                if (v <= alpha) return best;                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    if (st->phase == DC_PLAY) {
        /* dc_legal_moves' moves in its order, each priced only when its turn comes: most nodes
         * here end at their first move, and the wonders' prices are then never needed */
        const int coins = st->p[me].coins;
        int32_t wonder_codes[DC_N_WONDERS];
        int nw = -1;
        for (uint32_t acc = st->accessible; acc; acc &= acc - 1) {
            int card = st->pyramid[__builtin_ctz(acc)];
            if (card_price(&c->prices, st, me, card) <= coins) SMALL_CHILD(DC_MOVE(DC_BUILD, 0, card));
            SMALL_CHILD(DC_MOVE(DC_DISCARD, 0, card));
            if (nw < 0) {
                nw = 0;
                if (dc_pop32(st->p[0].built | st->p[1].built) < DC_MAX_WONDERS_BUILT)
                    for (uint32_t ws = st->p[me].wonders; ws; ws &= ws - 1) {
                        int w = __builtin_ctz(ws);
                        if (wonder_price(&c->prices, st, me, w) <= coins) wonder_codes[nw++] = DC_MOVE(DC_WONDER, w, 0);
                    }
            }
            for (int i = 0; i < nw; i++) SMALL_CHILD(wonder_codes[i] | card);
        }
        return best;
    }
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    n = skip_beaten(c, st, moves, n);
    for (int i = 0; i < n; i++) SMALL_CHILD(moves[i]);
#undef SMALL_CHILD
    return best;
}

#include "csearch/exact.h"

static double search(Ctx *c, const dc_state *st, int depth, double alpha, double beta) {
    if (depth >= INF_DEPTH / 2 && c->endgame && dc_pop32(st->present) <= c->small_cards)
        return small_search(c, st, alpha, beta);
    if (st->phase == DC_GAME_OVER || depth <= 0) return search_keyed(c, st, 0, depth, alpha, beta);
    return search_keyed(c, st, table_key(c, st, depth), depth, alpha, beta);
}

/* search() with the state's hash already computed (key: dc_state_hash(st); any value at a
 * terminal or horizon node, which are not looked up). */
static double search_keyed(Ctx *c, const dc_state *st, uint64_t key, int depth,
                           double alpha, double beta) {
    c->nodes++;
    if (c->nodes >= c->checkpoint) {
        tick(c);
        if (c->aborted) return 0.0;
    }
    if (st->phase == DC_GAME_OVER) {
        if (depth < c->min_depth) c->min_depth = depth;
        return terminal_value(st);
    }
    if (depth <= 0) {
        c->cut_count++;
        return evaluate(st);
    }
    long long nodes_before = c->nodes;
    tt_entry entry;
    const tt_entry *e = tt_find(c, key, &entry) ? &entry : NULL;
    STAT(c, ST_TT_PROBE, st);
    if (e) STAT(c, ST_TT_HIT, st);
    int had = 0, e_depth = 0;
    double e_lo = 0.0, e_hi = 1.0;
    int32_t best_move = -1;
    if (e) {
        had = 1;
        e_depth = entry_depth(e);
        e_lo = e->lo;
        e_hi = e->hi;
        best_move = e->move;
        if (e_depth >= depth) {
            if (e_lo >= beta || e_hi <= alpha || e_lo == e_hi) {
                if (e_depth < INF_DEPTH) c->cut_count++;
                STAT(c, ST_TT_CUT, st);
                return (e_lo >= beta || e_lo == e_hi) ? e_lo : e_hi;
            }
            if (e_lo > alpha) alpha = e_lo;
            if (e_hi < beta) beta = e_hi;
        }
    }
    if (depth >= INF_DEPTH / 2) widen(&alpha, &beta);
    long long cuts_before = c->cut_count;
    double alpha0 = alpha, beta0 = beta, value;
    int32_t move = -1;
    if (depth >= INF_DEPTH / 2 && c->bounds && !(had && e_lo == e_hi)) {
        int winner = static_winner(st, &c->prices, c->bounds, c->bound_slack);
        STAT(c, ST_BOUND, st);
        if (winner >= 0) {
            STAT(c, ST_BOUND_CUT, st);
            c->bound_cuts++;
            value = winner == 0 ? 1.0 : 0.0;
            if (!dc_is_chance(st)) { /* a move the proof allows: the winner discards */
                int32_t moves[DC_MAX_MOVES];
                int n = dc_legal_moves(st, moves);
                best_move = n ? moves[0] : -1;
                for (int i = 0; i < n && st->to_move == winner; i++) {
                    if (DC_MOVE_KIND(moves[i]) == DC_DISCARD) {
                        best_move = moves[i];
                        break;
                    }
                }
            }
            tt_store(c, key, INF_DEPTH, value, value, best_move, 1);
            return value;
        }
    }
    int marked = c->sh && dc_pop32(st->present) >= c->defer_cards && busy_mark(c->sh, key);
    if (dc_is_chance(st))
        value = depth >= INF_DEPTH / 2 && c->endgame
                    ? chance_exact(c, st, depth, alpha, beta, key)
                    : chance(c, st, depth, alpha, beta, key);
    else if (depth == 1) value = frontier(c, st, alpha, beta, &move);
    else if (depth >= INF_DEPTH / 2 && c->endgame)
        value = decision_exact(c, st, depth, alpha, beta, best_move, &move, 0);
    else value = decision(c, st, depth, alpha, beta, best_move, &move);
    if (marked) busy_clear(c->sh, key);
    if (c->aborted) return 0.0;
    int stored = c->cut_count != cuts_before ? depth : INF_DEPTH;
    int same = had && e_depth == (stored >= INF_DEPTH ? INF_DEPTH : stored);
    double lo = same ? e_lo : 0.0, hi = same ? e_hi : 1.0;
    if (value <= alpha0) hi = same ? (hi < value ? hi : value) : value;
    else if (value >= beta0) lo = same ? (lo > value ? lo : value) : value;
    else lo = hi = value;
    if (lo > hi) lo = hi = value;
    if (!dc_is_chance(st)) {
        int cards = dc_pop32(st->present);
        c->stat[ST_WORK][cards] += c->nodes - nodes_before;
        if (lo == hi && (lo == 0.0 || lo == 1.0)) c->stat[ST_DECIDED][cards] += c->nodes - nodes_before;
        else if (lo == hi) c->stat[ST_EXACT][cards] += c->nodes - nodes_before;
    }
    tt_store(c, key, stored, lo, hi, move >= 0 ? move : best_move, c->nodes - nodes_before);
    return value;
}

/* An exact solve (no depth cut-off) first asks the two questions that settle most endgames at a
 * fraction of the cost of the full window: does A surely win (value 1)? does A surely lose
 * (value 0)? Each is a null-window search: at a chance node one outcome that misses cuts it. The
 * bounds they leave in the table then narrow the full-window search that follows, if needed.
 * Every answer is a valid fail-soft result for (alpha, beta). */
#define NULL_WINDOW 1e-9

/* search() without the small_search shortcut: a position asked for from Python always gets its
 * table entry (best move included), which the principal variation and policy_margin read. */
static double top(Ctx *c, const dc_state *st, int depth, double alpha, double beta) {
    if (st->phase == DC_GAME_OVER || depth <= 0) return search_keyed(c, st, 0, depth, alpha, beta);
    return search_keyed(c, st, table_key(c, st, depth), depth, alpha, beta);
}

static double solve(Ctx *c, const dc_state *st, int depth, double alpha, double beta) {
    if (depth < INF_DEPTH / 2 || !c->null_windows || st->phase == DC_GAME_OVER)
        return top(c, st, depth, alpha, beta);
    /* Helpers with an odd id ask the loss question first: the two proofs fill different parts
     * of the shared table, and the thread that asks second finds the other's entries. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == (c->id & 1)) {
            if (beta > 1.0 - NULL_WINDOW) {
                double v = top(c, st, depth, 1.0 - NULL_WINDOW, 1.0);
                if (c->aborted || v > 1.0 - NULL_WINDOW || v <= alpha) return v;
            }
        } else if (alpha < NULL_WINDOW) {
            double v = top(c, st, depth, 0.0, NULL_WINDOW);
            if (c->aborted || v < NULL_WINDOW || v >= beta) return v;
        }
    }
    return top(c, st, depth, alpha, beta);
}

#include "csearch/searcher.h"

/* --- Python interface --------------------------------------------------------------------- */
static PyObject *Aborted; /* raised when a limit stops the search */

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"seed", "chance_width", "chance_samples", "memory", "threads", NULL};
    unsigned long long seed = 0;
    int width = 6, samples = 3, threads = 1;
    long long memory = 64ll << 20;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|KiiLi", kwlist, &seed, &width, &samples,
                                     &memory, &threads))
        return -1;
    if (samples < 1 || samples > MAX_SAMPLES) {
        PyErr_Format(PyExc_ValueError, "chance_samples must be 1..%d", MAX_SAMPLES);
        return -1;
    }
    if (memory < 4096) {
        PyErr_SetString(PyExc_ValueError, "memory must be at least 4096 bytes");
        return -1;
    }
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return -1;
    }
    self->seed = seed;
    self->chance_width = width;
    self->chance_samples = samples;
    self->node_limit = -1;
    self->deadline = -1.0;
    self->checkpoint = 0;
    self->min_depth = INF_DEPTH;
    self->null_windows = 1;
    self->endgame = 1;
    self->etc = 1;
    self->use_history = 1;
    self->star2 = 1;
    self->star2_cards = 5;
    self->scout = 1;
    self->small_cards = 3;
    self->bound_cards = 3;
    self->tail_bounds = 1;
    self->bound_slack = 15;
    self->tail_slack = 12;
    self->final_picks = 5;
    self->bounds = 2;
    self->abstract = 1;
    self->defer_cards = 5;
    self->threads = threads;
    if (ensure_ctx(self, 1) < 0) return -1;
    return alloc_table(self, memory);
}

static void Searcher_dealloc(Searcher *self) {
    table_free(self->tt, self->buckets);
    for (int i = 0; i < self->nctx; i++) PyMem_RawFree(self->ctx[i]);
    PyMem_RawFree(self->ctx);
    Py_XDECREF(self->on_progress);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A helper thread's share of a threaded solve: the same root and window as the main thread. */
typedef struct {
    Ctx *c;
    const dc_state *root;
    int depth;
    double alpha, beta;
} helper_job;

static void *helper_run(void *arg) {
    helper_job *job = arg;
    Ctx *c = job->c;
    Shared *sh = c->sh;
    double v = solve(c, job->root, job->depth, job->alpha, job->beta);
    if (!c->aborted) { /* finished before the main thread: its answer stands, stop the rest */
        if (!__atomic_exchange_n(&sh->done, 1, __ATOMIC_ACQ_REL)) sh->value = v;
        __atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

#define HELPER_STACK (64u << 20) /* the recursion keeps every child of a node on the stack */

/* An exact solve on `n` threads (Lazy SMP): n - 1 helpers search the same root with the same
 * window, sharing the table, while the calling thread does too, without the GIL (its tick takes
 * the GIL back to call into Python). The first thread to finish gives the answer (the calling
 * thread's if it finishes); the others are stopped. Returns `aborted` as a single search does. */
static int solve_threads(Searcher *self, int n, const dc_state *st, int depth, double alpha,
                         double beta, double *value) {
    Shared *sh = PyMem_RawCalloc(1, sizeof *sh);
    helper_job *jobs = PyMem_RawCalloc((size_t)n, sizeof *jobs);
    pthread_t *tids = PyMem_RawCalloc((size_t)n, sizeof *tids);
    if (!sh || !jobs || !tids) {
        PyMem_RawFree(sh);
        PyMem_RawFree(jobs);
        PyMem_RawFree(tids);
        PyErr_NoMemory();
        return 2;
    }
    sh->ctx = self->ctx;
    sh->threads = n;
    long long nodes_before = self->nodes;
    for (int i = 0; i < n; i++) ctx_begin(self, self->ctx[i], i, sh);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, HELPER_STACK);
    sh->saved = PyEval_SaveThread();
    int started = 1;
    for (; started < n; started++) {
        jobs[started] = (helper_job){self->ctx[started], st, depth, alpha, beta};
        if (pthread_create(&tids[started], &attr, helper_run, &jobs[started]) != 0) break;
    }
    /* a helper that could not start counts no nodes (its published count stays 0) */
    double v = solve(self->ctx[0], st, depth, alpha, beta);
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
    for (int i = 1; i < started; i++) pthread_join(tids[i], NULL);
    PyEval_RestoreThread(sh->saved);
    pthread_attr_destroy(&attr);
    int aborted = self->ctx[0]->aborted;
    if (aborted == 1 && sh->done) { /* stopped because a helper had the answer */
        v = sh->value;
        aborted = 0;
    }
    for (int i = 0; i < n; i++) {
        self->thread_nodes[i] += self->ctx[i]->nodes - (i ? 0 : nodes_before);
        ctx_end(self, self->ctx[i]);
    }
    PyMem_RawFree(sh);
    PyMem_RawFree(jobs);
    PyMem_RawFree(tids);
    *value = v;
    return aborted;
}

static PyObject *Searcher_search(Searcher *self, PyObject *args) {
    PyObject *obj;
    int depth;
    double alpha, beta;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (!PyArg_ParseTuple(args, "Oidd", &obj, &depth, &alpha, &beta)) return NULL;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is already searching");
        return NULL;
    }
    if (depth > INF_DEPTH) depth = INF_DEPTH;
    /* threads for exact solves only: a depth-limited search stays on the calling thread */
    int n = depth >= INF_DEPTH / 2 && st->phase != DC_GAME_OVER ? self->threads : 1;
    if (ensure_ctx(self, n) < 0) return NULL;
    double v;
    int aborted;
    self->busy = 1;
    if (n > 1) {
        aborted = solve_threads(self, n, st, depth, alpha, beta, &v);
    } else {
        Ctx *c = self->ctx[0];
        ctx_begin(self, c, 0, NULL);
        v = solve(c, st, depth, alpha, beta);
        aborted = c->aborted;
        ctx_end(self, c);
    }
    self->busy = 0;
    if (aborted == 2) return NULL;
    if (aborted) {
        PyErr_SetNone(Aborted);
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

static PyObject *Searcher_evaluate(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    return PyFloat_FromDouble(evaluate(st));
}

static PyObject *Searcher_margin(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    return PyFloat_FromDouble(margin(st));
}

static PyObject *Searcher_static_winner(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    static price_cache py_prices; /* calls from Python hold the GIL */
    int w = static_winner(st, &py_prices, self->bounds ? self->bounds : 2, 0);
    if (w < 0) Py_RETURN_NONE;
    return PyLong_FromLong(w);
}

static PyObject *Searcher_probe(Searcher *self, PyObject *obj) {
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    tt_entry entry;
    const tt_entry *e = &entry;
    /* an exact solve's entry first, else a depth-limited search's */
    Ctx *c = self->ctx[0];
    ctx_begin(self, c, 0, NULL);
    int found = tt_find(c, table_key(c, st, INF_DEPTH), &entry) ||
                tt_find(c, dc_state_hash(st), &entry);
    ctx_end(self, c);
    if (!found) Py_RETURN_NONE;
    PyObject *move = e->move >= 0 ? PyLong_FromLong(e->move) : Py_NewRef(Py_None);
    if (!move) return NULL;
    return Py_BuildValue("(iddNi)", entry_depth(e), e->lo, e->hi, move, e->gen);
}

static PyObject *Searcher_store(Searcher *self, PyObject *args) {
    PyObject *obj, *move_obj;
    int depth;
    double lo, hi;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (!PyArg_ParseTuple(args, "OiddO", &obj, &depth, &lo, &hi, &move_obj)) return NULL;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    long move = move_obj == Py_None ? -1 : PyLong_AsLong(move_obj);
    if (move == -1 && PyErr_Occurred()) return NULL;
    ctx_begin(self, self->ctx[0], 0, NULL);
    tt_store(self->ctx[0], table_key(self->ctx[0], st, depth), depth, lo, hi, (int32_t)move, 1);
    ctx_end(self, self->ctx[0]);
    Py_RETURN_NONE;
}

/* Test hooks for the lockless table: the raw words of a state's bucket, and writing raw words
 * into one of its slots (to build a torn entry). */
static PyObject *Searcher_bucket_words(Searcher *self, PyObject *obj) {
    dc_state st;
    if (capi->get_state(obj, &st) < 0) return NULL;
    ctx_begin(self, self->ctx[0], 0, NULL);
    const Ctx *c = self->ctx[0];
    const tt_bucket *b = &self->tt[tt_index(c, table_key(c, &st, INF_DEPTH))];
    ctx_end(self, self->ctx[0]);
    return Py_BuildValue("((KKKK)(KKKK))", b->w[0][0], b->w[0][1], b->w[0][2], b->w[0][3],
                         b->w[1][0], b->w[1][1], b->w[1][2], b->w[1][3]);
}

static PyObject *Searcher_write_words(Searcher *self, PyObject *args) {
    PyObject *obj;
    int slot;
    unsigned long long w[4];
    dc_state st;
    if (!PyArg_ParseTuple(args, "Oi(KKKK)", &obj, &slot, &w[0], &w[1], &w[2], &w[3])) return NULL;
    if (capi->get_state(obj, &st) < 0) return NULL;
    if (slot < 0 || slot > 1) {
        PyErr_SetString(PyExc_ValueError, "slot must be 0 or 1");
        return NULL;
    }
    ctx_begin(self, self->ctx[0], 0, NULL);
    const Ctx *c = self->ctx[0];
    tt_bucket *b = &self->tt[tt_index(c, table_key(c, &st, INF_DEPTH))];
    ctx_end(self, self->ctx[0]);
    for (int i = 0; i < 4; i++) b->w[slot][i] = w[i];
    Py_RETURN_NONE;
}

static PyObject *Searcher_set_limits(Searcher *self, PyObject *args) {
    long long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "Ld", &node_limit, &seconds)) return NULL;
    self->node_limit = node_limit;
    self->deadline = seconds >= 0 ? now_seconds() + seconds : -1.0;
    self->checkpoint = self->nodes;
    Py_RETURN_NONE;
}

static PyObject *Searcher_stats(Searcher *self, PyObject *unused) {
    (void)unused;
    static const char *names[ST_KINDS] = {
        "decision", "dec_first", "dec_cut", "etc", "win_now", "chance", "ch_table", "ch_star2",
        "ch_star1", "probes", "small", "tt_probe", "tt_hit", "tt_cut", "bound", "bound_cut", "research", "work", "decided", "exact"};
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int k = 0; k < ST_KINDS; k++) {
        PyObject *row = PyList_New(ST_CARDS);
        if (!row) {
            Py_DECREF(d);
            return NULL;
        }
        for (int i = 0; i < ST_CARDS; i++) { /* summed over the threads */
            long long sum = 0;
            for (int t = 0; t < self->nctx; t++) sum += self->ctx[t]->stat[k][i];
            PyList_SET_ITEM(row, i, PyLong_FromLongLong(sum));
        }
        if (PyDict_SetItemString(d, names[k], row) < 0) {
            Py_DECREF(row);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(row);
    }
    return d;
}

/* A long solve probes the table at random: with 4 KB pages nearly every probe of a large table
 * also misses the TLB, and transparent huge pages make the search about 1.1x faster. A short one
 * should not pay for them: every 2 MB page it touches is zeroed whole, so a solve of a few
 * thousand nodes would take 0.5 s and the whole budget. And they must be asked for before the
 * table is written: a 2 MB range that already holds a 4 KB page gets no huge page. So the caller
 * asks, before a solve it expects to be long (solvers.search.analysis: 11 cards or more). */
static PyObject *Searcher_huge_pages(Searcher *self, PyObject *unused) {
    (void)unused;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (madvise(self->tt, (size_t)self->buckets * sizeof(tt_bucket), MADV_HUGEPAGE) == 0)
        Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

static PyObject *Searcher_clear(Searcher *self, PyObject *unused) {
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return NULL;
    }
    memset(self->tt, 0, self->buckets * sizeof(tt_bucket));
    Py_RETURN_NONE;
}

/* Fill the calling thread's history table from `seed` (tests: an exact value must not depend on
 * the order moves are tried in). */
static PyObject *Searcher_scramble_history(Searcher *self, PyObject *arg) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    Ctx *c = self->ctx[0];
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 1 << 15; i++) c->history[p][i] = (uint32_t)(dc_rng_next(&rng) & 0xFFFF);
    Py_RETURN_NONE;
}

static PyMethodDef Searcher_methods[] = {
    {"scramble_history", (PyCFunction)Searcher_scramble_history, METH_O,
     "scramble_history(seed): random move-order credits (tests)"},
    {"search", (PyCFunction)Searcher_search, METH_VARARGS,
     "search(core_state, depth, alpha, beta) -> P(A wins); raises Aborted at a limit."},
    {"evaluate", (PyCFunction)Searcher_evaluate, METH_O, "solvers.search.evaluate in C."},
    {"margin", (PyCFunction)Searcher_margin, METH_O, "solvers.search._margin in C."},
    {"static_winner", (PyCFunction)Searcher_static_winner, METH_O,
     "static_winner(core_state) -> 0 or 1 if the static bound proves that player wins, else None"},
    {"probe", (PyCFunction)Searcher_probe, METH_O,
     "probe(core_state) -> (depth, lo, hi, move, generation) or None."},
    {"store", (PyCFunction)Searcher_store, METH_VARARGS,
     "store(core_state, depth, lo, hi, move): a table entry (move may be None)."},
    {"set_limits", (PyCFunction)Searcher_set_limits, METH_VARARGS,
     "set_limits(node_limit or -1, seconds from now or -1)."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "empty the table"},
    {"huge_pages", (PyCFunction)Searcher_huge_pages, METH_NOARGS,
     "huge_pages() -> bool: back the table with transparent huge pages (Linux), for a long solve"},
    {"_bucket_words", (PyCFunction)Searcher_bucket_words, METH_O,
     "test hook: the raw words of the state's table bucket, two tuples of four"},
    {"_write_words", (PyCFunction)Searcher_write_words, METH_VARARGS,
     "test hook: _write_words(core_state, slot, words) writes raw words into its bucket"},
    {"stats", (PyCFunction)Searcher_stats, METH_NOARGS,
     "profile counters: {kind: [count by cards left]} (see ST_* in the C file)"},
    {NULL, NULL, 0, NULL}};

#define RW_LL(name) {#name, T_LONGLONG, offsetof(Searcher, name), 0, NULL}
static PyMemberDef Searcher_members[] = {
    RW_LL(nodes),
    RW_LL(cut_count),
    RW_LL(sampled_count),
    RW_LL(stores),
    RW_LL(overwrites),
    RW_LL(memory),
    {"null_windows", T_INT, offsetof(Searcher, null_windows), 0, NULL},
    {"endgame", T_INT, offsetof(Searcher, endgame), 0, NULL},
    {"etc", T_INT, offsetof(Searcher, etc), 0, NULL},
    {"star2", T_INT, offsetof(Searcher, star2), 0, NULL},
    {"scout", T_INT, offsetof(Searcher, scout), 0, NULL},
    {"star2_cards", T_INT, offsetof(Searcher, star2_cards), 0, NULL},
    {"small_cards", T_INT, offsetof(Searcher, small_cards), 0, NULL},
    {"bounds", T_INT, offsetof(Searcher, bounds), 0, NULL},
    {"abstract", T_INT, offsetof(Searcher, abstract), 0, NULL},
    {"bound_cuts", T_LONGLONG, offsetof(Searcher, bound_cuts), 0, NULL},
    {"use_history", T_INT, offsetof(Searcher, use_history), 0, NULL},
    {"defer_cards", T_INT, offsetof(Searcher, defer_cards), 0, NULL},
    {"bound_cards", T_INT, offsetof(Searcher, bound_cards), 0, NULL},
    {"tail_bounds", T_INT, offsetof(Searcher, tail_bounds), 0, NULL},
    {"bound_slack", T_INT, offsetof(Searcher, bound_slack), 0, NULL},
    {"tail_slack", T_INT, offsetof(Searcher, tail_slack), 0, NULL},
    {"final_picks", T_INT, offsetof(Searcher, final_picks), 0, NULL},
    {"min_depth", T_INT, offsetof(Searcher, min_depth), 0, NULL},
    {"generation", T_INT, offsetof(Searcher, generation), 0, NULL},
    {"chance_width", T_INT, offsetof(Searcher, chance_width), READONLY, NULL},
    {"chance_samples", T_INT, offsetof(Searcher, chance_samples), READONLY, NULL},
    {"on_progress", T_OBJECT, offsetof(Searcher, on_progress), 0, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyObject *Searcher_get_entries(Searcher *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(2 * self->buckets);
}

static PyObject *Searcher_get_threads(Searcher *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->threads);
}

static PyObject *Searcher_get_thread_nodes(Searcher *self, void *closure) {
    (void)closure;
    int n = self->threads < self->nctx ? self->threads : self->nctx;
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLongLong(self->thread_nodes[i]));
    return list;
}

static int Searcher_set_threads(Searcher *self, PyObject *value, void *closure) {
    (void)closure;
    long n = value ? PyLong_AsLong(value) : -1;
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 1 || n > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return -1;
    }
    self->threads = (int)n;
    return 0;
}

static PyGetSetDef Searcher_getset[] = {
    {"entries", (getter)Searcher_get_entries, NULL, "table capacity in entries", NULL},
    {"threads", (getter)Searcher_get_threads, (setter)Searcher_set_threads,
     "threads of an exact solve (depth-limited searches use the calling thread alone)", NULL},
    {"thread_nodes", (getter)Searcher_get_thread_nodes, NULL,
     "each thread's nodes in this searcher's threaded solves so far (the calling thread's first)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers._csearch.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The recursive expectiminimax of solvers.search.Searcher, in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_members = Searcher_members,
    .tp_getset = Searcher_getset,
};

static struct PyModuleDef csearch_module = {
    PyModuleDef_HEAD_INIT, "solvers._csearch",
    "The expectiminimax of solvers/search.py on the C engine; use it through solvers.search.",
    -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__csearch(void) {
    /* The capsule brings duel._ccore's conversions and its Age III rules; this module has its
     * own copy of the engine, so it takes that setting. */
    PyObject *core = PyImport_ImportModule("duel.core");
    if (!core) return NULL;
    Py_DECREF(core);
    capi = dc_import_capi();
    if (!capi) return NULL;
    dc_set_guild_backs(capi->guild_backs);
    exact_key_init();
    bound_tables_init();
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *m = PyModule_Create(&csearch_module);
    if (!m) return NULL;
    Aborted = PyErr_NewException("solvers._csearch.Aborted", NULL, NULL);
    Py_INCREF(&SearcherType);
    if (!Aborted || PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddObject(m, "Aborted", Py_NewRef(Aborted)) < 0 ||
        PyModule_AddIntConstant(m, "INF_DEPTH", INF_DEPTH) < 0 ||
        PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(tt_entry)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
