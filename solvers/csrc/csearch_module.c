/*
 * solvers._csearch -- the expectiminimax of solvers/search.py, compiled.
 *
 * The Python Searcher (solvers/search.py) is the reference: this mirrors its recursive search
 * node for node (alpha-beta, Star1 at chance nodes, the same move ordering, the same sampling
 * rule for wide chance nodes, the hand-made evaluation of `_margin`), on the C engine of
 * duel/csrc (compiled in as a unity build). What differs, on purpose:
 *
 *   - the transposition table is a fixed array of 64-byte buckets of two 32-byte entries, sized
 *     from the memory budget, keyed by the 64-bit hash of the state (dc_state_hash). A full
 *     bucket replaces its less valuable entry (exact entries, then those of the current
 *     iteration, then the deeper ones are kept) -- the same priorities as the Python table.
 *     A 64-bit key can collide: with 10^7 entries about one lookup in 10^12 would read another
 *     position's bounds; the solver accepts that risk, as chess engines do.
 *   - a sampled chance node draws its sample from a generator seeded by (seed, state hash) on
 *     every visit instead of caching it: the same node still always gets the same sample.
 *
 * Exact solves (depth >= INF_DEPTH / 2, no cut-off anywhere) go further than the reference, each
 * lever a switch on the Searcher object (tests/test_csearch.py turns each off and compares):
 *   - null_windows: the root first asks "does A surely win?" and "does A surely lose?" (solve);
 *   - endgame: decision_exact (children generated and hashed once, a move that wins on the spot
 *     ends the node, etc: probing the children in the table, use_history: history ordering
 *     below 7 cards) and chance_exact (children's table bounds first, star2: probing);
 *   - small_cards: the last cards (3) without the table (small_search);
 *   - final_picks: The Mausoleum's pick skips the cards another card of the pile beats
 *     (prune_picks);
 *   - bounds: surely_wins, a static proof that the trailing side cannot catch up any more (also
 *     in small_search from bound_cards, 3, cards left);
 *   - fast_apply: builds and discards applied with the cache's price, the end of the game
 *     scored by tables (csearch/apply.h: the engine's states to the byte, the same nodes);
 *   - chance nodes sum weight x value, so sure wins and losses are exactly 1 and 0.
 * Depth-limited searches (hints) are unchanged: the reference's algorithm node for node.
 *
 * The Python side (solvers/search.py, CSearcher) drives it: iterative deepening, the root move
 * list, the principal variation and the expected margin stay in Python and call in here.
 *
 * The parts, one concern each, in the order they are included below (each uses only the ones
 * before it, but for the recursion's two forward declarations and Ctx's pointer to the table):
 *   csearch/common.h       the depth scale, the thread cap, window widening, low_card
 *   heuristic.h            the hand-made evaluation (shared with the compiled MCTS)
 *   csearch/profile.h      the counters of Searcher.stats()
 *   csearch/prices.h       card and wonder prices through a per-thread cache
 *   csearch/apply.h        builds and discards applied with the cache's prices, scores by tables
 *   csearch/context.h      Ctx (one thread's search state), Shared (a solve's threads), tick
 *   csearch/tt.h           the transposition table: entries, lockless access, replacement, memory
 *   csearch/exact_key.h    the table key: a position's future in an exact solve
 *   csearch/movepick.h     move ordering: the reference's sort, the history index
 *   csearch/picks.h        The Mausoleum's picks and last tokens that need no search
 *   csearch/search.h       the reference's decision and chance nodes (hints): alpha-beta, Star1
 *   csearch/bound_parts.h  the static bound's tables and single-part bounds
 *   csearch/bound_takes.h  ... its tighter bounds of x's takes (second look, denial game)
 *   csearch/bound.h        ... the proof itself (surely_wins, static_winner)
 *   csearch/small.h        the last cards without the table (small_search)
 *   csearch/exact.h        an exact solve's decision and chance nodes (ETC, scout, Star2)
 *   csearch/node.h         every node's entry (table, bound, dispatch, store), the root's tests
 *   csearch/searcher.h     the Searcher object's state and its hand-over to a thread's Ctx
 *   csearch/threads.h      Lazy SMP: helper threads on one table, the GIL released
 *   this file              the CPython glue: the Searcher type's methods and the module
 * They form one translation unit, as the engine (duel_core.c) already does: every static
 * function stays visible to the compiler at its calls, so the hot paths inline exactly as they
 * did in one file (the object code is the same); separate units would need link-time
 * optimisation for that. setup.py lists the parts, so that pip rebuilds when one changes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <time.h>
#include <pthread.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "../../duel/csrc/duel_core.c"
#include "../../duel/csrc/ccore_capi.h"
#include "csearch_capi.h"

/* The conversions of duel._ccore (CoreState <-> dc_state), through its capsule. */
static const dc_capi *capi;

#include "csearch/common.h"
#include "heuristic.h"
#include "csearch/profile.h"
#include "csearch/prices.h"
#include "csearch/apply.h"
#include "csearch/context.h"
#include "csearch/tt.h"
#include "csearch/exact_key.h"

#include "csearch/movepick.h"
#include "csearch/picks.h"

/* The recursion: the nodes below call back into search() and search_keyed() (csearch/node.h),
 * which dispatch to them. */
static double search(Ctx *c, const dc_state *st, int depth, double alpha, double beta);
static double search_keyed(Ctx *c, const dc_state *st, uint64_t key, int depth,
                           double alpha, double beta);
static double bound_proved(Ctx *c, const dc_state *st, uint64_t key, int winner);

#include "csearch/search.h"
#include "csearch/bound_parts.h"
#include "csearch/bound_takes.h"
#include "csearch/bound.h"
#include "csearch/small.h"
#include "csearch/exact.h"
#include "csearch/node.h"
#include "csearch/searcher.h"
#include "csearch/threads.h"

/* --- the CPython glue --------------------------------------------------------------------- */
static PyObject *Aborted; /* raised when a limit stops the search */

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"seed", "chance_width", "chance_samples", "memory", "threads", NULL};
    unsigned long long seed = 0;
    int width = 6, samples = 3, threads = 1;
    long long memory = 64ll << 20;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|KiiLi", kwlist, &seed, &width, &samples,
                                     &memory, &threads))
        return -1;
    if (samples < 1 || samples > MAX_SAMPLES) {
        PyErr_Format(PyExc_ValueError, "chance_samples must be 1..%d", MAX_SAMPLES);
        return -1;
    }
    if (memory < 4096) {
        PyErr_SetString(PyExc_ValueError, "memory must be at least 4096 bytes");
        return -1;
    }
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return -1;
    }
    self->seed = seed;
    self->chance_width = width;
    self->chance_samples = samples;
    self->node_limit = -1;
    self->deadline = -1.0;
    self->checkpoint = 0;
    self->min_depth = INF_DEPTH;
    self->null_windows = 1;
    self->endgame = 1;
    self->etc = 1;
    self->use_history = 1;
    self->star2 = 1;
    self->star2_cards = 5;
    self->outcome_bounds = 4;
    self->scout = 1;
    self->small_cards = 3;
    self->bound_cards = 3;
    self->tail_bounds = 1;
    self->bound_slack = 15;
    self->tail_slack = 12;
    self->final_picks = 5;
    self->fast_apply = 1;
    self->bounds = 2;
    self->abstract = 1;
    self->defer_cards = 5;
    self->threads = threads;
    if (ensure_ctx(self, 1) < 0) return -1;
    return alloc_table(self, memory);
}

static void Searcher_dealloc(Searcher *self) {
    table_free(self->tt, self->buckets);
    for (int i = 0; i < self->nctx; i++) PyMem_RawFree(self->ctx[i]);
    PyMem_RawFree(self->ctx);
    Py_XDECREF(self->on_progress);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Searcher_search(Searcher *self, PyObject *args) {
    PyObject *obj;
    int depth;
    double alpha, beta;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (!PyArg_ParseTuple(args, "Oidd", &obj, &depth, &alpha, &beta)) return NULL;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is already searching");
        return NULL;
    }
    if (depth > INF_DEPTH) depth = INF_DEPTH;
    /* threads for exact solves only: a depth-limited search stays on the calling thread */
    int n = depth >= INF_DEPTH / 2 && st->phase != DC_GAME_OVER ? self->threads : 1;
    if (ensure_ctx(self, n) < 0) return NULL;
    double v;
    int aborted;
    self->busy = 1;
    if (n > 1) {
        aborted = solve_threads(self, n, st, depth, alpha, beta, &v);
    } else {
        aborted = solve_alone(self, st, depth, alpha, beta, 0, &v);
    }
    self->busy = 0;
    if (aborted == 2) return NULL;
    if (aborted) {
        PyErr_SetNone(Aborted);
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

static PyObject *Searcher_evaluate(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    return PyFloat_FromDouble(evaluate(st));
}

static PyObject *Searcher_margin(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    return PyFloat_FromDouble(margin(st));
}

static PyObject *Searcher_static_winner(Searcher *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    static price_cache py_prices; /* calls from Python hold the GIL */
    int w = static_winner(st, &py_prices, self->bounds ? self->bounds : 2, 0);
    if (w < 0) Py_RETURN_NONE;
    return PyLong_FromLong(w);
}

static PyObject *Searcher_probe(Searcher *self, PyObject *obj) {
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    tt_entry entry;
    const tt_entry *e = &entry;
    /* an exact solve's entry first, else a depth-limited search's */
    Ctx *c = self->ctx[0];
    ctx_begin(self, c, 0, NULL);
    int found = tt_find(c, table_key(c, st, INF_DEPTH), &entry) ||
                tt_find(c, dc_state_hash(st), &entry);
    ctx_end(self, c);
    if (!found) Py_RETURN_NONE;
    PyObject *move = e->move >= 0 ? PyLong_FromLong(e->move) : Py_NewRef(Py_None);
    if (!move) return NULL;
    return Py_BuildValue("(iddNi)", entry_depth(e), e->lo, e->hi, move, e->gen);
}

static PyObject *Searcher_store(Searcher *self, PyObject *args) {
    PyObject *obj, *move_obj;
    int depth;
    double lo, hi;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (!PyArg_ParseTuple(args, "OiddO", &obj, &depth, &lo, &hi, &move_obj)) return NULL;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    long move = move_obj == Py_None ? -1 : PyLong_AsLong(move_obj);
    if (move == -1 && PyErr_Occurred()) return NULL;
    ctx_begin(self, self->ctx[0], 0, NULL);
    tt_store(self->ctx[0], table_key(self->ctx[0], st, depth), depth, lo, hi, (int32_t)move, 1);
    ctx_end(self, self->ctx[0]);
    Py_RETURN_NONE;
}

/* Test hooks for the lockless table: the raw words of a state's bucket, and writing raw words
 * into one of its slots (to build a torn entry). */
static PyObject *Searcher_bucket_words(Searcher *self, PyObject *obj) {
    dc_state st;
    if (capi->get_state(obj, &st) < 0) return NULL;
    ctx_begin(self, self->ctx[0], 0, NULL);
    const Ctx *c = self->ctx[0];
    const tt_bucket *b = &self->tt[tt_index(c, table_key(c, &st, INF_DEPTH))];
    ctx_end(self, self->ctx[0]);
    return Py_BuildValue("((KKKK)(KKKK))", b->w[0][0], b->w[0][1], b->w[0][2], b->w[0][3],
                         b->w[1][0], b->w[1][1], b->w[1][2], b->w[1][3]);
}

static PyObject *Searcher_write_words(Searcher *self, PyObject *args) {
    PyObject *obj;
    int slot;
    unsigned long long w[4];
    dc_state st;
    if (!PyArg_ParseTuple(args, "Oi(KKKK)", &obj, &slot, &w[0], &w[1], &w[2], &w[3])) return NULL;
    if (capi->get_state(obj, &st) < 0) return NULL;
    if (slot < 0 || slot > 1) {
        PyErr_SetString(PyExc_ValueError, "slot must be 0 or 1");
        return NULL;
    }
    ctx_begin(self, self->ctx[0], 0, NULL);
    const Ctx *c = self->ctx[0];
    tt_bucket *b = &self->tt[tt_index(c, table_key(c, &st, INF_DEPTH))];
    ctx_end(self, self->ctx[0]);
    for (int i = 0; i < 4; i++) b->w[slot][i] = w[i];
    Py_RETURN_NONE;
}

static PyObject *Searcher_set_limits(Searcher *self, PyObject *args) {
    long long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "Ld", &node_limit, &seconds)) return NULL;
    self->node_limit = node_limit;
    self->deadline = seconds >= 0 ? now_seconds() + seconds : -1.0;
    self->checkpoint = self->nodes;
    Py_RETURN_NONE;
}

static PyObject *Searcher_stats(Searcher *self, PyObject *unused) {
    (void)unused;
    static const char *names[ST_KINDS] = {
        "decision", "dec_first", "dec_cut", "etc", "win_now", "chance", "ch_table", "ch_star2",
        "ch_star1", "probes", "small", "tt_probe", "tt_hit", "tt_cut", "bound", "bound_cut", "research", "work", "decided", "exact"};
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int k = 0; k < ST_KINDS; k++) {
        PyObject *row = PyList_New(ST_CARDS);
        if (!row) {
            Py_DECREF(d);
            return NULL;
        }
        for (int i = 0; i < ST_CARDS; i++) { /* summed over the threads */
            long long sum = 0;
            for (int t = 0; t < self->nctx; t++) sum += self->ctx[t]->stat[k][i];
            PyList_SET_ITEM(row, i, PyLong_FromLongLong(sum));
        }
        if (PyDict_SetItemString(d, names[k], row) < 0) {
            Py_DECREF(row);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(row);
    }
    return d;
}

/* A long solve probes the table at random: with 4 KB pages nearly every probe of a large table
 * also misses the TLB, and transparent huge pages make the search about 1.1x faster. A short one
 * should not pay for them: every 2 MB page it touches is zeroed whole, so a solve of a few
 * thousand nodes would take 0.5 s and the whole budget. And they must be asked for before the
 * table is written: a 2 MB range that already holds a 4 KB page gets no huge page. So the caller
 * asks, before a solve it expects to be long (solvers.search.analysis: 11 cards or more). */
static PyObject *Searcher_huge_pages(Searcher *self, PyObject *unused) {
    (void)unused;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (madvise(self->tt, (size_t)self->buckets * sizeof(tt_bucket), MADV_HUGEPAGE) == 0)
        Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

static PyObject *Searcher_clear(Searcher *self, PyObject *unused) {
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return NULL;
    }
    memset(self->tt, 0, self->buckets * sizeof(tt_bucket));
    Py_RETURN_NONE;
}

/* Fill the calling thread's history table from `seed` (tests: an exact value must not depend on
 * the order moves are tried in). */
static PyObject *Searcher_scramble_history(Searcher *self, PyObject *arg) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    Ctx *c = self->ctx[0];
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 1 << 15; i++) c->history[p][i] = (uint32_t)(dc_rng_next(&rng) & 0xFFFF);
    Py_RETURN_NONE;
}

static PyMethodDef Searcher_methods[] = {
    {"scramble_history", (PyCFunction)Searcher_scramble_history, METH_O,
     "scramble_history(seed): random move-order credits (tests)"},
    {"search", (PyCFunction)Searcher_search, METH_VARARGS,
     "search(core_state, depth, alpha, beta) -> P(A wins); raises Aborted at a limit."},
    {"evaluate", (PyCFunction)Searcher_evaluate, METH_O, "duel.solvers.search.evaluate in C."},
    {"margin", (PyCFunction)Searcher_margin, METH_O, "duel.solvers.search._margin in C."},
    {"static_winner", (PyCFunction)Searcher_static_winner, METH_O,
     "static_winner(core_state) -> 0 or 1 if the static bound proves that player wins, else None"},
    {"probe", (PyCFunction)Searcher_probe, METH_O,
     "probe(core_state) -> (depth, lo, hi, move, generation) or None."},
    {"store", (PyCFunction)Searcher_store, METH_VARARGS,
     "store(core_state, depth, lo, hi, move): a table entry (move may be None)."},
    {"set_limits", (PyCFunction)Searcher_set_limits, METH_VARARGS,
     "set_limits(node_limit or -1, seconds from now or -1)."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "empty the table"},
    {"huge_pages", (PyCFunction)Searcher_huge_pages, METH_NOARGS,
     "huge_pages() -> bool: back the table with transparent huge pages (Linux), for a long solve"},
    {"_bucket_words", (PyCFunction)Searcher_bucket_words, METH_O,
     "test hook: the raw words of the state's table bucket, two tuples of four"},
    {"_write_words", (PyCFunction)Searcher_write_words, METH_VARARGS,
     "test hook: _write_words(core_state, slot, words) writes raw words into its bucket"},
    {"stats", (PyCFunction)Searcher_stats, METH_NOARGS,
     "profile counters: {kind: [count by cards left]} (see solvers/csrc/csearch/profile.h)"},
    {NULL, NULL, 0, NULL}};

#define RW_LL(name) {#name, T_LONGLONG, offsetof(Searcher, name), 0, NULL}
static PyMemberDef Searcher_members[] = {
    RW_LL(nodes),
    RW_LL(cut_count),
    RW_LL(sampled_count),
    RW_LL(stores),
    RW_LL(overwrites),
    RW_LL(memory),
    {"null_windows", T_INT, offsetof(Searcher, null_windows), 0, NULL},
    {"endgame", T_INT, offsetof(Searcher, endgame), 0, NULL},
    {"etc", T_INT, offsetof(Searcher, etc), 0, NULL},
    {"star2", T_INT, offsetof(Searcher, star2), 0, NULL},
    {"scout", T_INT, offsetof(Searcher, scout), 0, NULL},
    {"star2_cards", T_INT, offsetof(Searcher, star2_cards), 0, NULL},
    {"outcome_bounds", T_INT, offsetof(Searcher, outcome_bounds), 0, NULL},
    {"small_cards", T_INT, offsetof(Searcher, small_cards), 0, NULL},
    {"bounds", T_INT, offsetof(Searcher, bounds), 0, NULL},
    {"abstract", T_INT, offsetof(Searcher, abstract), 0, NULL},
    {"bound_cuts", T_LONGLONG, offsetof(Searcher, bound_cuts), 0, NULL},
    {"use_history", T_INT, offsetof(Searcher, use_history), 0, NULL},
    {"defer_cards", T_INT, offsetof(Searcher, defer_cards), 0, NULL},
    {"bound_cards", T_INT, offsetof(Searcher, bound_cards), 0, NULL},
    {"tail_bounds", T_INT, offsetof(Searcher, tail_bounds), 0, NULL},
    {"bound_slack", T_INT, offsetof(Searcher, bound_slack), 0, NULL},
    {"tail_slack", T_INT, offsetof(Searcher, tail_slack), 0, NULL},
    {"final_picks", T_INT, offsetof(Searcher, final_picks), 0, NULL},
    {"fast_apply", T_INT, offsetof(Searcher, fast_apply), 0, NULL},
    {"min_depth", T_INT, offsetof(Searcher, min_depth), 0, NULL},
    {"generation", T_INT, offsetof(Searcher, generation), 0, NULL},
    {"chance_width", T_INT, offsetof(Searcher, chance_width), READONLY, NULL},
    {"chance_samples", T_INT, offsetof(Searcher, chance_samples), READONLY, NULL},
    {"on_progress", T_OBJECT, offsetof(Searcher, on_progress), 0, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyObject *Searcher_get_entries(Searcher *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(2 * self->buckets);
}

static PyObject *Searcher_get_threads(Searcher *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->threads);
}

static PyObject *Searcher_get_thread_nodes(Searcher *self, void *closure) {
    (void)closure;
    int n = self->threads < self->nctx ? self->threads : self->nctx;
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLongLong(self->thread_nodes[i]));
    return list;
}

static int Searcher_set_threads(Searcher *self, PyObject *value, void *closure) {
    (void)closure;
    long n = value ? PyLong_AsLong(value) : -1;
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 1 || n > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return -1;
    }
    self->threads = (int)n;
    return 0;
}

static PyGetSetDef Searcher_getset[] = {
    {"entries", (getter)Searcher_get_entries, NULL, "table capacity in entries", NULL},
    {"threads", (getter)Searcher_get_threads, (setter)Searcher_set_threads,
     "threads of an exact solve (depth-limited searches use the calling thread alone)", NULL},
    {"thread_nodes", (getter)Searcher_get_thread_nodes, NULL,
     "each thread's nodes in this searcher's threaded solves so far (the calling thread's first)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "duel.solvers._csearch.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The recursive expectiminimax of solvers.search.Searcher, in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_members = Searcher_members,
    .tp_getset = Searcher_getset,
};

/* The capsule's functions (csearch_capi.h): leaf solves of the compiled MCTS. */
static int capi_prepare(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &SearcherType)) {
        PyErr_SetString(PyExc_TypeError, "the solver must be a duel.solvers._csearch.Searcher");
        return -1;
    }
    return ensure_ctx((Searcher *)obj, 1);
}

static int capi_leaf_value(PyObject *obj, const dc_state *st, long long node_limit, double *value) {
    Searcher *self = (Searcher *)obj;
    if (self->busy || self->nctx < 1 || st->phase == DC_GAME_OVER || dc_is_chance(st)) return 0;
    long long saved_limit = self->node_limit;
    double saved_deadline = self->deadline;
    self->node_limit = self->nodes + node_limit;
    self->deadline = -1.0;
    self->checkpoint = self->nodes; /* the limit is checked from the first node */
    self->busy = 1;
    double v;
    int aborted = solve_alone(self, st, INF_DEPTH, 0.0, 1.0, 1, &v);
    self->busy = 0;
    self->node_limit = saved_limit;
    self->deadline = saved_deadline;
    if (aborted) return 0;
    *value = v;
    return 1;
}

static const cs_capi csearch_capi = {CS_CAPI_VERSION, (int)sizeof(dc_state), capi_prepare,
                                     capi_leaf_value};

static struct PyModuleDef csearch_module = {
    PyModuleDef_HEAD_INIT, "duel.solvers._csearch",
    "The expectiminimax of solvers/search.py on the C engine; use it through solvers.search.",
    -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__csearch(void) {
    /* The capsule brings duel._ccore's conversions between CoreState and dc_state. */
    PyObject *core = PyImport_ImportModule("duel.core");
    if (!core) return NULL;
    Py_DECREF(core);
    capi = dc_import_capi();
    if (!capi) return NULL;
    exact_key_init();
    bound_tables_init();
    apply_tables_init();
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *m = PyModule_Create(&csearch_module);
    if (!m) return NULL;
    Aborted = PyErr_NewException("duel.solvers._csearch.Aborted", NULL, NULL);
    Py_INCREF(&SearcherType);
    if (!Aborted || PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddObject(m, "Aborted", Py_NewRef(Aborted)) < 0 ||
        PyModule_AddObject(m, "_C_API", PyCapsule_New((void *)&csearch_capi, CS_CAPI_NAME, NULL)) < 0 ||
        PyModule_AddIntConstant(m, "INF_DEPTH", INF_DEPTH) < 0 ||
        PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(tt_entry)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
