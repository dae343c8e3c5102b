#include "size_rule.hpp"

#include <cstdlib>

namespace sgk_torch {

namespace {

constexpr int64_t default_elements_max = 16384;

int64_t elements_max() {
    static const int64_t bound = [] {
        const char* v = std::getenv("SGK_TORCH_ELEMENTS_MAX");
        if (v == nullptr || *v == '\0')
            return default_elements_max;
        char* end = nullptr;
        const long long n = std::strtoll(v, &end, 10);
        return (*end == '\0' && n >= 0) ? static_cast<int64_t>(n) : default_elements_max;
    }();
    return bound;
}

}  // namespace

const char* elements_too_large(int64_t index_elements) {
    return index_elements > elements_max()
               ? "element-wise above SGK_TORCH_ELEMENTS_MAX, where PyTorch is faster"
               : nullptr;
}

}  // namespace sgk_torch
