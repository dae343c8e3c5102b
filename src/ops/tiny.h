/* The tiny-call lane: one-shot calls whose operands are a few KiB, checked
   and run on the spot, without the planner or the executor. */
#ifndef SGK_TINY_H
#define SGK_TINY_H

#include <stdbool.h>
#include <stdint.h>

#include "sgk.h"

/* Each returns true when it served the call: every argument, shape and
   index checked as the operator's full path checks them, and the output
   written; sgk_last_path() then answers "tiny".  False when the lane does
   not take the call (too large, forced paths or SGK_VERBOSE, anything the
   full path would refuse: an error of any kind), with nothing written:
   the caller then goes the full way, which gives the call its status and
   error message. */
bool sgk_tiny_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                         const sgk_tensor *updates, sgk_reduction reduction, void *output);
bool sgk_tiny_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                        int64_t batch_dims, void *output);
bool sgk_tiny_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                               const sgk_tensor *updates, int64_t axis,
                               sgk_reduction reduction, void *output);
bool sgk_tiny_gather_elements(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                              void *output);

#endif
