/*
 * duel.solvers._xmcts: an open-loop UCT search over the compiled expansion core (issue 63, a
 * first step of the expansion AI; the base game's cmcts is solvers/csrc/cmcts_module.c).
 *
 * It searches from a player's *view* (duel.xcore.CXState.view): the opponent's hidden cards are
 * not in its state, and every chance node, the turning up of what the player cannot see
 * included, is sampled with the view's exact probabilities (the Python engine's chance model).
 * Open loop: a tree node is reached by the sequence of decisions only; chance outcomes are drawn
 * afresh each iteration, and a node's children are the decisions legal in the state each
 * iteration reaches (so a decision that exists only after some outcomes is added when met).
 * Leaves are evaluated by a uniformly random playout to the end of the game; a value is the
 * project's P(win) + P(shared) / 2 from the side of the player who made the move (1, 1/2, 0).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "../../duel/csrc/xcore_legal.c"

typedef struct xm_node {
    int32_t move;       /* the decision that leads here */
    int32_t first;      /* first child, -1 if none */
    int32_t next;       /* next sibling, -1 if none */
    int8_t player;      /* who made `move` */
    uint32_t visits;
    uint32_t avail;     /* iterations in which `move` was legal (the open-loop UCB's count) */
    double value;       /* sum of returns for `player` */
} xm_node;

typedef struct xm_tree {
    xm_node *nodes;
    int32_t size, capacity;
} xm_tree;

static int32_t xm_add(xm_tree *t, int32_t parent, int32_t move, int player) {
    if (t->size == t->capacity) return -1;
    int32_t id = t->size++;
    xm_node *n = &t->nodes[id];
    n->move = move;
    n->first = -1;
    n->player = (int8_t)player;
    n->visits = n->avail = 0;
    n->value = 0.0;
    n->next = t->nodes[parent].first;
    t->nodes[parent].first = id;
    return id;
}

static int32_t xm_child(const xm_tree *t, int32_t parent, int32_t move) {
    for (int32_t c = t->nodes[parent].first; c >= 0; c = t->nodes[c].next)
        if (t->nodes[c].move == move) return c;
    return -1;
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

static double xm_return(const dx_state *s, int player) {
    if (s->winner == player) return 1.0;
    if (s->winner == 1 - player) return 0.0;
    return 0.5;
}

static double xm_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One iteration: select and expand along decisions, play out, back up. */
static void xm_iterate(xm_tree *t, const dx_state *root, dc_rng *rng, double c) {
    dx_state s = *root;
    int32_t path[1024];
    int depth = 0, node = 0;
    int32_t moves[DX_MAX_MOVES];
    while (!xm_to_decision(&s, rng) && depth < 1023) {
        int n = dx_legal_moves(&s, moves), player = s.to_move;
        if (n == 0) break;
        int32_t best = -1, fresh = -1;
        double best_score = -1e300;
        for (int i = 0; i < n; i++) {
            int32_t child = xm_child(t, node, moves[i]);
            if (child < 0 || t->nodes[child].visits == 0) {
                if (fresh < 0) fresh = i;
                if (child >= 0) t->nodes[child].avail++;
                continue;
            }
            xm_node *ch = &t->nodes[child];
            ch->avail++;
            double score = ch->value / ch->visits + c * sqrt(log((double)ch->avail) / ch->visits);
            if (score > best_score) {
                best_score = score;
                best = child;
            }
        }
        if (fresh >= 0) { /* an untried decision first: expand it and play out */
            int32_t child = xm_child(t, node, moves[fresh]);
            if (child < 0) {
                child = xm_add(t, node, moves[fresh], player);
                if (child < 0) break; /* the tree is full: play out from here */
                t->nodes[child].avail = 1;
            }
            dx_apply(&s, moves[fresh]);
            path[depth++] = child;
            break;
        }
        dx_apply(&s, t->nodes[best].move);
        path[depth++] = best;
        node = best;
    }
    dx_random_playout(&s, rng);
    t->nodes[0].visits++;
    for (int i = 0; i < depth; i++) {
        xm_node *n = &t->nodes[path[i]];
        n->visits++;
        n->value += xm_return(&s, n->player);
    }
}

/* search(state_bytes, iterations, seconds, seed, exploration) -> (iterations done,
 * [(move, visits, mean value)]); iterations < 0: no count limit, seconds < 0: no deadline. */
static PyObject *xm_search(PyObject *self, PyObject *args) {
    (void)self;
    const char *data;
    Py_ssize_t size;
    long long iterations;
    double seconds, c;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y#LdKd", &data, &size, &iterations, &seconds, &seed, &c))
        return NULL;
    if (iterations < 0 && seconds < 0) {
        PyErr_SetString(PyExc_ValueError, "give iterations or seconds");
        return NULL;
    }
    if (size != (Py_ssize_t)sizeof(dx_state)) {
        PyErr_Format(PyExc_ValueError, "expected a %zu-byte state", sizeof(dx_state));
        return NULL;
    }
    dx_state root;
    memcpy(&root, data, sizeof root);
    if (dx_is_chance(&root) || root.phase == DX_GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "the search starts at a decision");
        return NULL;
    }
    xm_tree t;
    t.capacity = iterations >= 0 && iterations + 1 < (1 << 22) ? (int32_t)iterations + 1 : 1 << 22;
    t.nodes = malloc((size_t)t.capacity * sizeof *t.nodes);
    if (!t.nodes) return PyErr_NoMemory();
    t.size = 1;
    t.nodes[0] = (xm_node){-1, -1, -1, -1, 0, 0, 0.0};
    long long done;
    Py_BEGIN_ALLOW_THREADS
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    double deadline = seconds >= 0 ? xm_now() + seconds : -1.0;
    for (done = 0; iterations < 0 || done < iterations; done++) {
        if (deadline >= 0 && xm_now() >= deadline) break;
        xm_iterate(&t, &root, &rng, c);
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(0);
    for (int32_t ch = t.nodes[0].first; out && ch >= 0; ch = t.nodes[ch].next) {
        const xm_node *n = &t.nodes[ch];
        double mean = n->visits ? n->value / n->visits : 0.0;
        PyObject *item = Py_BuildValue("(lkd)", (long)n->move, (unsigned long)n->visits, mean);
        if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    free(t.nodes);
    if (!out) return NULL;
    return Py_BuildValue("(LN)", done, out);
}

static PyMethodDef methods[] = {
    {"search", xm_search, METH_VARARGS,
     "search(state_bytes, iterations, seconds, seed, exploration) -> (done, [(move, visits, "
     "value)])"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "duel.solvers._xmcts",
                                    "Open-loop UCT over the compiled expansion core.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xmcts(void) { return PyModule_Create(&module); }
