// The fallback rule for sizes: where PyTorch's own kernel is faster, the
// call goes to it.  Calibrated on a 2-core Xeon (AVX-512) at 2 threads
// (docs/torch.md, "When PyTorch keeps the call"): PyTorch's TensorIterator
// gather and scatter along an axis (GatherElements/ScatterElements, and
// take's single elements) beat sgk's element paths from about 16k index
// elements on (x1.6 at 64k, x2.5 to x25 at 256k, worst on short axes),
// while sgk's row paths (Gather, GatherND, ScatterND of rows) were as fast
// or faster at every size measured.
#pragma once

#include <cstdint>

namespace sgk_torch {

// Why an element-wise gather or scatter of this many index elements goes
// to PyTorch, or nullptr.  SGK_TORCH_ELEMENTS_MAX overrides the bound
// (read once; 0 sends every element-wise call to PyTorch).
const char* elements_too_large(int64_t index_elements);

}  // namespace sgk_torch
