/*
 * xvalue.h -- the learned value of an expansion position, for the expansion MCTS
 * (xmcts_module.c). Include after xcore_legal.c.
 *
 * The features follow the base game's value (solvers/csrc/value_model.h: per-player
 * quantities, taken as A's minus B's, weights per stage of the game) with the expansions' own
 * quantities beside them: Divinities, Mythology and Offering tokens (Pantheon), Senate cubes and
 * control, Conspiracies and Decrees in force (Agora); a feature of an expansion not in play is
 * always 0, so one model serves Pantheon, Agora and both. Every feature is public information
 * or a count of private cards (never which Conspiracy or face-down Divinity), so a referee state
 * and either player's view of it have the same features: the model cannot leak a hidden card.
 *
 *     logit = sum_k W[age - 1][k] * f[k]          value = P(A wins) + P(shared) / 2
 *
 * The weights are not compiled in: solvers/xcmcts.py loads data/models/xvalue.json (written by
 * solvers/xtrain.py) and passes the XV_WEIGHTS numbers to each search, so the JSON file stays
 * the one source of truth; tests/expansions/test_xmcts_value.py checks the names and count.
 */
#ifndef SOLVERS_XVALUE_H
#define SOLVERS_XVALUE_H

#include <math.h>

#define XV_FEATURES(X)                                                                          \
    X(POINTS, "points") X(COINS, "coins") X(SCIENCE, "science") X(SCIENCE_GE5, "science_ge5")   \
    X(WONDERS_BUILT, "wonders_built") X(WONDERS_LEFT, "wonders_left") X(CARDS, "cards")          \
    X(PRODUCTION, "production") X(RED, "red") X(TOKENS, "tokens") X(DIVINITIES, "divinities")    \
    X(MYTHOLOGY, "mythology") X(OFFERINGS, "offerings") X(CHAMBERS, "chambers")                 \
    X(CUBES, "cubes") X(PLOTS, "plots") X(PREPARED, "prepared") X(DECREES, "decrees")           \
    X(PAWN, "pawn") X(PAWN_NEAR, "pawn_near") X(PAWN_HALF, "pawn_half")                         \
    X(TO_MOVE, "to_move") X(BIAS, "bias")
#define XV_ENUM(name, text) XV_##name,
enum { XV_FEATURES(XV_ENUM) XV_N };
#define XV_STAGES 3
#define XV_WEIGHTS (XV_STAGES * XV_N)

typedef struct xv_model {
    double w[XV_STAGES][XV_N];
} xv_model;

/* One player's side: the quantities whose difference the model reads. */
static void xv_player(const dx_state *s, int p, double *g) {
    const dx_city *c = &s->p[p];
    g[XV_POINTS] = dx_total_points(s, p);
    g[XV_COINS] = c->coins;
    int science = dc_pop32(c->science);
    g[XV_SCIENCE] = science;
    g[XV_SCIENCE_GE5] = science >= 5;
    g[XV_WONDERS_BUILT] = dc_pop32(c->built);
    g[XV_WONDERS_LEFT] = dc_pop32(c->wonders);
    g[XV_CARDS] = dc_pop_cards(c->cards);
    g[XV_PRODUCTION] = dc_pop_cards(c->cards & (DX_BROWN | DX_GREY));
    g[XV_RED] = dc_pop_cards(c->cards & DX_RED);
    g[XV_TOKENS] = dc_pop32(c->tokens);
    g[XV_DIVINITIES] = c->n_divinities;
    g[XV_MYTHOLOGY] = c->n_mythology;
    g[XV_OFFERINGS] = dc_pop32(c->offerings);
    int chambers = 0, cubes = 0;
    if (s->expansions & DX_AGORA)
        for (int k = 0; k < 6; k++) {
            chambers += dx_controller(s, k) == p;
            cubes += s->senate[k][p];
        }
    g[XV_CHAMBERS] = chambers;
    g[XV_CUBES] = cubes;
    int plots = 0, prepared = 0;
    for (int k = 0; k < c->n_plots; k++) {
        if (c->plot_flags[k] & DX_PLOT_USED) continue;
        plots++;
        prepared += (c->plot_flags[k] & DX_PLOT_PREPARED) != 0;
    }
    g[XV_PLOTS] = plots;
    g[XV_PREPARED] = prepared;
    g[XV_DECREES] = dc_pop32(s->forces[p]);
}

/* The feature vector f (XV_N numbers, A's side minus B's where per player); returns the stage
 * (0..2: the Age less one, the setup counted as Age I). */
static int xv_features(const dx_state *s, double *f) {
    double a[XV_N] = {0}, b[XV_N] = {0};
    xv_player(s, 0, a);
    xv_player(s, 1, b);
    for (int k = 0; k < XV_PAWN; k++) f[k] = a[k] - b[k];
    f[XV_PAWN] = s->pawn;
    f[XV_PAWN_NEAR] = (s->pawn >= 6) - (s->pawn <= -6);
    f[XV_PAWN_HALF] = (s->pawn >= 3) - (s->pawn <= -3);
    f[XV_TO_MOVE] = s->to_move == 0 ? 1.0 : -1.0;
    f[XV_BIAS] = 1.0;
    return s->age <= 1 ? 0 : s->age >= 3 ? 2 : s->age - 1;
}

/* P(A wins) + P(shared) / 2: exact at the end of the game, else the model. */
static double xv_value(const xv_model *m, const dx_state *s) {
    if (s->phase == DX_GAME_OVER) return s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    double f[XV_N], logit = 0.0;
    int stage = xv_features(s, f);
    for (int k = 0; k < XV_N; k++) logit += m->w[stage][k] * f[k];
    if (logit < -30.0) logit = -30.0;
    if (logit > 30.0) logit = 30.0;
    return 1.0 / (1.0 + exp(-logit));
}

#endif /* SOLVERS_XVALUE_H */
