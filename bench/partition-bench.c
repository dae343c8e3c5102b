/*
 * partition-bench: the planner's grouping of (slot, position) pairs, timed.
 *
 *   partition-bench [--reps N] [--warm]
 *
 * Cases: 2M and 4M uniform pairs into 4M slots, blocks of 2^17 slots (what
 * elementwise_add plans), and 65536 Zipf(1.1) pairs into 50000 slots, blocks
 * of 2^9 (embedding_grad_add).  Variants: the serial counting sort
 * group_by_block used before, sgk_partition_stable at 1 and 2 threads, the
 * partition followed by the per-block sort by slot (the sorted-segment
 * order), Highway's vqsort of packed keys (slot << 32 | position; one
 * thread, it has no parallel mode) with and without packing and unpacking,
 * and the duplicate counts at 1 and 2 threads.  Every variant allocates its
 * outputs inside the timed region, as the planner does: page faults of fresh
 * arrays are part of the cost; --warm reuses the partitions' outputs
 * between runs instead, to tell the faults from the work.  Prints the median
 * and minimum of N runs.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paths/duplicates.h"
#include "runtime/memory.h"
#include "parallel/partition.h"
#include "workloads.h"

#ifdef SGK_BENCH_VQSORT
void bench_vqsort_u64(uint64_t *keys, size_t n);
#endif

typedef struct {
    const int64_t *slot;
    int64_t count, slots, buckets;
    int shift;
    uint64_t *packed; /* for the sort-only vqsort variant */
} partition_case;

/* --warm: the partitions' three outputs, kept from run to run. */
static bool warm;
static void *kept[3];
static int64_t kept_len[3];

static void *out_array(int which, int64_t n)
{
    if (!warm)
        return sgk_alloc_array(n, sizeof(int64_t));
    if (kept_len[which] < n) {
        free(kept[which]);
        kept[which] = sgk_alloc_zeroed(n, sizeof(int64_t));
        kept_len[which] = n;
    }
    return kept[which];
}

static void out_free(void *p)
{
    if (!warm)
        free(p);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void check(sgk_status status)
{
    if (status != SGK_OK) {
        fprintf(stderr, "partition-bench: out of memory\n");
        exit(2);
    }
}

/* The serial stable counting sort the planner used before (group_by_block
   at commit b1046c4), verbatim but for the plan struct. */
static void old_group_by_block(const partition_case *c)
{
    int64_t *start = sgk_alloc_zeroed(c->buckets + 2, sizeof *start);
    int64_t *bslot = out_array(1, c->count), *bpos = out_array(2, c->count);
    for (int64_t n = 0; n < c->count; n++)
        start[(c->slot[n] >> c->shift) + 2]++;
    for (int64_t b = 2; b < c->buckets + 2; b++)
        start[b] += start[b - 1];
    for (int64_t n = 0; n < c->count; n++) {
        int64_t i = start[(c->slot[n] >> c->shift) + 1]++;
        bslot[i] = c->slot[n];
        bpos[i] = n;
    }
    free(start), out_free(bslot), out_free(bpos);
}

static void partition(const partition_case *c, int threads, bool sort_blocks)
{
    int64_t *start = sgk_alloc_array(c->buckets + 1, sizeof *start);
    int64_t *bslot = out_array(1, c->count), *bpos = out_array(2, c->count);
    check(sgk_partition_stable(c->slot, NULL, c->count, c->shift, c->buckets, threads, 0, start,
                               bslot, bpos));
    if (sort_blocks) {
        int64_t *segments = sgk_alloc_array(c->buckets, sizeof *segments);
        check(sgk_sort_blocks_by_slot_parallel(start, c->buckets, c->shift, bslot, bpos,
                                               segments, threads, 0));
        free(segments);
    }
    free(start), out_free(bslot), out_free(bpos);
}

static void partition_t1(const partition_case *c) { partition(c, 1, false); }
static void partition_t2(const partition_case *c) { partition(c, 2, false); }
static void sorted_t1(const partition_case *c) { partition(c, 1, true); }
static void sorted_t2(const partition_case *c) { partition(c, 2, true); }

#ifdef SGK_BENCH_VQSORT
/* The same outputs as the partition (block starts, slots, positions), in
   the sorted-segment order: pack, sort, unpack. */
static void vqsort_full(const partition_case *c)
{
    uint64_t *keys = sgk_alloc_array(c->count, sizeof *keys);
    int64_t *start = sgk_alloc_array(c->buckets + 1, sizeof *start);
    int64_t *bslot = sgk_alloc_array(c->count, sizeof *bslot);
    int64_t *bpos = sgk_alloc_array(c->count, sizeof *bpos);
    for (int64_t n = 0; n < c->count; n++)
        keys[n] = (uint64_t)c->slot[n] << 32 | (uint64_t)n;
    bench_vqsort_u64(keys, (size_t)c->count);
    int64_t b = 0;
    for (int64_t i = 0; i < c->count; i++) {
        bslot[i] = (int64_t)(keys[i] >> 32);
        bpos[i] = (int64_t)(keys[i] & 0xffffffffu);
        while (b <= bslot[i] >> c->shift)
            start[b++] = i;
    }
    while (b <= c->buckets)
        start[b++] = c->count;
    free(keys), free(start), free(bslot), free(bpos);
}

/* The sort alone: keys packed outside the timing, copied in it. */
static void vqsort_only(const partition_case *c)
{
    uint64_t *keys = sgk_alloc_array(c->count, sizeof *keys);
    memcpy(keys, c->packed, (size_t)c->count * sizeof *keys);
    bench_vqsort_u64(keys, (size_t)c->count);
    free(keys);
}
#endif

static void distinct(const partition_case *c, int threads)
{
    int64_t d;
    check(sgk_count_distinct(c->slot, c->count, c->slots, threads, 0, &d));
}
static void distinct_t1(const partition_case *c) { distinct(c, 1); }
static void distinct_t2(const partition_case *c) { distinct(c, 2); }

static void last(const partition_case *c)
{
    bool *keep = sgk_alloc_array(c->count, sizeof *keep);
    check(sgk_find_last_occurrences(c->slot, c->count, c->slots, keep));
    free(keep);
}

static void run(const char *name, const partition_case *c, void (*fn)(const partition_case *),
                int reps)
{
    double *ms = malloc((size_t)reps * sizeof *ms);
    fn(c); /* warm-up */
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        fn(c);
        ms[r] = now_ms() - t0;
    }
    qsort(ms, (size_t)reps, sizeof *ms, compare_double);
    printf("  %-36s %9.3f ms  (min %.3f)\n", name, ms[reps / 2], ms[0]);
    free(ms);
}

int main(int argc, char **argv)
{
    int reps = 21;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--warm") == 0) {
            warm = true;
        } else {
            fprintf(stderr, "usage: partition-bench [--reps N] [--warm]\n");
            return 2;
        }
    }
    static const struct {
        const char *name;
        int64_t count, slots;
        int shift;
        bool zipf;
    } cases[] = {
        {"2M uniform pairs into 4M slots, blocks of 2^17", 2 << 20, 4 << 20, 17, false},
        {"4M uniform pairs into 4M slots, blocks of 2^17", 4 << 20, 4 << 20, 17, false},
        {"65536 Zipf(1.1) pairs into 50000 slots, blocks of 2^9", 65536, 50000, 9, true},
    };
    printf("partition-bench: median (min) of %d runs, partition outputs %s\n", reps,
           warm ? "reused (--warm)" : "allocated in the timing");
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        int64_t *slot = malloc((size_t)cases[k].count * sizeof *slot);
        rng r = {(uint64_t)k + 1};
        if (cases[k].zipf)
            zipf_ids(&r, slot, cases[k].count, cases[k].slots, 1.1);
        else
            for (int64_t n = 0; n < cases[k].count; n++)
                slot[n] = rng_below(&r, cases[k].slots);
        partition_case c = {slot, cases[k].count, cases[k].slots, 0, cases[k].shift, NULL};
        c.buckets = (c.slots + (INT64_C(1) << c.shift) - 1) >> c.shift;
        printf("%s (%lld blocks)\n", cases[k].name, (long long)c.buckets);
        run("serial counting sort (old planner)", &c, old_group_by_block, reps);
        run("sgk_partition_stable, 1 thread", &c, partition_t1, reps);
        run("sgk_partition_stable, 2 threads", &c, partition_t2, reps);
        run("partition + block sort, 1 thread", &c, sorted_t1, reps);
        run("partition + block sort, 2 threads", &c, sorted_t2, reps);
#ifdef SGK_BENCH_VQSORT
        c.packed = malloc((size_t)c.count * sizeof *c.packed);
        for (int64_t n = 0; n < c.count; n++)
            c.packed[n] = (uint64_t)slot[n] << 32 | (uint64_t)n;
        run("vqsort packed keys + pack/unpack", &c, vqsort_full, reps);
        run("vqsort packed keys, copy + sort", &c, vqsort_only, reps);
        free(c.packed);
#endif
        run("sgk_count_distinct, 1 thread", &c, distinct_t1, reps);
        run("sgk_count_distinct, 2 threads", &c, distinct_t2, reps);
        run("sgk_find_last_occurrences", &c, last, reps);
        free(slot);
    }
    return 0;
}
