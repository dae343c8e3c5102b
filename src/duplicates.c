#include <stdlib.h>

#include "duplicates.h"

/* A bitmap costs slots/8 bytes to clear and scan; beside count pairs that is
   worth it while it stays within a few bytes per pair. */
static bool bitmap_pays(int64_t count, int64_t slots)
{
    return slots / 8 <= 4 * count + (1 << 16);
}

static int64_t last_by_bitmap(const int64_t *slot, int64_t count, uint64_t *seen, bool *keep)
{
    int64_t kept = 0;
    for (int64_t n = count - 1; n >= 0; n--) {
        uint64_t bit = UINT64_C(1) << (slot[n] & 63);
        uint64_t *word = &seen[slot[n] >> 6];
        keep[n] = (*word & bit) == 0;
        *word |= bit;
        kept += keep[n];
    }
    return kept;
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

static int64_t last_by_sort(const int64_t *slot, int64_t count, slot_pair *pairs, bool *keep)
{
    for (int64_t n = 0; n < count; n++)
        pairs[n] = (slot_pair){slot[n], n};
    qsort(pairs, (size_t)count, sizeof *pairs, compare_pairs);
    int64_t kept = 0;
    for (int64_t i = 0; i < count; i++) {
        bool last = i + 1 == count || pairs[i + 1].slot != pairs[i].slot;
        keep[pairs[i].n] = last;
        kept += last;
    }
    return kept;
}

sgk_status sgk_find_last_occurrences(const int64_t *slot, int64_t count, int64_t slots,
                                     bool *keep, int64_t *kept)
{
    if (bitmap_pays(count, slots)) {
        uint64_t *seen = calloc((size_t)(slots / 64 + 1), sizeof *seen);
        if (seen == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        *kept = last_by_bitmap(slot, count, seen, keep);
        free(seen);
    } else {
        slot_pair *pairs = malloc((size_t)count * sizeof *pairs);
        if (pairs == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
        *kept = last_by_sort(slot, count, pairs, keep);
        free(pairs);
    }
    return SGK_OK;
}
