/*
 * xpolicy.h -- the playout policy of the expansion MCTS and the prior it gives the tree
 * (xmcts_module.c). Include after xcore_legal.c.
 *
 * MCTS-BR's plan policy of the base game (solvers/csrc/rollout.h, ROLLOUT_POLICY_KIND: a Wonder
 * with probability 1/2, a build 0.35, a discard 0.15, uniformly among the legal moves of that
 * kind) extended to the expansions' decisions of the play phase: activating a Divinity weighs as
 * much as a build (it is a card's worth of effect for coins), and Agora's extra actions of a turn
 * (Conspiracies prepared or triggered) 0.15 as a discard. A decision outside the play phase (a
 * Senate step, a Divinity's effect, a token) is uniform among its legal moves, as it was.
 *
 * The prior of an arm is the policy's probability of its move, so PUCT spends its first visits
 * where the playouts would.
 */
#ifndef SOLVERS_XPOLICY_H
#define SOLVERS_XPOLICY_H

enum { XP_WONDER, XP_BUILD, XP_DISCARD, XP_ACTIVATE, XP_OTHER, XP_N_CLASSES };
static const double XP_WEIGHT[XP_N_CLASSES] = {0.5, 0.35, 0.15, 0.35, 0.15};

static inline int xp_class(int32_t m) {
    switch (DX_KIND(m)) {
    case DX_K_WONDER: return XP_WONDER;
    case DX_K_BUILD: return XP_BUILD;
    case DX_K_DISCARD: return XP_DISCARD;
    case DX_K_ACTIVATE: return XP_ACTIVATE;
    default: return XP_OTHER;
    }
}

/* The policy's probability of each of the n legal moves (the tree's prior). */
static void xp_probabilities(const dx_state *s, const int32_t *moves, int n, double *out) {
    if (s->phase != DX_PLAY) {
        for (int i = 0; i < n; i++) out[i] = 1.0 / n;
        return;
    }
    int count[XP_N_CLASSES] = {0};
    for (int i = 0; i < n; i++) count[xp_class(moves[i])]++;
    double total = 0.0;
    for (int k = 0; k < XP_N_CLASSES; k++) total += count[k] ? XP_WEIGHT[k] : 0.0;
    for (int i = 0; i < n; i++) {
        int k = xp_class(moves[i]);
        out[i] = XP_WEIGHT[k] / (total * count[k]);
    }
}

static inline double xp_unit(dc_rng *rng) {
    return (double)(dc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* The policy's move at a decision (a play phase's moves are listed and classed; any other
 * decision is the core's uniform random move). */
static int32_t xp_move(const dx_state *s, dc_rng *rng) {
    if (s->phase != DX_PLAY) return dx_random_move(s, rng);
    int32_t moves[DX_MAX_MOVES];
    int n = dx_legal_moves(s, moves);
    if (n <= 0) return -1;
    double p[DX_MAX_MOVES];
    xp_probabilities(s, moves, n, p);
    double x = xp_unit(rng);
    for (int i = 0; i < n; i++) {
        x -= p[i];
        if (x < 0) return moves[i];
    }
    return moves[n - 1];
}

/* Plays `plies` decisions by the policy (chance sampled with the state's own probabilities;
 * plies < 0: to the end of the game). Returns 1 if the game is over. */
static int xp_playout(dx_state *s, dc_rng *rng, int plies) {
    for (int done = 0; s->phase != DX_GAME_OVER; ) {
        if (dx_is_chance(s)) {
            int32_t m = dx_sample_chance(s, rng);
            if (m < 0) return 0;
            dx_apply(s, m);
            continue;
        }
        if (plies >= 0 && done >= plies) return 0;
        int32_t m = xp_move(s, rng);
        if (m < 0) return 0;
        dx_apply(s, m);
        done++;
    }
    return 1;
}

#endif /* SOLVERS_XPOLICY_H */
