#include "reductions.hpp"

#include <limits>

#include <ATen/Dispatch.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

namespace sgk_torch {

Reduction legacy_reduction(c10::string_view reduce) {
    Reduction r;
    if (reduce == "add")
        r.sgk = SGK_REDUCE_ADD;
    else if (reduce == "multiply")
        r.sgk = SGK_REDUCE_MUL;
    else
        r.unknown = "unknown reduce";
    return r;
}

Reduction two_reduction(c10::string_view reduce, bool include_self, bool sum_allowed) {
    Reduction r;
    r.include_self = include_self;
    if (reduce == "sum" && sum_allowed)
        r.sgk = SGK_REDUCE_ADD;
    else if (reduce == "prod")
        r.sgk = SGK_REDUCE_MUL;
    else if (reduce == "mean")
        r.sgk = SGK_REDUCE_ADD, r.mean = true;
    else if (reduce == "amax")
        r.sgk = SGK_REDUCE_MAX;
    else if (reduce == "amin")
        r.sgk = SGK_REDUCE_MIN;
    else
        r.unknown = "unknown reduce";
    return r;
}

at::Scalar identity(const Reduction& r, at::ScalarType type) {
    const bool floating = at::isFloatingType(type);
    switch (r.sgk) {
    case SGK_REDUCE_MUL: return 1;
    case SGK_REDUCE_MAX:
        if (floating)
            return -std::numeric_limits<double>::infinity();
        return AT_DISPATCH_INTEGRAL_TYPES(type, "identity", [] {
            return at::Scalar(std::numeric_limits<scalar_t>::lowest());
        });
    case SGK_REDUCE_MIN:
        if (floating)
            return std::numeric_limits<double>::infinity();
        return AT_DISPATCH_INTEGRAL_TYPES(type, "identity", [] {
            return at::Scalar(std::numeric_limits<scalar_t>::max());
        });
    default:
        return 0;
    }
}

const char* unserved_reduction(const Reduction& r, at::ScalarType type, bool complex_sum_allowed) {
    if (r.unknown)
        return r.unknown;
    if (r.sgk == SGK_REDUCE_NONE)
        return nullptr;
    if (type == at::kBool)
        return "boolean reduction";
    if (at::isComplexType(type) && (!complex_sum_allowed || r.sgk != SGK_REDUCE_ADD || r.mean))
        return "complex reduction";
    return nullptr;
}

at::Tensor start_count(const at::Tensor& self, const Reduction& r) {
    return r.include_self ? at::ones(self.sizes(), self.options())
                          : at::zeros(self.sizes(), self.options());
}

void divide_by_count(at::Tensor& out, at::Tensor& count) {
    count.masked_fill_(at::eq(count, 0), 1);
    if (at::isFloatingType(out.scalar_type()) || at::isComplexType(out.scalar_type()))
        out.div_(count);
    else
        out.div_(count, "floor");
}

}  // namespace sgk_torch
