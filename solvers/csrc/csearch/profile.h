/*
 * csearch/profile.h -- the profile counters behind Searcher.stats(): what kind of node, settled
 * how, by cards left. Apart because every search part counts into them while none depends on
 * what the others count; the names here and in Searcher_stats must stay in the same order.
 */
enum {
    ST_DECISION,     /* decision_exact calls (probes excluded) */
    ST_DEC_FIRST,    /* ... that cut off at their first searched move */
    ST_DEC_CUT,      /* ... that cut off at a later move */
    ST_ETC,          /* ... settled by a child's table bound (enhanced transposition cut-off) */
    ST_WIN_NOW,      /* ... settled by a move that wins on the spot */
    ST_CHANCE,       /* chance_exact calls */
    ST_CH_TABLE,     /* ... settled by the outcomes' table bounds */
    ST_CH_STAR2,     /* ... settled by Star2 probes */
    ST_CH_STAR1,     /* ... cut by Star1 */
    ST_PROBES,       /* Star2 probes */
    ST_SMALL,        /* small_search nodes */
    ST_TT_PROBE,     /* table lookups in search_keyed */
    ST_TT_HIT,       /* ... found */
    ST_TT_CUT,       /* ... ended the node */
    ST_BOUND,        /* static bound tried */
    ST_BOUND_CUT,    /* ... and proved a winner */
    ST_RESEARCH,     /* scout: a null-window test that failed (the move searched again) */
    ST_WORK,         /* nodes below decisions searched with the table */
    ST_DECIDED,      /* ... of those whose value came out exactly 0 or 1 */
    ST_EXACT,        /* ... of those whose value came out exact in (0, 1) */
    ST_KINDS
};
#define ST_CARDS 24
#define STAT(c, kind, st) ((c)->stat[kind][dc_pop32((st)->present)]++)
