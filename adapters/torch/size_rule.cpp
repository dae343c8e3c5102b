#include "size_rule.hpp"

#include <cstdlib>

namespace sgk_torch {

namespace {

// bench/results/torch-calibration.json (docs/performance.md): on the 2-core
// Xeon at 2 threads, against PyTorch's TensorIterator kernels, sgk's
// element paths won at 1k index elements (its tiny lane: 1.4-1.8x for
// gather, scatter and scatter_add, 1.3x for amax); from 4k to 1M the
// copies and sums lost (0.41-1.08x).  scatter_reduce's extrema lost at 4k
// (0.85x) and won from 16k on (1.43-2.39x).  The bounds lie halfway (in
// log scale) between the sizes measured.
constexpr int64_t tiny_max = 2048;
constexpr int64_t reductions_min = 8192;

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
    if (index_elements <= tiny_max || (reduces && index_elements >= reductions_min))
        return nullptr;
    return reduces ? "element-wise reduction of 2049 to 8191 elements, where PyTorch is faster"
                   : "element-wise copy or sum above 2048 elements, where PyTorch is faster";
}

}  // namespace sgk_torch
