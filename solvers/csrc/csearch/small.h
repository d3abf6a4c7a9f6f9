/*
 * csearch/small.h -- the last cards of an exact solve (small_cards, 3): alpha-beta and Star1
 * without the table, moves generated and priced lazily, the static bound's first look first.
 * Apart because these nodes are most of a solve and take the opposite trade-offs of those
 * above them: no hashing, no table, no ordering beyond the generator's.
 */
/* small_search of a game that is over, without the call: the node counted as it counts it. Most
 * of the tail's nodes are these (a 14-card solve: 30M of 89M). */
static inline double small_end(Ctx *c, const dc_state *st) {
    c->nodes++;
    STAT(c, ST_SMALL, st);
    if (c->nodes >= c->checkpoint) {
        tick(c);
        if (c->aborted) return 0.0;
    }
    return terminal_value(st);
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
            if (b_i <= 0.0) return fail_high(acc_w / t, beta);
            if (a_i >= 1.0) return fail_low((acc_w + w + rest_w) / t, alpha);
            dc_state child = *st;
            dc_apply(&child, moves[i]);
            double v = small_search(c, &child, a_i > 0.0 ? a_i : 0.0, b_i < 1.0 ? b_i : 1.0);
            if (c->aborted) return 0.0;
            acc_w += w * v;
            if (v <= a_i) return fail_low((acc_w + rest_w) / t, alpha);
            if (v >= b_i) return fail_high(acc_w / t, beta);
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
    /* One child, made by `apply` from a copy of st: 1 if it ends the node (a cut-off, or an
     * abort) */
#define SMALL_CHILD_BY(apply)                                                                      \
    do {                                                                                           \
        dc_state child = *st;                                                                      \
        apply;                                                                                     \
        double v = child.phase == DC_GAME_OVER ? small_end(c, &child)                              \
                                               : small_search(c, &child, alpha, beta);             \
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
#define SMALL_CHILD(move) SMALL_CHILD_BY(apply_move(&c->prices, c->fast_apply, &child, (move)))
    if (st->phase == DC_PLAY) {
        /* dc_legal_moves' moves in its order, each priced only when its turn comes: most nodes
         * here end at their first move, and the wonders' prices are then never needed */
        const int coins = st->p[me].coins;
        int32_t wonder_codes[DC_N_WONDERS];
        int nw = -1;
        for (uint32_t acc = st->accessible; acc; acc &= acc - 1) {
            int card = st->pyramid[__builtin_ctz(acc)];
            int price = card_price(&c->prices, st, me, card);
            if (price <= coins) {
                if (c->fast_apply) SMALL_CHILD_BY(apply_build_priced(&child, card, price));
                else SMALL_CHILD_BY(dc_apply(&child, DC_MOVE(DC_BUILD, 0, card)));
            }
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
#undef SMALL_CHILD_BY
    return best;
}
