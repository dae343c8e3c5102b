/*
 * A slow, obviously correct reference for the sgk operators, written from the
 * sequential definition in docs/semantics.md and
 * nothing else, so that the tests can catch the library's bugs.  It assumes
 * valid inputs: shapes and indices have already been checked (the tests only
 * build valid cases for it).
 */
#ifndef SGK_TESTS_REFERENCE_H
#define SGK_TESTS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

/* 1 when the semantics (docs/semantics.md) define the reduction for the type (complex:
   no max/min; strings: none only). */
int ref_reduction_supported(sgk_dtype dtype, sgk_reduction reduction);

/* One step of the sequential loop: *dst = f(*dst, *src) for one element. */
void ref_apply(sgk_dtype dtype, sgk_reduction reduction, void *dst, const void *src);

/* Scatter: output = copy(data) (output may equal data->data), then the
   updates in row-major order. */
void ref_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                    const sgk_tensor *updates, sgk_reduction reduction, void *output);
void ref_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                          const sgk_tensor *updates, int64_t axis,
                          sgk_reduction reduction, void *output);
/* Gather: output holds indices.shape[:-1] ++ data.shape[b+k:] (ND) or
   indices.shape (Elements) elements. */
void ref_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                   int64_t batch_dims, void *output);
void ref_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                         int64_t axis, void *output);

/* Gather: output[o, q, i] = data[o, indices[q], i], with o running over
   data.shape[:axis], q over indices (row-major) and i over
   data.shape[axis+1:]. */
void ref_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                void *output);
/* TensorScatter, the ONNX pseudocode: output = copy(cache) (output may
   equal cache->data); for every prefix position p of cache.shape[:axis]
   and every s < update.shape[axis], output[p, w + s] = update[p, s] with
   w = write_indices[p[0]] (0 when write_indices is NULL), taken modulo
   cache.shape[axis] (floored, as Python's %) in circular mode. */
void ref_tensor_scatter(const sgk_tensor *cache, const sgk_tensor *update,
                        const sgk_tensor *write_indices, int64_t axis,
                        sgk_tensor_scatter_mode mode, void *output);

/* 1 when one element of a result matches the reference: the same bytes,
   except that where a float add/sub/mul produced NaN (per component for
   complex) any NaN matches, since payloads are not part of the contract. */
int ref_same_result(sgk_dtype dtype, sgk_reduction reduction, const void *expected,
                    const void *actual);

/* IEEE binary16 and bfloat16 conversions; to-16-bit rounds to nearest even,
   overflows to infinity and keeps NaN a (quiet) NaN. */
float ref_f16_to_f32(uint16_t h);
uint16_t ref_f32_to_f16(float f);
float ref_bf16_to_f32(uint16_t b);
uint16_t ref_f32_to_bf16(float f);

#endif /* SGK_TESTS_REFERENCE_H */
