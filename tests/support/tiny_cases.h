/* The cases of tests/test_tiny.c: one operator on small shapes, with the
   values, indices and calls (sgk's and the reference's) to run it. */
#ifndef SGK_TESTS_TINY_CASES_H
#define SGK_TESTS_TINY_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "sgk.h"

enum { OP_SND, OP_SEL, OP_GND, OP_GEL, OP_GAT };

typedef struct {
    int op;
    int32_t data_rank, index_rank;
    int64_t data_shape[4], index_shape[4];
    int64_t attr; /* axis or batch_dims */
    /* the dimension each index value indexes, per coordinate of a tuple
       (ND: index column j indexes data dimension attr + j) */
} shape_case;

/* n elements of type t: small numbers (a NaN and a negative zero among
   floats, so that max/min and sign handling show), 0/1 for bool, pointers
   to static words for strings. */
void tiny_fill(tc_rng *r, sgk_dtype t, void *p, int64_t n);
/* n index values in [-dim, dim), a quarter of them negative, or all
   non-negative (the lane's fast check) when positive_only. */
void tiny_fill_indices(tc_rng *r, int64_t *idx, int64_t n, int64_t dim, bool positive_only);
/* The extent index element i must stay within. */
int64_t tiny_index_dim(const shape_case *s, int64_t i);
/* n index values of s, each in [-extent, extent), a quarter negative, or all
   non-negative (the lane's fast check) when positive_only. */
void tiny_fill_case_indices(tc_rng *r, const shape_case *s, int64_t *idx, int64_t n,
                            bool positive_only);
/* Output element count. */
int64_t tiny_output_elems(const shape_case *s);
/* Updates' shape (ScatterND: indices.shape[:-1] ++ data.shape[k:]); its
   rank, 0 for gathers. */
int32_t tiny_updates_shape(const shape_case *s, int64_t *shape);
/* The operator's one-shot call, and the reference's. */
sgk_status tiny_call(const shape_case *s, const sgk_tensor *data, const sgk_tensor *indices,
                     const sgk_tensor *updates, sgk_reduction red, void *out);
void tiny_reference(const shape_case *s, const sgk_tensor *data, const sgk_tensor *indices,
                    const sgk_tensor *updates, sgk_reduction red, void *out);
const char *tiny_op_name(int op);

#endif
