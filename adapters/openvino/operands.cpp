#include "operands.hpp"

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

// sgk reads no dimension of a rank-0 tensor, but wants a pointer.
const int64_t no_dimensions[1] = {0};

}  // namespace

std::vector<int64_t> sgk_shape(const ov::Shape& shape) {
    return std::vector<int64_t>(shape.begin(), shape.end());
}

void Operand::bind(const ov::Tensor& tensor, sgk_dtype dtype, Storage storage) {
    m_shape = sgk_shape(tensor.get_shape());
    const size_t count = tensor.get_size();
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
    m_tensor.rank = static_cast<int32_t>(m_shape.size());
    m_tensor.shape = m_shape.empty() ? no_dimensions : m_shape.data();
    m_tensor.data = data;
    m_bound = true;
}

Result::Result(ov::Tensor& output, sgk_dtype dtype, Storage storage)
    : m_output(output), m_dtype(dtype), m_storage(storage) {
    const size_t count = output.get_size();
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
    const size_t count = m_output.get_size();
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
