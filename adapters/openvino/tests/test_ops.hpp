// What the tests of the extension's operators share: the type classes,
// random tensors, the reference's view of a tensor, evaluation, and the
// tests themselves (test_ops*.cpp), listed in test_ops.cpp's main.
#ifndef SGK_OPENVINO_TEST_OPS_HPP
#define SGK_OPENVINO_TEST_OPS_HPP

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <openvino/core/except.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>

#include "counters.hpp"
#include "element_types.hpp"
#include "gather_elements_op.hpp"
#include "gather_nd_op.hpp"
#include "gather_op.hpp"
#include "library_version.hpp"
#include "scatter_elements_op.hpp"
#include "scatter_nd_op.hpp"
#include "tensor_scatter_op.hpp"
#include "tbb_backend.hpp"

extern "C" {
#include "support/reference.h"
}

// cmocka last: it defines a fail() macro that C++ headers' members share.
// Its header declares C functions without extern "C".
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

using namespace sgk_openvino;

namespace test_ops {

struct TypeCase {
    ov::element::Type ov_type;
    sgk_dtype dtype;  // the reference's name for it
};

inline const TypeCase type_cases[] = {
    {ov::element::boolean, SGK_BOOL}, {ov::element::i8, SGK_INT8},
    {ov::element::u8, SGK_UINT8},     {ov::element::i16, SGK_INT16},
    {ov::element::u16, SGK_UINT16},   {ov::element::i32, SGK_INT32},
    {ov::element::u32, SGK_UINT32},   {ov::element::i64, SGK_INT64},
    {ov::element::u64, SGK_UINT64},   {ov::element::f16, SGK_FLOAT16},
    {ov::element::bf16, SGK_BFLOAT16}, {ov::element::f32, SGK_FLOAT32},
    {ov::element::f64, SGK_FLOAT64},
};

inline const char* const reductions[] = {"none", "add", "mul", "max", "min"};

inline std::mt19937_64 rng(19);

// Random values of the type, wide ones beyond 32 bits; floats small
// integers and halves so that sums and products stay finite.
inline ov::Tensor random_tensor(const TypeCase& t, const ov::Shape& shape) {
    ov::Tensor tensor(t.ov_type, shape);
    auto* bytes = static_cast<uint8_t*>(tensor.data());
    for (size_t i = 0; i < tensor.get_size(); ++i) {
        const uint64_t r = rng();
        uint8_t* at = bytes + i * tensor.get_element_type().size();
        switch (t.dtype) {
        case SGK_BOOL: *at = r & 1; break;
        case SGK_FLOAT16: { const uint16_t h = ref_f32_to_f16(float(int(r % 17) - 8) / 2); memcpy(at, &h, 2); break; }
        case SGK_BFLOAT16: { const uint16_t b = ref_f32_to_bf16(float(int(r % 17) - 8) / 2); memcpy(at, &b, 2); break; }
        case SGK_FLOAT32: { const float f = float(int(r % 17) - 8) / 2 + 1e-3f; memcpy(at, &f, 4); break; }
        case SGK_FLOAT64: { const double d = double(int(r % 17) - 8) / 2 + 1e-12; memcpy(at, &d, 8); break; }
        default: memcpy(at, &r, tensor.get_element_type().size()); break;
        }
    }
    return tensor;
}

inline ov::Tensor index_tensor(ov::element::Type type, const ov::Shape& shape, int64_t low, int64_t high) {
    ov::Tensor tensor(type, shape);
    for (size_t i = 0; i < tensor.get_size(); ++i) {
        const int64_t v = low + int64_t(rng() % uint64_t(high - low));
        if (type == ov::element::i32)
            tensor.data<int32_t>()[i] = int32_t(v);
        else
            tensor.data<int64_t>()[i] = v;
    }
    return tensor;
}

// The reference's view of a tensor (shape storage kept by the caller).
inline sgk_tensor view(const ov::Tensor& tensor, sgk_dtype dtype, std::vector<int64_t>& dims) {
    const ov::Shape& shape = tensor.get_shape();
    dims.assign(shape.begin(), shape.end());
    dims.push_back(0);  // a rank-0 tensor's shape pointer is still valid
    return sgk_tensor{dtype, int32_t(shape.size()), dims.data(), tensor.data()};
}

inline std::shared_ptr<ov::op::v0::Parameter> parameter(const ov::Tensor& t) {
    return std::make_shared<ov::op::v0::Parameter>(t.get_element_type(), t.get_shape());
}

inline void expect_same(const TypeCase& t, sgk_reduction reduction, const std::vector<uint8_t>& want,
                 const ov::Tensor& got, const char* what) {
    const size_t size = t.ov_type.size();
    assert_int_equal(want.size(), got.get_byte_size());
    for (size_t i = 0; i < got.get_size(); ++i) {
        const uint8_t* g = static_cast<const uint8_t*>(got.data()) + i * size;
        if (!ref_same_result(t.dtype, reduction, want.data() + i * size, g))
            fail_msg("%s %s: element %zu differs from the reference", what,
                     t.ov_type.get_type_name().c_str(), i);
    }
}

inline bool evaluate(const std::shared_ptr<ov::Node>& op, ov::Tensor& out, const ov::TensorVector& in) {
    ov::TensorVector outputs{out};
    const bool ok = op->evaluate(outputs, in);
    out = outputs[0];
    return ok;
}

// The message of the ov::Exception evaluate() throws, or "" when it throws
// none.
inline std::string evaluation_error(const std::shared_ptr<ov::Node>& op, ov::Tensor& out,
                                    const ov::TensorVector& in) {
    try {
        evaluate(op, out, in);
    } catch (const ov::Exception& e) {
        return e.what();
    }
    return "";
}

// Each operator on every type class, strings, 16-bit floats lowered to
// f32, booleans held as u8 (test_ops_every_type.cpp).
void test_scatter_nd_every_type(void**);
void test_scatter_elements_every_type(void**);
void test_gathers_every_type(void**);
void test_gather_every_type(void**);
void test_tensor_scatter_every_type(void**);
void test_gather_and_tensor_scatter_strings(void**);
void test_lowered_16_bit_floats(void**);
void test_booleans_held_as_u8(void**);
void test_strings(void**);
// Kept plans, errors (test_ops_plans_errors.cpp).
void test_kept_plan_from_threads(void**);
void test_errors(void**);
void test_gather_tensor_scatter_errors(void**);
void test_tensor_scatter_plan_without_indices(void**);
void test_rank_limits(void**);

}  // namespace test_ops

#endif
