/*
 * csearch/node.h -- every node's entry: search() and search_keyed() (the table's probe and
 * cut-off, the static bound, the dispatch to a node kind, the store) and the root's questions
 * (top, solve: the win and loss tests first). Apart because it is the one place that decides
 * which kind of node a position is searched as and what the table learns from it.
 */
/* The static bound proved `winner` the winner of st: store the proof (with a move it allows: the
 * winner discards) and return its value. */
static double bound_proved(Ctx *c, const dc_state *st, uint64_t key, int winner) {
    STAT(c, ST_BOUND_CUT, st);
    c->bound_cuts++;
    double value = winner == 0 ? 1.0 : 0.0;
    int32_t best_move = -1;
    if (st->phase == DC_PLAY && st->accessible) {
        /* dc_legal_moves' first move (the first card's build if affordable, else its discard)
         * or first discard, without generating and pricing them all */
        int me = st->to_move, card = st->pyramid[__builtin_ctz(st->accessible)];
        best_move = DC_MOVE(DC_DISCARD, 0, card);
        if (me != winner && card_price(&c->prices, st, me, card) <= st->p[me].coins)
            best_move = DC_MOVE(DC_BUILD, 0, card);
    } else if (!dc_is_chance(st)) {
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
    /* (an outcome that chance_exact has just bounded in vain is not bounded again) */
    int tried = c->bound_tried == key;
    c->bound_tried = 0;
    if (depth >= INF_DEPTH / 2 && c->bounds && !(had && e_lo == e_hi) && !tried) {
        int winner = static_winner(st, &c->prices, c->bounds, c->bound_slack);
        STAT(c, ST_BOUND, st);
        if (winner >= 0) return bound_proved(c, st, key, winner);
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
