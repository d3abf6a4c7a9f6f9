/*
 * duel.solvers._xmcts: the expansion MCTS over the compiled expansion core (issue 63), the twin
 * of the base game's cmcts (solvers/csrc/cmcts_module.c); solvers/xcmcts.py is its Python face
 * and docs/xmcts.md its reference.
 *
 * It searches from a player's *view* (duel.xcore.CXState.view): the opponent's hidden cards are
 * not in its state, and every chance node, the turning up of what the player cannot see
 * included, is sampled with the view's exact probabilities (the Python engine's chance model).
 * The files, a concern each:
 *
 *   xmcts_tree.h   the open-loop tree of decisions and its memory bound
 *   xpolicy.h      the plan policy of the playouts, and the prior it gives the tree
 *   xvalue.h       the learned value (features and the logistic model)
 *   this file      one descent (PUCT selection, expansion, playout, backup) and the Python API
 *
 * A leaf is judged by a playout of `playout_plies` decisions by the plan policy, then by the
 * learned value (`value_mix` 1), by the playout carried on to the end (`value_mix` 0, or no
 * model), or by a mix of the two. The end of the game is always valued exactly. Values are the
 * project's P(win) + P(shared) / 2.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "../../duel/csrc/xcore_legal.c"
#include "xmcts_tree.h"
#include "xpolicy.h"
#include "xvalue.h"

typedef struct xm_config {
    double c;             /* PUCT's exploration constant */
    double fpu;           /* an arm not yet tried: the node's mean less this */
    double prior_mix;     /* a uniform share mixed into the prior, so that no arm starves */
    int playout_plies;    /* decisions played out before the value (-1: to the end) */
    double value_mix;     /* weight of the learned value against the playout's end */
    const xv_model *model; /* NULL: no learned value, playouts to the end */
} xm_config;

static double xm_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Chance nodes are sampled and applied; returns 0 at a decision, 1 at the end (or stuck). */
static int xm_to_decision(dx_state *s, dc_rng *rng) {
    while (s->phase != DX_GAME_OVER && dx_is_chance(s)) {
        int32_t m = dx_sample_chance(s, rng);
        if (m < 0) return 1;
        dx_apply(s, m);
    }
    return s->phase == DX_GAME_OVER;
}

/* The value for A of a leaf: exact at the end, else playout, then the learned value. */
static double xm_leaf(dx_state *s, dc_rng *rng, const xm_config *cfg) {
    int mixed = cfg->model && cfg->value_mix > 0.0;
    if (!mixed) {
        xp_playout(s, rng, -1);
        return xv_value(NULL, s);
    }
    if (xp_playout(s, rng, cfg->playout_plies)) return xv_value(NULL, s);
    double model = xv_value(cfg->model, s);
    if (cfg->value_mix >= 1.0) return model;
    xp_playout(s, rng, -1);
    return cfg->value_mix * model + (1.0 - cfg->value_mix) * xv_value(NULL, s);
}

/* PUCT among the legal moves at `node`: the index of the move to play, its node in `*chosen`
 * (created when first chosen; -1 if the tree is full). The prior is the plan policy's
 * probability of the move among those legal in this descent; an arm never chosen has no node
 * and is valued at the node's mean less `fpu`. */
static int xm_select(xt_tree *t, int32_t node, const dx_state *s, const int32_t *moves, int n,
                     int32_t *chosen, const xm_config *cfg) {
    double prior[DX_MAX_MOVES];
    int32_t child[DX_MAX_MOVES];
    xp_probabilities(s, moves, n, prior);
    int player = s->to_move;
    const xt_node *here = &t->nodes[node];
    double parent = here->visits ? (here->player == player ? here->value / here->visits
                                                           : 1.0 - here->value / here->visits)
                                 : 0.5;
    double first_play = parent - cfg->fpu;
    int best = 0;
    double best_score = -1e300;
    for (int i = 0; i < n; i++) {
        child[i] = xt_child(t, node, moves[i]);
        double p = (1.0 - cfg->prior_mix) * prior[i] + cfg->prior_mix / n, score;
        if (child[i] < 0) {
            score = first_play + cfg->c * p * sqrt((double)here->visits + 1.0);
        } else {
            xt_node *ch = &t->nodes[child[i]];
            ch->avail++;
            double q = xt_mean(t, child[i], player, first_play);
            score = q + cfg->c * p * sqrt((double)ch->avail) / (1.0 + ch->visits);
        }
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    *chosen = child[best];
    if (*chosen < 0) {
        *chosen = xt_add(t, node, moves[best], player);
        if (*chosen >= 0) t->nodes[*chosen].avail = 1;
    }
    return best;
}

/* One descent: select along decisions until a node's first visit, judge the leaf, back up. */
static void xm_iterate(xt_tree *t, const dx_state *root, dc_rng *rng, const xm_config *cfg) {
    dx_state s = *root;
    int32_t path[1024], moves[DX_MAX_MOVES];
    int depth = 0, node = 0;
    while (!xm_to_decision(&s, rng) && depth < 1023) {
        int n = dx_legal_moves(&s, moves);
        if (n <= 0) break;
        int32_t chosen;
        int i = xm_select(t, node, &s, moves, n, &chosen, cfg);
        dx_apply(&s, moves[i]);
        if (chosen < 0) break; /* the tree is full: play out from here */
        path[depth++] = chosen;
        node = chosen;
        if (t->nodes[node].visits == 0) break; /* a new leaf */
    }
    double value_a = xm_leaf(&s, rng, cfg);
    xt_node *r = &t->nodes[0];
    r->visits++;
    r->value += r->player == 0 ? value_a : 1.0 - value_a;
    for (int i = 0; i < depth; i++) {
        xt_node *n = &t->nodes[path[i]];
        n->visits++;
        n->value += n->player == 0 ? value_a : 1.0 - value_a;
    }
}

static int xm_state_arg(const char *data, Py_ssize_t size, dx_state *out) {
    if (size != (Py_ssize_t)sizeof(dx_state)) {
        PyErr_Format(PyExc_ValueError, "expected a %zu-byte state", sizeof(dx_state));
        return 0;
    }
    memcpy(out, data, sizeof *out);
    return 1;
}

static int xm_model_arg(PyObject *weights, xv_model *out) {
    Py_buffer view;
    if (PyObject_GetBuffer(weights, &view, PyBUF_SIMPLE) < 0) return 0;
    int ok = view.len == (Py_ssize_t)sizeof out->w;
    if (ok) memcpy(out->w, view.buf, sizeof out->w);
    PyBuffer_Release(&view);
    if (!ok) PyErr_Format(PyExc_ValueError, "expected %d weights (doubles)", XV_WEIGHTS);
    return ok;
}

/* search(state, iterations, seconds, seed, c, fpu, prior_mix, playout_plies, value_mix,
 * max_nodes, weights or None) -> (descents, [(move, visits, value for the mover)]) */
static PyObject *xm_search(PyObject *self, PyObject *args) {
    (void)self;
    const char *data;
    Py_ssize_t size;
    long long iterations, max_nodes;
    double seconds;
    unsigned long long seed;
    xm_config cfg;
    PyObject *weights;
    if (!PyArg_ParseTuple(args, "y#LdKdddidLO", &data, &size, &iterations, &seconds, &seed,
                          &cfg.c, &cfg.fpu, &cfg.prior_mix, &cfg.playout_plies, &cfg.value_mix,
                          &max_nodes, &weights))
        return NULL;
    dx_state root;
    if (!xm_state_arg(data, size, &root)) return NULL;
    if (dx_is_chance(&root) || root.phase == DX_GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "the search starts at a decision");
        return NULL;
    }
    if (iterations < 0 && seconds < 0) {
        PyErr_SetString(PyExc_ValueError, "give iterations or seconds");
        return NULL;
    }
    xv_model model;
    cfg.model = NULL;
    if (weights != Py_None) {
        if (!xm_model_arg(weights, &model)) return NULL;
        cfg.model = &model;
    }
    long long capacity = max_nodes < 2 ? 2 : max_nodes > INT32_MAX ? INT32_MAX : max_nodes;
    if (iterations >= 0 && iterations + 1 < capacity) capacity = iterations + 1;
    xt_tree t;
    if (!xt_init(&t, (int32_t)capacity)) return PyErr_NoMemory();
    t.nodes[0].player = root.to_move;
    long long done = 0;
    Py_BEGIN_ALLOW_THREADS
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    double deadline = seconds >= 0 ? xm_now() + seconds : -1.0;
    for (; iterations < 0 || done < iterations; done++) {
        if (deadline >= 0 && done > 0 && xm_now() >= deadline) break; /* one descent at least */
        xm_iterate(&t, &root, &rng, &cfg);
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(0);
    for (int32_t ch = t.nodes[0].first; out && ch >= 0; ch = t.nodes[ch].next) {
        const xt_node *n = &t.nodes[ch];
        if (!n->visits) continue;
        double mean = xt_mean(&t, ch, root.to_move, 0.5);
        PyObject *item = Py_BuildValue("(lkd)", (long)n->move, (unsigned long)n->visits, mean);
        if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    xt_free(&t);
    if (!out) return NULL;
    return Py_BuildValue("(LN)", done, out);
}

/* features(state) -> (stage, [XV_N floats]) */
static PyObject *xm_features(PyObject *self, PyObject *args) {
    (void)self;
    const char *data;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "y#", &data, &size)) return NULL;
    dx_state s;
    if (!xm_state_arg(data, size, &s)) return NULL;
    double f[XV_N];
    int stage = xv_features(&s, f);
    PyObject *list = PyList_New(XV_N);
    if (!list) return NULL;
    for (int k = 0; k < XV_N; k++) PyList_SET_ITEM(list, k, PyFloat_FromDouble(f[k]));
    return Py_BuildValue("(iN)", stage, list);
}

/* value(state, weights) -> P(A wins) + P(shared) / 2 */
static PyObject *xm_value(PyObject *self, PyObject *args) {
    (void)self;
    const char *data;
    Py_ssize_t size;
    PyObject *weights;
    if (!PyArg_ParseTuple(args, "y#O", &data, &size, &weights)) return NULL;
    dx_state s;
    xv_model model;
    if (!xm_state_arg(data, size, &s) || !xm_model_arg(weights, &model)) return NULL;
    return PyFloat_FromDouble(xv_value(&model, &s));
}

#define XV_NAME(name, text) text,
static const char *const XV_NAMES[XV_N] = {XV_FEATURES(XV_NAME)};

static PyObject *xm_feature_names(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(XV_N);
    if (!list) return NULL;
    for (int k = 0; k < XV_N; k++) PyList_SET_ITEM(list, k, PyUnicode_FromString(XV_NAMES[k]));
    return list;
}

static PyMethodDef methods[] = {
    {"search", xm_search, METH_VARARGS,
     "search(state, iterations, seconds, seed, c, fpu, prior_mix, playout_plies, value_mix, "
     "max_nodes, weights or None) -> (descents, [(move, visits, value for the mover)])"},
    {"features", xm_features, METH_VARARGS, "features(state) -> (stage, [floats])"},
    {"value", xm_value, METH_VARARGS, "value(state, weights) -> P(A wins) + P(shared) / 2"},
    {"feature_names", xm_feature_names, METH_NOARGS, "The names of the value's features."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "duel.solvers._xmcts",
                                    "The expansion MCTS over the compiled expansion core.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xmcts(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "N_FEATURES", XV_N) < 0) Py_CLEAR(m);
    if (m && PyModule_AddIntConstant(m, "N_WEIGHTS", XV_WEIGHTS) < 0) Py_CLEAR(m);
    return m;
}
