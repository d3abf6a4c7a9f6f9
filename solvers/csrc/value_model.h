/*
 * value_model.h -- the learned value of solvers/value.py in C, for the compiled MCTS
 * (cmcts_module.c). Include after duel_core.c.
 *
 * The features are the table of solvers/features.py (its module docstring is the definition,
 * in the same order); the model is
 *
 *     logit = sum_k ((1 - t) * W0[s][k] + t * W1[s][k]) * d[k],   d = g(A) - g(B)
 *     value = 1 / (1 + exp(-max(logit, -30)))      (exact 1 / 0 / 1/2 at game over)
 *
 * The weights are not compiled in: Python passes the 4 x 2 x 111 numbers of
 * data/models/value.json (ValueModel.flat_weights(), W0 stage by stage then W1), so the JSON
 * file stays the one source of truth and retrained weights need no rebuild.
 * tests/test_cvalue.py checks features and values against the Python model position by
 * position.
 *
 *     vm_weights w;  // filled from Python
 *     double v = vm_value(&w, &state);  // P(A wins) + P(shared)/2
 */
#ifndef SOLVERS_VALUE_MODEL_H
#define SOLVERS_VALUE_MODEL_H

#include <math.h>

#define VM_FEATURES 111
#define VM_STAGES 4

typedef struct {
    double w0[VM_STAGES][VM_FEATURES]; /* weights at the start of each stage (t = 0) */
    double w1[VM_STAGES][VM_FEATURES]; /* at its end (t = 1) */
} vm_weights;

/* How many floats ValueModel.flat_weights() gives. */
#define VM_WEIGHTS (2 * VM_STAGES * VM_FEATURES)

/* Offsets of the feature groups in g(p) (solvers/features.py FEATURE_NAMES). */
enum {
    VM_PTS = 0,          /* 8 score categories, in dc_score_breakdown order */
    VM_COINS = 8,
    VM_COINS_CAP8 = 9,
    VM_PROD = 10,        /* prod_R_ge1, prod_R_ge2 per resource */
    VM_CHOICE_RAW = 20,
    VM_CHOICE_MAN = 21,
    VM_FIXED = 22,
    VM_PRICE = 27,
    VM_AFFORD = 32,
    VM_FREE = 33,
    VM_LEAD = 34,        /* lead_ge1..lead_ge8 */
    VM_LOOT2 = 42,
    VM_LOOT5 = 43,
    VM_MIL_REACH = 44,
    VM_SCI_GE = 45,      /* sci_ge2..sci_ge5 */
    VM_SCI_PAIRS = 49,
    VM_SCI_NEW = 50,
    VM_SCI_REACH = 51,
    VM_TOKEN = 52,
    VM_BUILT = 62,
    VM_OWNS = 74,
    VM_COLOR = 86,       /* brown grey blue green yellow red purple */
    VM_CHAINS = 93,
    VM_TO_MOVE = 94,
    VM_PENDING_TOKEN = 95,
    VM_EXTRA_TURN = 96,
    VM_PENDING_DESTROY = 97,
    VM_NOW = 98,         /* best_pts best_shields sci_pair_now mil_win_now sci_win_now
                            wonders_now */
    VM_WIN_CARDS = 104,
    VM_MOVE = 105        /* the VM_NOW six again, for the side taking a card only */
};
#define VM_NOW_COUNT 6
_Static_assert(VM_MOVE + VM_NOW_COUNT == VM_FEATURES, "feature table out of step");

static int vm_is_setup(int phase) {
    return phase == DC_SETUP_TOKENS || phase == DC_SETUP_WONDERS || phase == DC_DRAFT;
}

/* Face-up cards in accessible slots (a slot waiting to be revealed holds no card yet); none
 * once the game is over, as solvers.features.features. */
static int vm_accessible(const dc_state *s, int out[DC_SLOTS]) {
    int n = 0;
    if (s->phase == DC_GAME_OVER) return 0;
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int c = s->pyramid[__builtin_ctz(acc)];
        if (c >= 0) out[n++] = c;
    }
    return n;
}

/* g(p): solvers.features.player_features. */
static void vm_player_features(const dc_state *s, int p, const int *acc, int n_acc,
                               int32_t g[VM_FEATURES]) {
    const dc_player *me = &s->p[p];
    uint32_t econ = me->econ, opp_econ = s->p[1 - p].econ;
    int coins = me->coins, lead = p == 0 ? s->pawn : -s->pawn;
    int pts[DC_SCORE_CATEGORIES]; /* every g[k] is written below */

    pts[DC_SCORE_BLUE] = dc_card_points(me->cards & DC_BLUE);
    pts[DC_SCORE_GREEN] = dc_card_points(me->cards & DC_GREEN);
    pts[DC_SCORE_YELLOW] = dc_card_points(me->cards & DC_YELLOW);
    pts[DC_SCORE_PURPLE] = me->cards & DC_PURPLE ? dc_guild_points(s, me->cards) : 0;
    pts[DC_SCORE_WONDERS] = dc_wonder_points(me->built);
    pts[DC_SCORE_TOKENS] = dc_token_points(me->tokens);
    pts[DC_SCORE_COINS] = coins / 3;
    pts[DC_SCORE_MILITARY] = dc_military_points(p, s->pawn);
    for (int i = 0; i < DC_SCORE_CATEGORIES; i++) g[VM_PTS + i] = pts[i];
    g[VM_COINS] = coins;
    g[VM_COINS_CAP8] = coins < 8 ? coins : 8;
    for (int r = 0; r < 5; r++) {
        int units = (econ >> (3 * r)) & 7;
        g[VM_PROD + 2 * r] = units >= 1;
        g[VM_PROD + 2 * r + 1] = units >= 2;
        g[VM_FIXED + r] = (econ >> (DC_FIXED_SHIFT + r)) & 1;
        g[VM_PRICE + r] = g[VM_FIXED + r] ? 1 : 2 + (int)((opp_econ >> (3 * r)) & 7);
    }
    g[VM_CHOICE_RAW] = (econ >> DC_RAW_CHOICE_SHIFT) & 3;
    g[VM_CHOICE_MAN] = (econ >> DC_MAN_CHOICE_SHIFT) & 3;

    /* the accessible cards: what p could build now, military and science one card away */
    int strategy = me->tokens >> DC_T_STRATEGY & 1, distinct = __builtin_popcount(me->science);
    int afford = 0, free_ = 0, best_shields = 0, sci_new = 0;
    int now_pts = 0, now_shields = 0, now_pair = 0, now_sci_win = 0, win_cards = 0;
    for (int i = 0; i < n_acc; i++) {
        int c = acc[i];
        const dc_card_spec *card = &DC_CARDS_TABLE[c];
        int cost = dc_card_price(s, p, c);
        if (cost <= coins) {
            afford++;
            if (cost == 0) free_++;
            int pts = card->points;
            if (DC_CARD_BIT(c) & DC_PURPLE) pts += dc_guild_points(s, DC_CARD_BIT(c));
            if (pts > now_pts) now_pts = pts;
            if (card->shields) {
                int shields = card->shields + strategy;
                if (shields > now_shields) now_shields = shields;
                if (lead + shields >= 9) win_cards++;
            }
            if (card->science) {
                if (me->science & card->science) {
                    now_pair = 1;
                } else if (distinct >= 5) {
                    now_sci_win = 1;
                    win_cards++;
                }
            }
        }
        if (card->shields > best_shields) best_shields = card->shields;
        if (card->science && !(me->science & card->science)) sci_new++;
    }
    g[VM_AFFORD] = afford;
    g[VM_FREE] = free_;
    for (int k = 1; k <= 8; k++) g[VM_LEAD + k - 1] = lead >= k;
    int loot = (s->military >> (p == 0 ? 2 : 0)) & 3; /* the opponent's tokens */
    g[VM_LOOT2] = loot & 1;
    g[VM_LOOT5] = loot >> 1;
    if (best_shields && strategy) best_shields++;
    g[VM_MIL_REACH] = best_shields && lead + best_shields >= 9;
    for (int k = 2; k <= 5; k++) g[VM_SCI_GE + k - 2] = distinct >= k;
    g[VM_SCI_PAIRS] = dc_pop_cards(me->cards & DC_GREEN) + (me->tokens >> DC_T_LAW & 1) - distinct;
    g[VM_SCI_NEW] = sci_new;
    g[VM_SCI_REACH] = distinct >= 5 && sci_new;
    for (int i = 0; i < DC_N_TOKENS; i++) g[VM_TOKEN + i] = me->tokens >> i & 1;
    for (int i = 0; i < DC_N_WONDERS; i++) {
        g[VM_BUILT + i] = me->built >> i & 1;
        g[VM_OWNS + i] = me->wonders >> i & 1;
    }
    static const dc_cards colors[7] = {DC_BROWN, DC_GREY,   DC_BLUE,  DC_GREEN,
                                       DC_YELLOW, DC_RED, DC_PURPLE};
    for (int i = 0; i < 7; i++) g[VM_COLOR + i] = dc_pop_cards(me->cards & colors[i]);
    g[VM_CHAINS] = __builtin_popcount(me->chains);
    int phase = s->phase;
    int mine = phase != DC_GAME_OVER && s->to_move == p;
    g[VM_TO_MOVE] = mine;
    g[VM_PENDING_TOKEN] = mine && (phase == DC_CHOOSE_TOKEN || phase == DC_LIBRARY_CHOOSE ||
                                   phase == DC_LIBRARY_DRAW);
    g[VM_EXTRA_TURN] = mine && s->extra;
    g[VM_PENDING_DESTROY] = mine && (phase == DC_DESTROY || phase == DC_MAUSOLEUM);
    int wonders_now = 0;
    if (phase != DC_GAME_OVER &&
        __builtin_popcount(me->built | s->p[1 - p].built) < DC_MAX_WONDERS_BUILT) {
        for (uint32_t ws = me->wonders & ~me->built; ws; ws &= ws - 1)
            if (dc_wonder_price(s, p, __builtin_ctz(ws)) <= coins) wonders_now++;
    }
    g[VM_NOW + 0] = now_pts;
    g[VM_NOW + 1] = now_shields;
    g[VM_NOW + 2] = now_pair;
    g[VM_NOW + 3] = now_shields && lead + now_shields >= 9;
    g[VM_NOW + 4] = now_sci_win;
    g[VM_NOW + 5] = wonders_now;
    g[VM_WIN_CARDS] = win_cards;
    int taking = mine && (phase == DC_PLAY || phase == DC_REVEAL_CARDS);
    for (int i = 0; i < VM_NOW_COUNT; i++) g[VM_MOVE + i] = taking ? g[VM_NOW + i] : 0;
}

/* d = g(A) - g(B): solvers.features.features. */
static void vm_features(const dc_state *s, int32_t d[VM_FEATURES]) {
    int acc[DC_SLOTS], n = vm_accessible(s, acc);
    int32_t gb[VM_FEATURES];
    vm_player_features(s, 0, acc, n, d);
    vm_player_features(s, 1, acc, n, gb);
    for (int k = 0; k < VM_FEATURES; k++) d[k] -= gb[k];
}

/* The log-odds for A (ValueModel.reference_logit, in the same order of operations). */
static double vm_logit(const vm_weights *w, const dc_state *s) {
    int stage, num, den;
    if (vm_is_setup(s->phase)) {
        stage = 0, num = s->picks, den = 8;
    } else {
        stage = s->age, num = DC_SLOTS - __builtin_popcount(s->present), den = 20;
    }
    int32_t d[VM_FEATURES];
    vm_features(s, d);
    const double *w0 = w->w0[stage], *w1 = w->w1[stage];
    double x0 = 0.0, x1 = 0.0;
    /* no test for d[k] == 0 (the reference skips those terms): adding 0.0 changes no sum, and
     * a loop without branches runs about twice as fast (most d[k] are 0, unpredictably) */
    for (int k = 0; k < VM_FEATURES; k++) {
        x0 += w0[k] * d[k];
        x1 += w1[k] * d[k];
    }
    return x0 + (x1 - x0) * num / den;
}

/* P(A wins) + P(shared)/2: exact at game over, the model's estimate elsewhere. */
static double vm_value(const vm_weights *w, const dc_state *s) {
    if (s->phase == DC_GAME_OVER) return s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    double x = vm_logit(w, s);
    if (x < -30.0) x = -30.0;
    return 1.0 / (1.0 + exp(-x));
}

#endif /* SOLVERS_VALUE_MODEL_H */
