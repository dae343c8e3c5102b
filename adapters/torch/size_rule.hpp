// The fallback rule for sizes: where PyTorch's own kernel is faster, the
// call goes to it.  Calibrated with `bench/torch-models.py --calibrate` on
// the 2-core Xeon (AVX-512) at 2 threads (docs/torch.md, "When PyTorch
// keeps the call"): PyTorch's TensorIterator gather and scatter along an
// axis (GatherElements/ScatterElements, and take's single elements) beat
// sgk's element paths from 4k to 64k index elements, and beyond for
// copies and sums; sgk's won at 1k (its tiny lane), and for the other
// reductions from 256k on.  sgk's row paths (Gather, GatherND, ScatterND
// of rows) were as fast or faster at every size.
#pragma once

#include <cstdint>

namespace sgk_torch {

// Why an element-wise gather or scatter of this many index elements goes
// to PyTorch, or nullptr; `reduces`: a reduction other than a copy or a
// sum (max, min, prod, mean).  SGK_TORCH_ELEMENTS_MAX=N (read once) puts
// one bound on all of them instead: 0 sends every element-wise call to
// PyTorch, a large N sends them all to sgk (the tests do, to check sgk's
// element paths against PyTorch's).
const char* elements_too_large(int64_t index_elements, bool reduces);

}  // namespace sgk_torch
