/*
 * csearch/common.h -- the few definitions every part of the search reads: the depth that means
 * "exact", the thread cap, the scout's and the smallest window, and a card-set helper. Apart so
 * that each part can be read against one short list instead of the whole module.
 */
#define INF_DEPTH (1 << 20)
#define MAX_THREADS 256
#define SCOUT_EPS 1e-9 /* the width of a scout's null window */

/* Expected values are sums of products, so two searches of one position may bound it by doubles
 * an ulp apart, and a window between them is too narrow for a chance node's sums to tell apart (an
 * empty window makes a fail-high read as a fail-low). A window narrower than MIN_WINDOW is
 * widened to it: that is always sound for a fail-soft search (a value outside the wider window
 * is a bound beyond the narrow one too, a value inside it is exact). */
#define MIN_WINDOW 1e-12
static inline void widen(double *alpha, double *beta) {
    if (*beta - *alpha < MIN_WINDOW) {
        double mid = 0.5 * (*alpha + *beta);
        *alpha = mid - 0.5 * MIN_WINDOW;
        *beta = mid + 0.5 * MIN_WINDOW;
    }
}

static inline int low_card(dc_cards g) { /* the lowest card id in a non-empty set */
    uint64_t lo = (uint64_t)g;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(g >> 64));
}
