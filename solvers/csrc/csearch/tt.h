/*
 * csearch/tt.h -- the transposition table: its entries and buckets, the lockless reads and
 * writes that let the threads of a solve share it, the bucket of a key, the replacement rule,
 * and the memory behind it. Apart because the search sees the table only through tt_find,
 * tt_store and tt_prefetch (the glue's test hooks read raw words): how entries are packed and
 * replaced can change here alone.
 */
#define TT_EXACT_DEPTH 0xFFFFu

/* Shared without locks by the threads of one solve (Searcher.threads), so an entry is written as
 * four separate 64-bit words and two threads writing the same slot can leave it torn: the key of
 * one and the bounds of another. As in chess engines (Hyatt's lockless hashing), the first word
 * is not the key but key ^ tt_mix(the other three words): a reader recomputes the key from what
 * it read, and a torn entry gives a key that matches nothing (odds 2^-64), so it reads as a miss.
 * The table is only ever touched through tt_load/tt_write (relaxed atomic 64-bit accesses, plain
 * moves on x86-64). */
typedef struct {
    uint64_t check; /* key ^ tt_mix(lo, hi, the last word) */
    double lo, hi;
    int32_t move;   /* best move, -1 if none */
    uint16_t depth; /* remaining depth, TT_EXACT_DEPTH: holds for every depth */
    uint8_t gen;    /* iteration that stored it */
    uint8_t work;   /* 0: empty; else 1 + log2 of the nodes searched to get it (see keep_value) */
} tt_entry;
_Static_assert(sizeof(tt_entry) == 32, "tt_entry is 32 bytes");

typedef union {
    tt_entry e;
    uint64_t w[4];
} tt_words;

struct tt_bucket { /* typedef'd in csearch/context.h, which holds a pointer to the table */
    uint64_t w[2][4]; /* two entries, as words */
};
_Static_assert(sizeof(tt_bucket) == 64, "a bucket is one cache line");

/* A non-linear mix of an entry's three data words: a tear that swaps any of them changes it
 * unpredictably (a plain xor would not: two exact entries have lo ^ hi == 0 alike). */
static inline uint64_t tt_mix(uint64_t lo, uint64_t hi, uint64_t rest) {
    uint64_t h = (lo ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 31) ^ hi) * 0x94d049bb133111ebull;
    h = (h ^ (h >> 29) ^ rest) * 0xd6e8feb86659fd93ull;
    return h ^ (h >> 32);
}

static inline void tt_load(const uint64_t *slot, tt_words *out) {
    for (int i = 0; i < 4; i++) out->w[i] = __atomic_load_n(&slot[i], __ATOMIC_RELAXED);
}

/* The key an entry read from the table belongs to (garbage if torn). */
static inline uint64_t tt_key_of(const tt_words *x) {
    return x->w[0] ^ tt_mix(x->w[1], x->w[2], x->w[3]);
}

static inline void tt_write(uint64_t *slot, uint64_t key, tt_words *x) {
    x->w[0] = key ^ tt_mix(x->w[1], x->w[2], x->w[3]);
    for (int i = 0; i < 4; i++) __atomic_store_n(&slot[i], x->w[i], __ATOMIC_RELAXED);
}

static int entry_depth(const tt_entry *e) {
    return e->depth == TT_EXACT_DEPTH ? INF_DEPTH : e->depth;
}

/* The bucket of a key: the high bits of key * buckets (Lemire's multiply-shift), so any number
 * of buckets works and a budget is used whole. */
static inline uint64_t tt_index(const Ctx *c, uint64_t key) {
    return (uint64_t)(((unsigned __int128)key * c->buckets) >> 64);
}

/* Start loading a key's bucket: a node probes all its children, and their buckets are far
 * apart in a large table, so the misses are overlapped instead of taken one after another. */
static inline void tt_prefetch(const Ctx *c, uint64_t key) {
    __builtin_prefetch(&c->tt[tt_index(c, key)]);
}

/* Copies the entry of `key` into *out: 1 if found, 0 if not (or torn). */
static int tt_find(const Ctx *c, uint64_t key, tt_entry *out) {
    const tt_bucket *b = &c->tt[tt_index(c, key)];
    tt_words x;
    for (int i = 0; i < 2; i++) {
        tt_load(b->w[i], &x);
        if (x.e.work && tt_key_of(&x) == key) {
            *out = x.e;
            return 1;
        }
    }
    return 0;
}

/* Value of keeping an entry: exact first, then the current iteration, then depth, then the work
 * it saves (log2 of the nodes its search took). In an exact solve every entry is exact, of the
 * same iteration and depth, so the work decides: a full bucket keeps the entry that was costlier
 * to compute and the new entry takes the other slot. */
static long long keep_value(const Ctx *c, const tt_entry *e) {
    if (!e->work) return -1;
    return ((long long)(e->depth == TT_EXACT_DEPTH) << 40) |
           ((long long)(e->gen == (uint8_t)c->generation) << 32) | ((long long)e->depth << 8) |
           e->work;
}

static int work_class(long long nodes) {
    int w = 1;
    while (nodes > 1 && w < 255) {
        nodes >>= 1;
        w++;
    }
    return w;
}

static void tt_store(Ctx *c, uint64_t key, int depth, double lo, double hi, int32_t move,
                     long long nodes) {
    tt_bucket *b = &c->tt[tt_index(c, key)];
    tt_words old[2], x;
    tt_load(b->w[0], &old[0]);
    tt_load(b->w[1], &old[1]);
    int i;
    if (old[0].e.work && tt_key_of(&old[0]) == key) i = 0;
    else if (old[1].e.work && tt_key_of(&old[1]) == key) i = 1;
    else {
        i = keep_value(c, &old[0].e) <= keep_value(c, &old[1].e) ? 0 : 1;
        if (old[i].e.work) c->overwrites++;
        old[i].e.work = 0; /* not this key's */
    }
    uint16_t d = depth >= INF_DEPTH ? TT_EXACT_DEPTH
                 : depth >= (int)TT_EXACT_DEPTH ? (uint16_t)(TT_EXACT_DEPTH - 1)
                                                : (uint16_t)depth;
    const tt_entry *cur = &old[i].e;
    if (c->sh && cur->work && cur->depth == d) {
        /* Threads: another thread may have stored bounds for this key since this one read them
         * (search_keyed merges with what it read before its search). Both are sound, so keep
         * their intersection; an exact value already there stays, with its move. */
        if (cur->lo == cur->hi) {
            lo = hi = cur->lo;
            move = cur->move;
        } else {
            double l = lo > cur->lo ? lo : cur->lo, h = hi < cur->hi ? hi : cur->hi;
            if (l <= h) {
                lo = l;
                hi = h;
            }
        }
    }
    c->stores++;
    x.e.lo = lo;
    x.e.hi = hi;
    x.e.move = move;
    x.e.depth = d;
    x.e.gen = (uint8_t)c->generation;
    x.e.work = (uint8_t)work_class(nodes);
    tt_write(b->w[i], key, &x);
}

/* The table: zeroed memory, mapped directly on Linux so that a long search can ask for huge
 * pages (Searcher.huge_pages). */
static tt_bucket *table_alloc(uint64_t buckets) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t size = (size_t)buckets * sizeof(tt_bucket);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
#else
    return PyMem_RawCalloc(buckets, sizeof(tt_bucket));
#endif
}

static void table_free(tt_bucket *tt, uint64_t buckets) {
    if (!tt) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(tt, (size_t)buckets * sizeof(tt_bucket));
#else
    (void)buckets;
    PyMem_RawFree(tt);
#endif
}
