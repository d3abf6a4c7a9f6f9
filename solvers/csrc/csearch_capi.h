/*
 * solvers/csrc/csearch_capi.h -- what duel.solvers._csearch offers other C extensions, through
 * a capsule: the exact value of a position, for the compiled MCTS's leaves (cmcts_module.c,
 * `exact_leaf`). Both modules compile the same engine (duel_core.c), so a dc_state passes as is.
 */
#ifndef CSEARCH_CAPI_H
#define CSEARCH_CAPI_H

#define CS_CAPI_NAME "duel.solvers._csearch._C_API"
#define CS_CAPI_VERSION 1

typedef struct {
    int version;
    int state_size; /* sizeof(dc_state) where the capsule was made */
    /* With the GIL: makes `searcher` (a duel.solvers._csearch.Searcher) ready for leaf_value.
     * -1 with an exception set if it is not one, or memory is short. */
    int (*prepare)(PyObject *searcher);
    /* Without the GIL, on one thread at a time: the exact value (P(A wins) + P(shared) / 2) of a
     * decision position, on the calling thread within `node_limit` nodes, with the searcher's
     * table (entries of earlier solves answer at once). 1: solved, `*value` set; 0: not within
     * the limit, or the searcher was busy. Calls no Python. */
    int (*leaf_value)(PyObject *searcher, const dc_state *st, long long node_limit, double *value);
} cs_capi;

static __attribute__((unused)) const cs_capi *cs_import_capi(void) {
    const cs_capi *api = (const cs_capi *)PyCapsule_Import(CS_CAPI_NAME, 0);
    if (!api) return NULL;
    if (api->version != CS_CAPI_VERSION || api->state_size != (int)sizeof(dc_state)) {
        PyErr_SetString(PyExc_ImportError,
                        "duel.solvers._csearch was built from other C sources: rebuild the extensions");
        return NULL;
    }
    return api;
}

#endif /* CSEARCH_CAPI_H */
