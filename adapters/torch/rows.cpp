#include "rows.hpp"

namespace sgk_torch {

at::Tensor row_index(const at::Tensor& index, int64_t dim, at::IntArrayRef full,
                     bool match_leading) {
    const int64_t rank = index.dim();
    if (dim + 1 >= rank || static_cast<int64_t>(full.size()) != rank)
        return {};
    for (int64_t d = dim + 1; d < rank; ++d)
        if (index.size(d) != full[d] || (index.stride(d) != 0 && index.size(d) != 1))
            return {};
    if (match_leading)
        for (int64_t d = 0; d < dim; ++d)
            if (index.size(d) != full[d])
                return {};
    const auto sizes = index.sizes().slice(0, dim + 1);
    const auto strides = index.strides().slice(0, dim + 1);
    return index.as_strided(sizes, strides).contiguous();
}

}  // namespace sgk_torch
