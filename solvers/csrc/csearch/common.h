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

/* A chance node's bound on the side its window failed on. Its weighted sums are rounded, so a
 * bound that proves "at most alpha" may come out an ulp above alpha (or "at least beta" an ulp
 * below beta) -- and a value inside the window reads as exact: the table then keeps it as the
 * node's value (a 6-card reveal worth 0 was stored as worth 0.9 so in a 16-card solve). The
 * result goes to the window's edge instead. */
static inline double fail_low(double bound, double alpha) { return bound <= alpha ? bound : alpha; }
static inline double fail_high(double bound, double beta) { return bound >= beta ? bound : beta; }

static inline int low_card(dc_cards g) { /* the lowest card id in a non-empty set */
    uint64_t lo = (uint64_t)g;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(g >> 64));
}
