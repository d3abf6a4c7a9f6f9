/*
 * csearch/searcher.h -- the Searcher object's state (the levers, counters and limits Python reads
 * and sets, the table, the per-thread contexts) and the handing over between it and a thread's
 * Ctx at the start and end of a search. Apart from the CPython glue in csearch_module.c because
 * the thread pool (csearch/threads.h) needs it too, before the glue that calls the pool.
 */
typedef struct {
    PyObject_HEAD
    tt_bucket *tt;
    uint64_t buckets;
    long long memory;
    uint64_t seed;
    int chance_width;
    int chance_samples;
    long long nodes, node_limit, checkpoint;
    double deadline;
    long long cut_count, sampled_count, stores, overwrites;
    int min_depth;
    int generation;
    int null_windows, endgame, etc, use_history, star2, star2_cards, scout, small_cards, bounds;
    int outcome_bounds;
    int abstract, defer_cards, bound_cards, tail_bounds, final_picks, bound_slack, tail_slack;
    int fast_apply;
    long long bound_cuts;
    int threads;  /* threads of an exact solve (1: the calling thread alone) */
    int busy;     /* a search is running (the GIL may be released) */
    int nctx;     /* contexts allocated in ctx */
    long long thread_nodes[MAX_THREADS]; /* the nodes of the threaded searches, per thread */
    Ctx **ctx;
    PyObject *on_progress; /* callable(nodes) or NULL */
} Searcher;

static int alloc_table(Searcher *self, long long memory) {
    uint64_t buckets = (uint64_t)memory / sizeof(tt_bucket);
    tt_bucket *tt = table_alloc(buckets);
    if (!tt) {
        PyErr_NoMemory();
        return -1;
    }
    table_free(self->tt, self->buckets);
    self->tt = tt;
    self->buckets = buckets;
    self->memory = memory;
    return 0;
}

/* The contexts of threads 0..n-1, allocated as needed and kept (their history tables and profile
 * counters carry over from search to search). */
static int ensure_ctx(Searcher *self, int n) {
    if (n <= self->nctx) return 0;
    Ctx **ctx = PyMem_RawRealloc(self->ctx, (size_t)n * sizeof *ctx);
    if (!ctx) {
        PyErr_NoMemory();
        return -1;
    }
    self->ctx = ctx;
    for (; self->nctx < n; self->nctx++) {
        ctx[self->nctx] = PyMem_RawCalloc(1, sizeof(Ctx));
        if (!ctx[self->nctx]) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* Thread `id`'s context for a search: the Searcher's table and levers; the calling thread (0)
 * carries on the Searcher's counters, a helper counts from zero. */
static void ctx_begin(Searcher *self, Ctx *c, int id, Shared *sh) {
    c->tt = self->tt;
    c->buckets = self->buckets;
    c->seed = self->seed;
    c->chance_width = self->chance_width;
    c->chance_samples = self->chance_samples;
    c->node_limit = self->node_limit;
    c->deadline = self->deadline;
    c->generation = self->generation;
    c->null_windows = self->null_windows;
    c->endgame = self->endgame;
    c->etc = self->etc;
    c->use_history = self->use_history;
    c->star2 = self->star2;
    c->star2_cards = self->star2_cards;
    c->outcome_bounds = self->outcome_bounds;
    c->bound_tried = 0;
    c->abstract = self->abstract;
    c->scout = self->scout;
    c->small_cards = self->small_cards;
    c->bounds = self->bounds;
    c->defer_cards = self->defer_cards;
    c->bound_cards = self->bound_cards;
    c->tail_bounds = self->tail_bounds;
    c->bound_slack = self->bound_slack;
    c->tail_slack = self->tail_slack;
    c->final_picks = self->final_picks;
    c->fast_apply = self->fast_apply;
    c->on_progress = self->on_progress;
    c->id = id;
    c->quiet = 0;
    c->sh = sh;
    c->aborted = 0;
    if (id == 0) {
        c->nodes = self->nodes;
        c->checkpoint = self->checkpoint;
        c->cut_count = self->cut_count;
        c->sampled_count = self->sampled_count;
        c->stores = self->stores;
        c->overwrites = self->overwrites;
        c->bound_cuts = self->bound_cuts;
        c->min_depth = self->min_depth;
    } else {
        c->nodes = c->checkpoint = c->cut_count = c->sampled_count = 0;
        c->stores = c->overwrites = c->bound_cuts = 0;
        c->min_depth = INF_DEPTH;
    }
    c->published = c->nodes;
}

/* Back into the Searcher: the calling thread's counters, plus every helper's. */
static void ctx_end(Searcher *self, Ctx *c) {
    if (c->id == 0) {
        self->nodes = c->nodes;
        self->checkpoint = c->sh ? c->nodes : c->checkpoint;
        self->cut_count = c->cut_count;
        self->sampled_count = c->sampled_count;
        self->stores = c->stores;
        self->overwrites = c->overwrites;
        self->bound_cuts = c->bound_cuts;
        self->min_depth = c->min_depth;
    } else {
        self->nodes += c->nodes;
        self->cut_count += c->cut_count;
        self->sampled_count += c->sampled_count;
        self->stores += c->stores;
        self->overwrites += c->overwrites;
        self->bound_cuts += c->bound_cuts;
        if (c->min_depth < self->min_depth) self->min_depth = c->min_depth;
    }
    c->sh = NULL;
}

/* A solve on the calling thread alone (ctx[0]); `quiet`: without the GIL, calling no Python (the
 * MCTS's leaf solves). Returns the context's `aborted` (0: `*value` is the answer). */
static int solve_alone(Searcher *self, const dc_state *st, int depth, double alpha, double beta,
                       int quiet, double *value) {
    Ctx *c = self->ctx[0];
    ctx_begin(self, c, 0, NULL);
    c->quiet = quiet;
    *value = solve(c, st, depth, alpha, beta);
    int aborted = c->aborted;
    ctx_end(self, c);
    return aborted;
}
