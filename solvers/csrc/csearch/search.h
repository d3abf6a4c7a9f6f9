/*
 * csearch/search.h -- the decision and chance nodes of the Python reference (solvers/search.py),
 * node for node: alpha-beta with its move order, the frontier one ply above the horizon, Star1
 * at chance nodes and the sampling rule for wide ones. Apart because hints must stay the
 * reference's algorithm exactly; exact solves use these only where their own nodes do not
 * apply (no legal move, more than STAR2_MAX outcomes, or `endgame` off).
 */
static double decision(Ctx *c, const dc_state *st, int depth, double alpha, double beta,
                       int32_t first, int32_t *best_move) {
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    int maximise = st->to_move == 0;
    int by_eval = n > 1 && depth >= 3 &&
                  (depth < INF_DEPTH / 2 || dc_pop32(st->present) >= 7);
    if (n > 1) order_moves(c, st, moves, n, first, maximise, by_eval);
    double best = maximise ? -1.0 : 2.0;
    *best_move = -1;
    for (int i = 0; i < n; i++) {
        dc_state child = *st;
        dc_apply(&child, moves[i]);
        double v = search(c, &child, depth - 1, alpha, beta);
        if (c->aborted) return 0.0;
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
    return best;
}

/* A decision one ply above the horizon: its children are evaluated in place. */
static double frontier(Ctx *c, const dc_state *st, double alpha, double beta,
                       int32_t *best_move) {
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    int maximise = st->to_move == 0;
    double best = maximise ? -1.0 : 2.0;
    *best_move = -1;
    c->cut_count++;
    int count = 0;
    for (int i = 0; i < n; i++) {
        count++;
        dc_state child = *st;
        dc_apply(&child, moves[i]);
        double v = evaluate(&child);
        if (maximise) {
            if (v > best) {
                best = v;
                *best_move = moves[i];
                if (v >= beta) break;
            }
        } else if (v < best) {
            best = v;
            *best_move = moves[i];
            if (v <= alpha) break;
        }
    }
    c->nodes += count;
    if (c->nodes >= c->checkpoint) tick(c);
    return best;
}

/* A sampled chance node: `chance_samples` draws, each following the chance nodes that come
 * next to a decision; distinct results with their frequencies, most frequent first. */
typedef struct {
    dc_state child;
    int count;
} drawn_child;

static int sample_outcomes(Ctx *c, const dc_state *st, uint64_t key, drawn_child *out) {
    dc_rng rng;
    dc_rng_seed(&rng, key ^ (c->seed * 0x9e3779b97f4a7c15ull) ^ 0x5bd1e995ull);
    int distinct = 0;
    for (int i = 0; i < c->chance_samples; i++) {
        dc_state child = *st;
        while (dc_is_chance(&child)) dc_apply(&child, dc_sample_chance(&child, &rng));
        int j;
        for (j = 0; j < distinct; j++) {
            if (dc_state_equal(&out[j].child, &child)) {
                out[j].count++;
                break;
            }
        }
        if (j == distinct) {
            out[distinct].child = child;
            out[distinct].count = 1;
            distinct++;
        }
    }
    for (int i = 1; i < distinct; i++) { /* stable: by decreasing count */
        drawn_child d = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].count < d.count) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = d;
    }
    return distinct;
}

#define MAX_SAMPLES 64

static double chance(Ctx *c, const dc_state *st, int depth, double alpha, double beta,
                     uint64_t key) {
    int32_t moves[DC_MAX_OUTCOMES];
    int64_t weights[DC_MAX_OUTCOMES];
    int64_t total = 0;
    int n = dc_chance_outcomes(st, moves, weights, &total);
    double acc = 0.0, rest = 1.0;
    if (c->chance_width >= 0 && n > c->chance_width) {
        drawn_child drawn[MAX_SAMPLES];
        int k = sample_outcomes(c, st, key, drawn);
        c->sampled_count++;
        for (int i = 0; i < k; i++) {
            double p = (double)drawn[i].count / c->chance_samples;
            rest -= p;
            if (rest < 1e-12) rest = 0.0;
            double a_i = (alpha - acc - rest) / p, b_i = (beta - acc) / p;
            double v = search(c, &drawn[i].child, depth, a_i > 0.0 ? a_i : 0.0,
                              b_i < 1.0 ? b_i : 1.0);
            if (c->aborted) return 0.0;
            acc += p * v;
            if (v <= a_i) return acc + rest;
            if (v >= b_i) return acc;
        }
        return acc;
    }
    /* Most probable first, ties by move code (Python: sorted by (-weight, move)). Outcomes come
     * in move-code order, so equal weights (every reveal with guild backs) need no sort. */
    int equal = 1;
    for (int i = 1; i < n && equal; i++) equal = weights[i] == weights[0];
    if (!equal) {
        for (int i = 1; i < n; i++) {
            int32_t m = moves[i];
            int64_t w = weights[i];
            int j = i - 1;
            while (j >= 0 && (weights[j] < w || (weights[j] == w && moves[j] > m))) {
                moves[j + 1] = moves[j];
                weights[j + 1] = weights[j];
                j--;
            }
            moves[j + 1] = m;
            weights[j + 1] = w;
        }
    }
    /* Star1 in weight units: acc = sum of weight * value, rest = weight not searched yet (an
     * integer, exact). A node whose outcomes are all won (lost) then gets exactly 1 (0), which
     * the win/loss tests of the root rely on. */
    const double t = (double)total;
    double lo_w = alpha * t, hi_w = beta * t, acc_w = 0.0, rest_w = t;
    for (int i = 0; i < n; i++) {
        double w = (double)weights[i];
        rest_w -= w;
        double a_i = (lo_w - acc_w - rest_w) / w, b_i = (hi_w - acc_w) / w;
        dc_state child = *st;
        dc_apply(&child, moves[i]);
        double v = search(c, &child, depth, a_i > 0.0 ? a_i : 0.0, b_i < 1.0 ? b_i : 1.0);
        if (c->aborted) return 0.0;
        acc_w += w * v;
        if (v <= a_i) return (acc_w + rest_w) / t;
        if (v >= b_i) return acc_w / t;
    }
    return acc_w / t;
}
