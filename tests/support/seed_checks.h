/*
 * A seed example through every route sgk offers: the one-shot call with
 * each index variant of tests/support/seed_values.h, into a guarded fresh
 * output and in place; and each error a seed states, with the status, a
 * message naming the operator, and the output untouched.  The _raw forms
 * take tensors already typed (the large shapes-only example).
 */
#ifndef SGK_TESTS_SEED_CHECKS_H
#define SGK_TESTS_SEED_CHECKS_H

#include "seed_values.h"

void check_scatter_nd_raw(const sgk_tensor *data, const idx_t *idx, const sgk_tensor *upd,
                          sgk_reduction red, const void *want);
/* want has its own shape, which must be data's. */
void check_scatter_nd(sgk_dtype dt, num_t data, idx_t idx, num_t upd, sgk_reduction red,
                      num_t want);
void check_scatter_nd_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd, sgk_reduction red,
                            sgk_status want);

void check_gather_nd_raw(const sgk_tensor *data, const idx_t *idx, int64_t b, const void *want,
                         int32_t want_rank, const int64_t *want_shape);
void check_gather_nd(sgk_dtype dt, num_t data, idx_t idx, int64_t b, num_t want);
void check_gather_nd_error(sgk_dtype dt, num_t data, idx_t idx, int64_t b, sgk_status want);

void check_scatter_elements(sgk_dtype dt, num_t data, idx_t idx, num_t upd, int64_t axis,
                            sgk_reduction red, num_t want);
/* The status must be one of want[0..nwant). */
void check_scatter_elements_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd, int64_t axis,
                                  sgk_reduction red, const sgk_status *want, size_t nwant);
/* want's shape is the indices' shape. */
void check_gather_elements(sgk_dtype dt, num_t data, idx_t idx, int64_t axis, num_t want);
void check_gather_elements_error(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
                                 sgk_status want);

#endif
