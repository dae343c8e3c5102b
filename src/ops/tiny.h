/* The tiny-call lane: one-shot calls that move a few KiB, checked and run
   on the spot, without the planner or the executor. */
#ifndef SGK_TINY_H
#define SGK_TINY_H

#include <stdint.h>

#include "sgk.h"

/* An operator's full one-shot path, which the lane hands what it does not
   serve: of the public function's own type. */
typedef __typeof__(sgk_scatter_nd) *sgk_scatter_nd_fn;
typedef __typeof__(sgk_scatter_elements) *sgk_scatter_elements_fn;
typedef __typeof__(sgk_gather_nd) *sgk_gather_nd_fn;
typedef __typeof__(sgk_gather_elements) *sgk_gather_elements_fn;
typedef __typeof__(sgk_gather) *sgk_gather_fn;
typedef __typeof__(sgk_tensor_scatter) *sgk_tensor_scatter_fn;

/* Each serves the call when the lane takes it: every argument, shape and
   index checked as the operator's full path checks them, and the output
   written; it answers SGK_OK, and sgk_last_path() then answers "tiny".
   When the lane does not take the call (too large, forced paths or
   SGK_VERBOSE, anything the full path would refuse: an error of any
   kind), nothing is written and the answer is full's on the same
   arguments, which gives the call its status and error message. */
sgk_status sgk_tiny_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                               const sgk_tensor *updates, sgk_reduction reduction, void *output,
                               sgk_scatter_nd_fn full);
sgk_status sgk_tiny_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                              int64_t batch_dims, void *output, sgk_gather_nd_fn full);
sgk_status sgk_tiny_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                     const sgk_tensor *updates, int64_t axis,
                                     sgk_reduction reduction, void *output,
                                     sgk_scatter_elements_fn full);
sgk_status sgk_tiny_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                    int64_t axis, void *output, sgk_gather_elements_fn full);
sgk_status sgk_tiny_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                           void *output, sgk_gather_fn full);
sgk_status sgk_tiny_tensor_scatter(const sgk_tensor *past_cache, const sgk_tensor *update,
                                   const sgk_tensor *write_indices, int64_t axis,
                                   sgk_tensor_scatter_mode mode, void *output,
                                   sgk_tensor_scatter_fn full);

#endif
