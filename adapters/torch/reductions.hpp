// The reductions of scatter_reduce, the legacy scatter(reduce=) and
// index_reduce, as PyTorch defines them: which sgk reduction, the identity
// that include_self=False starts touched places from, and mean as a sum
// divided by a count.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/util/string_view.h>

#include "sgk.h"

namespace sgk_torch {

struct Reduction {
    sgk_reduction sgk = SGK_REDUCE_NONE;
    bool mean = false;          // a sum, then divided by the count
    bool include_self = true;   // false: touched places start from the identity
    const char* unknown = nullptr;
};

// scatter(reduce="add" | "multiply")
Reduction legacy_reduction(c10::string_view reduce);
// scatter_reduce and index_reduce: "sum" (scatter_reduce only, with
// `sum_allowed`), "prod", "mean", "amax", "amin".
Reduction two_reduction(c10::string_view reduce, bool include_self, bool sum_allowed = true);

// The value a place holds before its first update when include_self is
// false: PyTorch writes it there, then reduces; so do we, to the bit.
at::Scalar identity(const Reduction& r, at::ScalarType type);

// Why sgk does not compute this reduction on this type as PyTorch does
// (complex products and extrema, boolean reductions), or nullptr.
const char* unserved_reduction(const Reduction& r, at::ScalarType type, bool complex_sum_allowed);

// PyTorch's mean: the sum over a count that starts at 1 (self included) or
// 0, then is incremented once per update; untouched places divided by 1,
// integers by floor division.
at::Tensor start_count(const at::Tensor& self, const Reduction& r);
void divide_by_count(at::Tensor& out, at::Tensor& count);

}  // namespace sgk_torch
