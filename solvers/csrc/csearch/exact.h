/*
 * csearch/exact.h -- the decision and chance nodes of an exact solve (no horizon anywhere):
 * children generated and hashed once, a win on the spot, enhanced transposition cut-offs,
 * history ordering, scout windows and deferral to other threads at decisions; the table's
 * bounds, Star2 probes and Star1 at chance nodes. Apart from csearch/search.h because these are
 * the levers beyond the Python reference, each a switch that tests turn off; hints never get here.
 */
/* A decision node of an exact solve (no horizon below). Before searching any child it
 *   - generates every child once (hashed once, reused by the recursion),
 *   - returns at once if a move ends the game with the mover winning (nothing beats it),
 *   - probes every child in the table (enhanced transposition cut-off: one child's stored bound
 *     may already refute the window),
 * then searches the table move first, then by the heuristic value of the child (near the root,
 * at least 7 cards left: Python's order) or by history and static score (deeper). */
static double decision_exact(Ctx *c, const dc_state *st, int depth, double alpha,
                             double beta, int32_t first, int32_t *best_move, int probe) {
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    if (n == 0) return decision(c, st, depth, alpha, beta, first, best_move);
    n = skip_beaten(c, st, moves, n);
    int me = st->to_move, maximise = me == 0;
    dc_state kids[n];
    uint64_t keys[n];
    double key[n];
    int order[n];
    *best_move = -1;
    for (int i = 0; i < n; i++) {
        kids[i] = *st;
        apply_move(&c->prices, c->fast_apply, &kids[i], moves[i]);
        if (kids[i].phase == DC_GAME_OVER) {
            keys[i] = 0;
            if (kids[i].winner == me) {
                c->nodes++;
                if (!probe) STAT(c, ST_WIN_NOW, st);
                *best_move = moves[i];
                return maximise ? 1.0 : 0.0;
            }
            continue;
        }
        /* children solved without the table (small_search) need no key and have no entry */
        if (dc_pop32(kids[i].present) <= c->small_cards) {
            keys[i] = 0;
            continue;
        }
        keys[i] = table_key(c, &kids[i], INF_DEPTH);
        tt_prefetch(c, keys[i]);
    }
    if (c->etc) {
        for (int i = 0; i < n; i++) {
            if (kids[i].phase == DC_GAME_OVER || !keys[i]) continue;
            tt_entry e;
            if (!tt_find(c, keys[i], &e) || entry_depth(&e) < depth - 1) continue;
            if (maximise ? e.lo >= beta : e.hi <= alpha) {
                c->nodes++;
                if (!probe) STAT(c, ST_ETC, st);
                *best_move = moves[i];
                return maximise ? e.lo : e.hi;
            }
        }
    }
    int by_eval = n > 1 && dc_pop32(st->present) >= 7;
    const uint32_t *hist = c->history[me];
    for (int i = 0; i < n; i++) {
        double k;
        if (moves[i] == first) k = 1e30;
        else if (by_eval) {
            double v = evaluate(&kids[i]);
            k = (maximise ? v : 1.0 - v) + 0.001 * static_score(moves[i]);
        } else k = (c->use_history ? (double)hist[hist_index(moves[i])] * 64.0 : 0.0) +
                   static_score(moves[i]);
        key[i] = k;
        order[i] = i;
    }
    for (int i = 1; i < n; i++) { /* stable insertion sort, best first */
        int o = order[i];
        int j = i - 1;
        while (j >= 0 && key[order[j]] < key[o]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = o;
    }
    double best = maximise ? -1.0 : 2.0;
    int cards = dc_pop32(st->present);
    if (!probe) STAT(c, ST_DECISION, st);
    /* Threads: a later move whose child another thread is searching right now is deferred to
     * the end (simplified ABDADA), so the threads spread over the moves instead of searching
     * the same subtree side by side; by the time it comes round its value is often in the table. */
    int deferred[n], nd = 0;
    for (int step = 0; step < n + nd; step++) {
        int r = step < n ? step : deferred[step - n];
        int i = order[r];
        if (c->sh && step < n && r > 0 && !probe && keys[i] &&
            dc_pop32(kids[i].present) >= c->defer_cards && busy_elsewhere(c->sh, keys[i])) {
            deferred[nd++] = r;
            continue;
        }
        int small = dc_pop32(kids[i].present) <= c->small_cards;
        double v;
        /* Scout: after the first move, a null window asks only "does this move beat the best so
         * far?"; that is cheap (chance nodes below cut at once) and the answer is nearly always
         * no. A move that does beat it is searched again with the full window. */
        if (r > 0 && c->scout && beta - alpha > 4 * SCOUT_EPS) {
            double a = maximise ? alpha : beta - SCOUT_EPS, b = maximise ? alpha + SCOUT_EPS : beta;
            v = small ? small_search(c, &kids[i], a, b)
                      : search_keyed(c, &kids[i], keys[i], depth - 1, a, b);
            if (c->aborted) return 0.0;
            if (maximise ? v >= b : v <= a) {
                c->stat[ST_RESEARCH][cards]++;
                v = small ? small_search(c, &kids[i], alpha, beta)
                          : search_keyed(c, &kids[i], keys[i], depth - 1, alpha, beta);
            }
        } else
            v = small ? small_search(c, &kids[i], alpha, beta)
                      : search_keyed(c, &kids[i], keys[i], depth - 1, alpha, beta);
        if (c->aborted) return 0.0;
        if (probe) return v; /* Star2 probe: the first move's value bounds the node */
        if (maximise ? v >= beta : v <= alpha) c->stat[r ? ST_DEC_CUT : ST_DEC_FIRST][cards]++;
        if (maximise) {
            if (v > best) {
                best = v;
                *best_move = moves[i];
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            *best_move = moves[i];
            if (v < beta) {
                beta = v;
                if (v <= alpha) break;
            }
        }
    }
    if (*best_move >= 0 && n > 1) {
        uint32_t *h = &c->history[me][hist_index(*best_move)];
        uint32_t credit = (uint32_t)(cards * cards);
        *h = *h + credit < *h ? UINT32_MAX : *h + credit;
    }
    return best;
}

/* A chance node of an exact solve (every outcome enumerated): Star2. Each outcome starts with
 * the bounds [L, U] the table holds for it (exact for a terminal, else [0, 1]); their weighted
 * sums may already decide the node. Then, where it can, each outcome that is a decision node is
 * probed: only its first move is searched, which bounds it from one side (below for A to move,
 * above for B) -- enough to refute the node when the opponent's alternative was better. Last,
 * Star1 searches the outcomes with windows derived from the other outcomes' bounds. */
#define STAR2_MAX 64

static double chance_exact(Ctx *c, const dc_state *st, int depth, double alpha, double beta,
                           uint64_t key) {
    int32_t moves[DC_MAX_OUTCOMES];
    int64_t weights[DC_MAX_OUTCOMES];
    int64_t total = 0;
    int n = dc_chance_outcomes(st, moves, weights, &total);
    if (n > STAR2_MAX) return chance(c, st, depth, alpha, beta, key);
    dc_state kids[n];
    uint64_t keys[n];
    double lo[n], hi[n];
    const double t = (double)total, alpha_w = alpha * t, beta_w = beta * t;
    double sum_lo = 0.0, sum_hi = 0.0;
    for (int i = 0; i < n; i++) {
        kids[i] = *st;
        dc_apply(&kids[i], moves[i]);
        /* terminal and small (small_search) outcomes have no table entry to look up */
        if (kids[i].phase == DC_GAME_OVER || dc_pop32(kids[i].present) <= c->small_cards) {
            keys[i] = 0;
        } else {
            keys[i] = table_key(c, &kids[i], INF_DEPTH);
            tt_prefetch(c, keys[i]);
        }
    }
    int fresh[n]; /* outcomes with no table entry yet: the static bound was never tried there */
    for (int i = 0; i < n; i++) {
        double w = (double)weights[i];
        fresh[i] = 0;
        if (kids[i].phase == DC_GAME_OVER) {
            lo[i] = hi[i] = terminal_value(&kids[i]);
        } else {
            tt_entry e;
            int found = keys[i] && tt_find(c, keys[i], &e);
            if (found && entry_depth(&e) >= depth) {
                lo[i] = e.lo;
                hi[i] = e.hi;
            } else {
                lo[i] = 0.0;
                hi[i] = 1.0;
                fresh[i] = keys[i] && !found;
            }
        }
        sum_lo += w * lo[i];
        sum_hi += w * hi[i];
    }
    STAT(c, ST_CHANCE, st);
    if (sum_lo >= beta_w || sum_hi <= alpha_w) {
        STAT(c, ST_CH_TABLE, st);
        return sum_lo >= beta_w ? fail_high(sum_lo / t, beta) : fail_low(sum_hi / t, alpha);
    }
    /* The static bound on every new outcome first (outcome_bounds): an outcome it proves is
     * known exactly (0 or 1) before any other is probed or searched, so their windows are
     * narrower from the start; one it fails on is not bounded again when searched (bound_tried). */
    uint64_t failed[n];
    int any_failed = 0;
    for (int i = 0; i < n; i++) failed[i] = 0;
    if (c->outcome_bounds && c->bounds && dc_pop32(st->present) >= c->outcome_bounds) {
        for (int i = 0; i < n; i++) {
            if (!fresh[i]) continue;
            int winner = static_winner(&kids[i], &c->prices, c->bounds, c->bound_slack);
            STAT(c, ST_BOUND, &kids[i]);
            if (winner < 0) {
                failed[i] = keys[i];
                any_failed = 1;
                continue;
            }
            c->nodes++;
            double v = bound_proved(c, &kids[i], keys[i], winner), w = (double)weights[i];
            sum_lo += w * (v - lo[i]);
            sum_hi -= w * (hi[i] - v);
            lo[i] = hi[i] = v;
            if (sum_lo >= beta_w || sum_hi <= alpha_w) {
                STAT(c, ST_CH_TABLE, st);
                return sum_lo >= beta_w ? fail_high(sum_lo / t, beta) : fail_low(sum_hi / t, alpha);
            }
        }
    }
    if (c->star2 && dc_pop32(st->present) >= c->star2_cards) {
        for (int i = 0; i < n; i++) {
            const dc_state *k = &kids[i];
            if (k->phase == DC_GAME_OVER || dc_is_chance(k) || lo[i] >= hi[i]) continue;
            double w = (double)weights[i];
            tt_entry e;
            int32_t first = keys[i] && tt_find(c, keys[i], &e) ? e.move : -1, unused;
            if (k->to_move == 0) { /* a lower bound from A's first move */
                double need = (beta_w - (sum_lo - w * lo[i])) / w;
                if (need > 1.0 || need <= lo[i]) continue; /* (an empty window: rounding) */
                c->nodes++;
                STAT(c, ST_PROBES, st);
                double v = decision_exact(c, k, depth, lo[i], need, first, &unused, 1);
                if (c->aborted) return 0.0;
                if (v > lo[i]) {
                    sum_lo += w * (v - lo[i]);
                    lo[i] = v;
                    if (sum_lo >= beta_w) {
                        STAT(c, ST_CH_STAR2, st);
                        return fail_high(sum_lo / t, beta);
                    }
                }
            } else { /* an upper bound from B's first move */
                double need = (alpha_w - (sum_hi - w * hi[i])) / w;
                if (need < 0.0 || need >= hi[i]) continue;
                c->nodes++;
                STAT(c, ST_PROBES, st);
                double v = decision_exact(c, k, depth, need, hi[i], first, &unused, 1);
                if (c->aborted) return 0.0;
                if (v < hi[i]) {
                    sum_hi -= w * (hi[i] - v);
                    hi[i] = v;
                    if (sum_hi <= alpha_w) {
                        STAT(c, ST_CH_STAR2, st);
                        return fail_low(sum_hi / t, alpha);
                    }
                }
            }
        }
    }
    /* Star1 with the bounds: rest_lo/rest_hi are the bounds of the outcomes not searched yet.
     * Threads: an outcome another thread is searching right now waits for the end (as at
     * decision nodes); the exact value is then summed again in outcome order, so that it is the
     * same double whatever order the outcomes were searched in. */
    double acc_w = 0.0, rest_lo = sum_lo, rest_hi = sum_hi;
    int deferred[n], nd = 0;
    for (int step = 0; step < n + nd; step++) {
        int i = step < n ? step : deferred[step - n];
        if (c->sh && step < n && lo[i] < hi[i] && keys[i] &&
            dc_pop32(kids[i].present) >= c->defer_cards && busy_elsewhere(c->sh, keys[i])) {
            deferred[nd++] = i;
            continue;
        }
        double w = (double)weights[i];
        rest_lo -= w * lo[i];
        rest_hi -= w * hi[i];
        if (lo[i] >= hi[i]) { /* known exactly */
            acc_w += w * lo[i];
            continue;
        }
        double a_i = (alpha_w - acc_w - rest_hi) / w, b_i = (beta_w - acc_w - rest_lo) / w;
        /* Rounding may leave the outcomes' bounds deciding the node before this one is searched
         * (its window would be empty, and an empty window makes a fail-high read as a fail-low):
         * then the bounds are the answer. */
        if (b_i <= lo[i]) return fail_high((acc_w + w * lo[i] + rest_lo) / t, beta);
        if (a_i >= hi[i]) return fail_low((acc_w + w * hi[i] + rest_hi) / t, alpha);
        double a = a_i > 0.0 ? a_i : 0.0, b = b_i < 1.0 ? b_i : 1.0;
        if (any_failed) c->bound_tried = failed[i];
        double v = dc_pop32(kids[i].present) <= c->small_cards
                       ? small_search(c, &kids[i], a, b)
                       : search_keyed(c, &kids[i], keys[i], depth, a, b);
        if (c->aborted) return 0.0;
        acc_w += w * v;
        if (v <= a_i || v >= b_i) {
            STAT(c, ST_CH_STAR1, st);
            return v <= a_i ? fail_low((acc_w + rest_hi) / t, alpha) : fail_high((acc_w + rest_lo) / t, beta);
        }
        lo[i] = hi[i] = v; /* exact */
    }
    if (nd) {
        acc_w = 0.0;
        for (int i = 0; i < n; i++) acc_w += (double)weights[i] * lo[i];
    }
    return acc_w / t;
}
