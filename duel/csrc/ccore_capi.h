/*
 * ccore_capi.h -- for another CPython extension (a C searcher) that works on duel._ccore states.
 *
 * The engine itself is compiled into that extension (#include "duel_core.c"); this capsule gives
 * it the conversions that live in duel._ccore, so that a Python caller can pass a CoreState (or
 * a duel.state.State) and get CoreStates back:
 *
 *     #include <Python.h>
 *     #include "duel_core.c"
 *     #include "ccore_capi.h"
 *
 *     static const dc_capi *capi;            // in PyInit_yourmodule:
 *     capi = dc_import_capi();               //   NULL with an ImportError set on failure
 *
 *     dc_state s;
 *     if (capi->get_state(obj, &s) < 0) return NULL;   // obj: a CoreState
 *     ... search on s with dc_legal_moves / dc_apply ...
 *     return capi->new_state(&s);                        // a new CoreState

 */
#ifndef CCORE_CAPI_H
#define CCORE_CAPI_H

#include <Python.h>

#include "duel_core.h"

#define DC_CAPI_NAME "duel._ccore._C_API"
#define DC_CAPI_VERSION 2

typedef struct dc_capi {
    int version;       /* DC_CAPI_VERSION */
    size_t state_size; /* sizeof(dc_state) in duel._ccore: must equal yours */
    /* The dc_state of a CoreState; -1 with TypeError if obj is not one. */
    int (*get_state)(PyObject *obj, dc_state *out);
    /* A new CoreState holding a copy of *st (NULL with an exception on failure). */
    PyObject *(*new_state)(const dc_state *st);
    /* duel.state.State <-> dc_state, exactly (as CoreState.from_state / to_state). */
    int (*from_python)(PyObject *state, dc_state *out);
    PyObject *(*to_python)(const dc_state *st);
} dc_capi;

static __attribute__((unused)) const dc_capi *dc_import_capi(void) {
    const dc_capi *capi = (const dc_capi *)PyCapsule_Import(DC_CAPI_NAME, 0);
    if (!capi) return NULL;
    if (capi->version != DC_CAPI_VERSION || capi->state_size != sizeof(dc_state)) {
        PyErr_SetString(PyExc_ImportError,
                        "duel._ccore was built from other C sources: rebuild both extensions");
        return NULL;
    }
    return capi;
}

#endif /* CCORE_CAPI_H */
