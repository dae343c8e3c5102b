// What the kernels share: which tensors sgk can take as they are, their
// sgk_tensor views, the index checks PyTorch makes and sgk does not, and
// the translation of sgk's errors into PyTorch's exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <ATen/core/Tensor.h>

#include "sgk.h"

namespace sgk_torch {

// The sgk type of a PyTorch scalar type, or nothing for types sgk lacks
// (quantized, float8, the unsigned ones PyTorch barely supports).
std::optional<sgk_dtype> sgk_type_of(at::ScalarType type);

// Why sgk cannot take this tensor in place as a dense row-major buffer,
// or nullptr: on the CPU, strided, not quantized, no lazy conjugate or
// negative bit, a supported type, contiguous.
const char* not_plain(const at::Tensor& t);

// An sgk_tensor over a contiguous at::Tensor's buffer, with its own copy
// of the shape (which may differ from the tensor's: a view of it).
struct Operand {
    std::vector<int64_t> shape;
    sgk_tensor tensor;
    Operand(sgk_dtype dtype, std::vector<int64_t> dims, const void* data);
    Operand(const at::Tensor& t);  // its own shape and type
    const sgk_tensor* get() const { return &tensor; }
};

// Whether an index tensor holds a negative value: PyTorch's gather,
// scatter, index_select, index_add and index_copy reject them while sgk
// counts them from the end.  Returns the first one's flat position, or -1.
int64_t first_negative(const at::Tensor& contiguous_index);

// Whether writing `written` may change what `input` reads: they share a
// buffer and PyTorch cannot rule out a common element.  Tensors of
// separate buffers never overlap, whatever their strides (an expanded
// index, stride 0, overlaps itself only).
bool may_overlap(const at::Tensor& written, const at::Tensor& input);

// In-place results: "self overlapping an input" when writing `written`
// may change what one of `inputs` (null ones skipped) reads, else nullptr.
const char* overlapping(const at::Tensor& written, std::initializer_list<const at::Tensor*> inputs);

// out= and in-place results: whether `out` may be written by sgk as the
// result of shape `sizes` and type `type`, without touching any input.
// A new output tensor, as at::empty makes it; large ones come from the
// adapter's pool of buffers already mapped in (output_pool.hpp): sgk
// writes every byte of it at once, and faulting fresh pages in cost more
// than the gather itself (index_select of 500k rows of 64 floats, 2-core
// Xeon: ~50 of its 60 ms with 4 KiB pages).
at::Tensor new_output(at::IntArrayRef sizes, const at::TensorOptions& options);

const char* unusable_out(const at::Tensor& out, at::IntArrayRef sizes, at::ScalarType type,
                         std::initializer_list<const at::Tensor*> inputs);

// The PyTorch exception an op raises for a bad index.
enum class Raises { index_error, runtime_error };

// Throws the PyTorch exception for an sgk error, with sgk's message, when
// the status is an index out of range; returns true for SGK_OK and false
// for any other status (nothing was written: the caller falls back).
bool check(sgk_status status, Raises raises);
[[noreturn]] void raise_negative(const char* op, const at::Tensor& index, int64_t position,
                                 int64_t dim, int64_t size, Raises raises);

// prod(sizes[begin:end])
int64_t extent(at::IntArrayRef sizes, int64_t begin, int64_t end);

}  // namespace sgk_torch

namespace sgk_torch {

// Whether every value of a contiguous int32/int64 index lies in [0, size).
bool all_within(const at::Tensor& contiguous_index, int64_t size);

}  // namespace sgk_torch
