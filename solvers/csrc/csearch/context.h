/*
 * csearch/context.h -- what one thread searches with (Ctx: the table, the levers, its counters,
 * limits, history and profile) and what the threads of one solve share (Shared: the stop flag
 * and the marks of nodes being searched), with the tick that checks limits, progress and
 * Ctrl-C. Apart because every search function takes a Ctx, and besides the position, the
 * window and the table's entries this is all a node reads or changes.
 */
typedef struct tt_bucket tt_bucket; /* csearch/tt.h */
typedef struct Shared Shared;

/* Everything a search function reads or counts: the table and the levers (copied from the
 * Searcher when a search starts), and the thread's own counters, limits, history and profile.
 * The Searcher keeps one per thread (ctx[0] is the calling thread's) from search to search, so a
 * single-threaded searcher's history carries over exactly as before. */
typedef struct {
    tt_bucket *tt;
    uint64_t buckets; /* memory / sizeof(tt_bucket): the whole budget, not a power of two */
    uint64_t seed;
    int chance_width; /* -1: never sample */
    int chance_samples;
    long long nodes, node_limit, checkpoint;
    long long published; /* its node count as of its last tick (read by the other threads) */
    double deadline;     /* monotonic seconds, < 0: none */
    long long cut_count, sampled_count, stores, overwrites;
    int min_depth;
    int generation;
    int aborted;      /* 1: a limit or another thread stopped it, 2: a Python error is set */
    int null_windows; /* exact solves start with the win and loss tests (solve) */
    int endgame;      /* exact solves use decision_exact (ETC, win scan, history) */
    int etc, use_history, star2, scout;
    int star2_cards; /* Star2 probes only at chance nodes with at least this many cards left */
    int outcome_bounds; /* chance nodes with at least this many cards bound each new outcome first (0: off) */
    uint64_t bound_tried; /* the key of an outcome the bound has just failed on (not tried again) */
    int small_cards; /* exact solves: at most this many cards left, small_search */
    int bounds;      /* exact solves: static_winner() ends a decided line (2: with uses_best) */
    int defer_cards; /* threads: defer moves to children with this many cards that are busy */
    int bound_cards; /* exact solves: small_search tries static_winner() from this many cards */
    int tail_bounds; /* ... at this level (see surely_wins) */
    int bound_slack, tail_slack; /* static_winner's pre-test margin: in the table, in small_search */
    int final_picks; /* exact solves: Mausoleum picks that another card beats are skipped (prune_picks) */
    int abstract;    /* exact solves: the table keyed by exact_key() */
    int fast_apply;  /* exact solves: builds and discards applied by csearch/apply.h */
    long long bound_cuts;
    int id;          /* 0: the calling thread, 1..: helpers */
    int quiet;       /* 1: runs without the GIL and calls no Python (leaf solves of the MCTS) */
    Shared *sh;      /* NULL in a single-threaded search */
    PyObject *on_progress; /* callable(nodes) or NULL (borrowed from the Searcher) */
    uint32_t history[2][1 << 15]; /* per player, by hist_index(move): cut-off credit */
    long long stat[ST_KINDS][ST_CARDS]; /* profile counters by kind and cards left (stats()) */
    price_cache prices;
} Ctx;

/* What the threads of one solve share besides the table. */
#define BUSY_SLOTS 4096
struct Shared {
    int stop;         /* atomic: set when the search ends, every thread stops at its next tick */
    int done;         /* atomic: a helper finished first, its answer is `value` */
    double value;
    int threads;
    Ctx **ctx;
    PyThreadState *saved; /* the main thread's, while it runs without the GIL */
    uint64_t busy[BUSY_SLOTS]; /* keys of nodes being searched (atomic; 0: free), see defer */
};

static inline int busy_mark(Shared *sh, uint64_t key) {
    uint64_t expected = 0;
    return key && __atomic_compare_exchange_n(&sh->busy[key & (BUSY_SLOTS - 1)], &expected, key, 0,
                                              __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static inline void busy_clear(Shared *sh, uint64_t key) {
    __atomic_store_n(&sh->busy[key & (BUSY_SLOTS - 1)], 0, __ATOMIC_RELAXED);
}

static inline int busy_elsewhere(const Shared *sh, uint64_t key) {
    return __atomic_load_n(&sh->busy[key & (BUSY_SLOTS - 1)], __ATOMIC_RELAXED) == key;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Limits, progress and Ctrl-C, every 1024 nodes. Sets `aborted` (2: a Python error is set).
 * With threads, every thread publishes its node count at its tick and checks the limits against
 * the sum (so a limit holds within about 2 x 1024 nodes per thread even when the main thread is
 * descheduled); only the main thread (id 0) calls into Python, taking the GIL back for that. A
 * thread that stops raises the shared `stop` flag, which the others read at their next tick. */
static void tick(Ctx *c) {
    Shared *sh = c->sh;
    long long total = c->nodes;
    if (sh) {
        if (__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
            c->aborted = 1;
            return;
        }
        __atomic_store_n(&c->published, c->nodes, __ATOMIC_RELAXED);
        for (int i = 0; i < sh->threads; i++)
            if (sh->ctx[i] != c) total += __atomic_load_n(&sh->ctx[i]->published, __ATOMIC_RELAXED);
    }
    if ((c->node_limit >= 0 && total >= c->node_limit) ||
        (c->deadline >= 0 && now_seconds() > c->deadline)) {
        c->aborted = 1;
    } else if (!c->quiet && (!sh || c->id == 0)) {
        if (sh) PyEval_RestoreThread(sh->saved);
        if (PyErr_CheckSignals() < 0) {
            c->aborted = 2;
        } else if (c->on_progress && c->on_progress != Py_None) {
            PyObject *r = PyObject_CallFunction(c->on_progress, "L", total);
            if (!r) c->aborted = 2;
            else Py_DECREF(r);
        }
        if (sh) sh->saved = PyEval_SaveThread();
    }
    if (c->aborted) {
        if (sh) __atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
        return;
    }
    c->checkpoint = c->nodes + 1024;
    if (c->node_limit >= 0 && c->nodes + (c->node_limit - total) < c->checkpoint)
        c->checkpoint = c->nodes + (c->node_limit - total);
}
