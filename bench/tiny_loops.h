/* The plain C loops of the tiny workload: each operator on [TINY, TINY]
   float32 rows with no validation, timed by sgk-bench beside sgk's calls
   (workloads_tiny.c) and counted by callgrind in bench/tiny-calls.c. */
#ifndef SGK_BENCH_TINY_LOOPS_H
#define SGK_BENCH_TINY_LOOPS_H

#include <stdint.h>
#include <string.h>

#include "sgk.h"

enum { TINY = 16 };

/* The tiny TensorScatter: TS_ROWS rows from write index TS_FIRST. */
enum { TS_FIRST = 9, TS_ROWS = 4 };

/* data copied to out, then update row n written over (none) or added to
   (add) row idx[n], for count rows. */
static inline void tiny_scatter_nd(float *out, const float *data, const int64_t *idx,
                                   const float *upd, int64_t count, sgk_reduction reduction)
{
    memcpy(out, data, TINY * TINY * sizeof *out);
    for (int64_t n = 0; n < count; n++) {
        float *row = out + idx[n] * TINY;
        if (reduction == SGK_REDUCE_NONE)
            memcpy(row, upd + n * TINY, TINY * sizeof *out);
        else
            for (int j = 0; j < TINY; j++)
                row[j] += upd[n * TINY + j];
    }
}

/* data copied to out, then k updates added along each row (axis 1). */
static inline void tiny_scatter_elements(float *out, const float *data, const int64_t *idx,
                                         const float *upd, int64_t k)
{
    memcpy(out, data, TINY * TINY * sizeof *out);
    for (int64_t i = 0; i < TINY; i++)
        for (int64_t j = 0; j < k; j++)
            out[i * TINY + idx[i * k + j]] += upd[i * k + j];
}

/* Rows idx[0..count) of data, in order. */
static inline void tiny_gather_nd(float *out, const float *data, const int64_t *idx,
                                  int64_t count)
{
    for (int64_t n = 0; n < count; n++)
        memcpy(out + n * TINY, data + idx[n] * TINY, TINY * sizeof *out);
}

/* data copied to out, then rows [first, first + rows) written over by
   the update's rows (TensorScatter of one batch, linear). */
static inline void tiny_tensor_scatter(float *out, const float *data, const float *upd,
                                       int64_t first, int64_t rows)
{
    memcpy(out, data, TINY * TINY * sizeof *out);
    memcpy(out + first * TINY, upd, (size_t)rows * TINY * sizeof *out);
}

/* k elements of each row of data (axis 1). */
static inline void tiny_gather_elements(float *out, const float *data, const int64_t *idx,
                                        int64_t k)
{
    for (int64_t i = 0; i < TINY; i++)
        for (int64_t j = 0; j < k; j++)
            out[i * k + j] = data[i * TINY + idx[i * k + j]];
}

#endif
