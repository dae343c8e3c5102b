/* The jobs of tests/test_stress.c: one problem each, planned (or kept for
   a one-shot call) with its inputs and the independent reference's
   output, so that many threads can run it and compare. */
#ifndef SGK_TESTS_STRESS_JOBS_H
#define SGK_TESTS_STRESS_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

enum op { SCATTER_ND, GATHER_ND, SCATTER_ELEMENTS, GATHER_ELEMENTS };

typedef struct {
    const char *name;
    sgk_dtype dtype;
    sgk_reduction reduction;
    sgk_plan *plan;
    /* the operands of the one-shot call (a copy of the indices: the plan
       keeps no pointer to them) */
    enum op op;
    int64_t attr;         /* batch_dims or axis */
    int32_t rank, index_rank;
    int64_t data_shape[3], index_shape[3];
    sgk_dtype index_dtype;
    void *indices;
    int oneshot;          /* run_job calls the one-shot function, not the plan */
    void *data, *updates; /* updates NULL for gathers */
    size_t data_bytes, out_bytes;
    int in_place;         /* scatter: each run starts from a private copy of data */
    void *expected;       /* the reference's output */
} job;

/* Runs the job once into out (out_bytes); for in-place jobs out first takes
   a copy of data. */
sgk_status run_job(const job *j, void *out);
void job_free(job *j);

/* ScatterND, k = 1, rows of `width` elements, heavy duplicates. */
job scatter_nd_rows(const char *name, sgk_dtype dtype, sgk_reduction red, int64_t rows,
                    int64_t width, int64_t n_updates, int64_t distinct, int in_place);
/* GatherND with batch_dims = 1: data [batch, rows, width], indices
   [batch, n, 1]. */
job gather_nd_batched(const char *name, sgk_dtype dtype, int64_t batch, int64_t rows,
                      int64_t width, int64_t n);
/* ScatterElements along axis 1: data [rows, cols], indices [rows, n]. */
job scatter_elements_rows(const char *name, sgk_dtype dtype, sgk_reduction red,
                          int64_t rows, int64_t cols, int64_t n, int in_place);
/* GatherElements along axis 0: data [rows, cols], indices [n, cols]. */
job gather_elements_cols(const char *name, sgk_dtype dtype, int64_t rows, int64_t cols,
                         int64_t n);

#endif
