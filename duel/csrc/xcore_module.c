/*
 * duel._xcore: the compiled expansion core (xcore_*.c) as a CPython extension. A State holds a
 * dx_state; duel/xcore.py converts it to and from duel.expansions.XState through the byte
 * layout this module describes (LAYOUT), and maps the int moves to and from XMove.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#include "xcore_legal.c"

typedef struct {
    PyObject_HEAD
    dx_state st;
} XStateObject;

static PyTypeObject XStateType;

static XStateObject *xstate_new(const dx_state *st) {
    XStateObject *obj = PyObject_New(XStateObject, &XStateType);
    if (!obj) return NULL;
    if (((uintptr_t)&obj->st) % 16) { /* dc_cards needs 16-byte alignment */
        Py_DECREF(obj);
        PyErr_SetString(PyExc_SystemError, "State storage is not 16-byte aligned");
        return NULL;
    }
    memcpy(&obj->st, st, sizeof *st);
    return obj;
}

static PyObject *XState_to_bytes(XStateObject *self, PyObject *unused) {
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)&self->st, sizeof self->st);
}

static PyObject *XState_legal_moves(XStateObject *self, PyObject *unused) {
    (void)unused;
    int32_t moves[DX_MAX_MOVES];
    int n = dx_is_chance(&self->st) ? 0 : dx_legal_moves(&self->st, moves);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
    return list;
}

static PyObject *XState_chance_outcomes(XStateObject *self, PyObject *unused) {
    (void)unused;
    int32_t moves[DX_MAX_OUTCOMES];
    int64_t weights[DX_MAX_OUTCOMES];
    int n = dx_is_chance(&self->st) ? dx_chance_outcomes(&self->st, moves, weights) : 0;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(lL)", (long)moves[i], (long long)weights[i]));
    return list;
}

static PyObject *XState_apply(XStateObject *self, PyObject *arg) {
    long move = PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    dx_state next = self->st;
    dx_apply(&next, (int32_t)move);
    return (PyObject *)xstate_new(&next);
}

static PyObject *XState_view(XStateObject *self, PyObject *arg) {
    long player = PyLong_AsLong(arg);
    if (player == -1 && PyErr_Occurred()) return NULL;
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "a view is of player 0 or 1");
        return NULL;
    }
    if (self->st.observer >= 0 && self->st.observer != player) {
        PyErr_SetString(PyExc_ValueError, "a view cannot give another player's view");
        return NULL;
    }
    dx_state out;
    dx_view(&self->st, (int)player, &out);
    return (PyObject *)xstate_new(&out);
}

static PyObject *XState_score(XStateObject *self, PyObject *arg) {
    long player = PyLong_AsLong(arg);
    if (player == -1 && PyErr_Occurred()) return NULL;
    int parts[DX_N_SCORES];
    dx_score(&self->st, player ? 1 : 0, parts);
    PyObject *t = PyTuple_New(DX_N_SCORES);
    if (!t) return NULL;
    for (int i = 0; i < DX_N_SCORES; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(parts[i]));
    return t;
}

static PyObject *XState_random_playout(XStateObject *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    dx_state s = self->st;
    dx_random_playout(&s, &rng);
    return (PyObject *)xstate_new(&s);
}

static PyObject *XState_get_phase(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.phase);
}
static PyObject *XState_get_to_move(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.to_move);
}
static PyObject *XState_get_winner(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.winner);
}
static PyObject *XState_get_pawn(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.pawn);
}
static PyObject *XState_get_age(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.age);
}
static PyObject *XState_get_victory(XStateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.victory);
}
static PyObject *XState_get_is_chance(XStateObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(dx_is_chance(&self->st));
}

static PyObject *XState_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(b, &XStateType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = memcmp(&((XStateObject *)a)->st, &((XStateObject *)b)->st, sizeof(dx_state)) == 0;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t XState_hash(XStateObject *self) {
    uint64_t h = 0x243f6a8885a308d3ull;
    const unsigned char *bytes = (const unsigned char *)&self->st;
    for (size_t i = 0; i < sizeof self->st; i++) h = (h ^ bytes[i]) * 0x100000001b3ull;
    Py_hash_t out = (Py_hash_t)(h >> 1);
    return out == -1 ? -2 : out;
}

static PyMethodDef XState_methods[] = {
    {"to_bytes", (PyCFunction)XState_to_bytes, METH_NOARGS, "The raw state (see LAYOUT)."},
    {"legal_moves", (PyCFunction)XState_legal_moves, METH_NOARGS, "Legal moves as int codes."},
    {"chance_outcomes", (PyCFunction)XState_chance_outcomes, METH_NOARGS,
     "[(move code, integer weight)] at a chance node."},
    {"apply", (PyCFunction)XState_apply, METH_O, "The state after a legal move (int code)."},
    {"view", (PyCFunction)XState_view, METH_O, "What a player knows."},
    {"score", (PyCFunction)XState_score, METH_O, "A player's points by category."},
    {"random_playout", (PyCFunction)XState_random_playout, METH_O,
     "The end of a uniformly random game from here (seeded)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef XState_getset[] = {
    {"phase", (getter)XState_get_phase, NULL, "phase index (PHASES)", NULL},
    {"to_move", (getter)XState_get_to_move, NULL, "player to move", NULL},
    {"winner", (getter)XState_get_winner, NULL, "-1, 0, 1 or 2 (shared)", NULL},
    {"is_chance", (getter)XState_get_is_chance, NULL, "a chance node", NULL},
    {"pawn", (getter)XState_get_pawn, NULL, "the Conflict pawn (-9..9)", NULL},
    {"age", (getter)XState_get_age, NULL, "the Age (0 during setup)", NULL},
    {"victory", (getter)XState_get_victory, NULL, "victory kind index", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject XStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "duel._xcore.State",
    .tp_basicsize = sizeof(XStateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An immutable position of an expansion game held by the compiled core.",
    .tp_methods = XState_methods,
    .tp_getset = XState_getset,
    .tp_richcompare = XState_richcompare,
    .tp_hash = (hashfunc)XState_hash,
};

/* --- module functions --------------------------------------------------------------------- */
static PyObject *mod_new_game(PyObject *self, PyObject *arg) {
    (void)self;
    long expansions = PyLong_AsLong(arg);
    if (expansions == -1 && PyErr_Occurred()) return NULL;
    dx_state s;
    dx_new_game(&s, (int)expansions);
    return (PyObject *)xstate_new(&s);
}

static PyObject *mod_from_bytes(PyObject *self, PyObject *arg) {
    (void)self;
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(arg, &data, &size) < 0) return NULL;
    if (size != (Py_ssize_t)sizeof(dx_state)) {
        PyErr_Format(PyExc_ValueError, "expected %zu bytes, got %zd", sizeof(dx_state), size);
        return NULL;
    }
    dx_state s;
    memcpy(&s, data, sizeof s);
    dx_refresh_forces(&s); /* derived: not in the layout */
    return (PyObject *)xstate_new(&s);
}

/* random_games(expansions, games, seed) -> (steps, wins of A, wins of B, shared): the speed
 * benchmark's loop, all in C. */
static PyObject *mod_random_games(PyObject *self, PyObject *args) {
    (void)self;
    int expansions;
    long long games;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iLK", &expansions, &games, &seed)) return NULL;
    long long steps = 0, wins[3] = {0, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    for (long long g = 0; g < games; g++) {
        dx_state s;
        dx_new_game(&s, expansions);
        steps += dx_random_playout(&s, &rng);
        if (s.winner >= 0 && s.winner <= 2) wins[s.winner]++;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LLLL)", steps, wins[0], wins[1], wins[2]);
}

#define DX_PHASE_NAME(name, text) text,
#define DX_KIND_NAME(name, text) text,
static const char *const PHASE_NAMES[] = {DX_PHASES(DX_PHASE_NAME)};
static const char *const KIND_NAMES[] = {DX_KINDS(DX_KIND_NAME)};

/* The byte layout of dx_state: (field, offset, struct format of one item, items). */
#define F(field, fmt, count) {#field, offsetof(dx_state, field), fmt, count},
#define C(who, field, fmt, count) \
    {"p" #who "." #field, offsetof(dx_state, p[who].field), fmt, count},
static const struct {
    const char *name;
    size_t offset;
    const char *fmt;
    int count;
} LAYOUT[] = {DX_LAYOUT(F, C)};
#undef F
#undef C

static PyObject *layout_list(void) {
    size_t n = sizeof LAYOUT / sizeof LAYOUT[0];
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t i = 0; i < n; i++)
        PyList_SET_ITEM(list, (Py_ssize_t)i,
                        Py_BuildValue("(sksi)", LAYOUT[i].name, (unsigned long)LAYOUT[i].offset,
                                      LAYOUT[i].fmt, LAYOUT[i].count));
    return list;
}

static PyObject *names_tuple(const char *const *names, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyUnicode_FromString(names[i]));
    return t;
}

static PyMethodDef module_methods[] = {
    {"new_game", mod_new_game, METH_O, "The state before setup (expansions: a bit mask)."},
    {"from_bytes", mod_from_bytes, METH_O, "A State from its raw bytes (see LAYOUT)."},
    {"random_games", mod_random_games, METH_VARARGS,
     "random_games(expansions, games, seed) -> (steps, wins A, wins B, shared)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef xcore_module = {PyModuleDef_HEAD_INIT, "duel._xcore",
                                          "The compiled expansion core (duel/csrc/xcore*.c).",
                                          -1, module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xcore(void) {
    if (PyType_Ready(&XStateType) < 0) return NULL;
    PyObject *m = PyModule_Create(&xcore_module);
    if (!m) return NULL;
    Py_INCREF(&XStateType);
    PyModule_AddObject(m, "State", (PyObject *)&XStateType);
    PyModule_AddObject(m, "PHASES", names_tuple(PHASE_NAMES, DX_N_PHASES));
    PyModule_AddObject(m, "KINDS", names_tuple(KIND_NAMES, DX_N_KINDS));
    PyModule_AddObject(m, "LAYOUT", layout_list());
    PyModule_AddIntConstant(m, "SIZE", (long)sizeof(dx_state));
    PyModule_AddIntConstant(m, "SLOTS", DX_SLOTS);
    PyModule_AddIntConstant(m, "MAX_PENDING", DX_MAX_PENDING);
    return m;
}
