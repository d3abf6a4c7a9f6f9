/*
 * csearch/threads.h -- an exact solve on several threads (Lazy SMP): helpers search the same
 * root and share the table while the calling thread runs without the GIL; the first to finish
 * answers. Apart because it is the only code that starts or joins threads: the search knows of
 * the others only through Ctx.sh (csearch/context.h, whose tick takes the GIL back for Python).
 */
/* A helper thread's share of a threaded solve: the same root and window as the main thread. */
typedef struct {
    Ctx *c;
    const dc_state *root;
    int depth;
    double alpha, beta;
} helper_job;

static void *helper_run(void *arg) {
    helper_job *job = arg;
    Ctx *c = job->c;
    Shared *sh = c->sh;
    double v = solve(c, job->root, job->depth, job->alpha, job->beta);
    if (!c->aborted) { /* finished before the main thread: its answer stands, stop the rest */
        if (!__atomic_exchange_n(&sh->done, 1, __ATOMIC_ACQ_REL)) sh->value = v;
        __atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

#define HELPER_STACK (64u << 20) /* the recursion keeps every child of a node on the stack */

/* An exact solve on `n` threads (Lazy SMP): n - 1 helpers search the same root with the same
 * window, sharing the table, while the calling thread does too, without the GIL (its tick takes
 * the GIL back to call into Python). The first thread to finish gives the answer (the calling
 * thread's if it finishes); the others are stopped. Returns `aborted` as a single search does. */
static int solve_threads(Searcher *self, int n, const dc_state *st, int depth, double alpha,
                         double beta, double *value) {
    Shared *sh = PyMem_RawCalloc(1, sizeof *sh);
    helper_job *jobs = PyMem_RawCalloc((size_t)n, sizeof *jobs);
    pthread_t *tids = PyMem_RawCalloc((size_t)n, sizeof *tids);
    if (!sh || !jobs || !tids) {
        PyMem_RawFree(sh);
        PyMem_RawFree(jobs);
        PyMem_RawFree(tids);
        PyErr_NoMemory();
        return 2;
    }
    sh->ctx = self->ctx;
    sh->threads = n;
    long long nodes_before = self->nodes;
    for (int i = 0; i < n; i++) ctx_begin(self, self->ctx[i], i, sh);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, HELPER_STACK);
    sh->saved = PyEval_SaveThread();
    int started = 1;
    for (; started < n; started++) {
        jobs[started] = (helper_job){self->ctx[started], st, depth, alpha, beta};
        if (pthread_create(&tids[started], &attr, helper_run, &jobs[started]) != 0) break;
    }
    /* a helper that could not start counts no nodes (its published count stays 0) */
    double v = solve(self->ctx[0], st, depth, alpha, beta);
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
    for (int i = 1; i < started; i++) pthread_join(tids[i], NULL);
    PyEval_RestoreThread(sh->saved);
    pthread_attr_destroy(&attr);
    int aborted = self->ctx[0]->aborted;
    if (aborted == 1 && sh->done) { /* stopped because a helper had the answer */
        v = sh->value;
        aborted = 0;
    }
    for (int i = 0; i < n; i++) {
        self->thread_nodes[i] += self->ctx[i]->nodes - (i ? 0 : nodes_before);
        ctx_end(self, self->ctx[i]);
    }
    PyMem_RawFree(sh);
    PyMem_RawFree(jobs);
    PyMem_RawFree(tids);
    *value = v;
    return aborted;
}
