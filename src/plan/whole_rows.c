/* An index broadcast along the inner dimensions (torch.gather with an
   expanded index, take_along_axis of whole rows) turns an Elements operator
   into a row move: one index read and one slice copy per row instead of one
   vector lane per element. */
#include <stdatomic.h>

#include "parallel/parallel_for.h"
#include "simd/simd.h"
#include "plan/whole_rows.h"

typedef struct {
    const void *indices;
    int64_t row_len;
    atomic_bool differs;
} rows_job;

/* Each row's values compared with its first, a vector at a time. */
#define SAME_ALONG_ROWS(NAME, T)                                                   \
    static void NAME(void *ctx, int worker, int64_t begin, int64_t end)           \
    {                                                                              \
        rows_job *job = ctx;                                                       \
        const T *idx = job->indices;                                               \
        const int64_t L = job->row_len;                                            \
        (void)worker;                                                              \
        for (int64_t r = begin; r < end; r++) {                                    \
            if ((r & 63) == 0 && atomic_load_explicit(&job->differs,               \
                                                      memory_order_relaxed))       \
                return;                                                            \
            const T *row = idx + r * L;                                            \
            if (!sgk_simd_all_equal(row + 1, sizeof(T) == 8, L - 1, row[0])) {     \
                atomic_store_explicit(&job->differs, true, memory_order_relaxed);  \
                return;                                                            \
            }                                                                      \
        }                                                                          \
    }

SAME_ALONG_ROWS(same_along_rows_i32, int32_t)
SAME_ALONG_ROWS(same_along_rows_i64, int64_t)

bool sgk_rewrite_as_whole_rows(sgk_problem *p, int threads, int64_t min_bytes)
{
    const sgk_index_map *m = &p->map;
    if (m->kind != SGK_MAP_ELEMENTS || p->count == 0)
        return false;
    int64_t row_len = 1;
    for (int d = m->axis + 1; d < m->data->rank; d++) {
        if (m->indices->shape[d] != m->data->shape[d])
            return false;
        row_len *= m->data->shape[d];
    }
    if (row_len <= 1)
        return false;
    const bool is64 = m->indices->dtype == SGK_INT64;
    rows_job job = {.indices = m->indices->data, .row_len = row_len};
    atomic_init(&job.differs, false);
    /* cheap refusal first: most indices differ within their first row */
    (is64 ? same_along_rows_i64 : same_along_rows_i32)(&job, 0, 0, 1);
    if (!atomic_load(&job.differs))
        sgk_parallel_for(p->count / row_len, threads, p->count * (is64 ? 8 : 4), min_bytes,
                         is64 ? same_along_rows_i64 : same_along_rows_i32, &job);
    if (atomic_load(&job.differs))
        return false;
    p->map.row_len = row_len;
    p->slice_len *= row_len;
    p->slots /= row_len;
    p->count /= row_len;
    return true;
}
