/*
 * csearch/movepick.h -- the order children are searched in: the depth-limited search's sort
 * (Python's order, node for node) and the history table's index. Apart because move order
 * changes how many nodes a search takes but never a value, and is tuned on its own; the
 * exact solve's own ordering keys live in decision_exact, which computes them from the
 * children it has already generated.
 */
/* Children in search order. Eval ordering: the table move, then by heuristic value of the child
 * (plus a hint of the static score); otherwise the static score with the table move first.
 * Both stable, as Python's sorted(). */
static void order_moves(Ctx *c, const dc_state *st, int32_t *moves, int n, int32_t first,
                        int maximise, int by_eval) {
    double key[DC_MAX_MOVES];
    (void)c;
    if (by_eval) {
        for (int i = 0; i < n; i++) {
            dc_state child = *st;
            dc_apply(&child, moves[i]);
            double k = evaluate(&child) + 0.001 * static_score(moves[i]) * (maximise ? 1 : -1);
            if (moves[i] == first) k = maximise ? 2.0 : -2.0;
            key[i] = maximise ? -k : k; /* ascending sort of key = the wanted order */
        }
    } else {
        for (int i = 0; i < n; i++) key[i] = -static_score(moves[i]);
    }
    for (int i = 1; i < n; i++) { /* stable insertion sort */
        double k = key[i];
        int32_t m = moves[i];
        int j = i - 1;
        while (j >= 0 && key[j] > k) {
            key[j + 1] = key[j];
            moves[j + 1] = moves[j];
            j--;
        }
        key[j + 1] = k;
        moves[j + 1] = m;
    }
    if (!by_eval && first >= 0 && moves[0] != first) {
        for (int i = 1; i < n; i++) {
            if (moves[i] == first) {
                memmove(moves + 1, moves, (size_t)i * sizeof *moves);
                moves[0] = first;
                break;
            }
        }
    }
}

/* History heuristic: moves are credited where they cut, whatever the position (the same card
 * taken the same way tends to be good or bad all over an endgame). */
static inline int hist_index(int32_t move) {
    return (DC_MOVE_KIND(move) & 15) << 11 | (DC_MOVE_A(move) & 15) << 7 | (DC_MOVE_B(move) & 127);
}
