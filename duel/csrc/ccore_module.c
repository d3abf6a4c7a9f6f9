/*
 * duel._ccore: the C core (duel_core.c) as a CPython extension, with a CoreState type that
 * converts exactly to and from duel.state.State. Load it through duel.core, which honours
 * DUEL_PURE=1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "duel_core.c"
#include "ccore_capi.h"

/* The Python fields' indices (DC_F_*, DC_P_*) are generated with the struct: duel_layout.h. */

static const char *PHASE_NAMES[] = {
    "setup_tokens", "setup_wonders", "draft", "reveal", "play", "choose_token", "library_draw",
    "library_choose", "destroy", "mausoleum", "choose_starter", "game_over", "deal_guilds"};
static const char *VICTORY_NAMES[] = {"", "military", "science", "civilian"};


typedef struct {
    PyObject_HEAD
    dc_state st;
} CoreStateObject;

static PyTypeObject CoreStateType;
static PyObject *py_pvector;      /* pyrsistent.pvector */
static PyObject *py_state_class;  /* duel.state.State */
static PyObject *py_illegal_move; /* duel.state.IllegalMoveError */

static int load_python_refs(void) {
    if (py_state_class) return 0;
    PyObject *pyr = PyImport_ImportModule("pyrsistent");
    if (!pyr) return -1;
    py_pvector = PyObject_GetAttrString(pyr, "pvector");
    Py_DECREF(pyr);
    PyObject *mod = PyImport_ImportModule("duel.state");
    if (!mod) return -1;
    py_illegal_move = PyObject_GetAttrString(mod, "IllegalMoveError");
    py_state_class = PyObject_GetAttrString(mod, "State");
    Py_DECREF(mod);
    return py_pvector && py_state_class && py_illegal_move ? 0 : -1;
}

static CoreStateObject *core_new(const dc_state *st) {
    CoreStateObject *obj = PyObject_New(CoreStateObject, &CoreStateType);
    if (!obj) return NULL;
    if (((uintptr_t)&obj->st) % 16) { /* dc_cards needs 16-byte alignment */
        Py_DECREF(obj);
        PyErr_SetString(PyExc_SystemError, "CoreState storage is not 16-byte aligned");
        return NULL;
    }
    memcpy(&obj->st, st, sizeof *st);
    return obj;
}

/* --- conversions ------------------------------------------------------------------------- */
static PyObject *py_sixty_four;

static int read_cards(PyObject *v, dc_cards *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a card mask field is not an int");
        return -1;
    }
    uint64_t lo = PyLong_AsUnsignedLongLongMask(v);
    PyObject *hi_obj = PyNumber_Rshift(v, py_sixty_four);
    if (!hi_obj) return -1;
    uint64_t hi = PyLong_AsUnsignedLongLong(hi_obj);
    Py_DECREF(hi_obj);
    if (PyErr_Occurred()) return -1;
    *out = DC_CARDS(hi, lo);
    return 0;
}

static PyObject *cards_to_py(dc_cards x) {
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *shifted = h ? PyNumber_Lshift(h, py_sixty_four) : NULL;
    PyObject *out = shifted && l ? PyNumber_Or(shifted, l) : NULL;
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(shifted);
    return out;
}

/* A small int field, range-checked. */
static int read_int(PyObject *v, long lo, long hi, const char *what, long *out) {
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "field %s = %ld is out of range for the C core", what, x);
        return -1;
    }
    *out = x;
    return 0;
}

static int state_from_fields(PyObject *fields_obj, dc_state *st) {
    PyObject *seq = PySequence_Fast(fields_obj, "State.fields is not a sequence");
    if (!seq) return -1;
    int ok = -1, top = DC_TOP_FIELDS;
    PyObject *pyr = NULL;
    if (PySequence_Fast_GET_SIZE(seq) != DC_N_FIELDS) {
        PyErr_Format(PyExc_ValueError,
                     "a State has %zd fields; the C core expects %d (rebuild it: pip install -e .)",
                     PySequence_Fast_GET_SIZE(seq), DC_N_FIELDS);
        goto done;
    }
    PyObject **f = PySequence_Fast_ITEMS(seq);
    memset(st, 0, sizeof *st);
    long x;
#define SMALL(idx, lo, hi, field)                                                  \
    if (read_int(f[idx], lo, hi, #field, &x) < 0) goto done;                        \
    st->field = x;
    SMALL(DC_F_PHASE, 0, DC_DEAL_GUILDS, phase);
    SMALL(DC_F_TO_MOVE, 0, 1, to_move);
    SMALL(DC_F_AGE, 0, 3, age);
    SMALL(DC_F_PRESENT, 0, DC_ALL_SLOTS, present);
    SMALL(DC_F_ACCESSIBLE, 0, DC_ALL_SLOTS, accessible);
    SMALL(DC_F_REVEAL, 0, DC_ALL_SLOTS, reveal);
    SMALL(DC_F_PAWN, -9, 9, pawn);
    SMALL(DC_F_MILITARY, 0, 15, military);
    SMALL(DC_F_BOARD, 0, 0x3FF, board);
    SMALL(DC_F_OFFER, 0, 0xFFF, offer);
    SMALL(DC_F_WONDERS_UNSEEN, 0, 0xFFF, wonders_unseen);
    SMALL(DC_F_PICKS, 0, 8, picks);
    SMALL(DC_F_EXTRA, 0, 1, extra);
    SMALL(DC_F_LIBRARY, 0, 0x3FF, library);
    SMALL(DC_F_WINNER, -1, 2, winner);
    SMALL(DC_F_VICTORY, 0, 3, victory);
    SMALL(DC_F_GUILD_SLOTS, 0, DC_ALL_SLOTS, guild_slots);
    if (read_cards(f[DC_F_UNSEEN], &st->unseen) < 0 || read_cards(f[DC_F_DISCARD], &st->discard) < 0)
        goto done;
    dc_cards destroying;
    if (read_cards(f[DC_F_DESTROYING], &destroying) < 0) goto done;
    if (destroying == 0) st->destroying = 0;
    else if (destroying == DC_BROWN) st->destroying = 1;
    else if (destroying == DC_GREY) st->destroying = 2;
    else {
        PyErr_SetString(PyExc_ValueError, "field DESTROYING is neither 0, brown nor grey");
        goto done;
    }
    for (int p = 0; p < 2; p++) {
        PyObject **g = f + top + p * DC_PLAYER_FIELDS;
        dc_player *pl = &st->p[p];
        if (read_int(g[DC_P_COINS], 0, 1 << 20, "coins", &x) < 0) goto done;
        pl->coins = (int32_t)x;
        if (read_cards(g[DC_P_CITY], &pl->cards) < 0 || read_cards(g[DC_P_UNDER], &pl->under) < 0)
            goto done;
        if (read_int(g[DC_P_WONDERS_OWNED], 0, 0xFFF, "wonders", &x) < 0) goto done;
        pl->wonders = (uint16_t)x;
        if (read_int(g[DC_P_BUILT], 0, 0xFFF, "built", &x) < 0) goto done;
        pl->built = (uint16_t)x;
        if (read_int(g[DC_P_TOKENS_HELD], 0, 0x3FF, "tokens", &x) < 0) goto done;
        pl->tokens = (uint16_t)x;
        if (read_int(g[DC_P_SCIENCE], 0, 0x7F, "science", &x) < 0) goto done;
        pl->science = (uint8_t)x;
        if (read_int(g[DC_P_CHAINS], 0, (1L << DC_N_CHAIN_SYMBOLS) - 1, "chains", &x) < 0) goto done;
        pl->chains = (uint32_t)x;
        if (read_int(g[DC_P_ECON], 0, (1L << 26) - 1, "econ", &x) < 0) goto done;
        pl->econ = (uint32_t)x;
    }
#undef SMALL
    pyr = PySequence_Fast(f[DC_F_PYRAMID], "the PYRAMID field is not a sequence");
    if (!pyr) goto done;
    if (PySequence_Fast_GET_SIZE(pyr) != DC_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "the PYRAMID field does not have 20 slots");
        goto done;
    }
    for (int i = 0; i < DC_SLOTS; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(pyr, i), DC_HIDDEN, DC_N_CARDS - 1, "pyramid", &x) < 0)
            goto done;
        st->pyramid[i] = (int8_t)x;
    }
    ok = 0;
done:
    Py_XDECREF(pyr);
    Py_DECREF(seq);
    return ok;
}

static PyObject *state_to_fields_list(const dc_state *st) {
    int top = DC_TOP_FIELDS, n = DC_N_FIELDS;
    PyObject *list = PyList_New(n), *pyr_list = PyList_New(DC_SLOTS), *pyr = NULL;
    if (!list || !pyr_list) goto fail;
    for (int i = 0; i < DC_SLOTS; i++) {
        PyObject *v = PyLong_FromLong(st->pyramid[i]);
        if (!v) goto fail;
        PyList_SET_ITEM(pyr_list, i, v);
    }
    pyr = PyObject_CallOneArg(py_pvector, pyr_list);
    if (!pyr) goto fail;
    dc_cards destroying = st->destroying == 1 ? DC_BROWN : st->destroying == 2 ? DC_GREY : 0;
    PyObject *items[DC_N_FIELDS] = {NULL};
    items[DC_F_PHASE] = PyLong_FromLong(st->phase);
    items[DC_F_TO_MOVE] = PyLong_FromLong(st->to_move);
    items[DC_F_AGE] = PyLong_FromLong(st->age);
    items[DC_F_PYRAMID] = pyr;
    pyr = NULL;
    items[DC_F_PRESENT] = PyLong_FromUnsignedLong(st->present);
    items[DC_F_ACCESSIBLE] = PyLong_FromUnsignedLong(st->accessible);
    items[DC_F_REVEAL] = PyLong_FromUnsignedLong(st->reveal);
    items[DC_F_UNSEEN] = cards_to_py(st->unseen);
    items[DC_F_PAWN] = PyLong_FromLong(st->pawn);
    items[DC_F_MILITARY] = PyLong_FromLong(st->military);
    items[DC_F_BOARD] = PyLong_FromLong(st->board);
    items[DC_F_DISCARD] = cards_to_py(st->discard);
    items[DC_F_OFFER] = PyLong_FromLong(st->offer);
    items[DC_F_WONDERS_UNSEEN] = PyLong_FromLong(st->wonders_unseen);
    items[DC_F_PICKS] = PyLong_FromLong(st->picks);
    items[DC_F_EXTRA] = PyLong_FromLong(st->extra);
    items[DC_F_LIBRARY] = PyLong_FromLong(st->library);
    items[DC_F_WINNER] = PyLong_FromLong(st->winner);
    items[DC_F_VICTORY] = PyLong_FromLong(st->victory);
    items[DC_F_DESTROYING] = cards_to_py(destroying);
    items[DC_F_GUILD_SLOTS] = PyLong_FromUnsignedLong(st->guild_slots);
    for (int p = 0; p < 2; p++) {
        PyObject **g = items + top + p * DC_PLAYER_FIELDS;
        const dc_player *pl = &st->p[p];
        g[DC_P_COINS] = PyLong_FromLong(pl->coins);
        g[DC_P_CITY] = cards_to_py(pl->cards);
        g[DC_P_UNDER] = cards_to_py(pl->under);
        g[DC_P_WONDERS_OWNED] = PyLong_FromLong(pl->wonders);
        g[DC_P_BUILT] = PyLong_FromLong(pl->built);
        g[DC_P_TOKENS_HELD] = PyLong_FromLong(pl->tokens);
        g[DC_P_SCIENCE] = PyLong_FromLong(pl->science);
        g[DC_P_CHAINS] = PyLong_FromUnsignedLong(pl->chains);
        g[DC_P_ECON] = PyLong_FromUnsignedLong(pl->econ);
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (!items[i]) failed = 1;
        PyList_SET_ITEM(list, i, items[i] ? items[i] : (Py_INCREF(Py_None), Py_None));
    }
    Py_DECREF(pyr_list);
    if (failed) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
fail:
    Py_XDECREF(list);
    Py_XDECREF(pyr_list);
    Py_XDECREF(pyr);
    return NULL;
}

/* A dc_rng from an int seed or an object with getrandbits (random.Random). */
static int rng_from(PyObject *arg, dc_rng *rng) {
    uint64_t seed;
    if (PyLong_Check(arg)) {
        seed = PyLong_AsUnsignedLongLongMask(arg);
    } else {
        PyObject *bits = PyObject_CallMethod(arg, "getrandbits", "i", 64);
        if (!bits) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "rng must be an int seed or a random.Random");
            return -1;
        }
        seed = PyLong_AsUnsignedLongLongMask(bits);
        Py_DECREF(bits);
    }
    if (PyErr_Occurred()) return -1;
    dc_rng_seed(rng, seed);
    return 0;
}

static int check_player(int player) {
    if (player == 0 || player == 1) return 0;
    PyErr_Format(PyExc_ValueError, "player must be 0 (A) or 1 (B), not %d", player);
    return -1;
}

/* --- methods ----------------------------------------------------------------------------- */
static PyObject *CoreState_from_state(PyObject *cls, PyObject *state) {
    (void)cls;
    PyObject *fields = PyObject_GetAttrString(state, "fields");
    if (!fields) return NULL;
    dc_state st;
    int rc = state_from_fields(fields, &st);
    Py_DECREF(fields);
    if (rc < 0) return NULL;
    return (PyObject *)core_new(&st);
}

static PyObject *CoreState_new_game(PyObject *cls, PyObject *unused) {
    (void)cls;
    (void)unused;
    dc_state st;
    dc_new_game(&st);
    return (PyObject *)core_new(&st);
}

static PyObject *CoreState_to_state(CoreStateObject *self, PyObject *unused) {
    (void)unused;
    if (load_python_refs() < 0) return NULL;
    PyObject *list = state_to_fields_list(&self->st);
    if (!list) return NULL;
    PyObject *vec = PyObject_CallOneArg(py_pvector, list);
    Py_DECREF(list);
    if (!vec) return NULL;
    PyObject *state = PyObject_CallOneArg(py_state_class, vec);
    Py_DECREF(vec);
    return state;
}

static PyObject *moves_to_list(const int32_t *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(moves[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *CoreState_legal_moves(CoreStateObject *self, PyObject *unused) {
    (void)unused;
    int32_t moves[DC_MAX_MOVES];
    return moves_to_list(moves, dc_legal_moves(&self->st, moves));
}

static PyObject *CoreState_apply(CoreStateObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"move", "check", NULL};
    long move;
    int check = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "l|$p", kwlist, &move, &check)) return NULL;
    (void)check; /* always checked: an illegal move must not corrupt the C state, and the
                  * check costs one move generation */
    if (move < 0 || move > INT32_MAX || !dc_is_legal(&self->st, (int32_t)move)) {
        /* The reason comes from the Python engine, which explains it. */
        if (load_python_refs() < 0) return NULL;
        if (move < 0 || move > INT32_MAX || DC_MOVE_KIND(move) > DC_DEAL_GUILDS_MOVE) {
            PyErr_Format(py_illegal_move, "%ld is not a move code", move);
            return NULL;
        }
        PyObject *state = CoreState_to_state(self, NULL);
        PyObject *reason = state ? PyObject_CallMethod(state, "why_illegal", "l", move) : NULL;
        Py_XDECREF(state);
        if (!reason) {
            PyErr_Clear(); /* a code the Python engine cannot even describe */
            PyErr_Format(py_illegal_move, "move %ld is not legal here", move);
            return NULL;
        }
        if (reason == Py_None)
            PyErr_Format(py_illegal_move, "move %ld is not legal here", move);
        else
            PyErr_SetObject(py_illegal_move, reason);
        Py_DECREF(reason);
        return NULL;
    }
    CoreStateObject *child = core_new(&self->st);
    if (!child) return NULL;
    dc_apply(&child->st, (int32_t)move);
    return (PyObject *)child;
}

static PyObject *CoreState_is_chance(CoreStateObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(dc_is_chance(&self->st));
}

static PyObject *CoreState_is_terminal(CoreStateObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(dc_is_terminal(&self->st));
}

static PyObject *CoreState_chance_weights(CoreStateObject *self, PyObject *unused) {
    (void)unused;
    static int32_t moves[DC_MAX_OUTCOMES]; /* the GIL is held: static buffers are safe */
    static int64_t weights[DC_MAX_OUTCOMES];
    int64_t total = 0;
    int n = dc_is_chance(&self->st) ? dc_chance_outcomes(&self->st, moves, weights, &total) : 0;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(lL)", (long)moves[i], (long long)weights[i]);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return Py_BuildValue("(NL)", list, (long long)total);
}

static PyObject *CoreState_sample_chance(CoreStateObject *self, PyObject *rng_arg) {
    dc_rng rng;
    if (rng_from(rng_arg, &rng) < 0) return NULL;
    if (!dc_is_chance(&self->st)) {
        PyErr_SetString(PyExc_ValueError, "not a chance node");
        return NULL;
    }
    int32_t move = dc_sample_chance(&self->st, &rng);
    if (move < 0) {
        PyErr_SetString(PyExc_ValueError, "this chance node has no outcome (inconsistent)");
        return NULL;
    }
    return PyLong_FromLong(move);
}

static PyObject *CoreState_random_move(CoreStateObject *self, PyObject *rng_arg) {
    dc_rng rng;
    if (rng_from(rng_arg, &rng) < 0) return NULL;
    int32_t move = dc_random_move(&self->st, &rng);
    if (move < 0) {
        PyErr_SetString(PyExc_ValueError, "no move here (the game is over)");
        return NULL;
    }
    return PyLong_FromLong(move);
}

static PyObject *CoreState_random_playout(CoreStateObject *self, PyObject *rng_arg) {
    dc_rng rng;
    if (rng_from(rng_arg, &rng) < 0) return NULL;
    CoreStateObject *child = core_new(&self->st);
    if (!child) return NULL;
    dc_random_playout(&child->st, &rng);
    return (PyObject *)child;
}

static PyObject *CoreState_card_cost(CoreStateObject *self, PyObject *args) {
    int player, card;
    if (!PyArg_ParseTuple(args, "ii", &player, &card) || check_player(player) < 0) return NULL;
    if (card < 0 || card >= DC_N_CARDS) return PyErr_Format(PyExc_ValueError, "no card %d", card);
    return PyLong_FromLong(dc_card_cost(&self->st, player, card));
}

static PyObject *CoreState_wonder_cost(CoreStateObject *self, PyObject *args) {
    int player, wonder;
    if (!PyArg_ParseTuple(args, "ii", &player, &wonder) || check_player(player) < 0) return NULL;
    if (wonder < 0 || wonder >= DC_N_WONDERS)
        return PyErr_Format(PyExc_ValueError, "no wonder %d", wonder);
    return PyLong_FromLong(dc_wonder_cost(&self->st, player, wonder));
}

static PyObject *CoreState_total_points(CoreStateObject *self, PyObject *arg) {
    int player = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred() || check_player(player) < 0) return NULL;
    return PyLong_FromLong(dc_total_points(&self->st, player));
}

static PyObject *CoreState_score(CoreStateObject *self, PyObject *arg) {
    int player = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred() || check_player(player) < 0) return NULL;
    int out[DC_SCORE_CATEGORIES];
    dc_score_breakdown(&self->st, player, out);
    return Py_BuildValue("(iiiiiiii)", out[0], out[1], out[2], out[3], out[4], out[5], out[6],
                         out[7]);
}

static PyObject *CoreState_get_phase(CoreStateObject *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(PHASE_NAMES[self->st.phase]);
}

#define INT_GETTER(name, expr)                                               \
    static PyObject *CoreState_get_##name(CoreStateObject *self, void *c) {  \
        (void)c;                                                             \
        return PyLong_FromLong(expr);                                        \
    }
INT_GETTER(to_move, self->st.to_move)
INT_GETTER(age, self->st.age)
INT_GETTER(pawn, self->st.pawn)
INT_GETTER(phase_id, self->st.phase)

static PyObject *CoreState_get_winner(CoreStateObject *self, void *c) {
    (void)c;
    int w = self->st.winner;
    if (w == 0 || w == 1) return PyLong_FromLong(w);
    Py_RETURN_NONE;
}

static PyObject *CoreState_get_victory(CoreStateObject *self, void *c) {
    (void)c;
    return PyUnicode_FromString(VICTORY_NAMES[self->st.victory & 3]);
}

static PyObject *CoreState_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(b, &CoreStateType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = dc_state_equal(&((CoreStateObject *)a)->st, &((CoreStateObject *)b)->st);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t CoreState_hash(CoreStateObject *self) {
    Py_hash_t h = (Py_hash_t)dc_state_hash(&self->st);
    return h == -1 ? -2 : h;
}

static PyObject *CoreState_repr(CoreStateObject *self) {
    const dc_state *s = &self->st;
    if (s->phase == DC_GAME_OVER)
        return PyUnicode_FromFormat("<CoreState game over: winner %d (%s)>", s->winner,
                                    VICTORY_NAMES[s->victory & 3]);
    return PyUnicode_FromFormat("<CoreState age %d, %s, %s to move>", s->age,
                                PHASE_NAMES[s->phase],
                                dc_is_chance(s) ? "chance" : s->to_move ? "B" : "A");
}

static PyMethodDef CoreState_methods[] = {
    {"from_state", (PyCFunction)CoreState_from_state, METH_O | METH_CLASS,
     "from_state(state) -> CoreState: the exact C copy of a duel.state.State."},
    {"new_game", (PyCFunction)CoreState_new_game, METH_NOARGS | METH_CLASS,
     "new_game() -> CoreState: before setup, as duel.new_game()."},
    {"to_state", (PyCFunction)CoreState_to_state, METH_NOARGS,
     "to_state() -> State: the equal Python state."},
    {"legal_moves", (PyCFunction)CoreState_legal_moves, METH_NOARGS,
     "legal_moves() -> list[int]: as State.legal_moves(), same order."},
    {"apply", (PyCFunction)(void (*)(void))CoreState_apply, METH_VARARGS | METH_KEYWORDS,
     "apply(move) -> CoreState: a new state; this one is unchanged. An illegal move raises\n"
     "IllegalMoveError with the Python engine's reason (check=False is accepted for parity;\n"
     "legality is always checked, it costs little here)."},
    {"is_chance", (PyCFunction)CoreState_is_chance, METH_NOARGS, "is_chance() -> bool"},
    {"is_terminal", (PyCFunction)CoreState_is_terminal, METH_NOARGS, "is_terminal() -> bool"},
    {"chance_weights", (PyCFunction)CoreState_chance_weights, METH_NOARGS,
     "chance_weights() -> ([(move, weight)], total): as State.chance_weights()."},
    {"sample_chance", (PyCFunction)CoreState_sample_chance, METH_O,
     "sample_chance(rng) -> int: an outcome with its exact probability; rng is an int seed\n"
     "or a random.Random (64 bits are drawn from it to seed the C generator)."},
    {"random_move", (PyCFunction)CoreState_random_move, METH_O,
     "random_move(rng) -> int: uniform over legal moves, or a chance outcome."},
    {"random_playout", (PyCFunction)CoreState_random_playout, METH_O,
     "random_playout(rng) -> CoreState: the end of a uniformly random game from here."},
    {"card_cost", (PyCFunction)CoreState_card_cost, METH_VARARGS,
     "card_cost(player, card) -> int: as State.card_cost."},
    {"wonder_cost", (PyCFunction)CoreState_wonder_cost, METH_VARARGS,
     "wonder_cost(player, wonder) -> int: as State.wonder_cost."},
    {"total_points", (PyCFunction)CoreState_total_points, METH_O,
     "total_points(player) -> int: State.score(player).total."},
    {"score", (PyCFunction)CoreState_score, METH_O,
     "score(player) -> tuple of 8 ints in Score.CATEGORIES order."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef CoreState_getset[] = {
    {"phase", (getter)CoreState_get_phase, NULL, "phase name, as State.phase", NULL},
    {"phase_id", (getter)CoreState_get_phase_id, NULL, "the PHASE field", NULL},
    {"to_move", (getter)CoreState_get_to_move, NULL, "player to move", NULL},
    {"age", (getter)CoreState_get_age, NULL, "Age (0 during setup)", NULL},
    {"pawn", (getter)CoreState_get_pawn, NULL, "Conflict pawn, -9..9", NULL},
    {"winner", (getter)CoreState_get_winner, NULL, "0, 1 or None", NULL},
    {"victory", (getter)CoreState_get_victory, NULL, "victory kind or ''", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CoreStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "duel._ccore.CoreState",
    .tp_basicsize = sizeof(CoreStateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An immutable 7 Wonders Duel position held by the C core (duel/csrc).",
    .tp_methods = CoreState_methods,
    .tp_getset = CoreState_getset,
    .tp_richcompare = CoreState_richcompare,
    .tp_hash = (hashfunc)CoreState_hash,
    .tp_repr = (reprfunc)CoreState_repr,
};

/* --- the C API capsule (ccore_capi.h) ----------------------------------------------------- */
static int capi_get_state(PyObject *obj, dc_state *out) {
    if (!PyObject_TypeCheck(obj, &CoreStateType)) {
        PyErr_Format(PyExc_TypeError, "expected a CoreState, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = ((CoreStateObject *)obj)->st;
    return 0;
}

static PyObject *capi_new_state(const dc_state *st) { return (PyObject *)core_new(st); }

static int capi_from_python(PyObject *state, dc_state *out) {
    PyObject *fields = PyObject_GetAttrString(state, "fields");
    if (!fields) return -1;
    int rc = state_from_fields(fields, out);
    Py_DECREF(fields);
    return rc;
}

static PyObject *capi_to_python(const dc_state *st) {
    CoreStateObject *tmp = core_new(st);
    if (!tmp) return NULL;
    PyObject *state = CoreState_to_state(tmp, NULL);
    Py_DECREF(tmp);
    return state;
}

static dc_capi capi = {DC_CAPI_VERSION, sizeof(dc_state), capi_get_state, capi_new_state,
                       capi_from_python, capi_to_python};

/* --- module functions -------------------------------------------------------------------- */
static PyObject *mod_play_random_games(PyObject *m, PyObject *args) {
    (void)m;
    long long n;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "LK", &n, &seed)) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "games must be >= 0");
    long long steps = 0, wins[3] = {0, 0, 0}, victories[4] = {0, 0, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    dc_state s;
    for (long long i = 0; i < n; i++) {
        dc_new_game(&s);
        steps += dc_random_playout(&s, &rng);
        if (s.winner >= 0 && s.winner <= 2) wins[s.winner]++;
        victories[s.victory & 3]++;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("{s:L,s:L,s:(LLL),s:{s:L,s:L,s:L}}", "games", n, "steps", steps, "wins",
                         wins[0], wins[1], wins[2], "victories", "military",
                         victories[DC_MILITARY], "science", victories[DC_SCIENCE], "civilian",
                         victories[DC_CIVILIAN]);
}

/* Benchmark helper: for each state, `repeats` times: copy it, generate its legal moves and
 * apply the middle one (the "clone + legal moves + apply" figure of issue 9), all in C. */
static PyObject *mod_bench_clone_legal_apply(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *states;
    long repeats;
    if (!PyArg_ParseTuple(args, "O!l", &PyList_Type, &states, &repeats)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(states);
    dc_state *copy = PyMem_Malloc(sizeof(dc_state) * (size_t)(n ? n : 1));
    if (!copy) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(states, i);
        if (!PyObject_TypeCheck(item, &CoreStateType)) {
            PyMem_Free(copy);
            return PyErr_Format(PyExc_TypeError, "states must be CoreState objects");
        }
        copy[i] = ((CoreStateObject *)item)->st;
    }
    long long done = 0, checksum = 0;
    Py_BEGIN_ALLOW_THREADS
    int32_t moves[DC_MAX_MOVES];
    for (long r = 0; r < repeats; r++) {
        for (Py_ssize_t i = 0; i < n; i++) {
            dc_state child = copy[i];
            int k = dc_legal_moves(&child, moves);
            if (k == 0) continue;
            dc_apply(&child, moves[k / 2]);
            checksum += child.p[0].coins;
            done++;
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(copy);
    return Py_BuildValue("(LL)", done, checksum);
}

static PyObject *mod_min_purchase_cost(PyObject *m, PyObject *args) {
    (void)m;
    int need[5], prod[5], prices[5], raw, man, waivable;
    if (!PyArg_ParseTuple(args, "(iiiii)(iiiii)ii(iiiii)i", &need[0], &need[1], &need[2],
                          &need[3], &need[4], &prod[0], &prod[1], &prod[2], &prod[3], &prod[4],
                          &raw, &man, &prices[0], &prices[1], &prices[2], &prices[3], &prices[4],
                          &waivable))
        return NULL;
    uint8_t n8[5], p8[5];
    for (int r = 0; r < 5; r++) {
        if (need[r] < 0 || need[r] > 255 || prod[r] < 0 || prod[r] > 255)
            return PyErr_Format(PyExc_ValueError, "need and prod are 0..255 per resource");
        n8[r] = (uint8_t)need[r];
        p8[r] = (uint8_t)prod[r];
    }
    return PyLong_FromLong(dc_min_purchase_cost(n8, p8, raw, man, prices, waivable));
}

static PyMethodDef module_methods[] = {
    {"play_random_games", mod_play_random_games, METH_VARARGS,
     "play_random_games(n, seed) -> dict: n uniformly random games from the start, in C."},
    {"bench_clone_legal_apply", mod_bench_clone_legal_apply, METH_VARARGS,
     "bench_clone_legal_apply(states, repeats) -> (steps, checksum): a benchmark helper."},
    {"min_purchase_cost", mod_min_purchase_cost, METH_VARARGS,
     "min_purchase_cost(need, prod, raw_choices, man_choices, unit_prices, waivable) -> int:\n"
     "as duel.pricing.min_purchase_cost."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef ccore_module = {
    PyModuleDef_HEAD_INIT, "duel._ccore",
    "The C core of the 7 Wonders Duel engine (duel/csrc); use it through duel.core.", -1,
    module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ccore(void) {
    if (PyType_Ready(&CoreStateType) < 0) return NULL;
    py_sixty_four = PyLong_FromLong(64);
    if (!py_sixty_four) return NULL;
    PyObject *m = PyModule_Create(&ccore_module);
    if (!m) return NULL;
    Py_INCREF(&CoreStateType);
    PyObject *capsule = PyCapsule_New(&capi, DC_CAPI_NAME, NULL);
    if (!capsule || PyModule_AddObject(m, "_C_API", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObject(m, "CoreState", (PyObject *)&CoreStateType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_MOVES", DC_MAX_MOVES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_OUTCOMES", DC_MAX_OUTCOMES) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(dc_state)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
