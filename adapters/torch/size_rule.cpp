#include "size_rule.hpp"

#include <cstdlib>

namespace sgk_torch {

namespace {

// bench/results/torch-calibration.json (docs/performance.md): on the 2-core
// Xeon at 2 threads, sgk's element paths lost to PyTorch's TensorIterator
// kernels at every size measured for gather, scatter and scatter_add
// (0.31-0.75x from 1k to 1M index elements), and won or tied for
// scatter_reduce's extrema up to 16k elements (1.0-1.5x), losing above.
constexpr int64_t reductions_max = 16384;

// SGK_TORCH_ELEMENTS_MAX, or -1 when unset (read once).
int64_t override_max() {
    static const int64_t bound = [] {
        const char* v = std::getenv("SGK_TORCH_ELEMENTS_MAX");
        if (v == nullptr || *v == '\0')
            return int64_t{-1};
        char* end = nullptr;
        const long long n = std::strtoll(v, &end, 10);
        return (*end == '\0' && n >= 0) ? static_cast<int64_t>(n) : int64_t{-1};
    }();
    return bound;
}

}  // namespace

const char* elements_too_large(int64_t index_elements, bool reduces) {
    const int64_t bound = override_max();
    if (bound >= 0)
        return index_elements > bound ? "element-wise above SGK_TORCH_ELEMENTS_MAX" : nullptr;
    if (!reduces)
        return "element-wise copy or sum, where PyTorch is faster at every size";
    return index_elements > reductions_max
               ? "element-wise reduction above 16384 elements, where PyTorch is faster"
               : nullptr;
}

}  // namespace sgk_torch
