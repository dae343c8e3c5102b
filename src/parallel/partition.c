#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "parallel/partition.h"

/* Traffic of a partition, per pair: the key read three times (count, then
   each of the two scatter passes), the position read once, slot and
   position written. */
#define PARTITION_BYTES_PER_PAIR 48

/* Moves pairs [begin, end) to their buckets, from each bucket's cursor on;
   the cursors end where they began.  The slots go first, advancing the
   cursors, and the positions follow in a backward pass that rewinds them:
   writing both at once keeps two output streams open per bucket, and past
   about 32 streams in all the stores slow down several times over and
   erratically; one array at a time halves the streams and keeps the time
   steady (bench/partition-bench). */
static void scatter_pairs(const int64_t *key, const int64_t *position, int64_t begin,
                          int64_t end, int shift, int64_t *cursor, int64_t *out_slot,
                          int64_t *out_position)
{
    for (int64_t n = begin; n < end; n++)
        out_slot[cursor[key[n] >> shift]++] = key[n];
    for (int64_t n = end - 1; n >= begin; n--)
        out_position[--cursor[key[n] >> shift]] = position != NULL ? position[n] : n;
}

static void partition_serial(const int64_t *key, const int64_t *position, int64_t count,
                             int shift, int64_t buckets, int64_t *start, int64_t *out_slot,
                             int64_t *out_position)
{
    memset(start, 0, (size_t)(buckets + 1) * sizeof *start);
    for (int64_t n = 0; n < count; n++)
        start[key[n] >> shift]++;
    int64_t running = 0;
    for (int64_t b = 0; b < buckets; b++) {
        int64_t c = start[b];
        start[b] = running;
        running += c;
    }
    start[buckets] = count;
    scatter_pairs(key, position, 0, count, shift, start, out_slot, out_position);
}

/* The parallel partition: the pairs cut into `team` parts, each part with
   its own histogram row and cursors.  State belongs to the part, not to the
   worker running it, so the result is the same when sgk_parallel_for runs
   several parts on one worker. */
typedef struct {
    const int64_t *key, *position;
    int64_t count, buckets, team;
    int shift;
    int64_t stride; /* histogram row length, whole cache lines */
    int64_t *hist;  /* row k: part k's bucket counts, then its cursors */
    int64_t *out_slot, *out_position;
} partition_job;

/* Counts parts [first, last)'s pairs per bucket, each into its own row. */
static void count_parts(void *ctx, int worker, int64_t first, int64_t last)
{
    (void)worker;
    const partition_job *job = ctx;
    for (int64_t k = first; k < last; k++) {
        const int64_t begin = sgk_even_start(job->count, k, job->team);
        const int64_t end = sgk_even_start(job->count, k + 1, job->team);
        int64_t *h = job->hist + k * job->stride;
        memset(h, 0, (size_t)job->buckets * sizeof *h);
        for (int64_t n = begin; n < end; n++)
            h[job->key[n] >> job->shift]++;
    }
}

/* Turns the counts into cursors, bucket by bucket and part by part: part
   k's pairs of bucket b follow those of the parts before it, which keeps the
   order stable. */
static void place_parts(const partition_job *job, int64_t *bucket_start)
{
    int64_t running = 0;
    for (int64_t b = 0; b < job->buckets; b++) {
        bucket_start[b] = running;
        for (int64_t k = 0; k < job->team; k++) {
            int64_t c = job->hist[k * job->stride + b];
            job->hist[k * job->stride + b] = running;
            running += c;
        }
    }
    bucket_start[job->buckets] = running;
}

/* Moves parts [first, last)'s pairs from their rows' cursors on. */
static void scatter_parts(void *ctx, int worker, int64_t first, int64_t last)
{
    (void)worker;
    const partition_job *job = ctx;
    for (int64_t k = first; k < last; k++)
        scatter_pairs(job->key, job->position, sgk_even_start(job->count, k, job->team),
                      sgk_even_start(job->count, k + 1, job->team), job->shift,
                      job->hist + k * job->stride, job->out_slot, job->out_position);
}

sgk_status sgk_partition_stable(const int64_t *key, const int64_t *position, int64_t count,
                                int shift, int64_t buckets, int threads, int64_t min_bytes,
                                int64_t *bucket_start, int64_t *out_slot, int64_t *out_position)
{
    const int64_t bytes = count * PARTITION_BYTES_PER_PAIR;
    int team = sgk_parallel_threads(count, threads, bytes, min_bytes);
    /* Every part clears, and the prefix walks, a histogram of all buckets:
       that stays below the per-pair work while buckets * team <= count.  With
       more buckets the team shrinks, down to the serial sort, which costs
       O(buckets) too.  (A two-pass radix, high bits then low bits, would keep
       that case parallel; the planner's block counts are far below its pair
       counts whenever the partition is worth threads, so it is not written.) */
    while (team > 1 && buckets > count / team)
        team--;
    if (team <= 1) {
        partition_serial(key, position, count, shift, buckets, bucket_start, out_slot,
                         out_position);
        return SGK_OK;
    }
    /* Rows padded to whole cache lines on a line-aligned base: neighbouring
       parts' counters must not share a line, or every increment near a row's
       end bounces it between cores, enough to make two threads slower than
       one. */
    const int64_t stride = (buckets + 7) & ~INT64_C(7);
    int64_t *hist = aligned_alloc(64, (size_t)(stride * team) * sizeof *hist);
    if (hist == NULL)
        return SGK_ERR_OUT_OF_MEMORY;
    partition_job job = {.key = key, .position = position, .count = count, .buckets = buckets,
                         .team = team, .shift = shift, .stride = stride, .hist = hist,
                         .out_slot = out_slot, .out_position = out_position};
    /* One part per thread: the team was sized above, so no threshold. */
    sgk_parallel_for(team, team, bytes, 0, count_parts, &job);
    place_parts(&job, bucket_start);
    sgk_parallel_for(team, team, bytes, 0, scatter_parts, &job);
    free(hist);
    return SGK_OK;
}

/* ---- sorting each block by slot ------------------------------------------ */

/* Blocks this short are insertion-sorted: no scratch, no histogram. */
#define INSERTION_MAX 24

static void insertion_sort(int64_t *slot, int64_t *pos, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        int64_t s = slot[i], p = pos[i], j = i;
        for (; j > 0 && slot[j - 1] > s; j--) { /* strict: equal slots keep their order */
            slot[j] = slot[j - 1];
            pos[j] = pos[j - 1];
        }
        slot[j] = s;
        pos[j] = p;
    }
}

/* Merges the sorted runs [lo, mid) and [mid, hi) of (s, p) into (ds, dp),
   the left run first among equals. */
static void merge(const int64_t *s, const int64_t *p, int64_t lo, int64_t mid, int64_t hi,
                  int64_t *ds, int64_t *dp)
{
    int64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        bool left = s[i] <= s[j];
        ds[k] = left ? s[i] : s[j];
        dp[k++] = left ? p[i++] : p[j++];
    }
    memcpy(ds + k, s + i, (size_t)(mid - i) * sizeof *s);
    memcpy(dp + k, p + i, (size_t)(mid - i) * sizeof *p);
    k += mid - i;
    memcpy(ds + k, s + j, (size_t)(hi - j) * sizeof *s);
    memcpy(dp + k, p + j, (size_t)(hi - j) * sizeof *p);
}

/* Bottom-up merge sort, for blocks whose slot range is much wider than their
   pair count (a histogram over the slots would cost more than sorting). */
static void merge_sort(int64_t *slot, int64_t *pos, int64_t n, int64_t *ts, int64_t *tp)
{
    for (int64_t lo = 0; lo < n; lo += INSERTION_MAX)
        insertion_sort(slot + lo, pos + lo, n - lo < INSERTION_MAX ? n - lo : INSERTION_MAX);
    int64_t *s = slot, *p = pos, *ds = ts, *dp = tp;
    for (int64_t width = INSERTION_MAX; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(s, p, lo, mid, hi, ds, dp);
        }
        int64_t *swap = s;
        s = ds, ds = swap;
        swap = p, p = dp, dp = swap;
    }
    if (s != slot) {
        memcpy(slot, s, (size_t)n * sizeof *slot);
        memcpy(pos, p, (size_t)n * sizeof *pos);
    }
}

/* Counting sort over the block's local slots, when they are few beside the
   pairs: two linear passes. */
static void counting_sort(int64_t *slot, int64_t *pos, int64_t n, int64_t base,
                          int64_t local_slots, int64_t *hist, int64_t *ts, int64_t *tp)
{
    memset(hist, 0, (size_t)local_slots * sizeof *hist);
    for (int64_t i = 0; i < n; i++)
        hist[slot[i] - base]++;
    int64_t running = 0;
    for (int64_t s = 0; s < local_slots; s++) {
        int64_t c = hist[s];
        hist[s] = running;
        running += c;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t k = hist[slot[i] - base]++;
        ts[k] = slot[i];
        tp[k] = pos[i];
    }
    memcpy(slot, ts, (size_t)n * sizeof *slot);
    memcpy(pos, tp, (size_t)n * sizeof *pos);
}

static bool sorted(const int64_t *slot, int64_t n)
{
    for (int64_t i = 1; i < n; i++)
        if (slot[i] < slot[i - 1])
            return false;
    return true;
}

sgk_status sgk_sort_blocks_by_slot(const int64_t *block_start, int64_t first, int64_t last,
                                   int shift, int64_t *slot, int64_t *position,
                                   int64_t *block_segments)
{
    int64_t largest = 0;
    for (int64_t b = first; b < last; b++)
        if (block_start[b + 1] - block_start[b] > largest)
            largest = block_start[b + 1] - block_start[b];
    int64_t *scratch = NULL, *hist = NULL;
    int64_t hist_len = 0;
    sgk_status status = SGK_OK;
    for (int64_t b = first; b < last && status == SGK_OK; b++) {
        const int64_t lo = block_start[b], n = block_start[b + 1] - lo;
        int64_t *s = slot + lo, *p = position + lo;
        /* Already in order is common (sorted indices, Elements operators)
           and costs one read to see. */
        if (n > INSERTION_MAX && !sorted(s, n)) {
            if (scratch == NULL && (scratch = sgk_alloc_array(2 * largest, sizeof *scratch)) == NULL) {
                status = SGK_ERR_OUT_OF_MEMORY;
                break;
            }
            /* Clearing and summing a histogram of the block's slots is a
               sequential pass, a small fraction of the cost per pair of one
               merge level, and merging takes a level per doubling: the
               histogram pays up to about 16 slots a pair
               (bench/partition-bench).  shift < 40 keeps the shift and the
               product defined. */
            if (shift < 40 && INT64_C(1) << shift <= 16 * n) {
                int64_t local = INT64_C(1) << shift;
                if (hist_len < local) {
                    free(hist);
                    hist_len = local;
                    if ((hist = sgk_alloc_array(local, sizeof *hist)) == NULL) {
                        status = SGK_ERR_OUT_OF_MEMORY;
                        break;
                    }
                }
                counting_sort(s, p, n, b << shift, local, hist, scratch, scratch + largest);
            } else {
                merge_sort(s, p, n, scratch, scratch + largest);
            }
        } else {
            insertion_sort(s, p, n);
        }
        if (block_segments != NULL) {
            int64_t segments = n > 0;
            for (int64_t i = 1; i < n; i++)
                segments += s[i] != s[i - 1];
            block_segments[b] = segments;
        }
    }
    free(scratch);
    free(hist);
    return status;
}

typedef struct {
    const int64_t *block_start;
    int shift;
    int64_t *slot, *position, *block_segments;
    int failed;
} sort_job;

/* Cost of blocks [0, i): their pairs, each read and written a few times. */
static int64_t sort_cost(void *ctx, int64_t i)
{
    const sort_job *job = ctx;
    return job->block_start[i] * 64;
}

static void sort_range(void *ctx, int worker, int64_t begin, int64_t end)
{
    (void)worker;
    sort_job *job = ctx;
    if (sgk_sort_blocks_by_slot(job->block_start, begin, end, job->shift, job->slot,
                                job->position, job->block_segments) != SGK_OK)
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
}

sgk_status sgk_sort_blocks_by_slot_parallel(const int64_t *block_start, int64_t blocks,
                                            int shift, int64_t *slot, int64_t *position,
                                            int64_t *block_segments, int threads,
                                            int64_t min_bytes)
{
    sort_job job = {block_start, shift, slot, position, block_segments, 0};
    sgk_parallel_for_balanced(blocks, threads, sort_cost, min_bytes, sort_range, &job);
    return job.failed ? SGK_ERR_OUT_OF_MEMORY : SGK_OK;
}

void sgk_block_segment_starts(const int64_t *block_start, int64_t first, int64_t last,
                              const int64_t *slot, const int64_t *segment_first,
                              int64_t *segment_start)
{
    for (int64_t b = first; b < last; b++) {
        int64_t k = segment_first[b];
        for (int64_t i = block_start[b]; i < block_start[b + 1]; i++)
            if (i == block_start[b] || slot[i] != slot[i - 1])
                segment_start[k++] = i;
    }
}
