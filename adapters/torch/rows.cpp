#include "rows.hpp"

#include <ATen/Parallel.h>
#include <ATen/ops/bincount.h>
#include <ATen/ops/full.h>

#include <cstring>
#include <vector>

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

namespace {

// Marks the slots named; false at the first one of `touched.size()` or
// more (none is negative: the caller checked).
template <typename T>
bool mark(const T* v, int64_t n, std::vector<uint8_t>& touched) {
    const auto slots = static_cast<uint64_t>(touched.size());
    for (int64_t i = 0; i < n; ++i) {
        const auto s = static_cast<uint64_t>(v[i]);
        if (s >= slots)
            return false;
        touched[s] = 1;
    }
    return true;
}

}  // namespace

std::optional<std::vector<int64_t>> touched_slots(const at::Tensor& rows, int64_t slots) {
    std::vector<uint8_t> touched(static_cast<size_t>(slots), 0);
    const bool within = rows.scalar_type() == at::kLong
                            ? mark(rows.const_data_ptr<int64_t>(), rows.numel(), touched)
                            : mark(rows.const_data_ptr<int32_t>(), rows.numel(), touched);
    if (!within)
        return std::nullopt;
    std::vector<int64_t> list;
    for (size_t s = 0; s < touched.size(); ++s)
        if (touched[s])
            list.push_back(static_cast<int64_t>(s));
    return list;
}

void fill_rows(at::Tensor& out, const std::vector<int64_t>& slots, const at::Scalar& value) {
    const at::Tensor row = at::full(out.sizes().slice(1), value, out.options());
    const size_t bytes = row.nbytes();
    const auto* from = static_cast<const uint8_t*>(row.const_data_ptr());
    auto* base = static_cast<uint8_t*>(out.data_ptr());
    at::parallel_for(0, static_cast<int64_t>(slots.size()), 1024, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            std::memcpy(base + static_cast<size_t>(slots[i]) * bytes, from, bytes);
    });
}

at::Tensor count_rows(const at::Tensor& out, const at::Tensor& rows, bool include_self) {
    at::Tensor count = at::bincount(rows.to(at::kLong), {}, out.size(0)).to(out.scalar_type());
    if (include_self)
        count.add_(1);
    std::vector<int64_t> shape(static_cast<size_t>(out.dim()), 1);
    shape[0] = out.size(0);
    return count.view(shape);
}

}  // namespace sgk_torch
