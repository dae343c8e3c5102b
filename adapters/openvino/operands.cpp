#include "operands.hpp"

#include <algorithm>
#include <string>

#include <openvino/core/type/bfloat16.hpp>
#include <openvino/core/type/float16.hpp>

namespace sgk_openvino {

namespace {

uint16_t narrow(float value, sgk_dtype dtype) {
    return dtype == SGK_FLOAT16 ? ov::float16(value).to_bits() : ov::bfloat16(value).to_bits();
}

float widen(uint16_t bits, sgk_dtype dtype) {
    return dtype == SGK_FLOAT16 ? static_cast<float>(ov::float16::from_bits(bits))
                                : static_cast<float>(ov::bfloat16::from_bits(bits));
}

}  // namespace

void Dims::assign(const Dims& other) {
    rank = other.rank;
    std::copy(other.begin(), other.end(), dim);
}

bool Dims::operator==(const ov::Shape& shape) const {
    return shape.size() == static_cast<size_t>(rank) &&
           std::equal(begin(), end(), shape.begin(),
                      [](int64_t a, size_t b) { return static_cast<size_t>(a) == b; });
}

size_t Dims::elements() const {
    size_t count = 1;
    for (int64_t d : *this)
        count *= static_cast<size_t>(d);
    return count;
}

bool Operand::bind(const ov::Tensor& tensor, sgk_dtype dtype, Storage storage) {
    const ov::Shape& shape = tensor.get_shape();
    if (shape.size() > SGK_MAX_RANK)
        return false;
    m_shape.rank = static_cast<int32_t>(shape.size());
    std::copy(shape.begin(), shape.end(), m_shape.dim);
    const size_t count = m_shape.elements();
    const void* data = count > 0 ? tensor.data() : nullptr;
    if (storage == Storage::strings && count > 0) {
        const std::string* strings = static_cast<const std::string*>(data);
        m_strings.resize(count);
        for (size_t i = 0; i < count; ++i)
            m_strings[i] = &strings[i];
        data = m_strings.data();
    } else if (storage == Storage::narrowed && count > 0) {
        const float* values = static_cast<const float*>(data);
        m_narrowed.resize(count);
        for (size_t i = 0; i < count; ++i)
            m_narrowed[i] = narrow(values[i], dtype);
        data = m_narrowed.data();
    }
    m_tensor.dtype = dtype;
    m_tensor.rank = m_shape.rank;
    m_tensor.shape = m_shape.dim;
    m_tensor.data = data;
    m_bound = true;
    return true;
}

Result::Result(ov::Tensor& output, sgk_dtype dtype, Storage storage, size_t count)
    : m_output(output), m_dtype(dtype), m_storage(storage), m_count(count) {
    if (count == 0)
        return;
    if (storage == Storage::strings) {
        m_strings.resize(count);
        m_data = m_strings.data();
    } else if (storage == Storage::narrowed) {
        m_narrowed.resize(count);
        m_data = m_narrowed.data();
    } else {
        m_data = output.data();
    }
}

void Result::finish() {
    const size_t count = m_count;
    if (m_storage == Storage::strings) {
        std::string* out = m_output.data<std::string>();
        for (size_t i = 0; i < count; ++i)
            out[i] = *static_cast<const std::string*>(m_strings[i]);
    } else if (m_storage == Storage::narrowed) {
        float* out = m_output.data<float>();
        for (size_t i = 0; i < count; ++i)
            out[i] = widen(m_narrowed[i], m_dtype);
    }
}

}  // namespace sgk_openvino
