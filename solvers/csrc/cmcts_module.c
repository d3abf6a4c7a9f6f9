/*
 * solvers._cmcts -- the open-loop MCTS of the `cmcts` player (solvers/players.py, CMctsPlayer,
 * whose CMctsConfig documents every option), on the compiled engine.
 *
 * The algorithm is the family of solvers/mcts.py (the Python `mcts` level, which has a few of
 * these options and is not compared with this module move by move): a node stands for a
 * sequence of decisions from the root, each descent samples every chance outcome afresh with its
 * exact probability (so statistics are shared across deals), arms are keyed by the move and
 * count their availability, selection is PUCT with a prior, a new leaf is judged by a playout
 * with MCTS-BR's plan policy and the learned value, values are P(A wins) + P(shared)/2.
 *
 * Memory: one arena of nodes and arms, allocated once from the memory budget. A node's arms lie
 * in one block that doubles as new moves appear; the block it leaves is reused by the next node
 * that needs one of that size. When the arena is full the tree stops growing (descents still
 * run and back up through the existing tree). A search that starts from a subtree kept from the
 * last moves first moves that subtree to the front of the arena (`compact_tree`: the rest is
 * dead); if the arena is still more than three quarters full it starts a fresh tree.
 * Tree reuse: `advance(move)` moves the root down the arm of a decision played in the game
 * (chance outcomes do not change the node in an open-loop tree), so the subtree is kept.
 *
 * Only what the `cmcts` player ships is here; the experiments that did not (fading, root
 * exploration, sequential halving, exact leaves, closed-loop reveals, a hidden layer in the
 * value) are at the tag journal-2026-11-29, with their measurements in docs/journal/.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <time.h>

#include "../../duel/csrc/duel_core.c"
#include "../../duel/csrc/ccore_capi.h"
#include "heuristic.h"
#include "rollout.h"
#include "value_model.h"

/* The conversions of duel._ccore (CoreState <-> dc_state), through its capsule. */
static const dc_capi *capi;

typedef struct {
    int32_t move;  /* the arm's key: the move code */
    int32_t child; /* node index, -1 while unexpanded */
    uint32_t visits;
    uint32_t avail; /* descents in which the arm was legal */
    double value_a; /* sum of the values (P(A wins)) backed up through the arm */
    double weight;  /* prior weight (normalised over the arms legal at each visit) */
} arm_t;

typedef struct {
    uint32_t first; /* first arm in the arena */
    uint16_t n_arms, cap;
    uint32_t visits;
    double value_a;
} node_t;

enum { PRIOR_STATIC = 0, PRIOR_VALUE = 1, PRIOR_UNIFORM = 2, PRIOR_POLICY = 3, PRIOR_LEARNED = 4 };
/* How a new leaf is judged: a playout (cut after `rollout` plies by `evaluation`), the learned
 * value of the leaf (no playout), or (1 - mix_lambda) * playout + mix_lambda * learned value. */
enum { LEAF_PLAYOUT = 0, LEAF_VALUE = 1, LEAF_MIX = 2 };
enum { EVAL_HEURISTIC = 0, EVAL_LEARNED = 1 };
#define ROLLOUT_TO_END (-1)
#define ROLLOUT_TO_AGE (-2)
#define MAX_PATH 512
#define FREE_CLASSES 5 /* arm blocks of 8, 16, 32, 64 and 128 arms (DC_MAX_MOVES = 128) */
#define NO_BLOCK 0xFFFFFFFFu

typedef struct {
    PyObject_HEAD
    node_t *nodes;
    arm_t *arms;
    uint32_t n_nodes, max_nodes, n_arms, max_arms;
    /* Arm blocks left behind when a node's arms moved to a larger block, by capacity class
     * (8 << k arms): reused before the arena grows, so a long search does not fill the arena
     * with dead blocks. The next free block's offset is kept in its first arm's `child`. */
    uint32_t free_blocks[FREE_CLASSES];
    int32_t root; /* -1: no tree */
    double c, fpu, prior_temperature;
    int prior, rollout, uct, age_horizon;
    long long memory;
    rollout_cfg policy;
    uint32_t mode_n[2][N_MODES]; /* root bandits over the rollout modes, one per player */
    double mode_a[2][N_MODES];   /* sum of P(A wins) of the rollouts using each mode */
    dc_rng rng;
    /* the learned value (value_model.h): weights from Python, NULL if none were given */
    vm_weights *vw;
    /* the learned prior's own weights (a model fitted to the search's visits), NULL: the
     * value's */
    vm_weights *pw;
    int leaf, evaluation;
    double mix_lambda;
} Tree;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int32_t new_node(Tree *t) {
    if (t->n_nodes >= t->max_nodes) return -1;
    node_t *n = &t->nodes[t->n_nodes];
    n->first = 0;
    n->n_arms = n->cap = 0;
    n->visits = 0;
    n->value_a = 0.0;
    return (int32_t)t->n_nodes++;
}

/* The capacity class of a block of `cap` arms (8 << k), or -1 for a size without a class. */
static int block_class(int cap) {
    for (int k = 0; k < FREE_CLASSES; k++)
        if (cap == 8 << k) return k;
    return -1;
}

/* Room for `want` arms at the node (moving its arms to a larger block if needed: a freed
 * block of that size if there is one, else the top of the arena; the old block is freed). */
static int reserve_arms(Tree *t, node_t *n, int want) {
    if (want <= n->cap) return 1;
    int cap = n->cap ? n->cap * 2 : 8;
    while (cap < want) cap *= 2;
    if (cap > 65535) cap = 65535;
    if (cap < want) return 0;
    int k = block_class(cap);
    uint32_t first;
    if (k >= 0 && t->free_blocks[k] != NO_BLOCK) {
        first = t->free_blocks[k];
        t->free_blocks[k] = (uint32_t)t->arms[first].child;
    } else {
        if (t->n_arms + (uint32_t)cap > t->max_arms) return 0;
        first = t->n_arms;
        t->n_arms += (uint32_t)cap;
    }
    memcpy(&t->arms[first], &t->arms[n->first], n->n_arms * sizeof(arm_t));
    int old = block_class(n->cap);
    if (n->cap && old >= 0) {
        t->arms[n->first].child = (int32_t)t->free_blocks[old];
        t->free_blocks[old] = n->first;
    }
    n->first = first;
    n->cap = (uint16_t)cap;
    return 1;
}

/* A new arm for `move` at the end of the node's arms (never visited, no child), or -1 if the
 * arena has no room for it; its index in the arena otherwise. */
static long add_arm(Tree *t, node_t *node, int32_t move, double weight) {
    if (!reserve_arms(t, node, node->n_arms + 1)) return -1;
    arm_t *a = &t->arms[node->first + node->n_arms++];
    a->move = move;
    a->child = -1;
    a->visits = a->avail = 0;
    a->value_a = 0.0;
    a->weight = weight;
    return (long)(a - t->arms);
}

static double prior_weight(const Tree *t, const dc_state *st, int32_t move) {
    if (t->prior == PRIOR_UNIFORM) return 1.0;
    if (t->prior == PRIOR_VALUE || t->prior == PRIOR_LEARNED) {
        dc_state after = *st;
        dc_apply(&after, move);
        double v = t->prior == PRIOR_LEARNED ? vm_value(t->pw ? t->pw : t->vw, &after)
                                             : evaluate(&after);
        if (st->to_move == 1) v = 1.0 - v;
        if (v < 1e-6) v = 1e-6;
        if (v > 1.0 - 1e-6) v = 1.0 - 1e-6;
        return pow(v / (1.0 - v), 1.0 / t->prior_temperature);
    }
    double x = (t->prior == PRIOR_POLICY ? move_score(st, move, &t->policy)
                                         : static_score(move)) / t->prior_temperature;
    if (x < -40.0) x = -40.0;
    return exp(x < 40.0 ? x : 40.0);
}

/* PUCT over the arms legal in `st` (adding arms for moves never seen here); the arm index in
 * the arena and its move, or -1 if the arena cannot hold an arm for any legal move. */
static long select_arm(Tree *t, int32_t node_index, const dc_state *st, int32_t *move_out) {
    int32_t moves[DC_MAX_MOVES];
    uint32_t legal[DC_MAX_MOVES]; /* arm offsets within the node: reserve_arms may move its block */
    int n = dc_legal_moves(st, moves), k = 0;
    node_t *node = &t->nodes[node_index];
    double total_weight = 0.0;
    for (int j = 0; j < n; j++) {
        arm_t *arms = &t->arms[node->first];
        int i;
        for (i = 0; i < node->n_arms; i++)
            if (arms[i].move == moves[j]) break;
        if (i == node->n_arms) {
            if (add_arm(t, node, moves[j], prior_weight(t, st, moves[j])) < 0) continue;
        }
        arm_t *a = &t->arms[node->first + i];
        a->avail++;
        total_weight += a->weight;
        legal[k++] = (uint32_t)i;
    }
    if (k == 0) return -1;
    int mover_b = st->to_move == 1;
    double parent_q = node->visits ? node->value_a / node->visits : 0.5;
    if (mover_b) parent_q = 1.0 - parent_q;
    double c = t->c;
    double fpu = parent_q - t->fpu, coef = c / total_weight, best_score = -1e300;
    for (int j = 0; j < k; j++) legal[j] += node->first; /* the block is final now */
    uint32_t best = legal[0];
    for (int j = 0; j < k; j++) {
        const arm_t *a = &t->arms[legal[j]];
        double q = fpu;
        if (a->visits) {
            q = a->value_a / a->visits;
            if (mover_b) q = 1.0 - q;
        }
        double s;
        if (t->uct) /* UCB1 over availability counts; an arm never tried goes first */
            s = a->visits ? q + c * sqrt(log((double)a->avail) / a->visits)
                          : 1e6 + a->weight;
        else
            s = q + coef * a->weight * sqrt((double)a->avail) / (1.0 + a->visits);
        if (s > best_score) {
            best_score = s;
            best = legal[j];
        }
    }
    *move_out = t->arms[best].move;
    return (long)best;
}

static double rollout_play(Tree *t, dc_state *st, int age, int left, const uint8_t mode[2]);

static double rollout_value(Tree *t, dc_state *st) {
    int age = st->age, left = t->rollout >= 0 ? t->rollout : 1 << 30;
    uint8_t mode[2] = {MODE_NORMAL, MODE_NORMAL};
    if (t->policy.modes == 1) {
        uint64_t r = dc_rng_next(&t->rng);
        mode[0] = r >> 62 & 1;
        mode[1] = r >> 61 & 1;
    } else if (t->policy.modes == 2) {
        /* each player's mode by UCB1 on that player's results with it: the rollouts learn
         * which plan works for each side from this root */
        for (int p = 0; p < 2; p++) {
            uint32_t total = 0;
            for (int m = 0; m < N_MODES; m++) total += t->mode_n[p][m];
            double best = -1.0;
            for (int m = 0; m < N_MODES; m++) {
                uint32_t n = t->mode_n[p][m];
                if (!n) {
                    mode[p] = (uint8_t)m;
                    break;
                }
                double q = t->mode_a[p][m] / n;
                if (p == 1) q = 1.0 - q;
                double u = q + 0.5 * sqrt(log((double)total) / n);
                if (u > best) best = u, mode[p] = (uint8_t)m;
            }
        }
    }
    double value = rollout_play(t, st, age, left, mode);
    if (t->policy.modes == 2)
        for (int p = 0; p < 2; p++) {
            t->mode_n[p][mode[p]]++;
            t->mode_a[p][mode[p]] += value;
        }
    return value;
}

static double rollout_play(Tree *t, dc_state *st, int age, int left, const uint8_t mode[2]) {
    while (st->phase != DC_GAME_OVER) {
        if (dc_is_chance(st)) {
            dc_apply(st, dc_sample_chance(st, &t->rng));
            continue;
        }
        if (left <= 0 || (t->rollout == ROLLOUT_TO_AGE && st->age != age))
            return t->evaluation == EVAL_LEARNED ? vm_value(t->vw, st) : evaluate(st);
        left--;
        dc_apply(st, rollout_policy_move(st, &t->rng, &t->policy, mode));
    }
    return terminal_value(st);
}

/* The value of a new leaf (or of a state the tree cannot grow from), P(A wins). */
static double leaf_value(Tree *t, dc_state *st) {
    if (t->leaf == LEAF_PLAYOUT) return rollout_value(t, st);
    double v = vm_value(t->vw, st); /* before the playout changes st */
    if (t->leaf == LEAF_VALUE) return v;
    return (1.0 - t->mix_lambda) * rollout_value(t, st) + t->mix_lambda * v;
}

static void descend(Tree *t, const dc_state *root_state) {
    uint32_t path[MAX_PATH];
    int32_t path_nodes[MAX_PATH];
    int depth = 0;
    dc_state st = *root_state;
    int32_t node = t->root;
    double value;
    for (;;) {
        int32_t move;
        long a = select_arm(t, node, &st, &move);
        if (a < 0) {
            value = leaf_value(t, &st);
            break;
        }
        path[depth] = (uint32_t)a;
        path_nodes[depth++] = node;
        int age = st.age;
        dc_apply(&st, move);
        int32_t child = t->arms[a].child;
        while (dc_is_chance(&st)) dc_apply(&st, dc_sample_chance(&st, &t->rng));
        if (st.phase == DC_GAME_OVER) {
            value = terminal_value(&st);
            break;
        }
        if (t->age_horizon && st.age != age && age > 0) {
            /* a new Age was dealt: its pyramid differs at every descent, so the tree stops
             * here and the leaf evaluation judges the position */
            value = leaf_value(t, &st);
            break;
        }
        if (child < 0 || depth >= MAX_PATH) {
            if (child < 0) t->arms[a].child = new_node(t); /* -1 again if the arena is full */
            value = leaf_value(t, &st);
            break;
        }
        node = child;
    }
    for (int i = 0; i < depth; i++) {
        arm_t *a = &t->arms[path[i]];
        a->visits++;
        a->value_a += value;
        t->nodes[path_nodes[i]].visits++;
        t->nodes[path_nodes[i]].value_a += value;
    }
}

/* --- Python interface --------------------------------------------------------------------- */
static void reset_tree(Tree *t) {
    t->n_nodes = t->n_arms = 0;
    for (int k = 0; k < FREE_CLASSES; k++) t->free_blocks[k] = NO_BLOCK;
    t->root = -1;
}

/* The smallest arm block (8 << k) that holds `n` arms (none for none), or `n` above the
 * largest class. */
static int block_for(int n) {
    if (n == 0) return 0;
    int cap = 8;
    while (cap < n && cap < 8 << (FREE_CLASSES - 1)) cap *= 2;
    return cap < n ? n : cap;
}

/* Keep only the subtree under the root, moved to the front of the arena (root first, then
 * breadth first): after the moves of a game the rest of the tree is dead, and without this a
 * long think fills the arena with it, so the next search would start afresh and lose the
 * subtree. Returns 0 if the scratch memory could not be had (the tree is then left as is). */
static int compact_tree(Tree *t) {
    if (t->root <= 0) return 1;
    int32_t *new_index = PyMem_RawMalloc(t->n_nodes * sizeof(int32_t));
    int32_t *order = PyMem_RawMalloc(t->n_nodes * sizeof(int32_t));
    if (!new_index || !order) {
        PyMem_RawFree(new_index);
        PyMem_RawFree(order);
        return 0;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) new_index[i] = -1;
    uint32_t kept = 0, arms = 0;
    order[kept] = t->root;
    new_index[t->root] = (int32_t)kept++;
    for (uint32_t head = 0; head < kept; head++) { /* breadth first: order[] is the queue */
        const node_t *n = &t->nodes[order[head]];
        arms += (uint32_t)block_for(n->n_arms);
        for (int i = 0; i < n->n_arms; i++) {
            int32_t child = t->arms[n->first + i].child;
            if (child >= 0 && new_index[child] < 0) {
                order[kept] = child;
                new_index[child] = (int32_t)kept++;
            }
        }
    }
    node_t *nodes = PyMem_RawMalloc(kept * sizeof(node_t));
    arm_t *arm_copy = PyMem_RawMalloc((arms ? arms : 1) * sizeof(arm_t));
    if (!nodes || !arm_copy) {
        PyMem_RawFree(new_index);
        PyMem_RawFree(order);
        PyMem_RawFree(nodes);
        PyMem_RawFree(arm_copy);
        return 0;
    }
    uint32_t next_arm = 0;
    for (uint32_t k = 0; k < kept; k++) {
        const node_t *old = &t->nodes[order[k]];
        node_t *n = &nodes[k];
        *n = *old;
        n->first = next_arm;
        n->cap = (uint16_t)block_for(old->n_arms);
        for (int i = 0; i < old->n_arms; i++) {
            arm_t a = t->arms[old->first + i];
            if (a.child >= 0) a.child = new_index[a.child];
            arm_copy[next_arm + (uint32_t)i] = a;
        }
        next_arm += n->cap;
    }
    memcpy(t->nodes, nodes, kept * sizeof(node_t));
    memcpy(t->arms, arm_copy, next_arm * sizeof(arm_t));
    t->n_nodes = kept;
    t->n_arms = next_arm;
    for (int k = 0; k < FREE_CLASSES; k++) t->free_blocks[k] = NO_BLOCK;
    t->root = 0;
    PyMem_RawFree(new_index);
    PyMem_RawFree(order);
    PyMem_RawFree(nodes);
    PyMem_RawFree(arm_copy);
    return 1;
}

/* The learned value's weights from a sequence of floats (solvers.value.ValueModel.flat_weights:
 * W0 stage by stage, then W1); NULL on error. */
static vm_weights *weights_from_sequence(PyObject *obj) {
    PyObject *seq = PySequence_Fast(obj, "value_weights must be a sequence of floats");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != VM_WEIGHTS) {
        PyErr_Format(PyExc_ValueError, "value_weights must hold %d floats (2 x %d stages x %d "
                     "features), not %zd", VM_WEIGHTS, VM_STAGES, VM_FEATURES, n);
        Py_DECREF(seq);
        return NULL;
    }
    vm_weights *w = PyMem_RawCalloc(1, sizeof *w);
    if (!w) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    double *linear = &w->w0[0][0]; /* w0 then w1 */
    _Static_assert(offsetof(vm_weights, w1) == VM_STAGES * VM_FEATURES * sizeof(double), "w1");
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1.0 && PyErr_Occurred()) {
            PyMem_RawFree(w);
            Py_DECREF(seq);
            return NULL;
        }
        linear[i] = x;
    }
    Py_DECREF(seq);
    return w;
}

/* The options that use the learned value: leaf, mix_lambda, evaluation (and prior=learned,
 * parsed with the other priors), and its weights. */
static int learned_options(Tree *self, const char *prior, const char *leaf, double mix_lambda,
                           const char *evaluation, PyObject *value_weights,
                           PyObject *prior_weights) {
    if (strcmp(leaf, "playout") == 0) self->leaf = LEAF_PLAYOUT;
    else if (strcmp(leaf, "value") == 0) self->leaf = LEAF_VALUE;
    else if (strcmp(leaf, "mix") == 0) self->leaf = LEAF_MIX;
    else {
        PyErr_Format(PyExc_ValueError, "leaf must be playout, value or mix, not %s", leaf);
        return -1;
    }
    if (strcmp(evaluation, "heuristic") == 0) self->evaluation = EVAL_HEURISTIC;
    else if (strcmp(evaluation, "learned") == 0) self->evaluation = EVAL_LEARNED;
    else {
        PyErr_Format(PyExc_ValueError, "evaluation must be heuristic or learned, not %s",
                     evaluation);
        return -1;
    }
    if (!(mix_lambda >= 0.0 && mix_lambda <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "need 0 <= mix_lambda <= 1");
        return -1;
    }
    self->mix_lambda = mix_lambda;
    PyMem_RawFree(self->vw);
    self->vw = NULL;
    if (value_weights != Py_None && !(self->vw = weights_from_sequence(value_weights)))
        return -1;
    PyMem_RawFree(self->pw);
    self->pw = NULL;
    if (prior_weights != Py_None && !(self->pw = weights_from_sequence(prior_weights)))
        return -1;
    if (self->pw && strcmp(prior, "learned") != 0) {
        PyErr_SetString(PyExc_ValueError, "prior_weights need prior=learned");
        return -1;
    }
    if (!self->vw && (self->leaf != LEAF_PLAYOUT || self->evaluation == EVAL_LEARNED ||
                      strcmp(prior, "learned") == 0)) {
        PyErr_SetString(PyExc_ValueError, "the learned value (leaf=value or mix, "
                        "evaluation=learned, prior=learned) needs value_weights");
        return -1;
    }
    return 0;
}

static int Tree_init(Tree *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"seed", "c", "fpu", "prior", "prior_temperature", "rollout",
                             "memory", "policy", "eps", "noise", "deny", "modes", "uct", "military",
                             "leaf", "mix_lambda", "evaluation", "value_weights", "age_horizon",
                             "block_science", "prior_weights", NULL};
    unsigned long long seed = 0;
    double c = 1.0, fpu = 0.1, temperature = 1.0, eps = 0.1, noise = 3.0, deny = 0.3;
    double military = 1.0;
    const char *prior = "value", *policy = "kind";
    int rollout = 4, modes = 1, uct = 0, age_horizon = 0, block_science = 0;
    long long memory = 256ll << 20;
    const char *leaf = "playout", *evaluation = "heuristic";
    double mix_lambda = 0.5;
    PyObject *value_weights = Py_None, *prior_weights = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|KddsdiLsdddipdsdsOppO", kwlist, &seed, &c,
                                     &fpu, &prior, &temperature, &rollout, &memory, &policy, &eps,
                                     &noise, &deny, &modes, &uct, &military, &leaf, &mix_lambda,
                                     &evaluation, &value_weights, &age_horizon, &block_science,
                                     &prior_weights))
        return -1;
    if (learned_options(self, prior, leaf, mix_lambda, evaluation, value_weights, prior_weights) < 0)
        return -1;
    if (strcmp(prior, "static") == 0) self->prior = PRIOR_STATIC;
    else if (strcmp(prior, "value") == 0) self->prior = PRIOR_VALUE;
    else if (strcmp(prior, "uniform") == 0) self->prior = PRIOR_UNIFORM;
    else if (strcmp(prior, "policy") == 0) self->prior = PRIOR_POLICY;
    else if (strcmp(prior, "learned") == 0) self->prior = PRIOR_LEARNED;
    else {
        PyErr_Format(PyExc_ValueError,
                     "prior must be static, value, uniform, policy or learned, not %s", prior);
        return -1;
    }
    if (strcmp(policy, "kind") == 0) self->policy.policy = ROLLOUT_POLICY_KIND;
    else if (strcmp(policy, "scored") == 0) self->policy.policy = ROLLOUT_POLICY_SCORED;
    else if (strcmp(policy, "plans") == 0) self->policy.policy = ROLLOUT_POLICY_PLANS;
    else {
        PyErr_Format(PyExc_ValueError, "policy must be kind, scored or plans, not %s", policy);
        return -1;
    }
    if (!(temperature > 0) || !(c >= 0) || rollout < ROLLOUT_TO_AGE || memory < (1 << 16) ||
        !(eps >= 0 && eps <= 1) || !(noise >= 0) || !(deny >= 0) || !(military >= 0) || modes < 0 || modes > 2) {
        PyErr_SetString(PyExc_ValueError,
                        "need prior_temperature > 0, c >= 0, rollout >= -2, memory >= 64 KB, "
                        "0 <= eps <= 1, noise >= 0, deny >= 0, military >= 0, modes 0..2");
        return -1;
    }
    self->policy.eps = eps;
    self->policy.noise = noise;
    self->policy.deny = deny;
    self->policy.military = military;
    self->policy.modes = modes;
    self->uct = uct;
    self->age_horizon = age_horizon;
    self->policy.block_science = block_science;
    /* a node has about 12 arms on average: split the budget accordingly */
    uint64_t unit = sizeof(node_t) + 12 * sizeof(arm_t);
    uint64_t nodes = (uint64_t)memory / unit;
    PyMem_RawFree(self->nodes);
    PyMem_RawFree(self->arms);
    self->nodes = PyMem_RawMalloc(nodes * sizeof(node_t));
    self->arms = PyMem_RawMalloc(nodes * 12 * sizeof(arm_t));
    if (!self->nodes || !self->arms) {
        PyErr_NoMemory();
        return -1;
    }
    self->max_nodes = (uint32_t)(nodes < 0xFFFFFFF0u ? nodes : 0xFFFFFFF0u);
    self->max_arms = (uint32_t)(nodes * 12 < 0xFFFFFFF0u ? nodes * 12 : 0xFFFFFFF0u);
    self->c = c;
    self->fpu = fpu;
    self->prior_temperature = temperature;
    self->rollout = rollout;
    self->memory = memory;
    dc_rng_seed(&self->rng, seed);
    reset_tree(self);
    return 0;
}

static void Tree_dealloc(Tree *self) {
    PyMem_RawFree(self->vw);
    PyMem_RawFree(self->pw);
    PyMem_RawFree(self->nodes);
    PyMem_RawFree(self->arms);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Tree_value(Tree *self, PyObject *obj) {
    dc_state st;
    if (!self->vw) return PyErr_Format(PyExc_ValueError, "this Tree has no value_weights");
    if (capi->get_state(obj, &st) < 0) return NULL;
    return PyFloat_FromDouble(vm_value(self->vw, &st));
}

static PyObject *Tree_value_features(Tree *self, PyObject *obj) {
    (void)self;
    dc_state st;
    int32_t d[VM_FEATURES];
    if (capi->get_state(obj, &st) < 0) return NULL;
    vm_features(&st, d);
    PyObject *out = PyList_New(VM_FEATURES);
    if (!out) return NULL;
    for (int k = 0; k < VM_FEATURES; k++) {
        PyObject *x = PyLong_FromLong(d[k]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

static PyObject *Tree_search(Tree *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"state", "iterations", "seconds", NULL};
    PyObject *obj;
    long long iterations = -1;
    double seconds = -1.0;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Ld", kwlist, &obj, &iterations, &seconds))
        return NULL;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    if (dc_is_chance(st) || dc_is_terminal(st))
        return PyErr_Format(PyExc_ValueError, "no decision to take here");
    if (iterations < 0 && seconds < 0) iterations = 1000;
    /* the clock starts before the compaction, which is part of the move's time (up to 0.4 s
     * for a tree of a 10 s think) */
    double start = now_seconds(), deadline = seconds >= 0 ? start + seconds : -1.0;
    /* the tree kept from the last move: only its live part, at the front of the arena */
    if (self->root > 0 &&
        (self->n_nodes > self->max_nodes / 4 || self->n_arms > self->max_arms / 4))
        compact_tree(self);
    if (self->root < 0 || self->n_nodes > self->max_nodes / 4 * 3 ||
        self->n_arms > self->max_arms / 4 * 3) {
        reset_tree(self);
        self->root = new_node(self);
    }
    long long reused = self->nodes[self->root].visits, done = 0;
    memset(self->mode_n, 0, sizeof self->mode_n);
    memset(self->mode_a, 0, sizeof self->mode_a);
    Py_BEGIN_ALLOW_THREADS
    while (iterations < 0 || done < iterations) {
        descend(self, st);
        done++;
        if (deadline >= 0 && now_seconds() >= deadline) break;
    }
    Py_END_ALLOW_THREADS
    double elapsed = now_seconds() - start;
    /* root statistics for every legal move */
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    const node_t *root = &self->nodes[self->root];
    PyObject *stats = PyList_New(n);
    if (!stats) return NULL;
    int mover_b = st->to_move == 1;
    for (int j = 0; j < n; j++) {
        unsigned long visits = 0;
        double q = 0.5;
        for (int i = 0; i < root->n_arms; i++) {
            const arm_t *a = &self->arms[root->first + i];
            if (a->move == moves[j]) {
                visits = a->visits;
                if (visits) q = a->value_a / visits;
                break;
            }
        }
        PyObject *item = Py_BuildValue("(ikd)", moves[j], visits, mover_b ? 1.0 - q : q);
        if (!item) {
            Py_DECREF(stats);
            return NULL;
        }
        PyList_SET_ITEM(stats, j, item);
    }
    return Py_BuildValue("{s:L,s:d,s:L,s:N,s:k,s:k}", "iterations", done, "seconds", elapsed,
                         "reused", reused, "moves", stats, "nodes", (unsigned long)self->n_nodes,
                         "arms", (unsigned long)self->n_arms);
}

static PyObject *Tree_advance(Tree *self, PyObject *arg) {
    long move = PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    /* chance: the same node (the tree is open loop) */
    if ((int)(move >> 16) >= DC_REVEAL_CARD) Py_RETURN_TRUE;
    if (self->root < 0) Py_RETURN_FALSE;
    const node_t *root = &self->nodes[self->root];
    for (int i = 0; i < root->n_arms; i++) {
        const arm_t *a = &self->arms[root->first + i];
        if (a->move == (int32_t)move) {
            if (a->child < 0) break;
            self->root = a->child;
            Py_RETURN_TRUE;
        }
    }
    reset_tree(self);
    Py_RETURN_FALSE;
}

static PyObject *Tree_compact(Tree *self, PyObject *unused) {
    (void)unused;
    if (!compact_tree(self)) return PyErr_NoMemory();
    return Py_BuildValue("{s:k,s:k}", "nodes", (unsigned long)self->n_nodes, "arms",
                         (unsigned long)self->n_arms);
}

static PyObject *Tree_reset(Tree *self, PyObject *unused) {
    (void)unused;
    reset_tree(self);
    Py_RETURN_NONE;
}

/* The principal line: from the root, the most-visited arm legal at each decision (``first``
 * forces the first one), each chance outcome drawn with its exact probability from a generator
 * of its own seeded by ``seed`` (so the tree's generator, and later searches, are untouched).
 * Stops at an arm never visited, a node not expanded, the end of the game or ``max_len``. */
static PyObject *Tree_principal_line(Tree *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"state", "first", "max_len", "seed", NULL};
    PyObject *obj;
    long first = -1;
    int max_len = 12;
    unsigned long long seed = 0;
    dc_state st;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|liK", kwlist, &obj, &first, &max_len,
                                     &seed))
        return NULL;
    if (capi->get_state(obj, &st) < 0) return NULL;
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    int32_t node = self->root;
    while (PyList_GET_SIZE(line) < max_len && st.phase != DC_GAME_OVER) {
        int32_t move;
        if (dc_is_chance(&st)) {
            move = dc_sample_chance(&st, &rng);
        } else {
            if (node < 0) break;
            int32_t moves[DC_MAX_MOVES];
            int n = dc_legal_moves(&st, moves);
            const node_t *nd = &self->nodes[node];
            const arm_t *best = NULL;
            for (int i = 0; i < nd->n_arms; i++) {
                const arm_t *a = &self->arms[nd->first + i];
                int legal = 0;
                for (int j = 0; j < n && !legal; j++) legal = moves[j] == a->move;
                if (!legal) continue;
                if (first >= 0 ? a->move == (int32_t)first
                               : a->visits && (!best || a->visits > best->visits))
                    best = a;
            }
            first = -1;
            if (!best || !best->visits) break;
            move = best->move;
            node = best->child;
        }
        PyObject *item = PyLong_FromLong(move);
        if (!item || PyList_Append(line, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(line);
            return NULL;
        }
        Py_DECREF(item);
        dc_apply(&st, move);
    }
    return line;
}

static PyObject *Tree_evaluate(Tree *self, PyObject *obj) {
    (void)self;
    dc_state st_value;
    const dc_state *st = &st_value;
    if (capi->get_state(obj, &st_value) < 0) return NULL;
    return PyFloat_FromDouble(evaluate(st));
}

static PyObject *Tree_playout_move(Tree *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"state", "science_a", "science_b", NULL};
    PyObject *obj;
    int science_a = 0, science_b = 0;
    dc_state st;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pp", kwlist, &obj, &science_a, &science_b))
        return NULL;
    if (capi->get_state(obj, &st) < 0) return NULL;
    if (dc_is_chance(&st) || dc_is_terminal(&st))
        return PyErr_Format(PyExc_ValueError, "no decision to take here");
    uint8_t mode[2] = {science_a ? MODE_SCIENCE : MODE_NORMAL, science_b ? MODE_SCIENCE : MODE_NORMAL};
    return PyLong_FromLong(rollout_policy_move(&st, &self->rng, &self->policy, mode));
}

static PyMethodDef Tree_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Tree_search, METH_VARARGS | METH_KEYWORDS,
     "search(state, iterations=-1, seconds=-1) -> dict: grow the tree from the CoreState `state`"
     " (the root: reused if advance() followed the game); moves: [(move, visits, value)]"},
    {"advance", (PyCFunction)Tree_advance, METH_O,
     "advance(move) -> bool: a move played in the game; False if the tree had to start afresh"},
    {"reset", (PyCFunction)Tree_reset, METH_NOARGS, "forget the tree"},
    {"compact", (PyCFunction)Tree_compact, METH_NOARGS,
     "compact() -> dict: keep only the subtree under the root, at the front of the arena (search()"
     " does it when the arena is a quarter full); the nodes and arms left"},
    {"playout_move", (PyCFunction)(void (*)(void))Tree_playout_move, METH_VARARGS | METH_KEYWORDS,
     "playout_move(state, science_a=False, science_b=False) -> int: the move the playout policy"
     " plays here, each player on the plan given (normal, or science)"},
    {"evaluate", (PyCFunction)Tree_evaluate, METH_O, "the leaf evaluation, P(A wins)"},
    {"value", (PyCFunction)Tree_value, METH_O,
     "value(state) -> float: the learned value of the CoreState (solvers.value.value), P(A wins)"},
    {"value_features", (PyCFunction)Tree_value_features, METH_O,
     "value_features(state) -> list: the learned value's features (solvers.features.features)"},
    {"principal_line", (PyCFunction)(void (*)(void))Tree_principal_line,
     METH_VARARGS | METH_KEYWORDS,
     "principal_line(state, first=-1, max_len=12, seed=0) -> [move]: the most-visited arms"
     " from the root `state` (the one searched), chance outcomes drawn with `seed`"},
    {NULL, NULL, 0, NULL}};

static PyObject *Tree_get_size(Tree *self, void *closure) {
    (void)closure;
    return Py_BuildValue("(kk)", (unsigned long)self->n_nodes, (unsigned long)self->n_arms);
}

static PyGetSetDef Tree_getset[] = {
    {"size", (getter)Tree_get_size, NULL, "(nodes, arms) in use in the arena", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "duel.solvers._cmcts.Tree",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The open-loop MCTS of the cmcts player, in C, kept between the moves of a game.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tree_init,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
    .tp_getset = Tree_getset,
};

static struct PyModuleDef cmcts_module = {
    PyModuleDef_HEAD_INIT, "duel.solvers._cmcts",
    "The MCTS of the cmcts player on the C engine; use it through solvers.players.", -1,
    NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cmcts(void) {
    /* The capsule brings duel._ccore's conversions between CoreState and dc_state. */
    PyObject *core = PyImport_ImportModule("duel.core");
    if (!core) return NULL;
    Py_DECREF(core);
    capi = dc_import_capi();
    if (!capi) return NULL;
    if (PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *m = PyModule_Create(&cmcts_module);
    if (!m) return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
