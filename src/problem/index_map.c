/* Index reading: every coordinate is checked and normalized and the slot
   flattened here, in parallel over the pairs, with one loop per index type
   so the hot loop has no type test.  (Only the whole-row check of
   whole_rows.c reads the indices before this; one-shot lines plans are
   only checked here, and the executor works their slots out, or takes
   the 16-bit slots along the axis the check writes.) */
#include <stdatomic.h>
#include <stdbool.h>

#include "problem/index_errors.h"
#include "problem/index_map.h"
#include "registry/registry.h"
#include "parallel/parallel_for.h"
#include "simd/simd.h"

typedef struct {
    const sgk_problem *p;
    int64_t *slot;                /* the slots, or */
    int32_t *slot32;              /* the slots narrowed, when they fit */
    uint16_t *col;                /* elements' slots along the axis */
    int64_t first;                /* the pair whose slot goes to slot[0] */
    atomic_llong first_bad;       /* smallest failing pair, or count when none */
    int64_t stride[SGK_MAX_RANK]; /* tuples: of the k indexed dims; elements: of data */
} map_job;

/* Fields one by one: an initializer would zero all of stride, which costs
   a tiny call more than reading its indices (prepare sets the strides it
   uses). */
static void job_init(map_job *job, const sgk_problem *p, int64_t *slot, int32_t *slot32,
                     int64_t first)
{
    job->p = p;
    job->slot = slot;
    job->slot32 = slot32;
    job->first = first;
    atomic_init(&job->first_bad, p->count);
}

/* Lowers job->first_bad to n; chunks race, the smallest wins, so the
   reported index does not depend on the thread count. */
static void report_bad(map_job *job, int64_t n)
{
    long long seen = atomic_load(&job->first_bad);
    while (n < seen && !atomic_compare_exchange_weak(&job->first_bad, &seen, n)) {
    }
}

/* Reports the first pair from n on with a coordinate out of range, once a
   range's verdict says it holds one: pair i's coordinates are index
   elements i * step + j, j < k, coordinate j within [-dims[j], dims[j]).
   Errors only: it reads the indices one at a time, of either type. */
static void report_first_bad(map_job *job, int64_t n, int64_t step, int k, const int64_t *dims)
{
    const sgk_index_map *m = &job->p->map;
    for (;; n++)
        for (int j = 0; j < k; j++) {
            const int64_t c = load_index(m->indices, index_row(m, n) * step + j);
            if (c < -dims[j] || c >= dims[j]) {
                report_bad(job, n);
                return;
            }
        }
}

/* Pairs of one coordinate (k = 1, or elements along the last axis): out[n]
   = offset + idx[n] wrapped, when every idx[n] lies in [-dim, dim), checked
   and offset by vectors a stretch at a time, so that the second pass finds
   the stretch in L1. */
#define OFFSET_STRETCH 2048

/* Fewer indices than this go the scalar way: a kernel's dispatch and
   set-up cost a tiny call more than its few indices (sgk-bench tiny). */
#define SIMD_INDICES_MIN 32

#define OFFSET_SCALAR(T, S)                                                           \
    do {                                                                               \
        const T *in = idx;                                                             \
        S *to = out;                                                                   \
        bool bad = false;                                                              \
        for (int64_t n = 0; n < pairs; n++) {                                          \
            const uint64_t w = (uint64_t)sgk_wrap_index(in[n], dim);                   \
            bad |= w >= (uint64_t)dim;                                                 \
            to[n] = (S)((uint64_t)offset + w);                                         \
        }                                                                              \
        return !bad;                                                                   \
    } while (0)

static bool offset_checked(const void *idx, bool idx64, int64_t dim, int64_t offset,
                           int64_t pairs, void *out, bool out64)
{
    if (pairs < SIMD_INDICES_MIN) {
        if (idx64 && out64)
            OFFSET_SCALAR(int64_t, int64_t);
        if (idx64)
            OFFSET_SCALAR(int64_t, int32_t);
        if (out64)
            OFFSET_SCALAR(int32_t, int64_t);
        OFFSET_SCALAR(int32_t, int32_t);
    }
    const size_t ib = idx64 ? 8 : 4, ob = out64 ? 8 : 4;
    for (int64_t n = 0; n < pairs; n += OFFSET_STRETCH) {
        const int64_t m = pairs - n < OFFSET_STRETCH ? pairs - n : OFFSET_STRETCH;
        const void *at = (const uint8_t *)idx + (size_t)n * ib;
        if (!sgk_simd_indices_in_range(at, idx64, m, dim))
            return false;
        void *to = (uint8_t *)out + (size_t)n * ob;
        sgk_simd_offset_indices(at, idx64, m, dim, offset, out64 ? to : NULL,
                                out64 ? NULL : to);
    }
    return true;
}

/* Tuples: `pairs` pairs of one batch, k coordinates each, from idx on,
   into out, everything in locals, bounds checked for the whole range at
   once.  A coordinate c is in [-dim, dim) exactly when its wrapped value
   is below dim as an unsigned number: one compare.  The last indexed
   dimension has stride 1; k of 1 and 2 (the common ones) get loops of
   their own. */
#define MAP_TUPLES_RANGE(NAME, T, S)                                                   \
    static inline __attribute__((always_inline)) bool NAME(                            \
        const T *idx, int k, const int64_t *dims, const int64_t *stride, int64_t offset, \
        int64_t pairs, S *restrict out)                                                \
    {                                                                                  \
        const uint64_t base = (uint64_t)offset;                                        \
        bool bad = false;                                                              \
        if (k == 1)                                                                    \
            return offset_checked(idx, sizeof(T) == 8, dims[0], offset, pairs, out,       \
                                  sizeof(S) == 8);                                     \
        if (k == 2 && pairs >= SIMD_INDICES_MIN && dims[0] <= UINT32_MAX &&           \
            stride[0] <= UINT32_MAX)                                                   \
            return sgk_simd_map_pairs2(idx, sizeof(T) == 8, pairs, dims[0], dims[1],   \
                                       stride[0], offset,                              \
                                       sizeof(S) == 8 ? (int64_t *)out : NULL,         \
                                       sizeof(S) == 8 ? NULL : (int32_t *)out);        \
        if (k == 2) {                                                                  \
            const int64_t d0 = dims[0], d1 = dims[1];                                  \
            const uint64_t s0 = (uint64_t)stride[0];                                   \
            for (int64_t n = 0; n < pairs; n++) {                                      \
                const uint64_t w0 = (uint64_t)sgk_wrap_index(idx[2 * n], d0);          \
                const uint64_t w1 = (uint64_t)sgk_wrap_index(idx[2 * n + 1], d1);      \
                bad |= (w0 >= (uint64_t)d0) | (w1 >= (uint64_t)d1);                    \
                out[n] = (S)(base + w0 * s0 + w1);                                     \
            }                                                                          \
            return !bad;                                                               \
        }                                                                              \
        int64_t dim[SGK_MAX_RANK];                                                     \
        uint64_t str[SGK_MAX_RANK];                                                    \
        for (int j = 0; j < k; j++)                                                    \
            dim[j] = dims[j], str[j] = (uint64_t)stride[j];                            \
        for (int64_t n = 0; n < pairs; n++) {                                          \
            uint64_t flat = base;                                                      \
            for (int j = 0; j < k; j++) {                                              \
                const uint64_t w = (uint64_t)sgk_wrap_index(idx[n * k + j], dim[j]);   \
                bad |= w >= (uint64_t)dim[j];                                          \
                flat += w * str[j];                                                    \
            }                                                                          \
            out[n] = (S)flat;                                                          \
        }                                                                              \
        return !bad;                                                                   \
    }

/* Pairs [begin, end), a batch at a time; with shared rows each batch reads
   the index rows from 0 again. */
#define MAP_TUPLES(NAME, T, S, OUT)                                                    \
    MAP_TUPLES_RANGE(NAME##_range, T, S)                                               \
    static void NAME(void *ctx, int worker, int64_t begin, int64_t end)                \
    {                                                                                  \
        map_job *job = ctx;                                                            \
        (void)worker;                                                                  \
        const sgk_index_map *m = &job->p->map;                                         \
        const int64_t *dims = m->data->shape + m->batch_dims;                          \
        const int64_t rows = m->rows_per_batch;                                        \
        const T *idx = m->indices->data;                                               \
        const int k = m->k;                                                            \
        for (int64_t n = begin, next; n < end; n = next) {                             \
            int64_t batch = rows > 0 ? n / rows : 0;                                   \
            next = rows > 0 && (batch + 1) * rows < end ? (batch + 1) * rows : end;    \
            int64_t offset = batch * m->slots_per_batch;                               \
            const int64_t row = m->shared_rows ? n - batch * rows : n;                 \
            bool ok = NAME##_range(idx + row * k, k, dims, job->stride, offset, next - n, \
                                   job->OUT + (n - job->first));                       \
            if (!ok) {                                                                 \
                report_first_bad(job, n, k, k, dims);                                  \
                return;                                                                \
            }                                                                          \
        }                                                                              \
    }

MAP_TUPLES(map_tuples_i32, int32_t, int64_t, slot)
MAP_TUPLES(map_tuples_i64, int64_t, int64_t, slot)
MAP_TUPLES(map_tuples_i32_to32, int32_t, int32_t, slot32)
MAP_TUPLES(map_tuples_i64_to32, int64_t, int32_t, slot32)

/* Elements: n walks the indices row-major; base is the data offset of n's
   own coordinates with the axis coordinate at 0.  Along the innermost
   walked dimension base advances by a constant, so each run along it is a
   plain loop (bounds checked for the whole run at once), and only the runs'
   ends step the odometer of the outer coordinates.  Whole rows (row_len >
   1): n walks the dimensions up to the axis only, reading every row_len-th
   index, and offsets count rows. */
#define MAP_ELEMENTS(NAME, T, S, OUT)                                                  \
    static void NAME(void *ctx, int worker, int64_t begin, int64_t end)                \
    {                                                                                  \
        map_job *job = ctx;                                                            \
        (void)worker;                                                                  \
        const sgk_index_map *m = &job->p->map;                                         \
        const int axis = m->axis, walked = m->row_len > 1 ? axis + 1 : m->data->rank; \
        const int last = walked - 1;                                                   \
        const int64_t step = m->row_len > 1 ? m->row_len : 1;                          \
        const int64_t *idims = m->indices->shape;                                      \
        const int64_t axis_dim = m->data->shape[axis], axis_stride = job->stride[axis]; \
        const int64_t inner = last == axis ? 0 : job->stride[last];                    \
        const T *idx = m->indices->data;                                               \
        S *out = job->OUT;                                                             \
        const int64_t first = job->first;                                              \
        int64_t coord[SGK_MAX_RANK], base = 0, rest = begin;                           \
        for (int d = last; d >= 0; d--) {                                              \
            coord[d] = rest % idims[d];                                                \
            rest /= idims[d];                                                          \
            if (d != axis)                                                             \
                base += coord[d] * job->stride[d];                                     \
        }                                                                              \
        for (int64_t n = begin; n < end;) {                                            \
            const int64_t run = idims[last] - coord[last] < end - n                    \
                                    ? idims[last] - coord[last]                        \
                                    : end - n;                                         \
            bool bad = false;                                                          \
            if (inner == 0 && axis_stride == 1 && step == 1) {                         \
                /* along the last axis: one offset for the whole run */               \
                bad = !offset_checked(idx + n, sizeof(T) == 8, axis_dim, base, run,    \
                                      out + (n - first), sizeof(S) == 8);              \
            } else {                                                                   \
                for (int64_t i = 0; i < run; i++) {                                    \
                    /* a bad value is only noted: the run's slots are dropped */      \
                    const uint64_t w =                                                 \
                        (uint64_t)sgk_wrap_index(idx[(n + i) * step], axis_dim);       \
                    bad |= w >= (uint64_t)axis_dim;                                    \
                    out[n + i - first] =                                               \
                        (S)((uint64_t)(base + i * inner) + w * (uint64_t)axis_stride); \
                }                                                                      \
            }                                                                          \
            if (bad) {                                                                 \
                report_first_bad(job, n, step, 1, &axis_dim);                          \
                return;                                                                \
            }                                                                          \
            n += run;                                                                  \
            coord[last] += run;                                                        \
            base += run * inner;                                                       \
            for (int d = last; d >= 0 && coord[d] == idims[d]; d--) {                  \
                if (d != axis)                                                         \
                    base -= coord[d] * job->stride[d];                                 \
                coord[d] = 0;                                                          \
                if (d > 0) {                                                           \
                    coord[d - 1]++;                                                    \
                    if (d - 1 != axis)                                                 \
                        base += job->stride[d - 1];                                    \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }

MAP_ELEMENTS(map_elements_i32, int32_t, int64_t, slot)
MAP_ELEMENTS(map_elements_i64, int64_t, int64_t, slot)
MAP_ELEMENTS(map_elements_i32_to32, int32_t, int32_t, slot32)
MAP_ELEMENTS(map_elements_i64_to32, int64_t, int32_t, slot32)

/* Pairs [begin, end), a row at a time: consecutive positions from the
   row's first, wrapping at max_seq_len (the front end keeps seq_len <=
   max_seq_len, so once at most, and unsigned sums cannot overflow). */
#define MAP_SEQUENCE(NAME, S, OUT)                                                     \
    static void NAME(void *ctx, int worker, int64_t begin, int64_t end)                \
    {                                                                                  \
        map_job *job = ctx;                                                            \
        (void)worker;                                                                  \
        const sgk_index_map *m = &job->p->map;                                         \
        const int64_t len = m->seq_len, per_batch = m->rows_per_batch;                 \
        const uint64_t max = (uint64_t)m->max_seq_len;                                 \
        S *out = job->OUT;                                                             \
        for (int64_t n = begin, next; n < end; n = next) {                             \
            const int64_t row = n / len;                                               \
            next = (row + 1) * len < end ? (row + 1) * len : end;                      \
            const int64_t first = first_position(m, n / per_batch);                    \
            if (first < 0) {                                                           \
                report_bad(job, n);                                                    \
                return;                                                                \
            }                                                                          \
            const uint64_t base = (uint64_t)row * max;                                 \
            uint64_t pos = (uint64_t)first + (uint64_t)(n - row * len);                \
            if (pos >= max)                                                            \
                pos -= max;                                                            \
            for (int64_t i = n; i < next; i++) {                                       \
                out[i - job->first] = (S)(base + pos);                                 \
                if (++pos == max)                                                      \
                    pos = 0;                                                           \
            }                                                                          \
        }                                                                              \
    }

MAP_SEQUENCE(map_sequence, int64_t, slot)
MAP_SEQUENCE(map_sequence_to32, int32_t, slot32)

/* Elements, checked only (one-shot calls that read the indices again as
   they go), a stretch at a time, the first bad element found only when
   there is one; with job->col, each checked stretch is then written,
   wrapped, as 16-bit slots along the axis (an axis of at most 65536
   slots), read again from L1. */
#define CHECK_ELEMENTS(NAME, T)                                                        \
    static void NAME(void *ctx, int worker, int64_t begin, int64_t end)                \
    {                                                                                  \
        map_job *job = ctx;                                                            \
        (void)worker;                                                                  \
        const sgk_index_map *m = &job->p->map;                                         \
        const int64_t axis_dim = m->data->shape[m->axis];                              \
        const T *idx = m->indices->data;                                               \
        for (int64_t n = begin; n < end; n += OFFSET_STRETCH) {                        \
            const int64_t len = end - n < OFFSET_STRETCH ? end - n : OFFSET_STRETCH;   \
            if (!sgk_simd_indices_in_range(idx + n, sizeof(T) == 8, len, axis_dim)) {  \
                report_first_bad(job, n, 1, 1, &axis_dim);                             \
                return;                                                                \
            }                                                                          \
            if (job->col != NULL)                                                      \
                sgk_simd_wrap_indices16(idx + n, sizeof(T) == 8, len, axis_dim,        \
                                        job->col + n);                                 \
        }                                                                              \
    }

CHECK_ELEMENTS(check_elements_i32, int32_t)
CHECK_ELEMENTS(check_elements_i64, int64_t)

static sgk_status verdict(map_job *job)
{
    const int64_t bad = atomic_load(&job->first_bad);
    return bad < job->p->count ? sgk_index_out_of_range(job->p, bad) : SGK_OK;
}

/* Sets the job's strides and returns the body that maps its pairs. */
static sgk_range_body prepare(map_job *job)
{
    const sgk_index_map *m = &job->p->map;
    const bool is64 = m->indices != NULL && m->indices->dtype == SGK_INT64;
    const bool narrow = job->slot32 != NULL;
    int64_t s = 1;
    if (m->kind == SGK_MAP_SEQUENCE)
        return narrow ? map_sequence_to32 : map_sequence;
    if (m->kind == SGK_MAP_TUPLES) {
        for (int j = m->k - 1; j >= 0; j--) {
            job->stride[j] = s;
            s *= m->data->shape[m->batch_dims + j];
        }
        return narrow ? (is64 ? map_tuples_i64_to32 : map_tuples_i32_to32)
                      : (is64 ? map_tuples_i64 : map_tuples_i32);
    }
    /* whole rows: offsets in rows, the dimensions after the axis gone */
    for (int d = m->row_len > 1 ? m->axis : m->data->rank - 1; d >= 0; d--) {
        job->stride[d] = s;
        s *= m->data->shape[d];
    }
    return narrow ? (is64 ? map_elements_i64_to32 : map_elements_i32_to32)
                  : (is64 ? map_elements_i64 : map_elements_i32);
}

sgk_status sgk_map_indices(const sgk_problem *p, int64_t *slot, int32_t *slot32, int threads,
                           int64_t min_bytes)
{
    const sgk_index_map *m = &p->map;
    const bool is64 = m->indices != NULL && m->indices->dtype == SGK_INT64;
    map_job job;
    job_init(&job, p, slot, slot32, 0);
    sgk_range_body body = prepare(&job);
    /* traffic: the indices read (a sequence reads one per row) plus the
       slots written */
    int64_t per_pair = (m->kind == SGK_MAP_SEQUENCE ? 0
                        : (m->kind == SGK_MAP_TUPLES ? m->k : 1) * (is64 ? 8 : 4)) +
                       (slot32 != NULL ? 4 : 8);
    int64_t traffic = p->count > INT64_MAX / per_pair ? INT64_MAX : p->count * per_pair;
    sgk_parallel_for(p->count, threads, traffic, min_bytes, body, &job);
    return verdict(&job);
}

sgk_status sgk_map_index_range(const sgk_problem *p, int64_t begin, int64_t end, int64_t *slot)
{
    map_job job;
    job_init(&job, p, slot, NULL, begin);
    prepare(&job)(&job, 0, begin, end);
    return verdict(&job);
}

/* Pairs [begin, end)'s index values, when they are their slots; else
   NULL. */
static const int64_t *slots_as_indices(const sgk_problem *p, int64_t begin, int64_t end)
{
    const sgk_index_map *m = &p->map;
    if (m->indices == NULL || m->indices->dtype != SGK_INT64)
        return NULL;
    const bool one_coordinate =
        m->kind == SGK_MAP_TUPLES
            ? m->k == 1 && m->batch_dims == 0 && (!m->shared_rows || m->rows_per_batch == p->count)
            : m->kind == SGK_MAP_ELEMENTS && m->data->rank == 1 && m->row_len <= 1;
    const int64_t *idx = (const int64_t *)m->indices->data + begin;
    return one_coordinate && sgk_simd_indices_below(idx, true, end - begin, p->slots) ? idx
                                                                                      : NULL;
}

const int64_t *sgk_slots_of_range(const sgk_problem *p, int64_t begin, int64_t end,
                                  int64_t *slot)
{
    const int64_t *as_indices = slots_as_indices(p, begin, end);
    if (as_indices != NULL)
        return as_indices;
    return sgk_map_index_range(p, begin, end, slot) == SGK_OK ? slot : NULL;
}

int64_t sgk_index_bytes_per_pair(const sgk_problem *p)
{
    const sgk_index_map *m = &p->map;
    if (m->indices == NULL || m->kind == SGK_MAP_SEQUENCE)
        return 0;
    return (m->kind == SGK_MAP_TUPLES ? m->k : 1) * (int64_t)sgk_elem_size(m->indices->dtype);
}

const uint8_t *sgk_index_span(const sgk_problem *p, int64_t begin, int64_t end, size_t *bytes)
{
    const sgk_index_map *m = &p->map;
    const bool in_pair_order =
        m->indices != NULL && (m->kind == SGK_MAP_TUPLES    ? !m->shared_rows
                               : m->kind == SGK_MAP_ELEMENTS ? m->row_len <= 1
                                                             : false);
    if (!in_pair_order || end <= begin)
        return NULL;
    const int64_t per_pair = sgk_index_bytes_per_pair(p);
    *bytes = (size_t)((end - begin) * per_pair);
    return (const uint8_t *)m->indices->data + begin * per_pair;
}

sgk_status sgk_check_element_indices(const sgk_problem *p, int threads, int64_t min_bytes,
                                     uint16_t *col)
{
    const bool is64 = p->map.indices->dtype == SGK_INT64;
    map_job job;
    job_init(&job, p, NULL, NULL, 0);
    job.col = col;
    const int64_t per_pair = (is64 ? 8 : 4) + (col != NULL ? 2 : 0);
    sgk_parallel_for(p->count, threads, p->count * per_pair, min_bytes,
                     is64 ? check_elements_i64 : check_elements_i32, &job);
    return verdict(&job);
}
