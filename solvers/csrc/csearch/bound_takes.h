/*
 * csearch/bound_takes.h -- tighter bounds of what x gains from its takes, for where the static
 * bound's first look misses by a little: the second look (uses_best: each take given one use;
 * `bounds` 2, at most TAKES_MAX takes) and the denial game (denial_value: y discards the card x
 * wants most; at most DENIAL_CARDS cards left). Apart because each is a small search of its
 * own over x's takes, with its own limits, and surely_wins only asks for its value.
 */
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

/* uses_best's walk over the special cards' uses for one set of x's wonders and one Mausoleum
 * pick: each card not taken, built, or put to its other use, depth first, so that only the
 * combinations within x's takes are visited and each shares its prefix's sums (the sums are
 * added in the cards' order, as a loop over the combinations would add them). */
typedef struct {
    const dc_state *st;
    const sw_uses *u;
    const sw_y_side *ys;
    int wt;          /* coins the set's wonders take from y */
    uint64_t y_have; /* y's score by x's shields S: each S asked once */
    int y_by_shields[64];
    int best;
} uses_walk;

static void uses_next(uses_walk *w, int i, int left, int S, int T, double G, uint8_t seen) {
    const sw_uses *u = w->u;
    if (i == u->n) {
        for (int j = 0; j < left && j < u->n_plain; j++) G += u->plain[j];
        if (T > u->tokens_max) T = u->tokens_max;
        double x_high = u->x_fixed + G + u->tokens[T] + milpts(w->ys->pawn_x + S);
        int y_var;
        if (S >= 0 && S < 64 && (w->y_have >> S & 1)) y_var = w->y_by_shields[S];
        else {
            y_var = y_low_variable(w->st, w->ys, S, w->wt);
            if (S >= 0 && S < 64) w->y_have |= 1ull << S, w->y_by_shields[S] = y_var;
        }
        int d = whole(x_high) - (u->y_low_fixed + y_var);
        if (d > w->best) w->best = d;
        return;
    }
    uses_next(w, i + 1, left, S, T, G, seen); /* not taken */
    if (!left) return;
    int built_T = T;
    uint8_t built_seen = seen;
    if (u->wild[i]) built_T++;
    else if (u->symbol[i]) {
        if (seen & u->symbol[i]) built_T++;
        built_seen |= u->symbol[i];
    }
    uses_next(w, i + 1, left - 1, S + u->shields[i], built_T, G + u->build[i], built_seen);
    uses_next(w, i + 1, left - 1, S, T, G + u->other[i], seen);
}

/* The largest floor(x's score) - y's score over x's uses of its takes (see sw_uses). */
static int uses_best(const dc_state *st, const sw_uses *u, const sw_y_side *ys) {
    uses_walk w;
    w.st = st, w.u = u, w.ys = ys, w.best = -(1 << 20);
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
        w.wt = wt;
        w.y_have = 0;
        for (int pick = 0; pick < (has_maus ? 3 : 1); pick++) /* 0 value, 1 red, 2 green */
            uses_next(&w, 0, u->takes - wcount, ws + (pick == 1 ? u->maus_shields : 0),
                      pick == 2 ? u->maus_pair : 0, wg, u->science);
    }
    return w.best;
}

/* The denial game (surely_wins): x takes cards worth at most slot[] each to it (or puts one under
 * a wonder, the i-th worth at most wonder[i], some with a Play Again), while y discards, or builds
 * a card of its plan (worth at least ygain[] to it), and picks which: the card that leaves x the
 * least. y's choice is a strategy of its own, so the value is an upper bound of x's gain less y's
 * plan gains against it -- lower than x's k best cards, which assumes y never takes one of them.
 * Only the pyramid's own uncovering limits both sides. Counting y's plan (before, the game was
 * played only where y had none): it proves 273 of 464 decided three-card tails sampled from five
 * 14-card positions of strong play, against 239 without (issue 64, docs/search.md). */
#define DENIAL_CARDS 5
#define DENIAL_GAP 12
typedef struct {
    double slot[DC_SLOTS];  /* each card's worth to x, at most */
    double ygain[DC_SLOTS]; /* its worth to y (a card of y's plan), at least */
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
            double v = denial_value(g, p, a, 1, used, replayed) - g->ygain[slot];
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
