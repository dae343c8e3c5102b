#include <stdlib.h>
#include <string.h>

#include "duplicates.h"
#include "memory.h"

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

sgk_status sgk_count_distinct(const int64_t *slot, int64_t count, int64_t slots,
                              int64_t *distinct)
{
    int64_t found = 0;
    if (count <= 1) {
        found = count;
    } else if (bitmap_pays(count, slots)) {
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
