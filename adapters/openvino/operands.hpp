// sgk_tensor views of OpenVINO tensors, and the buffer an operator writes.
//
// Most tensors are passed to sgk as they are.  Two kinds need a stand-in:
// strings (OpenVINO holds std::string objects; sgk moves pointers, so it
// is given pointers to those objects and the chosen ones are copied out),
// and f32 tensors the CPU plugin lowered from f16 or bf16, which a float
// reduction computes in the declared 16-bit type.
#pragma once

#include <cstdint>
#include <vector>

#include <openvino/runtime/tensor.hpp>

#include "sgk.h"

namespace sgk_openvino {

// A shape held in place, with room for any output sgk works out (an
// output's rank may reach twice an input's): an evaluation allocates
// nothing for its shapes.  A node that runs cold paid a cache miss or two
// for each allocation (cachegrind: 82 lines missed beyond sgk's own, DETR's
// GatherElements).
struct Dims {
    int64_t dim[2 * SGK_MAX_RANK];
    int32_t rank = 0;

    const int64_t* begin() const { return dim; }
    const int64_t* end() const { return dim + rank; }
    void assign(const Dims& other);
    bool operator==(const ov::Shape& shape) const;
    // The number of elements (the tensor exists, so it cannot overflow).
    size_t elements() const;
};

// How a tensor's elements reach sgk.
enum class Storage {
    direct,     // the tensor's own bytes
    strings,    // pointers to the tensor's std::string objects
    narrowed,   // f32 rounded to the 16-bit dtype given (exact: it came from it)
};

class Operand {
public:
    Operand() = default;
    Operand(const Operand&) = delete;
    Operand& operator=(const Operand&) = delete;

    // False, binding nothing, for a rank above SGK_MAX_RANK.
    [[nodiscard]] bool bind(const ov::Tensor& tensor, sgk_dtype dtype, Storage storage);
    // Null until bound: an absent optional input.
    const sgk_tensor* get() const { return m_bound ? &m_tensor : nullptr; }
    const void* data() const { return m_tensor.data; }
    const Dims& shape() const { return m_shape; }

private:
    Dims m_shape;
    std::vector<const void*> m_strings;
    std::vector<uint16_t> m_narrowed;
    sgk_tensor m_tensor{};
    bool m_bound = false;
};

// Where sgk writes an operator's result: the output tensor itself, or a
// stand-in copied into it by finish().
class Result {
public:
    // output holds `count` elements.
    Result(ov::Tensor& output, sgk_dtype dtype, Storage storage, size_t count);
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;

    void* data() { return m_data; }
    void finish();

private:
    ov::Tensor& m_output;
    sgk_dtype m_dtype;
    Storage m_storage;
    size_t m_count;
    std::vector<const void*> m_strings;
    std::vector<uint16_t> m_narrowed;
    void* m_data = nullptr;
};

}  // namespace sgk_openvino
