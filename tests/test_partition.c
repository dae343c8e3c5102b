/*
 * The planner's grouping machinery against naive versions: the stable
 * partition by block, the per-block sort by slot with its segments, and the
 * duplicate counts, at 1, 2 and 4 threads with the size threshold off, on
 * empty, tiny, small and multi-million inputs, uniform, skewed (one key
 * taking 90%), all equal and all distinct.  Built from the library's
 * sources: these functions are internal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/host_pool.h"
#include "paths/duplicates.h"
#include "parallel/partition.h"

/* Random slots, the same on every run. */
static tc_rng rng = {0x9E3779B97F4A7C15ull};

enum shape { UNIFORM, SKEWED, ALL_EQUAL, ALL_DISTINCT };

/* count slots in [0, slots) of the given shape. */
static int64_t *make_slots(int64_t count, int64_t slots, enum shape shape)
{
    int64_t *slot = xmalloc((size_t)count * sizeof *slot);
    int64_t hot = tc_rng_below(&rng, slots);
    for (int64_t n = 0; n < count; n++) {
        switch (shape) {
        case UNIFORM: slot[n] = tc_rng_below(&rng, slots); break;
        case SKEWED: slot[n] = tc_rng_below(&rng, 10) ? hot : tc_rng_below(&rng, slots); break;
        case ALL_EQUAL: slot[n] = hot; break;
        case ALL_DISTINCT: slot[n] = n; break; /* shuffled below; needs count <= slots */
        }
    }
    if (shape == ALL_DISTINCT)
        for (int64_t n = count - 1; n > 0; n--) {
            int64_t k = tc_rng_below(&rng, n + 1), t = slot[n];
            slot[n] = slot[k], slot[k] = t;
        }
    return slot;
}

typedef struct {
    int64_t key, n;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* Pair indices in the order a stable sort by key_of(slot) gives. */
static keyed *naive_order(const int64_t *slot, int64_t count, int shift)
{
    keyed *k = xmalloc((size_t)count * sizeof *k);
    for (int64_t n = 0; n < count; n++)
        k[n] = (keyed){slot[n] >> shift, n};
    qsort(k, (size_t)count, sizeof *k, compare_keyed);
    return k;
}

static const int thread_counts[] = {1, 2, 4};

/* Partitions by slot >> shift, checks against the naive stable sort, then
   sorts each block by slot and checks that against the naive sort by slot,
   with the segment counts and starts. */
static void check_case(int64_t count, int64_t slots, enum shape shape, int shift)
{
    int64_t *slot = make_slots(count, slots, shape);
    int64_t *position = xmalloc((size_t)count * sizeof *position);
    for (int64_t n = 0; n < count; n++)
        position[n] = 3 * n + 1; /* not the identity, to tell it apart from NULL */
    const int64_t buckets = (slots >> shift) + 1;
    keyed *by_block = naive_order(slot, count, shift);
    keyed *by_slot = naive_order(slot, count, 0);
    int64_t distinct = 0;
    for (int64_t i = 0; i < count; i++)
        distinct += i == 0 || by_slot[i].key != by_slot[i - 1].key;

    int64_t *start = xmalloc((size_t)(buckets + 1) * sizeof *start);
    int64_t *out_slot = xmalloc((size_t)count * sizeof *out_slot);
    int64_t *out_pos = xmalloc((size_t)count * sizeof *out_pos);
    int64_t *segs = xmalloc((size_t)buckets * sizeof *segs);
    int64_t *seg_first = xmalloc((size_t)(buckets + 1) * sizeof *seg_first);
    int64_t *seg_start = xmalloc((size_t)(distinct + 1) * sizeof *seg_start);
    for (size_t ti = 0; ti < sizeof thread_counts / sizeof *thread_counts; ti++) {
        const int threads = thread_counts[ti];
        for (int identity = 0; identity < 2; identity++) {
            const int64_t *pos_in = identity ? NULL : position;
            assert_int_equal(sgk_partition_stable(slot, pos_in, count, shift, buckets, threads,
                                                  0, start, out_slot, out_pos),
                             SGK_OK);
            for (int64_t i = 0; i < count; i++) {
                int64_t n = by_block[i].n;
                if (out_slot[i] != slot[n] || out_pos[i] != (identity ? n : position[n]))
                    fail_msg("partition: pair %lld is not pair %lld (threads %d, count %lld)",
                             (long long)i, (long long)n, threads, (long long)count);
            }
            for (int64_t b = 0, i = 0; b <= buckets; b++) {
                while (i < count && by_block[i].key < b)
                    i++;
                assert_int_equal(start[b], i);
            }
        }
        /* out_pos is the identity now: sort each block by slot. */
        memset(segs, 0xff, (size_t)buckets * sizeof *segs);
        assert_int_equal(sgk_sort_blocks_by_slot_parallel(start, buckets, shift, out_slot,
                                                          out_pos, segs, threads, 0),
                         SGK_OK);
        for (int64_t i = 0; i < count; i++)
            if (out_slot[i] != by_slot[i].key || out_pos[i] != by_slot[i].n)
                fail_msg("block sort: pair %lld is not pair %lld (threads %d, count %lld)",
                         (long long)i, (long long)by_slot[i].n, threads, (long long)count);
        seg_first[0] = 0;
        for (int64_t b = 0; b < buckets; b++) {
            assert_true(segs[b] >= 0);
            seg_first[b + 1] = seg_first[b] + segs[b];
        }
        assert_int_equal(seg_first[buckets], distinct);
        sgk_block_segment_starts(start, 0, buckets, out_slot, seg_first, seg_start);
        for (int64_t i = 0, k = 0; i < count; i++)
            if (i == 0 || by_slot[i].key != by_slot[i - 1].key)
                assert_int_equal(seg_start[k++], i);
    }
    free(slot), free(position), free(by_block), free(by_slot), free(start);
    free(out_slot), free(out_pos), free(segs), free(seg_first), free(seg_start);
}

static void test_partition_edges(void **state)
{
    (void)state;
    check_case(0, 100, UNIFORM, 3);
    check_case(1, 100, UNIFORM, 3);
    check_case(1, 1, ALL_EQUAL, 0);
}

static void test_partition_small(void **state)
{
    (void)state;
    static const enum shape shapes[] = {UNIFORM, SKEWED, ALL_EQUAL, ALL_DISTINCT};
    for (int s = 0; s < 4; s++) {
        check_case(1000, 5000, shapes[s], 6);   /* blocks of 64 slots, few pairs each */
        check_case(1000, 5000, shapes[s], 0);   /* a bucket per slot: more buckets than pairs */
        check_case(1000, 1000, shapes[s], 12);  /* one block */
        check_case(5000, 100000, shapes[s], 4); /* mostly empty blocks */
    }
}

static void test_partition_large(void **state)
{
    (void)state;
    /* elementwise_add's shape: 4M slots in blocks of 2^17. */
    check_case(3000000, INT64_C(1) << 22, UNIFORM, 17);
    check_case(3000000, INT64_C(1) << 22, SKEWED, 17);
    check_case(2000000, 2000000, ALL_DISTINCT, 9);
    check_case(200000, INT64_C(1) << 26, UNIFORM, 14); /* ~50 pairs a block: merge sorts */
    check_case(2000000, 1000, ALL_EQUAL, 17);
}

/* ---- duplicates ------------------------------------------------------------ */

static void check_duplicates(int64_t count, int64_t slots, enum shape shape)
{
    int64_t *slot = make_slots(count, slots, shape);
    keyed *by_slot = naive_order(slot, count, 0);
    int64_t distinct = 0;
    bool *want = xmalloc((size_t)count * sizeof *want), *keep = xmalloc((size_t)count);
    for (int64_t i = 0; i < count; i++) {
        distinct += i == 0 || by_slot[i].key != by_slot[i - 1].key;
        want[by_slot[i].n] = i + 1 == count || by_slot[i + 1].key != by_slot[i].key;
    }
    for (size_t ti = 0; ti < sizeof thread_counts / sizeof *thread_counts; ti++) {
        int64_t got = -1;
        assert_int_equal(sgk_count_distinct(slot, count, slots, thread_counts[ti], 0, &got),
                         SGK_OK);
        assert_int_equal(got, distinct);
    }
    memset(keep, 0x55, (size_t)count);
    assert_int_equal(sgk_find_last_occurrences(slot, count, slots, keep), SGK_OK);
    for (int64_t n = 0; n < count; n++)
        if (keep[n] != want[n])
            fail_msg("last occurrence of pair %lld: %d, want %d (count %lld)", (long long)n,
                     keep[n], want[n], (long long)count);
    free(slot), free(by_slot), free(want), free(keep);
}

static void test_duplicates(void **state)
{
    (void)state;
    static const enum shape shapes[] = {UNIFORM, SKEWED, ALL_EQUAL, ALL_DISTINCT};
    check_duplicates(0, 10, UNIFORM);
    check_duplicates(1, 10, UNIFORM);
    for (int s = 0; s < 4; s++) {
        check_duplicates(1000, 3000, shapes[s]);                  /* bitmap */
        check_duplicates(1000, INT64_C(1) << 40, shapes[s] == ALL_DISTINCT ? UNIFORM : shapes[s]); /* sort */
        check_duplicates(3000000, INT64_C(1) << 22, shapes[s]);   /* bitmap, threads */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition_edges),
        cmocka_unit_test(test_partition_small),
        cmocka_unit_test(test_partition_large),
        cmocka_unit_test(test_duplicates),
    };
    /* SGK_TEST_HOST_POOL: the loops on a pool (tests/support/host_pool.h) */
    host_pool *pool = host_pool_install_from_env();
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    host_pool_uninstall(pool);
    return failed;
}
