/* Checks shared by the operator front ends, and the one-shot runner. */
#ifndef SGK_FRONTEND_H
#define SGK_FRONTEND_H

#include <stdbool.h>

#include "problem/problem.h"

/* indices: a valid tensor whose buffer is present, of type int32 or int64. */
sgk_status sgk_check_indices(const char *op, const sgk_tensor *indices, int64_t *count);

/* data and updates: valid tensors of one element type (buffers required when
   one_shot); the reduction and plan flags valid and defined for it. */
sgk_status sgk_check_scatter_operands(const char *op, const sgk_tensor *data,
                                      const sgk_tensor *updates, sgk_reduction reduction,
                                      uint32_t flags, bool one_shot,
                                      int64_t *data_elems, int64_t *updates_elems);

sgk_status sgk_check_flags(const char *op, uint32_t flags);

/* Normalizes an axis in [-rank, rank-1]. */
sgk_status sgk_normalize_axis(const char *op, int64_t axis, int rank, int *out);

/* Checks the index values of a problem without pairs (a Gather with a
   zero-sized dimension before its axis, a TensorScatter writing no
   position) as planning would have checked them: an operator's indices
   must be valid whatever the output's size.  Only for Gather's shared
   rows and TensorScatter's write indices; writes and allocates nothing. */
sgk_status sgk_check_unpaired_indices(const sgk_problem *p);

/* A shape query's answer: out_shape, once checked as an output the call
   would accept, into shape (when not NULL) and its rank into *rank. */
sgk_status sgk_answer_shape(const char *op, const int64_t *out_shape, int out_rank,
                            sgk_dtype dtype, int64_t *shape, int32_t *rank);

/* Plans p, executes the plan once and frees it. */
sgk_status sgk_run_once(const sgk_problem *p, const void *data, const void *updates,
                        void *output);

/* Stores a new plan for p in *plan. */
sgk_status sgk_plan_problem(const sgk_problem *p, sgk_plan **plan);

#endif
