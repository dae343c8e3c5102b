// Dispatch for sgk's Highway kernels.  Highway's own HWY_DYNAMIC_DISPATCH
// would always take the best target; sgk can be told to take another one
// (sgk_simd_force_target: SGK_SIMD), so it picks the dispatch-table entry
// once per process itself.
#ifndef SGK_SIMD_DISPATCH_H
#define SGK_SIMD_DISPATCH_H

#include <stddef.h>

#include "hwy/highway.h"

namespace sgk {
// Index into every HWY_EXPORT table of this library: the best supported
// target, or the one forced (the last entry: Highway's portable fallback).
size_t TableIndex();
}  // namespace sgk

#define SGK_DISPATCH(FUNC_NAME) \
  (*(HWY_DISPATCH_TABLE(FUNC_NAME)[::sgk::TableIndex()]))

#endif  // SGK_SIMD_DISPATCH_H
