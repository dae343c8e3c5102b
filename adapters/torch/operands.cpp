#include "operands.hpp"

#include <atomic>
#include <string>

#include <ATen/MemoryOverlap.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>

#include "output_pool.hpp"

namespace sgk_torch {

std::optional<sgk_dtype> sgk_type_of(at::ScalarType type) {
    switch (type) {
    case at::kBool: return SGK_BOOL;
    case at::kChar: return SGK_INT8;
    case at::kByte: return SGK_UINT8;
    case at::kShort: return SGK_INT16;
    case at::kInt: return SGK_INT32;
    case at::kLong: return SGK_INT64;
    case at::kHalf: return SGK_FLOAT16;
    case at::kBFloat16: return SGK_BFLOAT16;
    case at::kFloat: return SGK_FLOAT32;
    case at::kDouble: return SGK_FLOAT64;
    case at::kComplexFloat: return SGK_COMPLEX64;
    case at::kComplexDouble: return SGK_COMPLEX128;
    default: return std::nullopt;
    }
}

const char* not_plain(const at::Tensor& t) {
    if (!t.defined())
        return "undefined tensor";
    if (!t.device().is_cpu() || t.layout() != at::kStrided)
        return "not a strided CPU tensor";
    if (t.is_quantized())
        return "quantized";
    if (t.is_conj() || t.is_neg())
        return "lazy conjugate or negative view";
    if (!sgk_type_of(t.scalar_type()))
        return "type sgk lacks";
    if (!t.is_contiguous())
        return "not contiguous";
    return nullptr;
}

Operand::Operand(sgk_dtype dtype, std::vector<int64_t> dims, const void* data)
    : shape(std::move(dims)) {
    tensor.dtype = dtype;
    tensor.rank = static_cast<int32_t>(shape.size());
    tensor.shape = shape.data();
    tensor.data = data;
}

Operand::Operand(const at::Tensor& t)
    : Operand(*sgk_type_of(t.scalar_type()), t.sizes().vec(), t.const_data_ptr()) {}

namespace {

template <typename T>
bool any_negative(const T* v, int64_t begin, int64_t end) {
    // An OR of the values, whose sign bit is set when one is negative:
    // one branch-free pass the compiler vectorizes.
    T acc = 0;
    for (int64_t i = begin; i < end; ++i)
        acc |= v[i];
    return acc < 0;
}

template <typename T>
int64_t first_negative_of(const T* v, int64_t n) {
    std::atomic<bool> found{false};
    at::parallel_for(0, n, 1 << 16, [&](int64_t begin, int64_t end) {
        if (any_negative(v, begin, end))
            found.store(true, std::memory_order_relaxed);
    });
    if (!found.load())
        return -1;
    for (int64_t i = 0; i < n; ++i)
        if (v[i] < 0)
            return i;
    return -1;
}

}  // namespace

int64_t first_negative(const at::Tensor& index) {
    if (index.scalar_type() == at::kLong)
        return first_negative_of(index.const_data_ptr<int64_t>(), index.numel());
    return first_negative_of(index.const_data_ptr<int32_t>(), index.numel());
}

bool may_overlap(const at::Tensor& written, const at::Tensor& input) {
    if (!written.has_storage() || !input.has_storage() ||
        !written.storage().is_alias_of(input.storage()))
        return false;
    return at::get_overlap_status(written, input) != at::MemOverlapStatus::No;
}

at::Tensor new_output(at::IntArrayRef sizes, const at::TensorOptions& options) {
    return pooled_empty(sizes, options);
}

const char* overlapping(const at::Tensor& written, std::initializer_list<const at::Tensor*> inputs) {
    for (const at::Tensor* input : inputs)
        if (input && may_overlap(written, *input))
            return "self overlapping an input";
    return nullptr;
}

const char* unusable_out(const at::Tensor& out, at::IntArrayRef sizes, at::ScalarType type,
                         std::initializer_list<const at::Tensor*> inputs) {
    if (const char* why = not_plain(out))
        return why;
    if (out.sizes() != sizes)
        return "out= of another shape (PyTorch resizes it)";
    if (out.scalar_type() != type)
        return "out= of another type";
    for (const at::Tensor* input : inputs)
        if (input->defined() && may_overlap(out, *input))
            return "out= overlapping an input";
    return nullptr;
}

bool check(sgk_status status, Raises raises) {
    if (status == SGK_OK)
        return true;
    if (status != SGK_ERR_INDEX_OUT_OF_RANGE)
        return false;
    const std::string message = sgk_last_error();
    if (raises == Raises::index_error)
        TORCH_CHECK_INDEX(false, message);
    TORCH_CHECK(false, message);
}

void raise_negative(const char* op, const at::Tensor& index, int64_t position, int64_t dim,
                    int64_t size, Raises raises) {
    const int64_t value = index.scalar_type() == at::kLong
                              ? index.const_data_ptr<int64_t>()[position]
                              : index.const_data_ptr<int32_t>()[position];
    const std::string message = std::string(op) + ": index[" + std::to_string(position) +
                                "] = " + std::to_string(value) + " out of range for dimension " +
                                std::to_string(dim) + " of size " + std::to_string(size) +
                                " (PyTorch takes no negative index here)";
    if (raises == Raises::index_error)
        TORCH_CHECK_INDEX(false, message);
    TORCH_CHECK(false, message);
}

int64_t extent(at::IntArrayRef sizes, int64_t begin, int64_t end) {
    int64_t n = 1;
    for (int64_t d = begin; d < end; ++d)
        n *= sizes[d];
    return n;
}

}  // namespace sgk_torch

namespace sgk_torch {

namespace {

template <typename T>
bool all_within_of(const T* v, int64_t n, int64_t size) {
    std::atomic<bool> outside{false};
    at::parallel_for(0, n, 1 << 16, [&](int64_t begin, int64_t end) {
        T lo = 0, hi = 0;
        for (int64_t i = begin; i < end; ++i) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        if (lo < 0 || static_cast<int64_t>(hi) >= size)
            outside.store(true, std::memory_order_relaxed);
    });
    return !outside.load();
}

}  // namespace

bool all_within(const at::Tensor& index, int64_t size) {
    if (index.scalar_type() == at::kLong)
        return all_within_of(index.const_data_ptr<int64_t>(), index.numel(), size);
    return all_within_of(index.const_data_ptr<int32_t>(), index.numel(), size);
}

}  // namespace sgk_torch
