#include <stdlib.h>
#include <string.h>

#include "paths/duplicates.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"

/* A bitmap costs slots/8 bytes to clear; beside count pairs that is worth it
   while it stays within a few bytes per pair. */
static bool bitmap_pays(int64_t count, int64_t slots)
{
    return slots / 8 <= 4 * count + (1 << 16);
}

static uint64_t *new_bitmap(int64_t slots)
{
    return sgk_alloc_zeroed(slots / 64 + 1, sizeof(uint64_t));
}

/* Sets slot s's bit and says whether it was set before. */
static bool test_and_set(uint64_t *bits, int64_t s)
{
    uint64_t bit = UINT64_C(1) << (s & 63);
    bool was = (bits[s >> 6] & bit) != 0;
    bits[s >> 6] |= bit;
    return was;
}

typedef struct {
    int64_t slot, n;
} slot_pair;

static int compare_pairs(const void *a, const void *b)
{
    const slot_pair *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* The pairs sorted by (slot, n), for slot spaces too large for a bitmap. */
static slot_pair *sorted_pairs(const int64_t *slot, int64_t count)
{
    slot_pair *pairs = sgk_alloc_array(count, sizeof *pairs);
    if (pairs == NULL)
        return NULL;
    for (int64_t n = 0; n < count; n++)
        pairs[n] = (slot_pair){slot[n], n};
    qsort(pairs, (size_t)count, sizeof *pairs, compare_pairs);
    return pairs;
}

/* Per pair: the slot read, and a random bitmap word touched. */
#define BITMAP_BYTES_PER_PAIR 16

/* How many parts the parallel count below cuts the pairs into, one per
   thread: each part has a bitmap of its own (team bitmaps in all), capped at
   two words a pair.  A single bitmap shared through atomic fetch-or would
   give the same results, but its cache lines would bounce between the
   cores on nearly every pair, making two threads slower than one. */
static int bitmap_team(int64_t count, int64_t words, int threads, int64_t min_bytes)
{
    int team = sgk_parallel_threads(count, threads, count * BITMAP_BYTES_PER_PAIR, min_bytes);
    while (team > 1 && team * words > 2 * count)
        team--;
    return team;
}

/* The parallel count: part k of the pairs sets its slots' bits in bitmap k
   (state of the part, not of the worker running it, so that a worker may
   run several parts); then the words are shared out, each the union of its
   team bitmaps' words. */
typedef struct {
    const int64_t *slot;
    int64_t count, words, team;
    uint64_t *bits; /* team bitmaps of `words` words, part k's at k * words */
    int64_t found;  /* distinct slots, summed over the word ranges */
} bitmap_job;

static void mark_parts(void *ctx, int worker, int64_t first, int64_t last)
{
    (void)worker;
    const bitmap_job *job = ctx;
    for (int64_t k = first; k < last; k++) {
        const int64_t end = sgk_even_start(job->count, k + 1, job->team);
        uint64_t *own = job->bits + k * job->words;
        memset(own, 0, (size_t)job->words * sizeof *own);
        for (int64_t n = sgk_even_start(job->count, k, job->team); n < end; n++)
            own[job->slot[n] >> 6] |= UINT64_C(1) << (job->slot[n] & 63);
    }
}

static void count_words(void *ctx, int worker, int64_t begin, int64_t end)
{
    (void)worker;
    bitmap_job *job = ctx;
    int64_t found = 0;
    for (int64_t w = begin; w < end; w++) {
        uint64_t any = 0;
        for (int64_t k = 0; k < job->team; k++)
            any |= job->bits[k * job->words + w];
        found += __builtin_popcountll(any);
    }
    __atomic_fetch_add(&job->found, found, __ATOMIC_RELAXED);
}

/* The distinct slots are the bits of the union of the parts' bitmaps. */
static bool count_distinct_parallel(const int64_t *slot, int64_t count, int64_t slots,
                                    int threads, int64_t min_bytes, int64_t *distinct)
{
    const int64_t words = slots / 64 + 1;
    int team = bitmap_team(count, words, threads, min_bytes);
    uint64_t *bits = team > 1 ? sgk_alloc_array(team * words, sizeof *bits) : NULL;
    if (bits == NULL)
        return false; /* alone, or the serial walk needs less memory */
    bitmap_job job = {.slot = slot, .count = count, .words = words, .team = team, .bits = bits};
    /* The team was sized above: no threshold, one part per thread. */
    sgk_parallel_for(team, team, count * BITMAP_BYTES_PER_PAIR, 0, mark_parts, &job);
    sgk_parallel_for(words, team, team * words * (int64_t)sizeof *bits, 0, count_words, &job);
    free(bits);
    *distinct = job.found;
    return true;
}

sgk_status sgk_count_distinct(const int64_t *slot, int64_t count, int64_t slots,
                              int threads, int64_t min_bytes, int64_t *distinct)
{
    int64_t found = 0;
    if (count <= 1) {
        found = count;
    } else if (bitmap_pays(count, slots)) {
        if (count_distinct_parallel(slot, count, slots, threads, min_bytes, distinct))
            return SGK_OK;
        uint64_t *bits = new_bitmap(slots);
        if (bits == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        for (int64_t n = 0; n < count; n++)
            found += !test_and_set(bits, slot[n]);
        free(bits);
    } else {
        slot_pair *pairs = sorted_pairs(slot, count);
        if (pairs == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; i < count; i++)
            found += i == 0 || pairs[i].slot != pairs[i - 1].slot;
        free(pairs);
    }
    *distinct = found;
    return SGK_OK;
}

sgk_status sgk_find_last_occurrences(const int64_t *slot, int64_t count, int64_t slots,
                                     bool *keep)
{
    if (bitmap_pays(count, slots)) {
        uint64_t *bits = new_bitmap(slots);
        if (bits == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        for (int64_t n = count - 1; n >= 0; n--)
            keep[n] = !test_and_set(bits, slot[n]);
        free(bits);
    } else {
        slot_pair *pairs = sorted_pairs(slot, count);
        if (pairs == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; i < count; i++)
            keep[pairs[i].n] = i + 1 == count || pairs[i + 1].slot != pairs[i].slot;
        free(pairs);
    }
    return SGK_OK;
}
