/*
 * csearch/bound_parts.h -- the pieces the static bound (csearch/bound.h) is built from: card
 * sets and tables filled once, and the bounds of single parts of a final score (a category's
 * count, per-card coins, y's headroom, x's best tokens, the part of y's score that x's shields
 * change). Apart so that surely_wins reads as the argument it makes, with its arithmetic here.
 */
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

static void bound_tables_init(void) {
    pick_tables_init(); /* csearch/picks.h: the bound reads its COIN_GUILDS too */
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
 * away without the full bound -- mostly the trailing side, at every node of an exact solve.
 * `plan_room`: plan_headroom(st), the part the two sides share. */
static int bound_headroom(const dc_state *st, int y, int plan_room) {
    const dc_player *py = &st->p[y];
    int left = dc_pop32(st->present);
    int y_takes = left - (left + (st->to_move != y)) / 2; /* at most: x may have replays */
    int discard_y = 2 + dc_pop_cards(py->cards & DC_YELLOW);
    int gain = (y_takes * discard_y + 2) / 3;
    for (dc_cards g = py->cards & DC_PURPLE; g; g &= g - 1)
        if (DC_CARDS_TABLE[low_card(g)].points_per_max.coins_div3) gain *= 2;
    return gain + plan_room;
}

/* bound_headroom's part that is the same for both sides: the points less one of the face-up
 * cards (static_winner counts it once for the two) */
static int plan_headroom(const dc_state *st) {
    int room = 0;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int c = st->pyramid[__builtin_ctz(m)];
        if (c >= 0 && DC_CARDS_TABLE[c].points > 1) room += DC_CARDS_TABLE[c].points - 1;
    }
    return room;
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
