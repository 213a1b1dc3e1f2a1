/* The double-dummy search's inner loop, compiled: tricktable.analysis._search.
 *
 * ``analysis/solver.py`` builds a ``Core`` for one side of one ``Solver`` from the rules as
 * data (a ``Rules``, made once per ``Ordering``: its effective suits, keys and strengths),
 * the seats and sides and the hands, and asks it: ``Core.solve`` takes a position (the
 * hands, the trick in progress) and answers the tricks the side takes, by null-window tests
 * "can the side take ``need`` more tricks?" from a first target. Nothing of a variant's
 * rules is written here: the follow-suit rule is the effective suit, the trick goes to the
 * highest key (the first of equal cards), and a lead restriction is asked of the variant
 * through the ``ask`` callback (once per hand and set of cards gone). What the search does
 * (a transposition table at trick starts by partition search, equivalent cards, small cards
 * searched once, sure tricks, move ordering: at tables of four with partners opposite, DDS's
 * weights) is described in solver.py and docs/analysis.md; this file is that description
 * in C.
 *
 * Bit sets of physical cards (up to 106, two copies of 53) are unsigned __int128, except in
 * the search's first pass (one 64-bit word: "the search, compiled twice", below).
 */
#ifndef SEARCH_PASS /* the file itself; its passes compile the search (below) */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

typedef unsigned __int128 u128;
typedef unsigned __int128 wide; /* a suit's key code of more than 16 cards (not a card set) */

#define NCARDS 106
#define COPY_STRIDE 53
#define NSUITS 5
#define MAXSEATS 8
#define MAXSUIT 32
#define KEYWORDS 4
#define AHEAD_CARDS 11 /* cut_ahead: a trick's last hand holding this many cards or more */
#define STRENGTHS 128 /* the first pass: every card's strength below this */

static int popcount(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static int top_bit(u128 x) { /* x != 0 */
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi) return 127 - __builtin_clzll(hi);
    return 63 - __builtin_clzll((uint64_t)x);
}

static int low_bit(u128 x) { /* x != 0 */
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

#define BIT(p) (((u128)1) << (p))

/* Per byte and k, the place of its k-th lowest set bit (k from 0; set by PyInit__search). */
static uint8_t nth_in_byte[256][8];

/* The place of the m-th lowest set bit of x (m >= 1); -1: x has fewer. A byte at a time
 * (a loop clearing bits one by one mispredicts at its end). */
static int nth_bit(uint32_t x, int m) {
    for (int base = 0; x; base += 8, x >>= 8) {
        int k = __builtin_popcount(x & 0xFF);
        if (m <= k) return base + nth_in_byte[x & 0xFF][m - 1];
        m -= k;
    }
    return -1;
}

/* -- a hash table: four words of key -> two words of value ------------------------------ */

/* A slot: one cache line (a look-up reads one line per slot, not two). */
typedef struct {
    uint64_t k[KEYWORDS];
    uint64_t v0, v1;
    uint64_t used;
} __attribute__((aligned(64))) Entry;

typedef struct {
    Entry *slots;
    size_t cap, size; /* cap: a power of two */
} Table;

static uint64_t hash_key(const uint64_t *k) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < KEYWORDS; i++) {
        h ^= k[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

static int table_init(Table *t, size_t cap) {
    t->slots = aligned_alloc(64, cap * sizeof(Entry));
    t->cap = cap;
    t->size = 0;
    if (!t->slots) return -1;
    memset(t->slots, 0, cap * sizeof(Entry));
    return 0;
}

static Entry *table_find(Table *t, const uint64_t *k, int *found) {
    size_t mask = t->cap - 1, i = hash_key(k) & mask;
    for (;;) {
        Entry *e = &t->slots[i];
        if (!e->used) { *found = 0; return e; }
        if (!memcmp(e->k, k, sizeof(e->k))) { *found = 1; return e; }
        i = (i + 1) & mask;
    }
}

static int table_grow(Table *t) {
    Table bigger;
    if (table_init(&bigger, t->cap * 2) < 0) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].used) {
            int found;
            Entry *e = table_find(&bigger, t->slots[i].k, &found);
            *e = t->slots[i];
        }
    }
    free(t->slots);
    bigger.size = t->size;
    *t = bigger;
    return 0;
}

/* The entry of key k, new (used = 0 on return, found = 0) or stored. NULL: out of memory. */
static Entry *table_get(Table *t, const uint64_t *k, int *found) {
    if (2 * (t->size + 1) > t->cap && table_grow(t) < 0) return NULL;
    Entry *e = table_find(t, k, found);
    if (!*found) {
        memcpy(e->k, k, sizeof(e->k));
        e->used = 1;
        t->size++;
    }
    return e;
}

/* -- partition search: what a result depended on ----------------------------------------- *
 *
 * A result of the search (the side takes need more tricks, or not) is stored with the cards
 * it depended on: per suit a strength threshold, every card of the suit at or above it
 * "relevant" (who holds it matters), the cards below it small cards whose holders do not
 * matter beyond each hand's count of the suit. Any trick start with the same leader, the
 * same suit lengths in each hand and the same holders of the relevant cards (relative
 * ranks) has the same answer (Ginsberg's partition search; DDS's "winning ranks"). */

typedef struct {
    int t[NSUITS]; /* per suit: the cards at or above this strength matter */
} Rel;

static void rel_none(Rel *r) {
    for (int s = 0; s < NSUITS; s++) r->t[s] = INT_MAX;
}

static void rel_all(Rel *r) {
    for (int s = 0; s < NSUITS; s++) r->t[s] = INT_MIN;
}

/* (the minimum written without a branch: which is lower is not predictable) */
static void rel_merge(Rel *r, const Rel *o) {
    for (int s = 0; s < NSUITS; s++) {
        int a = r->t[s], b = o->t[s];
        r->t[s] = b < a ? b : a;
    }
}

static void rel_card(Rel *r, int suit, int strength) {
    int a = r->t[suit];
    r->t[suit] = strength < a ? strength : a;
}

/* A stored result: the trick start's key masked to the relevant cards (pat; the mask is
 * Core.prefix's of the count of relevant cards per suit, m: entry_matches), bounds on the
 * side's tricks, and the lead that settled the last test there (lead_code). A bucket (the
 * leader, whether the lead is restricted, each hand's suit lengths) keeps its entries in one
 * block, scanned newest first. */
typedef struct {
    uint64_t pat[KEYWORDS];
    uint8_t m[NSUITS];
    int8_t lo, hi;
    uint8_t lead;
} PEntry;

/* A bucket: its key, its count of entries (n, room for cap), per entry its filter (sig,
 * sigmask of filter()) newest first, then the entries oldest first (entries()), in one
 * block of the pool. A look-up reads the key, the count and the newest filters in one or two
 * neighbouring cache lines, not a bucket and then its arrays elsewhere. */
typedef struct {
    uint64_t key[KEYWORDS]; /* the bucket's key (bucket_key) */
    uint32_t n, cap;
    uint64_t pad;
    uint64_t f[][2];
} Bucket;

static PEntry *entries(Bucket *b) { return (PEntry *)(b->f + b->cap); }

/* A slot of the index of buckets: the bucket's key's hash and the bucket (NULL: empty). */
typedef struct {
    uint64_t h;
    Bucket *b;
} BSlot;

/* Where a Core keeps its buckets: blocks of room for 4 << k entries (a Bucket, a cache
 * line's multiple), cut from chunks the pool mallocs (each twice the last, up to 4 MB) and
 * freed together with the Core. A bucket that fills moves to a block twice as big and
 * leaves its old block for the next bucket of that size (a list per size). Before, each
 * bucket malloc'd and realloc'd two arrays of its own, and a Core freed them one by one:
 * thousands of calls for a bridge deal. */
#define POOL_SIZES 24

typedef struct Chunk {
    struct Chunk *next;
    size_t size; /* a power of two, 64 KB or more */
} Chunk;

/* Chunks of freed Cores, kept for the next Cores of the process: per size 64 KB << k up to
 * 4 MB a list, at most KEPT_BYTES in all (under the GIL, as every call here). A chunk new
 * from the system has its pages faulted in and zeroed as the search first writes them (a
 * bridge deal's single solve cuts 4 to 16 MB of chunks); a kept one has them already. The
 * chunks are mapped from the system on their own where it can (POSIX), not malloc'd: a kept
 * chunk high in malloc's heap would hold the heap's free memory below it in the process. */
#define KEPT_SIZES 7
#define KEPT_BYTES ((size_t)16 << 20)
static Chunk *kept[KEPT_SIZES];
static size_t kept_bytes;

/* A chunk of size bytes (a power of two, 64 KB or more): a kept one, else a new one. */
static Chunk *chunk_new(size_t size) {
    int k = __builtin_ctzll(size) - 16;
    Chunk *chunk = k < KEPT_SIZES ? kept[k] : NULL;
    if (chunk) {
        kept[k] = chunk->next;
        kept_bytes -= size;
        return chunk;
    }
#ifdef MAP_ANONYMOUS
    chunk = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (chunk == MAP_FAILED) return NULL;
#else
    chunk = malloc(size);
    if (!chunk) return NULL;
#endif
    chunk->size = size;
    return chunk;
}

/* A chunk kept (while KEPT_BYTES allows) or given back. */
static void chunk_free(Chunk *chunk) {
    int k = __builtin_ctzll(chunk->size) - 16;
    if (k < KEPT_SIZES && kept_bytes + chunk->size <= KEPT_BYTES) {
        chunk->next = kept[k];
        kept[k] = chunk;
        kept_bytes += chunk->size;
        return;
    }
#ifdef MAP_ANONYMOUS
    munmap(chunk, chunk->size);
#else
    free(chunk);
#endif
}

typedef struct {
    Chunk *chunks;
    char *at, *end;      /* the free part of the newest chunk */
    size_t next_chunk;   /* the size of the next chunk */
    void *spare[POOL_SIZES]; /* per size, blocks left by buckets that grew (a list) */
} Pool;

static size_t block_bytes(int k) {
    size_t bytes = sizeof(Bucket) + ((size_t)4 << k) * (sizeof(uint64_t[2]) + sizeof(PEntry));
    return (bytes + 63) & ~(size_t)63;
}

/* A block of 4 << k entries. NULL: out of memory. */
static void *pool_block(Pool *pool, int k) {
    void *b = pool->spare[k];
    if (b) {
        pool->spare[k] = *(void **)b;
        return b;
    }
    size_t bytes = block_bytes(k);
    if ((size_t)(pool->end - pool->at) < bytes) {
        size_t size = pool->next_chunk ? pool->next_chunk : (size_t)1 << 16;
        while (size < bytes + 64) size *= 2;
        Chunk *chunk = chunk_new(size); /* (mapped: its blocks start cache lines) */
        if (!chunk) return NULL;
        chunk->next = pool->chunks;
        pool->chunks = chunk;
        pool->at = (char *)chunk + 64;
        pool->end = (char *)chunk + size;
        pool->next_chunk = size < ((size_t)1 << 22) ? 2 * size : size;
    }
    b = pool->at;
    pool->at += bytes;
    return b;
}

static void pool_free(Pool *pool) {
    for (Chunk *chunk = pool->chunks, *next; chunk; chunk = next) {
        next = chunk->next;
        chunk_free(chunk);
    }
    pool->chunks = NULL;
}

/* -- the core ------------------------------------------------------------------------- */

/* The cards left, as the transposition key sees them: per suit, the places (in the key order
 * of the cards held at the start) of those left, and the suit's part of the key, a nibble per
 * card left in rank order (its holder, + 8 when it ties the card above, left too); and for
 * the move weights, per suit the bits (Core.rbit) of every card not gone in a finished
 * trick. Kept up to date card by card (take_out) rather than worked out at each trick
 * start. */
typedef struct {
    uint32_t kpres[NSUITS], bits[NSUITS];
    uint64_t code[NSUITS][2]; /* low word, high word (0 when Core.narrow) */
} Left;

/* One suit's part of Left, kept while a trick's cards are out of it. */
typedef struct {
    uint32_t kpres, bits;
    uint64_t code[2];
} SuitLeft;

typedef struct {
    int seat, card;
} Played;

typedef struct {
    PyObject_HEAD
    int nplayers, nseats;
    int seats[MAXSEATS];
    int next_seat[MAXSEATS];
    int ours[MAXSEATS];
    int eff[NCARDS];
    int strength[NCARDS];
    int keys[NSUITS][NCARDS];
    u128 suit_masks[NSUITS];
    u128 twin[NCARDS];
    int suit_order[NSUITS][MAXSUIT];
    int suit_len[NSUITS];
    /* the transposition key: per suit the cards held at the start in rank order, their
     * holder, and the key's bits for the suit */
    int key_card[NSUITS][MAXSUIT], key_holder[NSUITS][MAXSUIT];
    int key_len[NSUITS], key_offset[NSUITS];
    int key_pos[NCARDS]; /* a card's place in its suit's key order, -1: not held at the start */
    uint32_t tie_above[NSUITS]; /* per suit, the places whose card ties the one above */
    Left left; /* the cards left, kept by search() and take_out() */
    /* the bucket key's suit lengths: per seat that plays and suit held at the start, a field
     * of five bits (word, bit; -1: none), twelve to a word after the leader's four bits */
    uint64_t lens[KEYWORDS];
    int len_word[MAXSEATS][NSUITS], len_bit[MAXSEATS][NSUITS];
    /* the bucket key's hash kept as cards are played (bucket_hash's sum of lens, lsum; per
     * seat and suit what one card of the suit adds to it, len_step) */
    uint64_t lsum, len_step[MAXSEATS][NSUITS];
    int trump_suit;
    u128 trumps;
    int restricts;
    PyObject *ask; /* ask(seat, hands, finished) -> (lead mask, free), under a restriction */
    u128 hands[MAXSEATS];
    /* under a lead restriction: the cards played in the search (the trick in progress at the
     * start first) and the tricks finished in it (leader, first card's index, winner) */
    Played played[NCARDS + MAXSEATS];
    int nplayed;
    int finished[NCARDS][3];
    int nfinished, finished_before;
    int free; /* no lead is restricted below this node (the variant's leads_free) */
    Table leads;
    /* the transposition table: a bucket per leader, restriction and suit lengths, found
     * through an index of bcap slots (a power of two, at most half of them used; open
     * addressing) */
    BSlot *bslots;
    size_t nbuckets, bcap;
    Pool pool; /* the buckets' entries */
    /* per suit and count m of its best cards left, the bits of the key that hold them and
     * the tie flag of the card after them */
    uint64_t prefix[NSUITS][MAXSUIT + 1][KEYWORDS];
    int partition; /* the rules rank cards within a suit as their strength: entries may match
                    * positions that agree on the relevant cards only */
    int trumps_win; /* a trump beats every card of another suit, whatever is led */
    /* for the move weights: per card a bit of its place in its suit's order (the best card
     * the highest bit), per suit the card of each bit, per seat and suit the bits held */
    uint32_t rbit[NCARDS];
    int by_place[NSUITS][MAXSUIT];
    uint32_t held[MAXSEATS][NSUITS];
    int8_t owner[NCARDS]; /* the seat holding each card as the search starts (-1: none): at a
                           * trick start, the holder of each card left */
    int opposite; /* four seats, partners opposite: DDS's lead weights */
    int twins; /* both copies of some card in play */
    int narrow; /* every suit's key code fits one word (16 cards a suit at most) */
    int fast; /* the search's first pass: see "the search, compiled twice" */
    int word_suit[KEYWORDS]; /* first pass: the suit whose code is each word of the key (a
                              * suit with no cards, its code 0, for a word no suit has) */
    /* first pass: per suit and strength t (0 to STRENGTHS - 1), the places in the key's
     * order of the suit's cards of strength t or more (its best cards: a stored result's
     * relevant cards, counted in one go) */
    uint32_t at_least[NSUITS][STRENGTHS];
    int killer[MAXSUIT + 1]; /* per cards in hand, the last lead that cut */
    int solved; /* Core.solve has answered before: the table holds another position's results
                 * (cut_ahead) */
    long long nodes, probes, hits;
} Core;

/* The hash of a bucket key: its words times odd constants, summed, then mixed. The sum is
 * linear in the key, so that play_card keeps it (Core.lsum) as a hand's suit length changes
 * and a trick start needs only the leader's part and the mix (bucket_mix), not a hash of
 * four words. */
static const uint64_t bucket_mul[KEYWORDS] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull,
                                              0x94D049BB133111EBull, 0xD6E8FEB86659FD93ull};

static uint64_t bucket_mix(uint64_t sum) {
    sum ^= sum >> 32;
    sum *= 0xD6E8FEB86659FD93ull;
    return sum ^ sum >> 32;
}

static uint64_t bucket_hash(const uint64_t *k) {
    uint64_t sum = 0;
    for (int w = 0; w < KEYWORDS; w++) sum += k[w] * bucket_mul[w];
    return bucket_mix(sum);
}

/* The slot of the bucket of key k (its hash h), -1: none (*slot: the empty slot where it
 * would go). */
static int64_t bucket_find(const Core *c, const uint64_t *k, uint64_t h, size_t *slot) {
    size_t mask = c->bcap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const BSlot *x = &c->bslots[i];
        if (!x->b) {
            *slot = i;
            return -1;
        }
        if (x->h == h && !memcmp(x->b->key, k, sizeof(x->b->key))) return (int64_t)i;
    }
}

/* The index of buckets with bcap slots, those of the old one moved in. -1: out of memory. */
static int bslots_init(Core *c, size_t bcap) {
    BSlot *slots = calloc(bcap, sizeof(BSlot));
    if (!slots) return -1;
    for (size_t j = 0; c->bslots && j < c->bcap; j++) {
        if (!c->bslots[j].b) continue;
        size_t i = c->bslots[j].h & (bcap - 1);
        while (slots[i].b) i = (i + 1) & (bcap - 1);
        slots[i] = c->bslots[j];
    }
    free(c->bslots);
    c->bslots = slots;
    c->bcap = bcap;
    return 0;
}

/* The slot of the bucket of key k, made (empty, room for four entries) when there is none.
 * where: the slot tt_lookup found it in, -1: none (the index may have grown since, and moved
 * it). -1: out of memory. */
static int64_t bucket_add(Core *c, const uint64_t *k, int64_t where) {
    if (where >= 0 && c->bslots[where].b &&
        !memcmp(c->bslots[where].b->key, k, sizeof(c->bslots->b->key)))
        return where;
    if (2 * (c->nbuckets + 1) > c->bcap && bslots_init(c, 2 * c->bcap) < 0) return -1;
    uint64_t h = bucket_hash(k);
    size_t slot = 0;
    int64_t found = bucket_find(c, k, h, &slot);
    if (found >= 0) return found;
    Bucket *b = pool_block(&c->pool, 0);
    if (!b) return -1;
    memcpy(b->key, k, sizeof(b->key));
    b->n = 0;
    b->cap = 4;
    c->bslots[slot].h = h;
    c->bslots[slot].b = b;
    c->nbuckets++;
    return (int64_t)slot;
}

/* The key's bits of the m[s] best cards left of each suit s (Core.prefix): the mask a
 * stored result's key is kept under (tt_store) and matched with (entry_matches). */
static void entry_mask(const Core *c, const uint8_t *m, uint64_t *mask) {
    memset(mask, 0, KEYWORDS * sizeof(uint64_t));
    for (int s = 0; s < NSUITS; s++)
        for (int w = 0; w < KEYWORDS; w++) mask[w] |= c->prefix[s][m[s]][w];
}

static void suit_left(const Core *c, int s, SuitLeft *x) {
    x->kpres = c->left.kpres[s];
    x->bits = c->left.bits[s];
    x->code[0] = c->left.code[s][0];
    x->code[1] = c->left.code[s][1];
}

static void set_suit_left(Core *c, int s, const SuitLeft *x) {
    c->left.kpres[s] = x->kpres;
    c->left.bits[s] = x->bits;
    c->left.code[s][0] = x->code[0];
    c->left.code[s][1] = x->code[1];
}

static int to_u128(PyObject *o, u128 *out) {
    if (PyLong_CheckExact(o) && _PyLong_NumBits(o) <= 64) { /* most hands: one word */
        uint64_t lo = PyLong_AsUnsignedLongLongMask(o);
        if (lo == (uint64_t)-1 && PyErr_Occurred()) return -1;
        *out = lo;
        return 0;
    }
    PyObject *shift = PyLong_FromLong(64), *hi_obj;
    if (!shift) return -1;
    uint64_t lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (uint64_t)-1 && PyErr_Occurred()) { Py_DECREF(shift); return -1; }
    hi_obj = PyNumber_Rshift(o, shift);
    Py_DECREF(shift);
    if (!hi_obj) return -1;
    uint64_t hi = PyLong_AsUnsignedLongLongMask(hi_obj);
    Py_DECREF(hi_obj);
    if (hi == (uint64_t)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static PyObject *from_u128(u128 x) {
    PyObject *lo = PyLong_FromUnsignedLongLong((uint64_t)x);
    PyObject *hi = PyLong_FromUnsignedLongLong((uint64_t)(x >> 64));
    PyObject *shift = PyLong_FromLong(64), *high = NULL, *out = NULL;
    if (lo && hi && shift && (high = PyNumber_Lshift(hi, shift)))
        out = PyNumber_Or(high, lo);
    Py_XDECREF(lo);
    Py_XDECREF(hi);
    Py_XDECREF(shift);
    Py_XDECREF(high);
    return out;
}

/* Fill ints[0..n) from a sequence of exactly n ints. */
static int int_array(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values, not %zd", what,
                     PySequence_Fast_GET_SIZE(fast), n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Fill a list of up to max ints; the count, or -1. */
static Py_ssize_t int_list(PyObject *seq, int *out, Py_ssize_t max, const char *what) {
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return -1;
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: more than %zd values", what, max);
        return -1;
    }
    return int_array(seq, out, n, what) < 0 ? -1 : n;
}

/* The lead-rule callback is a bound method of the Solver that holds this Core: a cycle
 * the garbage collector breaks through these two. */
static int Core_traverse(Core *c, visitproc visit, void *arg) {
    Py_VISIT(c->ask);
    return 0;
}

static int Core_clear(Core *c) {
    Py_CLEAR(c->ask);
    return 0;
}

static void Core_dealloc(Core *c) {
    PyObject_GC_UnTrack(c);
    free(c->bslots);
    pool_free(&c->pool);
    free(c->leads.slots);
    Py_CLEAR(c->ask);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* -- the rules as data ------------------------------------------------------------------ */

/* One Ordering of the rules (a trump, no trump): per card its effective suit, strength and
 * trick key per suit led, per suit its cards best first. Built once per ordering and kept
 * by solver.py, so that a Core (one per solver and side) only copies it. */
typedef struct {
    PyObject_HEAD
    int eff[NCARDS];
    int strength[NCARDS];
    int keys[NSUITS][NCARDS];
    u128 suit_masks[NSUITS];
    int order[NSUITS][NCARDS], order_len[NSUITS];
    int trump_suit;
} Rules;

/* Rules(eff, strength, keys, suit_masks, trump_suit): eff/strength per card, keys per suit
 * led per card, suit_masks per suit (an Ordering's fields). */
static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *Py_UNUSED(kwds)) {
    PyObject *eff, *strength, *keys, *suit_masks;
    int trump_suit;
    if (!PyArg_ParseTuple(args, "OOOOi", &eff, &strength, &keys, &suit_masks, &trump_suit))
        return NULL;
    Rules *r = (Rules *)type->tp_alloc(type, 0);
    if (!r) return NULL;
    if (int_array(eff, r->eff, NCARDS, "eff") < 0) goto fail;
    if (int_array(strength, r->strength, NCARDS, "strength") < 0) goto fail;
    if (PySequence_Size(keys) != NSUITS || PySequence_Size(suit_masks) != NSUITS) {
        PyErr_SetString(PyExc_ValueError, "keys and suit masks: five suits each");
        goto fail;
    }
    if (trump_suit < 0 || trump_suit >= NSUITS) {
        PyErr_SetString(PyExc_ValueError, "trump suit out of range");
        goto fail;
    }
    r->trump_suit = trump_suit;
    for (int s = 0; s < NSUITS; s++) {
        PyObject *item = PySequence_GetItem(keys, s);
        int bad = !item || int_array(item, r->keys[s], NCARDS, "keys") < 0;
        Py_XDECREF(item);
        if (bad) goto fail;
        item = PySequence_GetItem(suit_masks, s);
        bad = !item || to_u128(item, &r->suit_masks[s]) < 0;
        Py_XDECREF(item);
        if (bad) goto fail;
        int n = 0; /* the suit's cards by strength, best first (equal: by card) */
        for (int p = 0; p < NCARDS; p++) {
            if (!(r->suit_masks[s] & BIT(p))) continue;
            int i = n++;
            while (i > 0 && r->strength[r->order[s][i - 1]] < r->strength[p]) {
                r->order[s][i] = r->order[s][i - 1];
                i--;
            }
            r->order[s][i] = p;
        }
        r->order_len[s] = n;
    }
    return (PyObject *)r;
fail:
    Py_DECREF(r);
    return NULL;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tricktable.analysis._search.Rules",
    .tp_doc = "One ordering of the rules as data, for Core (see analysis/solver.py).",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Rules_new,
};

/* The smallest power of two at least n (and at least 16). */
static size_t pow2_at_least(size_t n) {
    size_t cap = 16;
    while (cap < n) cap *= 2;
    return cap;
}

/* Core(rules, seats, ours, hands, trick, ask)
 * rules: the ordering (Rules); seats: the seats that play, in order round the table; ours:
 * per seat (every seat of the table) whether it is of the side searched; hands: per seat
 * (every seat) its cards as the solver starts; trick: the trick in progress then, (seat,
 * card) pairs; ask: None, or the variant's lead restriction as ask(seat, hands, finished)
 * -> (lead mask, free: no lead restricted below). The cards held and in the trick make the
 * transposition key (per suit, each card held at the start and its holder); the tables
 * start small and grow with the search. */
static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *Py_UNUSED(kwds)) {
    PyObject *rules_obj, *seats, *ours, *hands, *trick, *ask;
    if (!PyArg_ParseTuple(args, "O!OOOOO", &RulesType, &rules_obj, &seats, &ours, &hands,
                          &trick, &ask))
        return NULL;
    const Rules *rules = (const Rules *)rules_obj;
    Core *c = (Core *)type->tp_alloc(type, 0);
    if (!c) return NULL;
    Py_ssize_t n;
    if ((n = int_list(seats, c->seats, MAXSEATS, "seats")) < 0) goto fail;
    c->nseats = (int)n;
    if ((n = int_list(ours, c->ours, MAXSEATS, "ours")) < 0) goto fail;
    c->nplayers = (int)n;
    for (int i = 0; i < c->nseats; i++) {
        if (c->seats[i] < 0 || c->seats[i] >= c->nplayers) {
            PyErr_SetString(PyExc_ValueError, "a seat out of range");
            goto fail;
        }
        c->next_seat[c->seats[i]] = c->seats[(i + 1) % c->nseats];
    }
    memcpy(c->eff, rules->eff, sizeof(c->eff));
    memcpy(c->strength, rules->strength, sizeof(c->strength));
    memcpy(c->keys, rules->keys, sizeof(c->keys));
    memcpy(c->suit_masks, rules->suit_masks, sizeof(c->suit_masks));
    if (PySequence_Size(hands) != c->nplayers) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        goto fail;
    }
    for (int x = 0; x < c->nplayers; x++) {
        PyObject *h = PySequence_GetItem(hands, x);
        int bad = !h || to_u128(h, &c->hands[x]) < 0;
        Py_XDECREF(h);
        if (bad) goto fail;
    }
    int owner[NCARDS];
    u128 present = 0;
    for (int p = 0; p < NCARDS; p++) owner[p] = -1;
    for (int j = 0; j < c->nseats; j++) {
        int x = c->seats[j];
        for (u128 h = c->hands[x]; h; h &= h - 1) owner[low_bit(h)] = x;
        present |= c->hands[x];
    }
    Py_ssize_t ntrick = PySequence_Size(trick);
    if (ntrick < 0) goto fail;
    for (Py_ssize_t i = 0; i < ntrick; i++) {
        int pair[2];
        PyObject *item = PySequence_GetItem(trick, i);
        int bad = !item || int_array(item, pair, 2, "trick") < 0;
        Py_XDECREF(item);
        if (bad) goto fail;
        if (pair[1] < 0 || pair[1] >= NCARDS) {
            PyErr_SetString(PyExc_ValueError, "a card out of range");
            goto fail;
        }
        present |= BIT(pair[1]);
    }
    int bits = 3; /* the leader */
    for (int p = 0; p < NCARDS; p++) c->key_pos[p] = -1;
    for (int s = 0; s < NSUITS; s++) {
        int len = 0, klen = 0, prev = -1;
        for (int i = 0; i < rules->order_len[s]; i++) {
            int p = rules->order[s][i];
            if (!(present & BIT(p))) continue;
            if (len == MAXSUIT) {
                PyErr_SetString(PyExc_ValueError, "too many cards in a suit");
                goto fail;
            }
            c->suit_order[s][len++] = p;
            if (owner[p] >= 0) {
                c->key_card[s][klen] = p;
                c->key_pos[p] = klen;
                c->key_holder[s][klen] = owner[p];
                if (klen && prev == c->key_card[s][klen - 1] &&
                    c->strength[p] == c->strength[prev])
                    c->tie_above[s] |= (uint32_t)1 << klen;
                klen++;
            }
            prev = p;
        }
        c->suit_len[s] = len;
        for (int i = 0; i < len; i++) {
            c->rbit[c->suit_order[s][i]] = (uint32_t)1 << (len - 1 - i);
            c->by_place[s][len - 1 - i] = c->suit_order[s][i];
        }
        c->key_len[s] = klen;
        c->key_offset[s] = bits;
        bits += 4 * klen + 1;
    }
    if (bits > 64 * KEYWORDS) {
        PyErr_SetString(PyExc_ValueError, "too many cards for the transposition key");
        goto fail;
    }
    c->narrow = 1;
    for (int s = 0; s < NSUITS; s++) c->narrow &= c->key_len[s] <= 16;
    c->trump_suit = rules->trump_suit;
    c->trumps = c->suit_masks[c->trump_suit];
    for (int p = 0; p < NCARDS; p++) c->twin[p] = BIT((p + COPY_STRIDE) % NCARDS);
    c->restricts = ask != Py_None;
    Py_INCREF(ask);
    c->ask = ask;
    c->partition = 1;
    for (int s = 0; s < NSUITS && c->partition; s++)
        for (int i = 1; i < c->suit_len[s]; i++) {
            int p = c->suit_order[s][i - 1], q = c->suit_order[s][i];
            for (int l = 0; l < NSUITS; l++)
                if (c->keys[l][p] < c->keys[l][q] ||
                    (c->strength[p] == c->strength[q] && c->keys[l][p] != c->keys[l][q]))
                    c->partition = 0;
        }
    for (int i = 0; i <= MAXSUIT; i++) c->killer[i] = -1;
    for (int p = 0; p < NCARDS; p++)
        if ((present & BIT(p)) && (present & c->twin[p])) c->twins = 1;
    c->opposite = c->nseats == 4;
    for (int j = 0; j < c->nseats; j++) {
        int x = c->seats[j], y = c->next_seat[x];
        if (c->ours[x] == c->ours[y] || c->ours[x] != c->ours[c->next_seat[y]]) c->opposite = 0;
    }
    c->trumps_win = 1;
    for (int i = 0; i < c->suit_len[c->trump_suit] && c->trumps_win; i++) {
        int t = c->suit_order[c->trump_suit][i];
        for (int s = 0; s < NSUITS && c->trumps_win; s++) {
            if (s == c->trump_suit) continue;
            for (int j = 0; j < c->suit_len[s]; j++) {
                int q = c->suit_order[s][j];
                for (int l = 0; l < NSUITS; l++)
                    if (c->keys[l][t] <= c->keys[l][q]) c->trumps_win = 0;
            }
        }
    }
    int suits = 0, small = 1; /* suits with cards; strengths within 0 to STRENGTHS - 1 */
    for (int s = 0; s < NSUITS; s++) {
        suits += c->key_len[s] > 0;
        for (int i = 0; i < c->key_len[s]; i++)
            small &= c->strength[c->key_card[s][i]] >= 0 &&
                     c->strength[c->key_card[s][i]] < STRENGTHS;
    }
    c->fast = c->nseats == 4 && c->opposite && !c->twins && c->narrow && !c->restricts &&
              c->partition && !(present >> 64) && suits <= KEYWORDS && small;
    if (c->fast) /* a suit's strengths fall in the key's order (partition) */
        for (int s = 0; s < NSUITS; s++) {
            uint32_t m = 0;
            for (int t = STRENGTHS - 1, i = 0; t >= 0; t--) {
                while (i < c->key_len[s] && c->strength[c->key_card[s][i]] >= t) m |= 1u << i++;
                c->at_least[s][t] = m;
            }
        }
    if (c->fast) { /* the key: a word per suit (the leader is in the bucket key) */
        int none = 0; /* a suit with no cards: there is one, NSUITS > KEYWORDS */
        while (c->key_len[none]) none++;
        for (int w = 0; w < KEYWORDS; w++) c->word_suit[w] = none;
        for (int s = 0, w = 0; s < NSUITS; s++)
            if (c->key_len[s]) {
                c->word_suit[w] = s;
                c->key_offset[s] = 64 * w++;
            }
    }
    for (int s = 0; s < NSUITS; s++)
        for (int m = 0; m <= c->key_len[s]; m++) {
            uint64_t *w = c->prefix[s][m];
            for (int b = c->key_offset[s]; b < c->key_offset[s] + 4 * m; b++)
                w[b >> 6] |= (uint64_t)1 << (b & 63);
            if (m < c->key_len[s]) {
                int b = c->key_offset[s] + 4 * m + 3;
                w[b >> 6] |= (uint64_t)1 << (b & 63);
            }
        }
    for (int x = 0; x < MAXSEATS; x++)
        for (int s = 0; s < NSUITS; s++) c->len_word[x][s] = -1;
    int fields = 0;
    for (int j = 0; j < c->nseats; j++)
        for (int s = 0; s < NSUITS; s++)
            if (c->key_len[s]) {
                c->len_word[c->seats[j]][s] = fields / 12;
                c->len_bit[c->seats[j]][s] = 4 + 5 * (fields % 12);
                c->len_step[c->seats[j]][s] = bucket_mul[fields / 12] << (4 + 5 * (fields % 12));
                fields++;
            }
    /* the tables grow as they fill: a few dozen buckets for a five-card hand, thousands for
     * thirteen cards */
    size_t cap = pow2_at_least((size_t)popcount(present));
    if (bslots_init(c, 2 * cap) < 0 ||
        table_init(&c->leads, c->restricts ? cap : 1) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)c;
fail:
    Py_DECREF(c);
    return NULL;
}

/* The position the search starts from: every seat's hand, the trick in progress as (seat,
 * card) pairs, and how many tricks were finished before the position. -1: an exception. */
static int set_position(Core *c, PyObject *hands, PyObject *trick, int before, int free) {
    if (PySequence_Size(hands) != c->nplayers) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return -1;
    }
    for (int x = 0; x < c->nplayers; x++) {
        PyObject *h = PySequence_GetItem(hands, x);
        int bad = !h || to_u128(h, &c->hands[x]) < 0;
        Py_XDECREF(h);
        if (bad) return -1;
    }
    Py_ssize_t n = PySequence_Size(trick);
    if (n < 0 || n >= c->nseats) {
        if (n >= 0) PyErr_SetString(PyExc_ValueError, "the trick in progress is too long");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int pair[2];
        PyObject *item = PySequence_GetItem(trick, i);
        int bad = !item || int_array(item, pair, 2, "trick") < 0;
        Py_XDECREF(item);
        if (bad) return -1;
        if (pair[0] < 0 || pair[0] >= c->nplayers || pair[1] < 0 || pair[1] >= NCARDS) {
            PyErr_SetString(PyExc_ValueError, "not a position of this table");
            return -1;
        }
        c->played[i].seat = pair[0];
        c->played[i].card = pair[1];
    }
    c->nplayed = (int)n;
    c->nfinished = 0;
    c->finished_before = before;
    c->free = free;
    return 0;
}

/* The cards left, their codes and bits (Left) from present, every card not gone. */
static void set_left(Core *c, u128 present) {
    for (int s = 0; s < NSUITS; s++) {
        uint32_t kpres = 0;
        u128 code = 0;
        int r = 0;
        for (int i = 0; i < c->key_len[s]; i++) {
            if (!(present & BIT(c->key_card[s][i]))) continue;
            int tie = c->tie_above[s] >> i & 1 && kpres >> (i - 1) & 1;
            code |= (u128)(c->key_holder[s][i] + (tie ? 8 : 0)) << (4 * r++);
            kpres |= (uint32_t)1 << i;
        }
        c->left.kpres[s] = kpres;
        c->left.code[s][0] = (uint64_t)code;
        c->left.code[s][1] = (uint64_t)(code >> 64);
        c->left.bits[s] = 0;
    }
    for (u128 m = present; m; m &= m - 1) c->left.bits[c->eff[low_bit(m)]] |= c->rbit[low_bit(m)];
}

/* The cards seat may lead from hand, asked of the variant once per hand and set of cards
 * gone, and whether no lead is restricted any more below (*free). -1: an exception. */
static int lead_mask(Core *c, int seat, u128 hand, u128 present, u128 *out, int *free) {
    uint64_t k[KEYWORDS] = {(uint64_t)hand, (uint64_t)(hand >> 64), (uint64_t)present,
                            (uint64_t)(present >> 64)};
    int found;
    Entry *e = table_find(&c->leads, k, &found);
    if (found) {
        *out = ((u128)e->v1 << 64) | e->v0;
        *free = (int)(e->used >> 1);
        return 0;
    }
    PyObject *hands = PyList_New(c->nplayers), *finished = NULL, *res = NULL;
    int status = -1;
    if (!hands) goto done;
    for (int x = 0; x < c->nplayers; x++) {
        PyObject *h = from_u128(c->hands[x]);
        if (!h) goto done;
        PyList_SET_ITEM(hands, x, h);
    }
    finished = PyList_New(c->nfinished);
    if (!finished) goto done;
    for (int t = 0; t < c->nfinished; t++) {
        int first = c->finished[t][1];
        PyObject *cards = PyList_New(c->nseats);
        if (!cards) goto done;
        for (int i = 0; i < c->nseats; i++) {
            PyObject *pair = Py_BuildValue("(ii)", c->played[first + i].seat,
                                           c->played[first + i].card);
            if (!pair) { Py_DECREF(cards); goto done; }
            PyList_SET_ITEM(cards, i, pair);
        }
        PyObject *row = Py_BuildValue("(iNi)", c->finished[t][0], cards, c->finished[t][2]);
        if (!row) goto done;
        PyList_SET_ITEM(finished, t, row);
    }
    if (!c->ask) {
        PyErr_SetString(PyExc_RuntimeError, "the search's lead rule was cleared");
        goto done;
    }
    res = PyObject_CallFunction(c->ask, "iOO", seat, hands, finished);
    PyObject *mask;
    if (!res || !PyArg_ParseTuple(res, "Op", &mask, free) || to_u128(mask, out) < 0) goto done;
    e = table_get(&c->leads, k, &found);
    if (!e) { PyErr_NoMemory(); goto done; }
    e->v0 = (uint64_t)*out;
    e->v1 = (uint64_t)(*out >> 64);
    e->used = 1 | (uint64_t)(*free ? 2 : 0);
    status = 0;
done:
    Py_XDECREF(hands);
    Py_XDECREF(finished);
    Py_XDECREF(res);
    return status;
}

/* The bucket key's suit lengths (lens, lsum) and the bits held (held) from the hands. */
static void set_lens(Core *c) {
    memset(c->lens, 0, sizeof(c->lens));
    c->lsum = 0;
    memset(c->held, 0, sizeof(c->held));
    memset(c->owner, -1, sizeof(c->owner));
    for (int j = 0; j < c->nseats; j++)
        for (u128 h = c->hands[c->seats[j]]; h; h &= h - 1) {
            c->held[c->seats[j]][c->eff[low_bit(h)]] |= c->rbit[low_bit(h)];
            c->owner[low_bit(h)] = (int8_t)c->seats[j];
        }
    for (int x = 0; x < MAXSEATS; x++)
        for (int s = 0; s < NSUITS; s++)
            if (c->len_word[x][s] >= 0) {
                uint64_t k = (uint64_t)popcount(c->hands[x] & c->suit_masks[s]);
                c->lens[c->len_word[x][s]] |= k << c->len_bit[x][s];
                c->lsum += k * c->len_step[x][s];
            }
}

/* A first target. With trumps in play at a table of two partnerships (c->opposite): half
 * the remaining tricks, moved by the side's share of the high cards (the four best of each
 * suit, 4 3 2 1, every suit alike) and half a trick for each trump the side holds more than
 * the other (bridge deals 0-59, the four suits, the guess's mean distance from the answer
 * 2.14 tricks with half the tricks, DDS's 7 of 13, 1.58 with the high cards alone, 0.90 with
 * both). Otherwise the side's share of the high cards (trumps counting double) of the
 * remaining tricks. */
static int first_guess(Core *c, u128 present, int remaining) {
    int split = c->opposite && (present & c->trumps);
    int points[2] = {0, 0}, trumps[2] = {0, 0}; /* the side's, everyone else's */
    for (int s = 0; s < NSUITS; s++) {
        int weight = s == c->trump_suit && !split ? 2 : 1, value = 4;
        for (int i = 0; i < c->suit_len[s] && value; i++) {
            int p = c->suit_order[s][i];
            if (!(present & BIT(p))) continue;
            for (int j = 0; j < c->nseats; j++) {
                int x = c->seats[j];
                if (c->hands[x] & BIT(p)) {
                    points[!c->ours[x]] += value * weight;
                    break;
                }
            }
            value--;
        }
    }
    int total = points[0] + points[1];
    if (!split) return total ? (int)nearbyint((double)(remaining * points[0]) / total) : 0;
    for (int j = 0; j < c->nseats; j++)
        trumps[!c->ours[c->seats[j]]] += popcount(c->hands[c->seats[j]] & c->trumps);
    double guess = remaining / 2.0 + (trumps[0] - trumps[1]) / 2.0;
    if (total) guess += remaining * (points[0] - points[1]) / (2.0 * total);
    int g = (int)nearbyint(guess);
    return g < 0 ? 0 : g > remaining ? remaining : g;
}


/* -- the search, compiled twice ----------------------------------------------------------- *
 *
 * The search below is compiled twice from the same text (this file includes itself, with
 * SEARCH_PASS 1 and 2): FN(name) is name_fast or name_gen. The first pass is for the tables
 * most searches are of (Core.fast): four seats with partners opposite, one copy of each
 * card, at most 64 cards (a card set in one word), 16 cards a suit at most, no lead
 * restriction and cards ranked by strength in every suit; there the fields that say so are
 * constants and the card sets one word, which the compiler folds and unrolls (bridge deals
 * 0-5 x 5 strains: 13 % fewer instructions). The second pass reads them from the Core:
 * every other table (Double Deck, three or five seats, lead restrictions).
 *
 * On x86-64 with gcc 12 or later both passes are compiled once more for x86-64-v3
 * processors (AVX2, BMI1/2, LZCNT, MOVBE: most made since 2015), SEARCH_V3 1: FN(name) is
 * name_fast_v3 or name_gen_v3 (bridge deals 0-9: 1 to 5 % less time). PyInit__search picks
 * them when the processor has those instructions (search_first, search_general): a wheel
 * built for any x86-64 still runs on every one. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define HAVE_V3 1
#else
#define HAVE_V3 0
#endif
#define SEARCH_V3 0
#define SEARCH_PASS 1
#include "_search.c"
#undef SEARCH_PASS
#define SEARCH_PASS 2
#include "_search.c"
#undef SEARCH_PASS
#undef SEARCH_V3
#if HAVE_V3
#pragma GCC push_options
#pragma GCC target("arch=x86-64-v3")
#define SEARCH_V3 1
#define SEARCH_PASS 1
#include "_search.c"
#undef SEARCH_PASS
#define SEARCH_PASS 2
#include "_search.c"
#undef SEARCH_PASS
#undef SEARCH_V3
#pragma GCC pop_options
#endif

#else /* SEARCH_PASS: the search, once per pass */

#pragma GCC diagnostic ignored "-Wunused-function"
#if SEARCH_PASS == 1
#if SEARCH_V3
#define FN(name) name##_fast_v3
#else
#define FN(name) name##_fast
#endif
#define CS uint64_t /* a card set */
#define cs_popcount(x) __builtin_popcountll(x)
#define cs_low(x) __builtin_ctzll(x)
#define cs_top(x) (63 - __builtin_clzll(x))
#define CS_BIT(p) ((uint64_t)1 << (p))
#define MAXMOVES 64 /* a hand's cards at most (and so its moves): a node's arrays of them, in
                     * the stack frame of every level of the search, fit fewer cache lines */
#define NSEATS(c) 4
#define TWINS(c) 0
#define RESTRICTS(c) 0
#define NARROW(c) 1
#define PARTITION(c) 1
#define OPPOSITE(c) 1
#else
#if SEARCH_V3
#define FN(name) name##_gen_v3
#else
#define FN(name) name##_gen
#endif
#define CS u128
#define cs_popcount popcount
#define cs_low low_bit
#define cs_top top_bit
#define CS_BIT BIT
#define MAXMOVES NCARDS
#define NSEATS(c) ((c)->nseats)
#define TWINS(c) ((c)->twins)
#define RESTRICTS(c) ((c)->restricts)
#define NARROW(c) ((c)->narrow)
#define PARTITION(c) ((c)->partition)
#define OPPOSITE(c) ((c)->opposite)
#endif

/* The cards of seat's group representatives in suit s (mine: the bits of its legal cards of
 * the suit), highest first, appended to reps[n..]; the new count. A card is equivalent to the
 * next better one of mine when no card of another hand or of the trick (left, not the
 * seat's) lies between, and neither has its copy there. */
static int FN(reps_in)(Core *c, int seat, int s, uint32_t mine, int *reps, int n) {
    uint32_t oth = c->left.bits[s] & ~c->held[seat][s], both = mine | oth;
    if (!TWINS(c)) { /* a group: the cards of mine between two of oth; its best card */
        for (uint32_t m = mine; m;) {
            int b = 31 - __builtin_clz(m);
            reps[n++] = c->by_place[s][b];
            uint32_t below = oth & (((uint32_t)1 << b) - 1);
            if (!below) break;
            m &= ((uint32_t)1 << (31 - __builtin_clz(below))) - 1;
        }
        return n;
    }
    for (uint32_t m = mine; m;) {
        int b = 31 - __builtin_clz(m);
        uint32_t bit = (uint32_t)1 << b, above = both & ~(2 * bit - 1);
        int p = c->by_place[s][b];
        m &= ~bit;
        if (above) {
            uint32_t near = above & -above; /* the next better card */
            if ((near & mine) &&
                (!TWINS(c) || !(oth & (c->rbit[(p + COPY_STRIDE) % NCARDS] |
                                       c->rbit[(c->by_place[s][__builtin_ctz(near)] +
                                               COPY_STRIDE) % NCARDS]))))
                continue;
        }
        reps[n++] = p;
    }
    return n;
}

/* One card of each group of equivalent cards of legal, cards of seat's hand, highest first
 * (reps_in per suit). */
static int FN(reps_of)(Core *c, int seat, CS legal, int *reps) {
    int n = 0;
    CS hand = c->hands[seat];
    for (int s = 0; s < NSUITS; s++) {
        uint32_t mine = c->held[seat][s];
        if (!mine) continue;
        if (legal != hand) {
            CS lm = legal & c->suit_masks[s];
            if (!lm) continue;
            if (lm != (hand & c->suit_masks[s]))
                for (mine = 0; lm; lm &= lm - 1) mine |= c->rbit[cs_low(lm)];
        }
        n = FN(reps_in)(c, seat, s, mine, reps, n);
    }
    return n;
}

/* The strength of the lowest card of the group of equivalent cards p stands for (reps_of's
 * groups of legal, cards of seat's hand, others the cards of the other hands and of the
 * trick). */
static int FN(group_low)(Core *c, int seat, int p, CS legal, CS others) {
    int s = c->eff[p];
#if SEARCH_PASS == 1 /* legal: seat's cards of p's suit, others the suit's other cards left
                      * (as reps_in): the group, seat's cards below p above the next other */
    uint32_t mine = c->held[seat][s], below = c->rbit[p] - 1;
    uint32_t stop = c->left.bits[s] & ~mine & below;
    uint32_t group = mine & below & ~(stop ? ((uint32_t)2 << (31 - __builtin_clz(stop))) - 1 : 0);
    return c->strength[group ? c->by_place[s][__builtin_ctz(group)] : p];
#endif
    int i = 0, low = p, prev = p;
    while (c->suit_order[s][i] != p) i++;
    for (i++; i < c->suit_len[s]; i++) {
        int q = c->suit_order[s][i];
        CS bit = CS_BIT(q);
        if (legal & bit) {
            if (others & (c->twin[q] | c->twin[prev])) break;
            low = prev = q;
        } else if (others & bit) {
            break;
        }
    }
    return c->strength[low];
}

/* Stable insertion sort of moves by their (a, b, c) scores, ascending. */
static void FN(sort_moves)(int *moves, int (*score)[3], int n) {
    for (int i = 1; i < n; i++) {
        int m = moves[i], s0 = score[i][0], s1 = score[i][1], s2 = score[i][2];
        int j = i - 1;
        while (j >= 0 && (score[j][0] > s0 || (score[j][0] == s0 && (score[j][1] > s1 ||
                          (score[j][1] == s1 && score[j][2] > s2))))) {
            moves[j + 1] = moves[j];
            memcpy(score[j + 1], score[j], sizeof(score[j]));
            j--;
        }
        moves[j + 1] = m;
        score[j + 1][0] = s0;
        score[j + 1][1] = s1;
        score[j + 1][2] = s2;
    }
}

/* Winners nobody ruffs (other suits' before trumps), low cards to a partner's winner or to
 * a partner who ruffs (the suit's other cards, when no opponent ruffs), the suits whose best
 * card an opponent holds (low cards first: the high ones are left to win later), the best
 * cards of suits an opponent can ruff, then the other cards of those suits (low first). In
 * the two middle groups, with no trump left the suits where the opponents hold the fewest
 * cards come first (as DDS: fewer answers to search), then the suits where the side's own
 * best card is lowest. A
 * suit the leader heads but not with the card led is one an opponent may win like the
 * others. */
static void FN(lead_order)(Core *c, int seat, int *moves, int n, CS present) {
    int mine = c->ours[seat];
    CS ruffers[MAXSEATS], partners[MAXSEATS], side = 0;
    int nruff = 0, npartners = 0;
    for (int i = 0; i < NSEATS(c); i++) {
        int x = c->seats[i];
        if (c->ours[x] == mine) side |= c->hands[x];
        if (!(c->hands[x] & c->trumps)) continue;
        if (c->ours[x] != mine) ruffers[nruff++] = c->hands[x];
        else if (x != seat) partners[npartners++] = c->hands[x];
    }
    CS partner_cards = side & ~c->hands[seat];
    int tops[NSUITS] = {-2, -2, -2, -2, -2}, side_best[NSUITS];
    int score[NCARDS][3];
    for (int i = 0; i < n; i++) {
        int p = moves[i], s = c->eff[p];
        if (tops[s] == -2) { /* the suit's best card left, and the side's */
            tops[s] = -1;
            side_best[s] = -1;
            for (int j = 0; j < c->suit_len[s] && side_best[s] < 0; j++) {
                int q = c->suit_order[s][j];
                if (!(present & CS_BIT(q))) continue;
                if (tops[s] < 0) tops[s] = q;
                if (side & CS_BIT(q)) side_best[s] = c->strength[q];
            }
        }
        int top = tops[s], ruffed = 0, partner_ruffs = 0;
        if (s != c->trump_suit) {
            for (int r = 0; r < nruff; r++)
                if (!(ruffers[r] & c->suit_masks[s])) { ruffed = 1; break; }
            for (int r = 0; r < npartners; r++)
                if (!(partners[r] & c->suit_masks[s])) { partner_ruffs = 1; break; }
        }
        int sc;
        if (c->strength[top] == c->strength[p]) { /* the best card (of a tie, led first) */
            sc = ruffed ? 1 : 4;
        } else if (ruffed) {
            sc = 0;
        } else {
            sc = partner_ruffs || (partner_cards & CS_BIT(top)) ? 3 : 2;
        }
        score[i][0] = -sc;
        int opp = 0;
        for (int j = 0; j < NSEATS(c); j++) {
            int x = c->seats[j];
            if (c->ours[x] != mine) opp += cs_popcount(c->hands[x] & c->suit_masks[s]);
        }
        score[i][1] = sc == 2 || sc == 3 ? (present & c->trumps ? 0 : opp * 1024) + side_best[s]
                      : sc == 4 ? s == c->trump_suit : 0;
        /* within a group: the best cards high first, the others low first; then by card */
        score[i][2] = (sc == 4 || sc == 1 ? -c->strength[p] : c->strength[p]) * NCARDS + p;
    }
    FN(sort_moves)(moves, score, n);
}

/* -- DDS's move weights ------------------------------------------------------------------ *
 *
 * At a table of four seats with partners opposite, the moves are ordered by the weights of
 * DDS (Moves.cpp: WeightAllocTrump0 and WeightAllocNT0 at a lead, WeightAlloc*1, 2 and 3 at
 * the later cards), highest first: they look at who holds the best cards of each suit, the
 * lengths, voids and trumps. Cards are compared by strength; a card's rank is its place in
 * its suit counted from the lowest, + 2 (bridge's ranks), its place among the cards left the
 * count of those as good or better (1: the best). A suit's cards are read as bits in rank
 * order (rbit, the best card the highest bit): each seat's (held) and those left (Left). */

/* The strength of the best (top_of) or worst (low_of) card of suit s among bits m, INT_MIN:
 * none. */
static int FN(top_of)(Core *c, int s, uint32_t m) {
    return m ? c->strength[c->by_place[s][31 - __builtin_clz(m)]] : INT_MIN;
}

static int FN(low_of)(Core *c, int s, uint32_t m) {
    return m ? c->strength[c->by_place[s][__builtin_ctz(m)]] : INT_MIN;
}

static int FN(rank_of)(Core *c, int p) { return __builtin_ctz(c->rbit[p]) + 2; }

/* Card p's place among the cards left (left: its suit's bits of them), 1 the best. */
static int FN(place_of)(Core *c, int p, uint32_t left) {
    return __builtin_popcount(left >> __builtin_ctz(c->rbit[p]));
}

/* Whether p stands for a run: the next card left below it is in the same hand (mine). */
static int FN(in_run)(Core *c, int p, uint32_t mine, uint32_t left) {
    uint32_t lower = left & (c->rbit[p] - 1);
    return lower && (mine >> (31 - __builtin_clz(lower)) & 1);
}

/* Whether bits mine hold the best card left (k = 0) or the second best (k = 1). */
static int FN(holds_nth)(uint32_t mine, uint32_t left, int k) {
    if (k && left) left &= ~((uint32_t)1 << (31 - __builtin_clz(left)));
    return left && (mine >> (31 - __builtin_clz(left)) & 1);
}

/* The weight of a discard (or ruff) from a suit of which seat holds mine: long suits
 * first (len << 6 / div), less from a king doubleton (kx) or a bare ace (ace). */
static int FN(discard_add)(uint32_t mine, uint32_t left, int div, int kx, int ace) {
    int len = __builtin_popcount(mine), add = (len << 6) / div;
    if (len == 2 && FN(holds_nth)(mine, left, 1)) add -= kx;
    else if (len == 1 && FN(holds_nth)(mine, left, 0)) add -= ace;
    return add;
}

/* Who holds the three best cards of suit s left (-1: nobody). */
static void FN(top_holders)(Core *c, int s, uint32_t left, int *holder) {
    for (int k = 0; k < 3; k++) {
        holder[k] = -1;
        if (!left) continue;
        int b = 31 - __builtin_clz(left);
        holder[k] = c->owner[c->by_place[s][b]];
        left &= ~((uint32_t)1 << b);
    }
}

/* The weights (score) of moves at a lead by seat; the index of the highest (the first of
 * equal ones: search() tries it first without looking for it). */
static int FN(lead_weights)(Core *c, int seat, const int *moves, int n, CS present, int tt_lead,
                             int *score) {
    int lho = c->next_seat[seat], pd = c->next_seat[lho], rho = c->next_seat[pd];
    int tricks = cs_popcount(c->hands[seat]), t = c->trump_suit;
    int killer = c->killer[tricks];
    int trumps = (present & c->trumps) != 0 && c->trumps_win;
    const uint32_t *left = c->left.bits;
    uint32_t (*h)[NSUITS] = c->held;
    int tl = __builtin_popcount(h[lho][t]), tr = __builtin_popcount(h[rho][t]);
    int tp = __builtin_popcount(h[pd][t]), tpt = FN(top_of)(c, t, h[pd][t]);
    int plt = FN(top_of)(c, t, h[lho][t]), prt = FN(top_of)(c, t, h[rho][t]);
    int cur = -1, hold[3] = {-1, -1, -1}, cl = 0, cr = 0, cp = 0, count = 0;
    int pd_tops = 0, top = 0, top_w = INT_MIN;
    for (int i = 0; i < n; i++) {
        int p = moves[i], s = c->eff[p], R = FN(rank_of)(c, p);
        if (s != cur) { /* the suit's holders and lengths, once per suit */
            cur = s;
            FN(top_holders)(c, s, left[s], hold);
            cl = __builtin_popcount(h[lho][s]);
            cr = __builtin_popcount(h[rho][s]);
            cp = __builtin_popcount(h[pd][s]);
            count = ((cl ? cl : tricks) + (cr ? cr : tricks)) << 2;
            pd_tops = h[pd][s] > (h[lho][s] | h[rho][s]); /* its best card above theirs */
        }
        int place = FN(place_of)(c, p, left[s]), seq = FN(in_run)(c, p, h[seat][s], left[s]);
        int win = hold[0], second = hold[1], third = hold[2], w;
        int is_best = !(left[s] & ~(2 * c->rbit[p] - 1));
        int is_second = FN(holds_nth)(c->rbit[p], left[s], 1);
        int bonus_tt = 0, bonus_k = 0, d;
        if (!trumps) {
            d = -((count << 5) / 19) - (cp ? 0 : 9);
            if (is_best || pd_tops) {
                if (second == rho) { if (cr != 1) d -= 1; }
                else if (second == lho) d += cl != 1 ? 22 : 16;
                w = d + ((second != lho || cl == 1) && (second != rho || cr == 1) ? 45 : 18) + place;
                bonus_tt = 32;
                bonus_k = 126;
            } else {
                if (win == rho || second == rho) { if (cr != 1) d -= 10; }
                else if (win == lho && second == pd && cp != 1) d += 31;
                if (second == pd && third == pd) d += 35;
                else if (((second == seat && third == pd) || (second == pd && third == seat)) &&
                         cp > 1)
                    d += 25;
                if ((cl == 1 && win == lho) || (cr == 1 && win == rho)) w = d + 28 + place;
                else if (win == seat) w = d - 17 + place;
                else if (!seq) w = d + 12 + place;
                else if (is_second) w = d + 48;
                else w = d + 29 - place;
                bonus_tt = 19;
                bonus_k = 47;
            }
        } else {
            int ts = s == t, win_move = 0, b = 0;
            if (!ts && ((!cl && tl) || (!cr && tr))) b = -12; /* an opponent ruffs */
            if (!ts && !cp && tp && cr) b += 17;               /* partner ruffs */
            if (win == rho || second == rho) { if (cr != 1) b -= 12; }
            else if (win == lho && second == pd && cp != 1) b += 27;
            if (!ts && __builtin_popcount(h[seat][s]) == 1 && h[seat][t] && cp > 1 && win == pd)
                b += 19; /* partner wins and gives a ruff */
            d = b - ((count << 5) / 13);
            if (is_best) {
                if (ts) win_move = 1;
                else if (cp || !tp) win_move = (cl || !tl) && (cr || !tr);
                else win_move = (cl || tpt > plt) && (cr || tpt > prt);
            } else if (pd_tops) {
                win_move = ts || ((cl || !tl) && (cr || !tr));
            } else if (!ts && !cp && tp) {
                if (!cl && tl && !cr && tr) win_move = tpt > plt && tpt > prt;
                else if (!cl && tl) win_move = tpt > plt;
                else if (!cr && tr) win_move = tpt > prt;
                else win_move = 1;
            }
            if (win_move) {
                if ((cl == 1 && win == lho) || (cr == 1 && win == rho)) w = d + 35 + place;
                else if (win == seat)
                    w = second == pd ? d + 48 + place : is_best ? d + 31 : d - 3 + place;
                else if (win == pd) w = d + (second == seat ? 42 : 28) + place;
                else if (seq && is_second) w = d + 40;
                else w = d + (seq ? 22 : 11) + place;
                bonus_tt = 18;
                bonus_k = 55;
            } else {
                if (second == pd && third == pd) d += 20;
                else if (((second == seat && third == pd) || (second == pd && third == seat)) &&
                         cp > 1)
                    d += 13;
                if ((cl == 1 && win == lho) || (cr == 1 && win == rho)) w = d + place + 2;
                else if (win == seat)
                    w = second == pd ? d + 33 + place : is_best ? d + 38 : d - 14 + place;
                else if (win == pd) w = d + 34 + place;
                else if (seq && is_second) w = d + 35;
                else w = d + 17 - R;
                bonus_k = 18;
            }
        }
        if (p == killer) w += bonus_k;
        else if (p == tt_lead) w += bonus_tt;
        score[i] = w;
        top = w > top_w ? i : top;
        top_w = w > top_w ? w : top_w;
    }
    return top;
}

/* Third hand, unable to beat the fourth hand's best card of the suit led (bits four): the
 * cheapest of moves (one per group, best first) that beats the fourth hand's next group, to
 * force its best card out; or, second hand winning (second) with best, the cheapest that
 * beats it. -1: none (DDS's RankForcesAce). */
static int FN(force_top)(Core *c, int led, uint32_t four, int best, int second, const int *moves,
                     int nmoves) {
    uint32_t top = (uint32_t)1 << (31 - __builtin_clz(four));
    uint32_t below = c->left.bits[led] & ~four & (top - 1); /* another's card under its best */
    if (!below) return -1;
    uint32_t next = four & (((uint32_t)1 << (31 - __builtin_clz(below))) - 1);
    if (!next) return -1;
    int floor = c->strength[c->by_place[led][31 - __builtin_clz(next)]], q = -1;
    if (floor <= best) {
        if (!second) return -1;
        floor = best;
    }
    for (int i = 0; i < nmoves; i++)
        if (c->strength[moves[i]] > floor &&
            (q < 0 || c->strength[moves[i]] < c->strength[q]))
            q = moves[i];
    return q;
}

/* Third hand in no trump, the partner's singleton lead (best, of strength bs) winning
 * against the second and fourth hands: when seat holds the suit's best card and a run from
 * it (the cards led and played out, the second hand's in) at least as long as the longer
 * opponent's cards left of the suit, the cheapest of moves that overtakes, to run the suit;
 * -1: none (DDS's overtake in WeightAllocNTNotvoid2, GetTopNumber). */
static int FN(overtake)(Core *c, int led, int seat, int second, int fourth, int best,
                        const int *moves, int nmoves) {
    uint32_t mine = c->held[seat][led], left = c->left.bits[led];
    if (c->held[c->next_seat[fourth]][led] || !(mine >> (31 - __builtin_clz(left)) & 1))
        return -1;
    uint32_t others = left & ~mine & ~c->rbit[best];
    int run = __builtin_popcount(others ? mine >> (32 - __builtin_clz(others)) : mine);
    int opp = __builtin_popcount(c->held[fourth][led]) - 1;
    int lho = __builtin_popcount(c->held[second][led]);
    if ((lho > opp ? lho : opp) > run - 1) return -1;
    int q = -1, bs = c->strength[best];
    for (int i = 0; i < nmoves; i++)
        if (c->strength[moves[i]] > bs && (q < 0 || c->strength[moves[i]] < c->strength[q]))
            q = moves[i];
    return q;
}

/* The fourth hand following suit (moves: one card a group, best first, as reps_in gives
 * them): DDS's weights put the cards that win the trick first, then the others, each lowest
 * first (30 - R and -R); the same order without working them out. The winners are the first
 * of moves (their strength falls along moves): each part turned round in place. */
static void FN(fourth_follow_order)(Core *c, int seat, int best_seat, int best_card, int *moves,
                                int nmoves, CS present) {
    int bs = c->strength[best_card], trumps = (present & c->trumps) != 0 && c->trumps_win;
    int best_trump = c->eff[best_card] == c->trump_suit && c->eff[moves[0]] != c->trump_suit;
    int win = c->ours[best_seat] != c->ours[seat] && !(trumps && best_trump), k = 0;
    while (win && k < nmoves && c->strength[moves[k]] > bs) k++;
    for (int i = 0, j = k - 1; i < j; i++, j--) {
        int m = moves[i];
        moves[i] = moves[j];
        moves[j] = m;
    }
    for (int i = k, j = nmoves - 1; i < j; i++, j--) {
        int m = moves[i];
        moves[i] = moves[j];
        moves[j] = m;
    }
}

/* The weights (score) of moves when seat plays the trick's n-th card (0 < n; the fourth hand
 * following: fourth_follow_order): best_seat, best_card the trick's best card so far (at
 * second hand the card led). The index of the highest, as lead_weights. */
static int FN(follow_weights)(Core *c, int seat, int n, int led, int best_seat, int best_card,
                               const int *moves, int nmoves, CS present, int *score) {
    int t = c->trump_suit, trumps = (present & c->trumps) != 0 && c->trumps_win;
    int next = c->next_seat[seat], last = c->next_seat[next];
    int leader = n == 1 ? c->next_seat[last] : n == 2 ? last : next;
    const uint32_t *left = c->left.bits, (*h)[NSUITS] = c->held, *mine = h[seat];
    int follows = mine[led] != 0, bs = c->strength[best_card];
    int best_trump = c->eff[best_card] == t && led != t;
    int fourth = n == 1 ? last : next; /* the trick's third and fourth hands, after seat */
    int max3 = INT_MIN, max4 = INT_MIN, min3 = INT_MIN, min4 = INT_MIN, t3 = INT_MIN, t4 = INT_MIN;
    if (n == 1) { /* the later hands' cards: only the second and third hands look at them */
        max3 = FN(top_of)(c, led, h[next][led]);
        min3 = FN(low_of)(c, led, h[next][led]);
        t3 = FN(top_of)(c, t, h[next][t]);
    }
    if (n <= 2) {
        max4 = FN(top_of)(c, led, h[fourth][led]);
        min4 = FN(low_of)(c, led, h[fourth][led]);
        t4 = FN(top_of)(c, t, h[fourth][t]);
    }
    int force = n == 2 && mine[led] && max4 > FN(top_of)(c, led, mine[led]) && max4 > bs &&
                !(trumps && best_trump) ? FN(force_top)(c, led, h[fourth][led], bs,
                                                    best_seat != leader, moves, nmoves) : -1;
    if (n == 2 && !trumps && mine[led] && best_seat == leader && bs > max4)
        force = FN(overtake)(c, led, seat, c->next_seat[last], next, best_card, moves, nmoves);
    int top = 0, top_w = INT_MIN;
    for (int i = 0; i < nmoves; i++) {
        int p = moves[i], s = c->eff[p], S = c->strength[p], R = FN(rank_of)(c, p), w;
        if (n == 1 && NSEATS(c) > 2) { /* second hand (as DDS): later, it costs more than it saves */ /* second hand: next is third, last fourth (the player's partner) */
            int place = FN(place_of)(c, p, left[s]), seq = FN(in_run)(c, p, mine[s], left[s]);
            int partner_wins = max4 > max3 && max4 > bs, void3 = max3 == INT_MIN;
            int void4 = max4 == INT_MIN;
            if (follows && !trumps) {
                if (partner_wins) w = -R;
                else if (S > bs && S > max3) w = 81 - R;
                else if (min3 > S || min4 > S) w = -3 + place;
                else if (S < bs) w = -11 + place;
                else w = seq ? 10 + place : 13 - R;
            } else if (follows) {
                int win;
                if (led == t) win = partner_wins || (S > bs && S > max3);
                else if (S > bs && S > max3) win = !void3 || t3 == INT_MIN || (void4 && t4 > t3);
                else if (partner_wins) win = !void3 || t3 == INT_MIN;
                else if (bs > max4 && bs > max3 && bs > S)
                    win = void4 && t4 != INT_MIN && (!void3 || t3 == INT_MIN || t4 > t3);
                else win = void4 && t4 != INT_MIN;
                if (win) {
                    if (min3 > S) w = 40 + place;
                    else if (max4 > bs && FN(top_of)(c, led, h[leader][led]) > max4) w = 41 + place;
                    else if (S > bs)
                        w = S < max4 ? 78 - R : S > max3 ? 73 - R : seq ? 62 - R : 49 - R;
                    else w = void4 ? 40 - R : 47 - R;
                } else if (S < min3 || S < min4) w = -9 + place;
                else if (S < bs) w = -16 + place;
                else w = seq ? 22 - R : 10 - R;
            } else if (!trumps) {
                w = -R + (partner_wins ? FN(discard_add)(mine[s], left[s], 23, 2, 3)
                                       : FN(discard_add)(mine[s], left[s], 33, 6, 8));
            } else {
                int keep = FN(discard_add)(mine[s], left[s], 36, 4, 0);
                int give = FN(discard_add)(mine[s], left[s], 44, 0, 0);
                if (led == t) w = -R + (partner_wins ? give : keep);
                else if (s != t && !void3)
                    w = -R + (partner_wins || (void4 && t4 != INT_MIN) ? 60 + give : keep - 2);
                else if (s != t)
                    w = -R + ((void4 && t4 > t3) || (t3 == INT_MIN && max4 > bs) ? 60 + give
                                                                                 : keep - 2);
                else if (!void3 || (void4 && t4 > t3) || S > t3) w = 24 - R + give;
                else w = 15 - R + keep;
            }
        } else if (n == 2) { /* third hand: next is fourth, the partner led */
            int place = FN(place_of)(c, p, left[s]);
            int partner_ahead = best_seat == leader;
            if (follows) {
                int top3 = FN(top_of)(c, led, mine[led]);
                if (trumps && best_trump) w = -R; /* second hand ruffed */
                else if (trumps && led != t && max4 == INT_MIN)
                    w = !partner_ahead && S > bs ? 20 - R : -R;
                else if ((partner_ahead && bs > max4) || top3 < min4 || top3 < bs) w = -R;
                else w = S > bs && S > max4 ? (trumps ? 58 : 60) - R : -R;
                if (p == force) w += 20;
            } else if (!trumps) {
                w = -R + FN(discard_add)(mine[s], left[s], 24, 4, 4);
            } else {
                int add = FN(discard_add)(mine[s], left[s], 50, 0, 0);
                if (led == t || s != t) w = -R + FN(discard_add)(mine[s], left[s], 40, 0, 0);
                else if (partner_ahead && bs > max4 && (max4 != INT_MIN || t4 == INT_MIN))
                    w = -R - 50; /* no ruff of the partner's sure winner */
                else if (best_trump && S < bs)
                    w = -32 + place + FN(discard_add)(mine[s], left[s], 40, 0, 0);
                else if (partner_ahead)
                    w = (max4 != INT_MIN ? (FN(holds_nth)(h[leader][led], left[led], 1) ? 36 : 48)
                                         : S > t4 ? 48 : -12) - R + add;
                else w = (max4 != INT_MIN ? 72 : S > t4 ? 48 : 36) - R + add;
            }
        } else { /* fourth hand, not following (following: above) */
            int partner_ahead = c->ours[best_seat] == c->ours[seat];
            if (!trumps) {
                w = -R + FN(discard_add)(mine[s], left[s], 27, 6, 8);
            } else {
                int val = FN(discard_add)(mine[s], left[s], 24, 2, 0);
                if (led == t) w = -R + val;
                else if (partner_ahead) w = (s == t ? 2 : 25) - R + val;
                else if (best_trump)
                    w = s == t ? (S > bs ? 33 : -13) + FN(place_of)(c, p, left[s]) : 14 - R + val;
                else w = s == t ? 33 + FN(place_of)(c, p, left[s]) : 14 - R + val;
            }
        }
        score[i] = w;
        top = w > top_w ? i : top;
        top_w = w > top_w ? w : top_w;
    }
    return top;
}

/* The cheapest card that wins the trick against the opponents still to play first, then:
 * partner winning (winning: the player's side has the best card so far), low cards; second
 * hand, low cards before the other winners; later, the other winners before low cards. */
static void FN(follow_order)(Core *c, int seat, int n, int led, int best, int winning,
                         int *moves, int nmoves) {
    const int *keys = c->keys[led];
    int mine = c->ours[seat], threat = -2;
    int x = c->next_seat[seat];
    for (int k = n + 1; k < NSEATS(c); k++) {
        if (c->ours[x] != mine) {
            CS h = c->hands[x];
            int suit = (h & c->suit_masks[led]) ? led : c->trump_suit;
            CS f = h & c->suit_masks[suit];
            if (f) {
                for (int j = 0; j < c->suit_len[suit]; j++) {
                    int q = c->suit_order[suit][j];
                    if (f & CS_BIT(q)) {
                        if (keys[q] > threat) threat = keys[q];
                        break;
                    }
                }
            }
        }
        x = c->next_seat[x];
    }
    int score[NCARDS][3];
    int low = n == 1 ? 2 : 1;
    for (int i = 0; i < nmoves; i++) {
        int p = moves[i], k = keys[p];
        if (winning) {
            score[i][0] = threat <= best ? 0 : k < threat;
        } else {
            score[i][0] = (k > best && k >= threat) ? 0 : (k > best ? low : 3 - low);
        }
        score[i][1] = k;
        score[i][2] = c->strength[p];
    }
    FN(sort_moves)(moves, score, nmoves);
}

/* The tricks holder's run of the best cards of suit s (run cards) takes when holder's side
 * leads it: as many rounds as every opponent holding a trump (ruffers) follows, or, when no
 * opponent holds a trump, the whole of holder's suit if nobody else holds more of it than the
 * run, else the run. */
static int FN(cash_rounds)(Core *c, int s, int run, int holder, const CS *ruffers, int nruff) {
    CS m = c->suit_masks[s];
    if (nruff) {
        int least = run;
        for (int r = 0; r < nruff; r++) {
            int k = cs_popcount(ruffers[r] & m);
            if (k < least) least = k;
        }
        return least;
    }
    for (int j = 0; j < NSEATS(c); j++) {
        int x = c->seats[j];
        if (x != holder && cs_popcount(c->hands[x] & m) > run) return run;
    }
    return cs_popcount(c->hands[holder] & m);
}

/* Whether every other hand of holder's side has cards other than trumps for the tricks
 * holder cashes (else a partner might have to ruff a winner). */
static int FN(partners_discard)(Core *c, int holder, int tricks) {
    for (int j = 0; j < NSEATS(c); j++) {
        int x = c->seats[j];
        if (c->ours[x] == c->ours[holder] && x != holder &&
            cs_popcount(c->hands[x] & ~c->trumps) < tricks)
            return 0;
    }
    return 1;
}

/* Whether, no opponent holding a trump, the leader can cash its own tricks (own) and then
 * lead suit s to partner h's run (k tricks): h keeps its cards of s, having other cards than
 * trumps and s for the leader's tricks, and every other partner has cards other than trumps
 * for both. */
static int FN(own_then_via)(Core *c, int leader, int h, int s, int own, int k) {
    CS plain = ~c->trumps;
    for (int j = 0; j < NSEATS(c); j++) {
        int x = c->seats[j];
        if (c->ours[x] != c->ours[leader] || x == leader) continue;
        if (x == h ? cs_popcount(c->hands[x] & plain & ~c->suit_masks[s]) < own
                   : cs_popcount(c->hands[x] & plain) < own + k)
            return 0;
    }
    return 1;
}

/* The tricks the leader and its partner opposite (four seats) take in suit s when the
 * leader leads it, by one plan: while both hands have cards of the suit, the shorter plays
 * its best and the longer its lowest, but at the shorter's last card the longer plays its
 * best (to keep the lead), then the longer plays its best cards. A round counts while every
 * opponent holding a trump follows suit and the side's card in it is among the suit's best
 * cards left, all the side's (no equal card elsewhere), or every opponent is out of the
 * suit; the plan stops when the shorter hand would keep the lead with no card of the suit.
 * rel: the cards down to the lowest whose place the plan depends on (a round's winner while
 * an opponent follows, the longer hand's card that takes the lead back). */
static int FN(side_run)(Core *c, int s, int leader, Rel *rel) {
    int partner = c->next_seat[c->next_seat[leader]], t = c->trump_suit;
    uint32_t a = c->held[leader][s], b = c->held[partner][s];
    if (!a) return 0;
    uint32_t side = a | b, stop = c->left.bits[s] & ~side; /* the opponents' cards */
    int o = 0, ruff = INT_MAX; /* the opponents' longest holding; rounds before a ruff */
    for (int j = 0; j < NSEATS(c); j++) {
        int x = c->seats[j], k = __builtin_popcount(c->held[x][s]);
        if (x == leader || x == partner) continue;
        if (k > o) o = k;
        if (s != t && c->held[x][t] && k < ruff) ruff = k;
    }
    for (uint32_t m = TWINS(c) ? stop : 0; m; m &= m - 1) /* a card tied with theirs */
        stop |= side & c->rbit[(c->by_place[s][__builtin_ctz(m)] + COPY_STRIDE) % NCARDS];
    uint32_t top = side & (stop ? ~((2u << (31 - __builtin_clz(stop))) - 1) : ~0u);
    int a_long = __builtin_popcount(a) >= __builtin_popcount(b);
    uint32_t lg = a_long ? a : b, sh = side & ~lg;
    int nl = __builtin_popcount(lg), ns = __builtin_popcount(sh), r = 0, low = INT_MAX;
    for (int k = 0; k < nl && k < ruff; k++) {
        uint32_t qb = k < ns - 1 ? lg & -lg : (uint32_t)1 << (31 - __builtin_clz(lg)), wb = qb;
        lg &= ~qb;
        int q = c->by_place[s][__builtin_ctz(qb)];
        if (k < ns) {
            uint32_t sb = (uint32_t)1 << (31 - __builtin_clz(sh));
            sh &= ~sb;
            if (c->strength[c->by_place[s][__builtin_ctz(sb)]] > c->strength[q]) wb = sb;
        }
        int win = c->by_place[s][__builtin_ctz(wb)];
        if (k < o) {
            if (!(top & wb)) break;
            low = c->strength[win] < low ? c->strength[win] : low;
        }
        r++;
        if (k == ns - 1 && lg) {
            if (wb != qb) break; /* the shorter hand keeps the lead, out of the suit */
            low = c->strength[q] < low ? c->strength[q] : low;
        }
    }
    CS m = c->suit_masks[s];
    if (r > ns && s != t &&
        cs_popcount((a_long ? c->hands[partner] : c->hands[leader]) & ~c->trumps & ~m) < r - ns)
        return 0; /* the shorter hand might have to play a trump on the suit */
    rel_none(rel);
    if (low != INT_MAX) rel_card(rel, s, low);
    return r;
}

/* The fewest cards of suit s an opponent holding a trump (ruffers) has; INT_MAX: none. */
static int FN(ruffers_follow)(Core *c, int s, const CS *ruffers, int nruff) {
    int least = INT_MAX;
    for (int r = 0; r < nruff; r++) {
        int k = cs_popcount(ruffers[r] & c->suit_masks[s]);
        if (k < least) least = k;
    }
    return least;
}

/* Partner h's cards of suit s, a suit the leader heads with its run (last: the run's
 * lowest card), that are the suit's best once the run is gone: h's cards right below the
 * run (no other hand's between), as many as h keeps after following the run's rounds with
 * its lowest cards. 0 with equal copies in play. rel: the lowest of them. */
static int FN(under_run)(Core *c, int s, int run, int last, int h, Rel *rel) {
    uint32_t below = c->left.bits[s] & (c->rbit[last] - 1), mine = c->held[h][s];
    int k = 0;
    if (TWINS(c)) return 0;
    for (; below; k++) {
        uint32_t b = (uint32_t)1 << (31 - __builtin_clz(below));
        if (!(mine & b) || k >= __builtin_popcount(mine) - run) break;
        below &= ~b;
        rel_card(rel, s, c->strength[c->by_place[s][31 - __builtin_clz(b)]]);
    }
    return k;
}

/* With no trump in any hand, the tricks of a plan of the leader's side: the leader cashes
 * its own tricks (own: its runs, cash_rounds), first the runs of the suits where partner h
 * holds the next best cards, as many as h has spare cards for, then leads to h (an entry:
 * a suit whose best cards h holds, or one of those suits, when the leader has a card of it
 * after its run), and h cashes its runs of every suit (run: per suit the run of best cards,
 * held by holder[s], its last card last[s]) and its cards that the leader's runs left the
 * best (under_run). Sound: h plays to the leader's tricks only its spare cards: the cards
 * of suits whose best card it does not hold but those under_run counts (a suit led it
 * must follow: the leader's runs with h's next best cards come first, h following with
 * its lowest cards, which under_run leaves out; there are as many as the tricks cashed),
 * so its tricks are whole when it wins the entry; the leader keeps its card of the entry
 * suit (it leads only its own runs before); nobody can ruff, and the other hands' discards
 * only make h's suits shorter for cash_rounds. The best plan over the leader's partners;
 * rel: the cards it counts (the leader's runs all, when it cashes some). */
static int FN(partner_plan)(Core *c, int leader, int own, const int *holder, const int *run,
                        const int *last, const Rel *cashed, Rel *rel) {
    int best = 0;
    for (int j = 0; j < NSEATS(c); j++) {
        int h = c->seats[j], sum = 0, under = 0, entry = 0;
        if (h == leader || c->ours[h] != c->ours[leader]) continue;
        CS kept = 0;
        Rel r;
        rel_none(&r);
        for (int s = 0; s < NSUITS; s++) {
            if (holder[s] == leader) { /* h's cards right under the leader's run */
                int k = FN(under_run)(c, s, run[s], last[s], h, &r);
                under += k;
                entry |= k && __builtin_popcount(c->held[leader][s]) > run[s];
                continue;
            }
            if (holder[s] != h) continue;
            sum += FN(cash_rounds)(c, s, run[s], h, NULL, 0);
            kept |= c->suit_masks[s];
            entry |= c->held[leader][s] != 0;
            rel_card(&r, s, c->strength[last[s]]);
        }
        if (!entry) continue;
        int spare = cs_popcount(c->hands[h] & ~kept) - under, first = own < spare ? own : spare;
        if (first) rel_merge(&r, cashed);
        if (sum + under + first > best) {
            best = sum + under + first;
            *rel = r;
        }
    }
    return best;
}

/* The trick a team is sure of with trumps (each beating every other card) at a table of
 * four with partners opposite, when it holds the second best trump with another and the
 * other team the best: its second best sits right after the best's holder (it plays after
 * it in every trick it does not lead, and it leads only once its side has won a trick: so
 * not the leader) or it holds the third best too (the best takes one of them at most):
 * "K behind A", "KQ", DDS's later tricks. Asked only of a team that needs one trick (want
 * 1) and counts none yet (best). rel: the trumps down to the second or third best (the
 * rest is in the suit lengths, the bucket). */
static void FN(behind_best)(Core *c, int leader, const int *want, int *best, Rel *rel) {
    int t = c->trump_suit;
    uint32_t lb = c->left.bits[t];
    if (!OPPOSITE(c) || TWINS(c) || !c->trumps_win || !(lb & (lb - 1)))
        return;
    int b1 = 31 - __builtin_clz(lb), a = c->owner[c->by_place[t][b1]];
    uint32_t r = lb & ~(1u << b1);
    int k2 = c->by_place[t][31 - __builtin_clz(r)], k = c->owner[k2], low = -1;
    int o = c->ours[k] ? 0 : 1;
    if (want[o] != 1 || best[o] || c->ours[a] == c->ours[k] ||
        __builtin_popcount(c->held[k][t]) < 2)
        return;
    r &= ~(1u << (31 - __builtin_clz(r)));
    if (c->next_seat[a] == k && k != leader) low = k2;
    else if (r && c->ours[c->owner[c->by_place[t][31 - __builtin_clz(r)]]] == c->ours[k])
        low = c->by_place[t][31 - __builtin_clz(r)];
    if (low < 0) return;
    best[o] = 1;
    rel_none(&rel[o]);
    rel_card(&rel[o], t, c->strength[low]);
}

/* A team that needs every trick left (want: the remaining count) at a table of four with
 * partners opposite, cards ranked by strength and no equal copies, is sure to fail, the
 * other team sure of a trick, when the leader is of that team and every suit the leader
 * holds is headed by the other team, none of them one the leader's partner ruffs (the
 * other team's best card takes the first trick: DDS's quick tricks, none), or, with no
 * trump in any hand, when its tricks cannot reach the count: over the suits it heads, its
 * longer hand's cards of the suit (each round takes a card of each hand that holds the
 * suit, and a round of a suit the other team heads is that team's trick while its best
 * card is kept: with every trick needed, there is none to give up to squeeze it out)
 * (DDS's later tricks). Asked only of a team the count does not settle yet (best). rel:
 * the best cards of the leader's suits (the first), of the suits the other team heads and
 * another hand holds too (the second). */
static void FN(needs_all)(Core *c, CS present, int leader, const int *want, int *best,
                          Rel *rel) {
    int rem = cs_popcount(c->hands[leader]), t = c->trump_suit;
    if (!OPPOSITE(c) || TWINS(c) || !PARTITION(c) || (RESTRICTS(c) && !c->free) ||
        ((present & c->trumps) && !c->trumps_win))
        return;
    for (int i = 0; i < 2; i++) {
        int other = 1 - i, side = !i; /* the team's members: ours[x] == side */
        if (want[i] != rem || best[other]) continue;
        int partner = c->next_seat[c->next_seat[leader]], leads = c->ours[leader] == side;
        int sum = 0, none = leads;
        Rel r, q;
        rel_none(&r);
        rel_none(&q);
        for (int s = 0; s < NSUITS; s++) {
            uint32_t all = c->left.bits[s];
            if (!all) continue;
            int top = c->by_place[s][31 - __builtin_clz(all)], h = c->owner[top];
            if (c->ours[h] == side) {
                int k = 0;
                for (int j = 0; j < NSEATS(c); j++) {
                    int x = c->seats[j], n = __builtin_popcount(c->held[x][s]);
                    if (c->ours[x] == side && n > k) k = n;
                }
                sum += k;
                none &= !c->held[leader][s];
                continue;
            }
            if (all & ~c->held[h][s]) rel_card(&r, s, c->strength[top]);
            if (c->held[leader][s]) rel_card(&q, s, c->strength[top]);
            if (c->held[leader][s] && s != t && !c->held[partner][s] && c->held[partner][t])
                none = 0; /* the partner ruffs */
        }
        if (none || (!(present & c->trumps) && sum < rem)) {
            best[other] = 1;
            rel[other] = none ? q : r;
        }
    }
}

/* A team of the leader's that holds every trump (each beating every other card) is sure of
 * a trick more than the leader's trumps when the leader holds a suit that another hand of
 * its team holding a trump is void of: the leader leads it and that hand ruffs (nobody
 * else can overruff), and each of the leader's trumps, played in a trick of its own later,
 * wins it (DDS's quick tricks: the ruff when only the side holds trumps). Asked only
 * where any lead is allowed, and only where it settles the test (want). rel: none (the
 * suit lengths, the bucket, say it all). */
static void FN(ruff_more)(Core *c, CS present, int leader, const int *want, int *best,
                         Rel *rel) {
    int team = c->ours[leader] ? 0 : 1;
    if (!c->trumps_win || !(present & c->trumps) || (RESTRICTS(c) && !c->free)) return;
    int own = cs_popcount(c->hands[leader] & c->trumps);
    if (best[team] >= want[team] || own + 1 < want[team]) return;
    CS voids = 0; /* the suits a hand of the team holding a trump is void of */
    for (int j = 0; j < NSEATS(c); j++) {
        int x = c->seats[j];
        CS h = c->hands[x];
        if (c->ours[x] != c->ours[leader]) {
            if (h & c->trumps) return;
            continue;
        }
        if (x == leader || !(h & c->trumps)) continue;
        for (int s = 0; s < NSUITS; s++)
            if (!(h & c->suit_masks[s])) voids |= c->suit_masks[s];
    }
    if (!(c->hands[leader] & voids & ~c->trumps)) return;
    best[team] = own + 1;
    rel_none(&rel[team]);
}

/* The trick a team of the leader's is sure of (trumps each beating every other card) when
 * the leader holds a suit that a partner h holding a trump is void of and every opponent
 * follows suit, holds no trump, or holds only trumps below h's best: the leader leads the
 * suit and h ruffs with its best trump (DDS's quick tricks, the partner's ruff). Asked
 * only where any lead is allowed, of a team sure of none yet that needs one trick (want).
 * rel: h's best trump when it must beat an opponent's ruff (the rest is in the suit
 * lengths, the bucket). */
static void FN(partner_ruff)(Core *c, int leader, const int *want, int *best, Rel *rel) {
    int team = c->ours[leader] ? 0 : 1, t = c->trump_suit;
    if (best[team] || want[team] != 1 || !c->trumps_win || (RESTRICTS(c) && !c->free)) return;
    for (int j = 0; j < NSEATS(c); j++) {
        int h = c->seats[j];
        uint32_t ht = c->held[h][t];
        if (h == leader || c->ours[h] != c->ours[leader] || !ht) continue;
        int top = 31 - __builtin_clz(ht);
        for (int s = 0; s < NSUITS; s++) {
            if (s == t || c->held[h][s] || !c->held[leader][s]) continue;
            int ok = 1, over = 0;
            for (int i = 0; i < NSEATS(c) && ok; i++) {
                int x = c->seats[i];
                uint32_t xt = c->held[x][t];
                if (c->ours[x] == c->ours[leader] || c->held[x][s] || !xt) continue;
                ok = !TWINS(c) && 31 - __builtin_clz(xt) < top;
                over = 1;
            }
            if (!ok) continue;
            best[team] = 1;
            rel_none(&rel[team]);
            if (over) rel_card(&rel[team], t, c->strength[c->by_place[t][top]]);
            return;
        }
    }
}

/* Tricks each team (the side searched; everyone else) is sure of when leader leads: see
 * Solver's docs ("sure tricks"): the leader's runs it cashes, or a partner's run in a suit
 * the leader can lead to it, the better of the two; the best trumps' run. rel: per team,
 * the cards its count depends on (the runs counted; of the leader's runs, only as many as
 * reach want, the count that settles the test for the team, as DDS's quick tricks stop
 * there). */
static void FN(sure)(Core *c, CS present, int leader, const int *want, int *mine_out,
                 int *theirs_out, Rel *rel) {
    int trump_holder = -1, trump_run = 0, trump_last = -1;
    int cash_suit[NSUITS], cash_run[NSUITS], cash_last[NSUITS], cash_k[NSUITS], ncash = 0;
    int via_suit[NSUITS], via_run[NSUITS], via_holder[NSUITS], via_last[NSUITS], nvia = 0;
    int run_holder[NSUITS], run_len[NSUITS], run_last[NSUITS]; /* per suit */
    int mine = c->ours[leader];
    if (OPPOSITE(c) && !TWINS(c)) {
        /* Nothing can settle (the count is not needed): every rule below counts for the
         * leader's team (lt) at most, per suit whose best card it holds or that the
         * opponents are out of, its cards above every opponent's (top) when an opponent
         * holds more cards of the suit than that (each round a top card or an opponent's
         * trick), else its longer hand's cards of the suit (its two hands' with no trump left:
         * partner_plan), one more when it holds every trump (ruff_more), and for the other
         * team its trumps above every trump of the leader's team (all of a hand's when that
         * team has none); each team 1 at least. */
        int partner = c->next_seat[c->next_seat[leader]], lho = c->next_seat[leader];
        int rho = c->next_seat[partner], lt = mine ? 0 : 1, t = c->trump_suit;
        uint32_t ours = c->held[leader][t] | c->held[partner][t], opp = c->left.bits[t] & ~ours;
        int o1 = __builtin_popcount(c->held[lho][t]), o2 = __builtin_popcount(c->held[rho][t]);
        int theirs = !ours ? (o1 > o2 ? o1 : o2)
                   : opp > ours ? __builtin_popcount(opp & ~((2u << (31 - __builtin_clz(ours))) - 1))
                   : 0, most = 0;
        for (int s = 0; s < NSUITS && most < want[lt] && want[1 - lt] > (theirs > 1 ? theirs : 1);
             s++) { /* (the other team's first: it is cheaper) */
            uint32_t a = c->held[leader][s], b = c->held[partner][s], side = a | b;
            opp = c->left.bits[s] & ~side;
            if (side <= opp) continue;
            int top = __builtin_popcount(opp ? side & ~((2u << (31 - __builtin_clz(opp))) - 1)
                                             : side);
            int la = __builtin_popcount(a), lb = __builtin_popcount(b);
            o1 = __builtin_popcount(c->held[lho][s]);
            o2 = __builtin_popcount(c->held[rho][s]);
            if ((o1 > o2 ? o1 : o2) > top) most += top;
            else most += (present & c->trumps) ? (la > lb ? la : lb) : la + lb;
            most += s == t && !opp; /* holding every trump: a ruff more (ruff_more) */
        }
        if (want[lt] > (most > 1 ? most : 1) && want[1 - lt] > (theirs > 1 ? theirs : 1)) {
            *mine_out = *theirs_out = 0;
            return;
        }
    }
    Rel cashed;
    rel_none(&cashed);
    for (int s = 0; s < NSUITS; s++) { /* the best cards of the suit in one hand (bits) */
        uint32_t all = c->left.bits[s];
        run_holder[s] = -1;
        if (!all) continue;
        uint32_t hand = 0;
        int holder = c->owner[c->by_place[s][31 - __builtin_clz(all)]], run = 0, last = -1;
        if (holder >= 0) hand = c->held[holder][s];
        uint32_t stop = all & ~hand; /* another hand's cards, and the holder's tied with one */
        for (uint32_t m = TWINS(c) ? stop : 0; m; m &= m - 1)
            stop |= hand & c->rbit[(c->by_place[s][__builtin_ctz(m)] + COPY_STRIDE) % NCARDS];
        hand &= stop ? ~((2u << (31 - __builtin_clz(stop))) - 1) : ~0u;
        if (hand) {
            run = __builtin_popcount(hand);
            last = c->by_place[s][__builtin_ctz(hand)];
        }
        if (run) run_holder[s] = holder;
        run_len[s] = run;
        run_last[s] = last;
        if (run) {
            if (s == c->trump_suit) {
                trump_holder = holder;
                trump_run = run;
                trump_last = last;
            } else if (holder == leader) {
                cash_suit[ncash] = s;
                cash_last[ncash] = last;
                cash_k[ncash] = 0;
                cash_run[ncash++] = run;
                rel_card(&cashed, s, c->strength[last]);
            } else if (c->ours[holder] == mine && (c->hands[leader] & c->suit_masks[s])) {
                via_suit[nvia] = s; /* a partner's run, reached with a card of the suit */
                via_run[nvia] = run;
                via_holder[nvia] = holder;
                via_last[nvia++] = last;
            }
        }
    }
    int cash = 0, via = 0, via_best = -1, both = 0;
    if ((ncash || nvia) && !(RESTRICTS(c) && !c->free && c->finished_before + c->nfinished == 0)) {
        CS ruffers[MAXSEATS];
        int nruff = 0;
        for (int j = 0; j < NSEATS(c); j++) {
            int x = c->seats[j];
            if (c->ours[x] != mine && (c->hands[x] & c->trumps)) ruffers[nruff++] = c->hands[x];
        }
        for (int i = 0; i < ncash; i++)
            cash += cash_k[i] = FN(cash_rounds)(c, cash_suit[i], cash_run[i], leader, ruffers,
                                                nruff);
        if (cash && !FN(partners_discard)(c, leader, cash)) cash = 0;
        int own = cash + (trump_holder == leader ? trump_run : 0), most = own;
        for (int i = 0; i < nvia; i++) {
            int h = via_holder[i];
            int k = FN(cash_rounds)(c, via_suit[i], via_run[i], h, ruffers, nruff);
            if (k && !FN(partners_discard)(c, h, k)) k = 0;
            int total = k + (trump_holder == h ? trump_run : 0), add = 0;
            if (k && !nruff && cash && trump_holder != h && FN(own_then_via)(c, leader, h,
                    via_suit[i], own, k)) { /* the leader's own first, then the partner's */
                total = own + k;
                add = 1;
            }
            if (k && total > most) {
                most = total;
                via = k;
                via_best = i;
                both = add;
            }
        }
    }
    /* The leader draws trumps: its run of best trumps is as long as every other hand's
     * trumps, so after the run only the leader holds trumps, each a trick, and its other
     * suits' runs cash as if nobody held a trump (asked only where any lead is allowed). */
    int draw = 0;
    if (trump_holder == leader && c->trumps_win && !(RESTRICTS(c) && !c->free)) {
        draw = cs_popcount(c->hands[leader] & c->trumps);
        for (int j = 0; j < NSEATS(c) && draw; j++) {
            int x = c->seats[j];
            if (x != leader && cs_popcount(c->hands[x] & c->trumps) > trump_run) draw = 0;
        }
        for (int i = 0; i < ncash && draw; i++)
            draw += FN(cash_rounds)(c, cash_suit[i], cash_run[i], leader, NULL, 0);
    }
    int best[2] = {0, 0};
    rel_none(&rel[0]);
    rel_none(&rel[1]);
    int team = mine ? 0 : 1;
    if (via_best >= 0) { /* the partner's run is worth more than the leader's own */
        int h = via_holder[via_best];
        best[team] = via + (trump_holder == h ? trump_run : 0);
        if (both) {
            best[team] = via + cash + (trump_holder == leader ? trump_run : 0);
            rel[team] = cashed;
        }
        rel_card(&rel[team], via_suit[via_best], c->strength[via_last[via_best]]);
        if ((trump_holder == h || (both && trump_holder == leader)) && trump_run)
            rel_card(&rel[team], c->trump_suit, c->strength[trump_last]);
    } else {
        best[team] = cash + (trump_holder == leader ? trump_run : 0);
        for (int i = 0, got = best[team] - cash; cash && i < ncash && got < want[team]; i++) {
            got += cash_k[i]; /* only the runs the count needs */
            rel_card(&rel[team], cash_suit[i], c->strength[cash_last[i]]);
        }
        if (trump_holder == leader && trump_run)
            rel_card(&rel[team], c->trump_suit, c->strength[trump_last]);
    }
    if (draw > best[team]) {
        best[team] = draw;
        rel_none(&rel[team]);
        rel_card(&rel[team], c->trump_suit, c->strength[trump_last]);
        int got = cs_popcount(c->hands[leader] & c->trumps); /* the runs the count needs */
        for (int i = 0; i < ncash && got < want[team]; i++) {
            got += FN(cash_rounds)(c, cash_suit[i], cash_run[i], leader, NULL, 0);
            rel_card(&rel[team], cash_suit[i], c->strength[cash_last[i]]);
        }
    }
    if (!(present & c->trumps) && !(RESTRICTS(c) && !c->free) && best[team] < want[team]) {
        Rel r;
        int k = FN(partner_plan)(c, leader, cash, run_holder, run_len, run_last, &cashed, &r);
        if (k > best[team]) {
            best[team] = k;
            rel[team] = r;
        }
    }
    if (OPPOSITE(c) && !(RESTRICTS(c) && !c->free) && (c->trumps_win || !(present & c->trumps))) {
        int partner = c->next_seat[c->next_seat[leader]];
        for (int s = 0; s < NSUITS && best[team] < want[team]; s++) { /* until it settles */
            uint32_t a = c->held[leader][s], b = c->held[partner][s], side = a | b;
            uint32_t opp = c->left.bits[s] & ~side;
            int la = __builtin_popcount(a), lb = __builtin_popcount(b);
            if ((la > lb ? la : lb) <= best[team] || side <= opp) continue; /* it cannot count
                                      * more, or nothing: the opponents win the first round */
            Rel r;
            int k = FN(side_run)(c, s, leader, &r);
            if (k > best[team]) {
                best[team] = k;
                rel[team] = r;
            }
        }
    }
    if (trump_holder >= 0) {
        team = c->ours[trump_holder] ? 0 : 1;
        int t = c->trump_suit, count = trump_run, last = trump_last;
        uint32_t rest = c->left.bits[t] & ~c->rbit[trump_last];
        if (trump_run == 1 && rest && c->trumps_win && !TWINS(c)) {
            /* the second best trump in a partner's hand: a trick too, unless both are bare
             * (led, they fall together) (DDS's later tricks) */
            int second = c->by_place[t][31 - __builtin_clz(rest)];
            for (int j = 0; j < NSEATS(c); j++) {
                int x = c->seats[j];
                if (!(c->hands[x] & CS_BIT(second)) || c->ours[x] != c->ours[trump_holder])
                    continue;
                if (cs_popcount(c->hands[x] & c->trumps) > 1 ||
                    cs_popcount(c->hands[trump_holder] & c->trumps) > 1) {
                    count = 2;
                    last = second;
                }
            }
        }
        if (count > best[team]) {
            best[team] = count;
            rel_none(&rel[team]);
            rel_card(&rel[team], t, c->strength[last]);
        }
    }
    if (c->trumps_win) { /* one team has every trump left: each of its trumps wins a trick */
        int most[2] = {0, 0}, held[2] = {0, 0};
        for (int j = 0; j < NSEATS(c); j++) {
            int x = c->seats[j], t = c->ours[x] ? 0 : 1, k = cs_popcount(c->hands[x] & c->trumps);
            held[t] |= k > 0;
            if (k > most[t]) most[t] = k;
        }
        for (int t = 0; t < 2; t++)
            if (!held[1 - t] && most[t] > best[t]) { /* the suit lengths (the bucket) say so */
                best[t] = most[t];
                rel_none(&rel[t]);
            }
    }
    FN(ruff_more)(c, present, leader, want, best, rel);
    FN(partner_ruff)(c, leader, want, best, rel);
    FN(behind_best)(c, leader, want, best, rel);
    FN(needs_all)(c, present, leader, want, best, rel);
    *mine_out = best[0];
    *theirs_out = best[1];
}

/* The transposition key of a trick start: the leader and, suit by suit, the holders of the
 * cards left in rank order (+ 8 for a card that ties the one above): the suit's code (Left)
 * and a 1 after it (the end). */
static void FN(tt_key)(Core *c, int seat, uint64_t *key) {
#if SEARCH_PASS == 1 /* a word per suit (Core.fast), the end marker left out: no mask holds it */
    for (int w = 0; w < KEYWORDS; w++) key[w] = c->left.code[c->word_suit[w]][0];
    return;
#endif
    memset(key, 0, KEYWORDS * sizeof(uint64_t));
    key[0] = (uint64_t)seat;
    for (int s = 0; s < NSUITS; s++) {
        if (!c->key_len[s]) continue;
        int pos = c->key_offset[s], w = pos >> 6, b = pos & 63;
        uint64_t lo = c->left.code[s][0], hi = c->left.code[s][1];
        key[w] |= lo << b;
        if (w + 1 < KEYWORDS) key[w + 1] |= (b ? lo >> (64 - b) : 0) | hi << b;
        if (b && w + 2 < KEYWORDS) key[w + 2] |= hi >> (64 - b);
        int end = pos + 4 * __builtin_popcount(c->left.kpres[s]);
        key[end >> 6] |= (uint64_t)1 << (end & 63);
    }
}

/* Take cards out of the cards left, their codes and bits (Left). */
static inline __attribute__((always_inline)) void FN(take_out)(Core *c, CS cards) {
    for (; cards; cards &= cards - 1) {
        int q = cs_low(cards), i = c->key_pos[q], s = c->eff[q];
        c->left.bits[s] &= ~c->rbit[q];
        if (i < 0) continue;
        uint64_t kpres = c->left.kpres[s];
        int r = __builtin_popcountll(kpres & (((uint64_t)1 << i) - 1));
        int tie = TWINS(c) && (uint64_t)c->tie_above[s] >> (i + 1) & 1 && kpres >> (i + 1) & 1;
        if (NARROW(c)) { /* the suit's code in one word */
            uint64_t low = ((uint64_t)1 << (4 * r)) - 1, code = c->left.code[s][0];
            code = (code & low) | (code >> 4 & ~low);
            if (tie) code &= ~((uint64_t)8 << (4 * r)); /* the card below tied with this one */
            c->left.code[s][0] = code;
        } else {
            wide low = ((wide)1 << (4 * r)) - 1;
            wide code = (wide)c->left.code[s][1] << 64 | c->left.code[s][0];
            code = (code & low) | (code >> 4 & ~low);
            if (tie) code &= ~((wide)8 << (4 * r));
            c->left.code[s][0] = (uint64_t)code;
            c->left.code[s][1] = (uint64_t)(code >> 64);
        }
        c->left.kpres[s] = (uint32_t)(kpres & ~((uint64_t)1 << i));
    }
}

/* The lead that settled a test at a trick start, kept in its table entry for the next test
 * there: its suit + 1 (three bits) and its place among the suit's cards left (above them;
 * positions that share an entry hold the same ranks, not always the same cards). One byte:
 * an entry of 40 bytes, not 48. */
static uint8_t FN(lead_code)(Core *c, int p, CS present) {
    int s = c->eff[p], place = 0;
    for (int i = 0; i < c->suit_len[s] && c->suit_order[s][i] != p; i++)
        place += (present & CS_BIT(c->suit_order[s][i])) != 0;
    return (uint8_t)((s + 1) | place << 3);
}

/* The card of the lead kept by lead_code, -1: none. */
static int FN(lead_card)(Core *c, uint8_t code, CS present) {
    int s = (code & 7) - 1, place = code >> 3;
    for (int i = 0; i < c->suit_len[s]; i++) {
        int p = c->suit_order[s][i];
        if (present & CS_BIT(p) && place-- == 0) return p;
    }
    return -1;
}

/* Move card q to the front of moves (when it is one of them). */
static void FN(first_lead)(int q, int *moves, int nmoves) {
    for (int i = 0; i < nmoves; i++) {
        if (moves[i] == q) {
            memmove(moves + 1, moves, i * sizeof(int));
            moves[0] = q;
            return;
        }
    }
}

/* The bucket of a trick start: the leader, whether its lead is restricted, and each playing
 * hand's length in each suit (lens, kept by play_card); its hash (bucket_hash) from lsum. */
static uint64_t FN(bucket_key)(Core *c, int seat, int restricted, uint64_t *k) {
    uint64_t lead = (uint64_t)seat | (uint64_t)restricted << 3;
    memcpy(k, c->lens, KEYWORDS * sizeof(uint64_t));
    k[0] |= lead; /* (the leader's bits of lens[0] are 0: | adds) */
    return bucket_mix(c->lsum + lead * bucket_mul[0]);
}

/* Seat plays card p (back: takes it back into its hand): its hand, its length in p's suit
 * in the bucket key (lens, lsum) and its bits of the suit (held). */
static void FN(play_card)(Core *c, int seat, int p, int back) {
    c->hands[seat] ^= CS_BIT(p);
    int s = c->eff[p], w = c->len_word[seat][s];
    c->held[seat][s] ^= c->rbit[p];
    if (w < 0) return;
    uint64_t one = (uint64_t)1 << c->len_bit[seat][s];
    if (back) {
        c->lens[w] += one;
        c->lsum += c->len_step[seat][s];
    } else {
        c->lens[w] -= one;
        c->lsum -= c->len_step[seat][s];
    }
}

/* The dependence of a stored result, at the position it matches: per suit the strength of
 * its m-th card left (its relevant cards are the m best). */
static void FN(rel_of_entry)(Core *c, const PEntry *e, Rel *rel) {
    for (int s = 0; s < NSUITS; s++) {
        int i = e->m[s] ? nth_bit(c->left.kpres[s], e->m[s]) : -1;
        rel->t[s] = i < 0 ? INT_MAX : c->strength[c->key_card[s][i]];
    }
}

/* Whether a trick start's key holds a stored result's relevant cards: the key masked as
 * tt_store masked the entry's (the mask made again from m, not kept: smaller entries,
 * more of them to a cache line). */
static int FN(entry_matches)(Core *c, const PEntry *e, const uint64_t *key) {
#if SEARCH_PASS == 1 /* a word per suit (Core.fast) */
    for (int w = 0; w < KEYWORDS; w++) {
        int s = c->word_suit[w];
        if ((key[w] & c->prefix[s][e->m[s]][w]) != e->pat[w]) return 0;
    }
    return 1;
#endif
    uint64_t mask[KEYWORDS];
    entry_mask(c, e->m, mask);
    for (int w = 0; w < KEYWORDS; w++)
        if ((key[w] & mask[w]) != e->pat[w]) return 0;
    return 1;
}

/* The filter of a key (or a mask, a pattern): the first three cards' nibbles of each suit in
 * one word, so that an entry is passed over with one test when one of those differs. */
static uint64_t FN(filter)(Core *c, const uint64_t *key) {
    uint64_t f = 0;
#if SEARCH_PASS == 1 /* a word per suit (Core.fast) */
    for (int w = 0; w < KEYWORDS; w++) f |= (key[w] & 0xFFF) << (12 * w);
    return f;
#endif
    for (int s = 0; s < NSUITS; s++) {
        int pos = c->key_offset[s], w = pos >> 6, b = pos & 63;
        uint64_t bits = key[w] >> b;
        if (b > 52 && w + 1 < KEYWORDS) bits |= key[w + 1] << (64 - b);
        f |= (bits & 0xFFF) << (12 * s);
    }
    return f;
}

/* A stored result that answers "need more tricks?" at this trick start: 1 or 0 (and what it
 * depended on in rel), or -1 (none; *lead: a lead that settled a test there, or 0). *where:
 * the slot of the start's bucket in c->bslots, -1 when it has none yet. */
static int FN(tt_lookup)(Core *c, const uint64_t *bkey, uint64_t h, const uint64_t *key, int need,
                         Rel *rel, uint8_t *lead, int64_t *where) {
    size_t slot;
    *where = bucket_find(c, bkey, h, &slot);
    if (*where < 0) return -1;
    Bucket *bucket = c->bslots[*where].b;
    uint64_t f = FN(filter)(c, key);
    for (uint32_t i = 0; i < bucket->n; i++) { /* the newest first */
        if ((f & bucket->f[i][1]) != bucket->f[i][0]) continue;
        const PEntry *e = &entries(bucket)[bucket->n - 1 - i];
        if (!FN(entry_matches)(c, e, key)) continue;
        if (e->lo >= need || e->hi < need) {
            FN(rel_of_entry)(c, e, rel);
            return e->lo >= need;
        }
        if (!*lead) *lead = e->lead;
    }
    return -1;
}

/* Store a result (the side takes need more tricks: result) with what it depended on; where:
 * the slot of the start's bucket as tt_lookup found it (-1: none, then made here: its key is
 * bkey; bucket_add). -1: out of memory. */
static int FN(tt_store)(Core *c, const uint64_t *bkey, int64_t where, const uint64_t *key,
                    const Rel *rel, int result, int need, uint8_t lead) {
    uint64_t mask[KEYWORDS], pat[KEYWORDS];
    uint8_t m[NSUITS] = {0, 0, 0, 0, 0};
    for (int s = 0; s < NSUITS; s++) {
#if SEARCH_PASS == 1 /* the cards at or above the suit's threshold (strengths fall in key order) */
        int t = rel->t[s];
        m[s] = (uint8_t)__builtin_popcount(c->left.kpres[s] &
                                           (t >= STRENGTHS ? 0 : c->at_least[s][t < 0 ? 0 : t]));
#else
        for (uint32_t left = c->left.kpres[s]; left; left &= left - 1) {
            if (PARTITION(c) && c->strength[c->key_card[s][__builtin_ctz(left)]] < rel->t[s])
                break;
            m[s]++;
        }
#endif
    }
    entry_mask(c, m, mask);
    for (int w = 0; w < KEYWORDS; w++) pat[w] = key[w] & mask[w];
    if ((where = bucket_add(c, bkey, where)) < 0) return -1;
    Bucket *bucket = c->bslots[where].b;
    PEntry *e = NULL;
    uint64_t fpat = FN(filter)(c, pat), fmask = FN(filter)(c, mask);
    for (uint32_t i = 0; i < bucket->n; i++) {
        if (bucket->f[i][0] != fpat || bucket->f[i][1] != fmask) continue;
        PEntry *x = &entries(bucket)[bucket->n - 1 - i];
        if (!memcmp(x->m, m, sizeof(m)) && !memcmp(x->pat, pat, sizeof(pat))) {
            e = x;
            break;
        }
    }
    if (!e) {
        if (bucket->n == bucket->cap) { /* a block twice as big (pool_block) */
            int k = __builtin_ctz(bucket->cap) - 1;
            if (k >= POOL_SIZES) return -1;
            Bucket *more = pool_block(&c->pool, k);
            if (!more) return -1;
            memcpy(more, bucket, sizeof(Bucket) + bucket->n * sizeof(bucket->f[0]));
            more->cap = 2 * bucket->cap;
            memcpy(entries(more), entries(bucket), bucket->n * sizeof(PEntry));
            *(void **)bucket = c->pool.spare[k - 1];
            c->pool.spare[k - 1] = bucket;
            c->bslots[where].b = bucket = more;
        }
        memmove(bucket->f + 1, bucket->f, bucket->n * sizeof(bucket->f[0]));
        bucket->f[0][0] = fpat;
        bucket->f[0][1] = fmask;
        e = &entries(bucket)[bucket->n++];
        memcpy(e->pat, pat, sizeof(pat));
        memcpy(e->m, m, sizeof(m));
        e->lo = 0;
        e->hi = 127;
        e->lead = 0;
    }
    if (result) { if (need > e->lo) e->lo = (int8_t)need; }
    else if (need - 1 < e->hi) e->hi = (int8_t)(need - 1);
    if (lead) e->lead = lead;
    return 0;
}

/* A finished trick's cards (trick) won by card w: when another card of w's suit was in it,
 * the rank of w decided it. */
static void FN(trick_rel)(Core *c, Rel *rel, CS trick, int w) {
    int s = c->eff[w];
    CS same = trick & c->suit_masks[s];
    if (same & (same - 1)) rel_card(rel, s, c->strength[w]);
}

/* When every move was needed for a result, a relevant card tried for its group stands for
 * the whole group: the group's cards become relevant too (a small card of the group in
 * another position could not be matched with the one tried). */
static void FN(extend_groups)(Core *c, int seat, Rel *rel, const int *moves, int nmoves,
                              CS legal, CS others) {
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nmoves; i++) {
            int p = moves[i], s = c->eff[p];
            if (c->strength[p] < rel->t[s]) continue;
            int low = FN(group_low)(c, seat, p, legal, others);
            if (low < rel->t[s]) {
                rel->t[s] = low;
                changed = 1;
            }
        }
    }
}

/* A trick start (seat to lead, more than one card each) answered without a search: by a
 * stored result, or by the sure tricks of one team (then stored with what they depend on,
 * fewer cards than a search's result there often does: a later trick start like it is
 * answered by the table, without counting them again, and its parents' results depend on
 * fewer cards). 1 or 0 (and what it depended on in rel), -1 (bkey and key: the start's
 * bucket and key, *where its index as tt_lookup's; *lead: a lead that settled a test
 * there, or 0), or -2: out of memory. */
static int FN(settled)(Core *c, int need, CS present, int seat, int restricted, uint64_t *bkey,
                   int64_t *where, uint64_t *key, Rel *rel, uint8_t *lead) {
    uint64_t h = FN(bucket_key)(c, seat, restricted, bkey);
    FN(tt_key)(c, seat, key);
    c->probes++;
    int r = FN(tt_lookup)(c, bkey, h, key, need, rel, lead, where);
    if (r >= 0) { c->hits++; return r; }
    int mine, theirs;
    Rel counted[2];
    int want[2] = {need, cs_popcount(c->hands[seat]) - need + 1};
    FN(sure)(c, present, seat, want, &mine, &theirs, counted);
    r = mine >= need ? 1 : cs_popcount(c->hands[seat]) - theirs < need ? 0 : -1;
    if (r < 0) {
        rel_none(rel);
        return -1;
    }
    *rel = counted[!r];
    if (!restricted && FN(tt_store)(c, bkey, *where, key, rel, r, need, 0) < 0) return -2;
    return r;
}

/* At a trick's last card (the trick's other cards gone, taken out of the cards left): a move
 * whose trick start the table already answers the way this node would cut (maxing), or that
 * the tricks left settle (need met, or more than the hand's cards), found before any move is
 * searched (an enhanced transposition cutoff). The moves' order may put first a card that
 * needs a search when another's result is stored, as it often is once the table holds
 * another position's solve (the other leaders of a 5x4 table: Core.solved). Not the move
 * tried first (skip): its own trick start asks the table first thing. Only early in the hand
 * (AHEAD_CARDS), where a search passed over is big enough to pay for the look-ups: from 11
 * cards (the first three tricks), positions.table of bridge deals 0-14 4-7 % less time in
 * all (the median deal 0-3 %; from 9 or 13 cards alike, from 6 worse; in a single solve,
 * the table holding its own tests' results only, no gain). 1 (and what the result depended
 * on in rel) or 0. */
static __attribute__((noinline)) int FN(cut_ahead)(Core *c, int need, int seat, int led,
                                                   int best, int best_seat, int best_card,
                                                   CS gone, const int *moves, int nmoves,
                                                   int skip, int maxing, Rel *rel) {
    int restricted = RESTRICTS(c) && !c->free;
    for (int i = 0; i < nmoves; i++) {
        if (i == skip) continue;
        int p = moves[i], s = c->eff[p], k = c->keys[led][p];
        int bs = k > best ? seat : best_seat, bc = k > best ? p : best_card;
        int want = need - c->ours[bs], r = -1;
        CS bit = CS_BIT(p);
        Rel crel;
        rel_none(&crel);
        FN(play_card)(c, seat, p, 0);
        int rem = cs_popcount(c->hands[bs]);
        if (want <= 0 || want > rem) {
            r = want <= 0;
        } else if (rem > 1) {
            uint64_t key[KEYWORDS], bkey[KEYWORDS];
            uint8_t lead = 0;
            int64_t where;
            SuitLeft before;
            suit_left(c, s, &before);
            FN(take_out)(c, bit);
            uint64_t h = FN(bucket_key)(c, bs, restricted, bkey);
            FN(tt_key)(c, bs, key);
            c->probes++;
            r = FN(tt_lookup)(c, bkey, h, key, want, &crel, &lead, &where);
            c->hits += r >= 0;
            set_suit_left(c, s, &before);
        }
        FN(play_card)(c, seat, p, 1);
        if (r == maxing) {
            *rel = crel;
            FN(trick_rel)(c, rel, gone | bit, bc);
            return 1;
        }
    }
    return 0;
}

/* The best key of the cards seat may play to a trick led in suit led (its cards of the suit,
 * or when it has none any card), and that card (*card). */
static int FN(best_follow)(Core *c, int seat, int led, int *card) {
    CS h = c->hands[seat], follow = h & c->suit_masks[led];
    const int *keys = c->keys[led];
    const uint32_t *held = c->held[seat];
    int k = INT_MIN;
    if (PARTITION(c) && !TWINS(c)) { /* a suit's best card has its best key */
        if (held[led]) { /* following: its best card of the suit */
            *card = c->by_place[led][31 - __builtin_clz(held[led])];
            return keys[*card];
        }
        for (int s = 0; s < NSUITS; s++) {
            if (!held[s]) continue;
            int q = c->by_place[s][31 - __builtin_clz(held[s])];
            if (keys[q] > k) { k = keys[q]; *card = q; }
        }
        return k;
    }
    for (CS m = follow ? follow : h; m; m &= m - 1) {
        int q = cs_low(m);
        if (keys[q] > k) { k = keys[q]; *card = q; }
    }
    return k;
}

/* sure_follow's count (tricks: the trick in progress, won by hh, and hh's runs after it)
 * with, at four seats and no equal copies, a plan that goes on to hh's partner opposite
 * (p): hh cashes as many of its runs as p has spare cards for after this trick, then leads
 * a suit whose best cards p holds (hh has a card of it), and p cashes its runs in the
 * suits other than trumps (its cards above every other hand's): with no trump left the
 * whole suit when no other hand holds more of it, else as many rounds as every opponent
 * holding a trump (ruffers) follows. Sound as partner_plan: p plays to this trick and to
 * hh's tricks only its spare cards (not trumps, not of the suits it cashes; the suit led
 * is not one: hh's card beats p's) or trumps under hh's, hh to p's tricks cards other than
 * trumps (it has enough), so neither takes the other's trick; the ruffers follow every
 * suit counted, so they never discard. rel: p's runs' lowest cards added when the plan
 * counts more. */
static int FN(then_partner)(Core *c, int hh, int tricks, const CS *ruffers, int nruff,
                        Rel *rel) {
    int p = c->next_seat[c->next_seat[hh]], sum = 0, entry = 0;
    CS kept = 0;
    Rel r = *rel;
    for (int s = 0; s < NSUITS; s++) {
        if (s == c->trump_suit) continue;
        uint32_t own = c->held[p][s], others = 0;
        for (int j = 0; j < NSEATS(c); j++) others |= c->held[c->seats[j]][s] & ~own;
        uint32_t run = others ? own & ~((2u << (31 - __builtin_clz(others))) - 1) : own;
        if (!run) continue; /* p does not head the suit */
        int k = __builtin_popcount(run), longer = 0;
        if (nruff) {
            int follow = FN(ruffers_follow)(c, s, ruffers, nruff);
            k = follow < k ? follow : k;
        } else {
            for (int j = 0; j < NSEATS(c); j++)
                longer |= __builtin_popcount(c->held[c->seats[j]][s] & ~own) > k;
            k = longer ? k : __builtin_popcount(own);
        }
        if (!k) continue;
        sum += k;
        kept |= c->suit_masks[s];
        entry |= c->held[hh][s] != 0;
        if (others) rel_card(&r, s, c->strength[c->by_place[s][__builtin_ctz(run)]]);
    }
    int spare = cs_popcount(c->hands[p] & ~kept & ~c->trumps) - 1; /* after this trick */
    int first = tricks - 1 < spare ? tricks - 1 : spare;
    if (!entry || spare < 0 || 1 + first + sum <= tricks ||
        cs_popcount(c->hands[hh] & ~c->trumps) - 1 - first < sum) /* hh might have to ruff */
        return tricks;
    *rel = r;
    return 1 + first + sum;
}

/* Tricks seat's side is sure of, the trick in progress included, when seat plays the trick's
 * n-th card (0 < n, some hand after seat still to play; DDS's quick tricks at second hand):
 * when a card of the side (played, or held by seat or a partner still to play) beats every
 * card the opponents still to play can play, the side wins the trick: one. When the lead is
 * free, the hand holding the side's best card of the suit led (hh) then leads, and in each
 * suit counts its run (its cards above every other hand's; in the suit led, those after the
 * card it wins this trick with): with no trump left, the whole suit when no other hand holds
 * more of it than the run (or none, then without a run); with trumps (no equal copies, and
 * trumps beat every other suit), each of its run of trumps, and in another suit as many
 * rounds as every opponent holding a trump follows (an opponent still to play follows the
 * suit led: it could not ruff, hh's card wins), as long as hh's partners have other cards
 * than trumps for all the tricks counted (else a partner might have to ruff hh's winner).
 * With equal copies in play (no trump left), one trick for hh's next card of the suit led
 * when it is the best left, and each other suit's best card hh holds. The suits are counted
 * until the count reaches want (the count that settles the test). rel: the cards the count
 * depends on (each run's lowest card). */
static int FN(sure_follow)(Core *c, int seat, int n, int led, int best, int best_seat,
                       int best_card, int want, Rel *rel) {
    int mine = c->ours[seat], ahead = c->ours[best_seat] == mine;
    int top = ahead ? best : INT_MIN, theirs = ahead ? INT_MIN : best;
    int top_card = best_card, top_seat = best_seat, x = seat;
    int their_card = ahead ? -1 : best_card; /* the opponents' best card */
    for (int k = n; k < NSEATS(c); k++, x = c->next_seat[x]) {
        int q = -1, key = FN(best_follow)(c, x, led, &q);
        if (c->ours[x] == mine) {
            if (key > top) { top = key; top_card = q; top_seat = x; }
        } else if (key > theirs) {
            theirs = key;
            their_card = q;
        }
    }
    if (top <= theirs) return 0;
    rel_none(rel);
    int t = c->trump_suit; /* a ruff of a trick the opponents cannot ruff: any trump wins it */
    if (!(c->eff[top_card] == t && led != t && c->trumps_win &&
          (their_card < 0 || c->eff[their_card] != t)))
        rel_card(rel, c->eff[top_card], c->strength[top_card]);
    int tricks = 1, nruff = 0;
    CS inhand = 0, ruffers[MAXSEATS];
    for (int j = 0; j < NSEATS(c); j++) {
        int y = c->seats[j];
        inhand |= c->hands[y];
        if (c->ours[y] != mine && (c->hands[y] & c->trumps)) ruffers[nruff++] = c->hands[y];
    }
    int trumps = (inhand & c->trumps) != 0;
    if ((trumps && (TWINS(c) || !c->trumps_win)) || (RESTRICTS(c) && !c->free) ||
        c->eff[top_card] != led || top_seat == best_seat)
        return tricks;
    for (int s = 0; s < NSUITS && tricks < want; s++) {
        uint32_t own = c->held[top_seat][s], all = 0;
        if (!own) continue;
        for (int j = 0; j < NSEATS(c); j++) all |= c->held[c->seats[j]][s];
        uint32_t others = all & ~own;
        if (!others && (!nruff || s == c->trump_suit)) { /* nobody else holds the suit */
            tricks += __builtin_popcount(own) - (s == led);
            continue;
        }
        if (!TWINS(c)) { /* hh's run: its cards above every other hand's */
            uint32_t run = others ? own & ~((2u << (31 - __builtin_clz(others))) - 1) : own;
            if (s == led && !(run & c->rbit[top_card])) continue;
            if (!run) continue;
            int k = __builtin_popcount(run), longer = 0, follow;
            if (s != c->trump_suit && nruff) { /* the rounds every ruffer follows */
                follow = FN(ruffers_follow)(c, s, ruffers, nruff);
                k = follow < k ? follow : k;
            } else if (s != led && s != c->trump_suit) { /* the whole suit when no other */
                for (int j = 0; j < NSEATS(c); j++) /* hand holds more than the run */
                    longer |= __builtin_popcount(c->held[c->seats[j]][s] & ~own) > k;
                k = longer ? k : __builtin_popcount(own);
            }
            if (k - (s == led) <= 0) continue;
            tricks += k - (s == led);
            rel_card(rel, s, c->strength[c->by_place[s][__builtin_ctz(run)]]);
            continue;
        }
        /* the suit's two best cards left in the hands */
        uint32_t fb = (uint32_t)1 << (31 - __builtin_clz(all)), rest = all & ~fb;
        int first = c->by_place[s][31 - __builtin_clz(fb)];
        int second = rest ? c->by_place[s][31 - __builtin_clz(rest)] : -1;
        if (s == led) { /* hh's best plays to this trick: its next, when the best left */
            if (first == top_card && second >= 0 && (own & c->rbit[second]) &&
                c->strength[second] < c->strength[first] &&
                !(others & c->rbit[(second + COPY_STRIDE) % NCARDS])) {
                tricks++;
                rel_card(rel, s, c->strength[second]);
            }
        } else if ((own & fb) && !(others & c->rbit[(first + COPY_STRIDE) % NCARDS])) {
            tricks++;
            rel_card(rel, s, c->strength[first]);
        }
    }
    if (trumps && tricks > 1 && !FN(partners_discard)(c, top_seat, tricks)) {
        rel_none(rel); /* a partner might have to ruff hh's winner */
        rel_card(rel, c->eff[top_card], c->strength[top_card]);
        return 1;
    }
    if (!TWINS(c) && OPPOSITE(c) && tricks < want)
        tricks = FN(then_partner)(c, top_seat, tricks, ruffers, nruff, rel);
    return tricks;
}

/* Can the side take need more tricks (the one in progress included) when seat plays the
 * trick's n-th card; led: the suit led; best: the key of the best card so far (best_card),
 * played by best_seat; gone: the cards of the trick; present: every card not gone in an
 * earlier trick. 1 yes, 0 no, -1 an exception (an interrupt, the lead restriction's
 * callback). rel: the cards the answer depended on (partition search, above). */
static int FN(search)(Core *c, int need, CS present, int seat, int n, int led, int best,
                  int best_seat, int best_card, CS gone, Rel *rel) {
    if ((++c->nodes & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) return -1;
    CS hand = c->hands[seat], legal, others;
    uint64_t key[KEYWORDS], bkey[KEYWORDS];
    int moves[MAXMOVES], nmoves, free = c->free, restricted = 0;
    /* At a table of four with partners opposite, the moves' weights (DDS's): the moves are
     * tried highest first, each picked when its turn comes, not sorted beforehand (most
     * nodes cut at their first move; an insertion sort mispredicted a branch at about every
     * move). A move tried has the weight INT_MIN, below any weight. */
    int weight[MAXMOVES], weighted = 0, first = 0; /* first: the highest weight's move */
    uint8_t lead = 0;
    int64_t where = -1;
    rel_none(rel);
    if (n == 0) {
        if (need <= 0) return 1;
        int rem = cs_popcount(hand);
        if (need > rem) return 0;
        if (rem == 1) { /* the last trick: every card is forced */
            int p = cs_top(hand);
            const int *keys = c->keys[c->eff[p]];
            int b = keys[p], bs = seat, bc = p;
            CS trick = CS_BIT(p);
            for (int x = c->next_seat[seat]; x != seat; x = c->next_seat[x]) {
                int q = cs_top(c->hands[x]);
                trick |= CS_BIT(q);
                if (keys[q] > b) { b = keys[q]; bs = x; bc = q; }
            }
            FN(trick_rel)(c, rel, trick, bc);
            return c->ours[bs];
        }
        restricted = RESTRICTS(c) && !c->free;
        int r = FN(settled)(c, need, present, seat, restricted, bkey, &where, key, rel, &lead);
        if (r == -2) {
            PyErr_NoMemory();
            return -1;
        }
        if (r >= 0) return r;
        legal = hand;
        if (restricted) {
            u128 got;
            if (lead_mask(c, seat, hand, present, &got, &free) < 0) return -1;
            legal = (CS)got;
        }
        others = present & ~hand;
        nmoves = FN(reps_of)(c, seat, legal, moves);
        int q = lead ? FN(lead_card)(c, lead, present) : -1;
        if (OPPOSITE(c)) {
            first = FN(lead_weights)(c, seat, moves, nmoves, present, q, weight);
            weighted = 1;
        } else {
            FN(lead_order)(c, seat, moves, nmoves, present);
            FN(first_lead)(q, moves, nmoves);
        }
    } else {
        if (n == 1 && NSEATS(c) > 2) { /* second hand only (as DDS): later it costs more */
            int want = c->ours[seat] ? need : cs_popcount(hand) - need + 1;
            int q = FN(sure_follow)(c, seat, n, led, best, best_seat, best_card, want, rel);
            if (q && (c->ours[seat] ? q >= need : q > cs_popcount(hand) - need))
                return c->ours[seat];
            rel_none(rel);
        }
        CS follow = hand & c->suit_masks[led];
        legal = follow ? follow : hand;
        others = present & ~hand & (follow ? c->suit_masks[led] : ~(CS)0);
        if (follow && !(follow & (follow - 1))) {
            moves[0] = cs_top(follow);
            nmoves = 1;
        } else {
            nmoves = follow ? FN(reps_in)(c, seat, led, c->held[seat][led], moves, 0)
                            : FN(reps_of)(c, seat, legal, moves);
        }
        if (nmoves > 1 && OPPOSITE(c) && n == 3 && follow)
            FN(fourth_follow_order)(c, seat, best_seat, best_card, moves, nmoves, present);
        else if ((weighted = nmoves > 1 && OPPOSITE(c)))
            first = FN(follow_weights)(c, seat, n, led, best_seat, best_card, moves, nmoves,
                                       present, weight);
        else if (nmoves > 1)
            FN(follow_order)(c, seat, n, led, best, c->ours[best_seat] == c->ours[seat], moves,
                         nmoves);
    }
    int maxing = c->ours[seat];
    int result = !maxing, was_free = c->free, cut = -1;
    c->free = free;
    int floor[NSUITS] = {INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN};
    int last = n + 1 == NSEATS(c);
    SuitLeft kept[NSUITS]; /* at a trick's last card: the suits of the trick's cards before */
    int kept_suits = 0;     /* they were taken out of the cards left (bits) */
    if (last) {
        for (CS g = gone; g; g &= g - 1) {
            int s = c->eff[cs_low(g)];
            if (!(kept_suits >> s & 1)) suit_left(c, s, &kept[s]);
            kept_suits |= 1 << s;
        }
        FN(take_out)(c, gone);
        if (nmoves > 1 && c->solved && cs_popcount(hand) >= AHEAD_CARDS &&
            FN(cut_ahead)(c, need, seat, led, best, best_seat, best_card, gone, moves,
                          nmoves, weighted ? first : 0, maxing, rel)) {
            c->free = was_free;
            for (int m = kept_suits; m; m &= m - 1)
                set_suit_left(c, __builtin_ctz(m), &kept[__builtin_ctz(m)]);
            return maxing;
        }
    }
    for (int i = 0; i < nmoves; i++) {
        int p = moves[i];
        if (weighted) { /* the next by weight, the first of equal weights first (see weight) */
            int j = first;
            if (i) {
                j = 0;
                for (int k = 1; k < nmoves; k++) j = weight[k] > weight[j] ? k : j;
            }
            p = moves[j];
            weight[j] = INT_MIN;
        }
        int ok, s = c->eff[p];
        if (c->strength[p] < floor[s]) continue; /* a small card like one tried */
        CS bit = CS_BIT(p);
        Rel crel;
        FN(play_card)(c, seat, p, 0);
        if (RESTRICTS(c)) {
            c->played[c->nplayed].seat = seat;
            c->played[c->nplayed++].card = p;
        }
        if (n == 0) {
            int l = c->eff[p];
            ok = FN(search)(c, need, present, c->next_seat[seat], 1, l, c->keys[l][p], seat, p, bit,
                        &crel);
        } else {
            int k = c->keys[led][p], up = -(k > best); /* all ones when p is the best now */
            int b = best ^ ((best ^ k) & up), bs = best_seat ^ ((best_seat ^ seat) & up);
            int bc = best_card ^ ((best_card ^ p) & up); /* (no branch: it is not predictable) */
            if (last) {
                if (RESTRICTS(c)) {
                    int *row = c->finished[c->nfinished++];
                    row[1] = c->nplayed - NSEATS(c);
                    row[0] = c->played[row[1]].seat;
                    row[2] = bs;
                }
                SuitLeft before;
                suit_left(c, s, &before);
                FN(take_out)(c, bit);
                ok = FN(search)(c, need - c->ours[bs], present & ~(gone | bit), bs, 0, 0, 0, 0, -1,
                                0, &crel);
                set_suit_left(c, s, &before);
                if (RESTRICTS(c)) c->nfinished--;
                FN(trick_rel)(c, &crel, gone | bit, bc);
            } else {
                ok = FN(search)(c, need, present, c->next_seat[seat], n + 1, led, b, bs, bc,
                            gone | bit, &crel);
            }
        }
        if (RESTRICTS(c)) c->nplayed--;
        FN(play_card)(c, seat, p, 1);
        if (ok < 0) {
            c->free = was_free;
            for (int m = kept_suits; m; m &= m - 1)
                set_suit_left(c, __builtin_ctz(m), &kept[__builtin_ctz(m)]);
            return -1;
        }
        if (ok == maxing) {
            result = ok;
            cut = p;
            if (n == 0) c->killer[cs_popcount(hand)] = p;
            *rel = crel;
            break;
        }
        rel_merge(rel, &crel);
        if (PARTITION(c)) /* (without a branch) */
            floor[s] = floor[s] == INT_MIN && c->strength[p] < rel->t[s] ? rel->t[s] : floor[s];
    }
    c->free = was_free;
    for (int m = kept_suits; m; m &= m - 1)
        set_suit_left(c, __builtin_ctz(m), &kept[__builtin_ctz(m)]);
    if (cut < 0) FN(extend_groups)(c, seat, rel, moves, nmoves, legal, others);
    if (restricted) rel_all(rel); /* the variant's restriction may depend on any card */
    if (n == 0 && FN(tt_store)(c, bkey, where, key, rel, result, need,
                           cut >= 0 ? FN(lead_code)(c, cut, present) : 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return result;
}


#undef FN
#undef CS
#undef cs_popcount
#undef cs_low
#undef cs_top
#undef CS_BIT
#undef MAXMOVES
#undef NSEATS
#undef TWINS
#undef RESTRICTS
#undef NARROW
#undef PARTITION
#undef OPPOSITE
#endif /* SEARCH_PASS */

#ifndef SEARCH_PASS
/* The passes Core.solve calls: search_fast and search_gen, or their x86-64-v3 builds when
 * the processor runs them (PyInit__search; not when the environment's
 * TRICKTABLE_SEARCH_BASELINE is set and not empty). */
static int (*search_first)(Core *, int, uint64_t, int, int, int, int, int, int, uint64_t,
                           Rel *) = search_fast;
static int (*search_general)(Core *, int, u128, int, int, int, int, int, int, u128,
                             Rel *) = search_gen;

/* solve(hands, trick, finished_before, seat, remaining, first, free) -> the tricks the side
 * takes of the remaining ones (the trick in progress included) from the position
 * (set_position's) with seat to play: null-window tests (search()) from the target first
 * (-1: first_guess()), one trick at a time towards the answer. free: no lead is restricted
 * from the position on (the variant's leads_free), so the callback is not asked. */
static PyObject *Core_solve(Core *c, PyObject *args) {
    PyObject *hands, *trick;
    int before, seat, remaining, first, free;
    if (!PyArg_ParseTuple(args, "OOiiiip", &hands, &trick, &before, &seat, &remaining, &first,
                          &free))
        return NULL;
    if (set_position(c, hands, trick, before, free) < 0) return NULL;
    if (seat < 0 || seat >= c->nplayers) {
        PyErr_SetString(PyExc_ValueError, "not a position of this table");
        return NULL;
    }
    u128 present = 0, gone = 0;
    for (int j = 0; j < c->nseats; j++) present |= c->hands[c->seats[j]];
    int n = c->nplayed, led = 0, best = 0, best_seat = 0, best_card = -1;
    if (n) {
        led = c->eff[c->played[0].card];
        best = -2;
        for (int i = 0; i < n; i++) {
            int q = c->played[i].card;
            gone |= BIT(q);
            if (c->keys[led][q] > best) {
                best = c->keys[led][q];
                best_seat = c->played[i].seat;
                best_card = q;
            }
        }
    }
    present |= gone;
    set_left(c, present);
    set_lens(c);
    int lo = 0, hi = remaining;
    int guess = first >= 0 ? first : first_guess(c, present, remaining);
    int mid = hi < (guess > 1 ? guess : 1) ? hi : (guess > 1 ? guess : 1);
    int saved_played = c->nplayed;
    while (lo < hi) {
        Rel rel;
        int ok = c->fast ? search_first(c, mid, present, seat, n, led, best, best_seat,
                                        best_card, gone, &rel)
                         : search_general(c, mid, present, seat, n, led, best, best_seat,
                                          best_card, gone, &rel);
        c->nplayed = saved_played;
        c->nfinished = 0;
        if (ok < 0) return NULL;
        if (ok) lo = mid;
        else hi = mid - 1;
        mid = ok ? lo + 1 : hi; /* one trick at a time from the guess */
    }
    c->solved = 1;
    return PyLong_FromLong(lo);
}

/* counters() -> (nodes, probes, hits) since the last call. */
static PyObject *Core_counters(Core *c, PyObject *Py_UNUSED(noargs)) {
    PyObject *out = Py_BuildValue("(LLL)", c->nodes, c->probes, c->hits);
    c->nodes = c->probes = c->hits = 0;
    return out;
}

static PyMethodDef Core_methods[] = {
    {"solve", (PyCFunction)Core_solve, METH_VARARGS,
     "solve(hands, trick, finished_before, seat, remaining, first, free) -> the side's tricks"},
    {"counters", (PyCFunction)Core_counters, METH_NOARGS,
     "(nodes, probes, hits) since the last call"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tricktable.analysis._search.Core",
    .tp_doc = "The search of one side of one Solver (see analysis/solver.py).",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_new = Core_new,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search",
    "The double-dummy search's inner loop, compiled (see analysis/solver.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    for (int b = 0; b < 256; b++)
        for (int i = 0, k = 0; i < 8; i++)
            if (b >> i & 1) nth_in_byte[b][k++] = (uint8_t)i;
#if HAVE_V3
    const char *baseline = getenv("TRICKTABLE_SEARCH_BASELINE");
    if (__builtin_cpu_supports("x86-64-v3") && !(baseline && *baseline)) {
        search_first = search_fast_v3;
        search_general = search_gen_v3;
    }
#endif
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddObjectRef(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddStringConstant(m, "BUILD",
                                   search_first == search_fast ? "baseline" : "x86-64-v3") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
#endif /* SEARCH_PASS */
