// The extension's operators evaluated directly on ov::Tensors, without
// OpenVINO's CPU plugin (which cannot be loaded under AddressSanitizer), so
// that the sanitizer build covers the adapter's own C++: every operator on
// every type class against the independent reference (tests/support/reference.c),
// Gather and TensorScatter (with and without write_indices) included,
// including the 64-bit types the CPU plugin would lower; the f16/bf16
// reductions of tensors a plugin lowered to f32; booleans held as u8;
// strings; kept plans for Constant indices evaluated from several threads
// at once; errors; shape inference with dynamic shapes; the TBB backend;
// the element types and the library version, as the library answers.
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

namespace {

struct TypeCase {
    ov::element::Type ov_type;
    sgk_dtype dtype;  // the reference's name for it
};

const TypeCase type_cases[] = {
    {ov::element::boolean, SGK_BOOL}, {ov::element::i8, SGK_INT8},
    {ov::element::u8, SGK_UINT8},     {ov::element::i16, SGK_INT16},
    {ov::element::u16, SGK_UINT16},   {ov::element::i32, SGK_INT32},
    {ov::element::u32, SGK_UINT32},   {ov::element::i64, SGK_INT64},
    {ov::element::u64, SGK_UINT64},   {ov::element::f16, SGK_FLOAT16},
    {ov::element::bf16, SGK_BFLOAT16}, {ov::element::f32, SGK_FLOAT32},
    {ov::element::f64, SGK_FLOAT64},
};

const char* const reductions[] = {"none", "add", "mul", "max", "min"};

std::mt19937_64 rng(19);

// Random values of the type, wide ones beyond 32 bits; floats small
// integers and halves so that sums and products stay finite.
ov::Tensor random_tensor(const TypeCase& t, const ov::Shape& shape) {
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

ov::Tensor index_tensor(ov::element::Type type, const ov::Shape& shape, int64_t low, int64_t high) {
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
sgk_tensor view(const ov::Tensor& tensor, sgk_dtype dtype, std::vector<int64_t>& dims) {
    const ov::Shape& shape = tensor.get_shape();
    dims.assign(shape.begin(), shape.end());
    dims.push_back(0);  // a rank-0 tensor's shape pointer is still valid
    return sgk_tensor{dtype, int32_t(shape.size()), dims.data(), tensor.data()};
}

std::shared_ptr<ov::op::v0::Parameter> parameter(const ov::Tensor& t) {
    return std::make_shared<ov::op::v0::Parameter>(t.get_element_type(), t.get_shape());
}

void expect_same(const TypeCase& t, sgk_reduction reduction, const std::vector<uint8_t>& want,
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

bool evaluate(const std::shared_ptr<ov::Node>& op, ov::Tensor& out, const ov::TensorVector& in) {
    ov::TensorVector outputs{out};
    const bool ok = op->evaluate(outputs, in);
    out = outputs[0];
    return ok;
}

void test_scatter_nd_every_type(void**) {
    for (const TypeCase& t : type_cases) {
        for (const char* name : reductions) {
            sgk_reduction reduction;
            sgk_reduction_from_name(name, &reduction);
            for (auto index_type : {ov::element::i32, ov::element::i64}) {
                ov::Tensor data = random_tensor(t, {6, 5}), updates = random_tensor(t, {9, 5});
                ov::Tensor indices = index_tensor(index_type, {9, 1}, -6, 6);
                auto op = std::make_shared<ScatterNDOp>(parameter(data), parameter(indices),
                                                        parameter(updates), name, t.ov_type);
                ov::Tensor out(t.ov_type, {6, 5});
                assert_true(evaluate(op, out, {data, indices, updates}));
                std::vector<int64_t> d, i, u;
                const sgk_tensor rd = view(data, t.dtype, d), ri = view(indices, index_type == ov::element::i32 ? SGK_INT32 : SGK_INT64, i),
                                 ru = view(updates, t.dtype, u);
                std::vector<uint8_t> want(data.get_byte_size());
                ref_scatter_nd(&rd, &ri, &ru, reduction, want.data());
                expect_same(t, reduction, want, out, name);
            }
        }
    }
}

void test_scatter_elements_every_type(void**) {
    for (const TypeCase& t : type_cases) {
        for (const char* name : reductions) {
            sgk_reduction reduction;
            sgk_reduction_from_name(name, &reduction);
            ov::Tensor data = random_tensor(t, {4, 7}), updates = random_tensor(t, {3, 7});
            ov::Tensor indices = index_tensor(ov::element::i64, {3, 7}, -4, 4);
            auto op = std::make_shared<ScatterElementsOp>(parameter(data), parameter(indices),
                                                          parameter(updates), 0, name, t.ov_type);
            ov::Tensor out(t.ov_type, {4, 7});
            assert_true(evaluate(op, out, {data, indices, updates}));
            std::vector<int64_t> d, i, u;
            const sgk_tensor rd = view(data, t.dtype, d), ri = view(indices, SGK_INT64, i),
                             ru = view(updates, t.dtype, u);
            std::vector<uint8_t> want(data.get_byte_size());
            ref_scatter_elements(&rd, &ri, &ru, 0, reduction, want.data());
            expect_same(t, reduction, want, out, name);
        }
    }
}

void test_gathers_every_type(void**) {
    for (const TypeCase& t : type_cases) {
        ov::Tensor data = random_tensor(t, {3, 5, 4});
        ov::Tensor nd_indices = index_tensor(ov::element::i32, {3, 6, 1}, -5, 5);
        auto nd = std::make_shared<GatherNDOp>(parameter(data), parameter(nd_indices), 1, t.ov_type);
        ov::Tensor nd_out(t.ov_type, {0});  // sized by evaluate, as for dynamic shapes
        assert_true(evaluate(nd, nd_out, {data, nd_indices}));
        assert_true(nd_out.get_shape() == ov::Shape({3, 6, 4}));
        std::vector<int64_t> d, i;
        sgk_tensor rd = view(data, t.dtype, d), ri = view(nd_indices, SGK_INT32, i);
        std::vector<uint8_t> want(nd_out.get_byte_size());
        ref_gather_nd(&rd, &ri, 1, want.data());
        expect_same(t, SGK_REDUCE_NONE, want, nd_out, "gather_nd");

        ov::Tensor el_indices = index_tensor(ov::element::i64, {3, 2, 4}, -5, 5);
        auto el = std::make_shared<GatherElementsOp>(parameter(data), parameter(el_indices), -2,
                                                     t.ov_type);
        ov::Tensor el_out(t.ov_type, {3, 2, 4});
        assert_true(evaluate(el, el_out, {data, el_indices}));
        ri = view(el_indices, SGK_INT64, i);
        want.assign(el_out.get_byte_size(), 0);
        ref_gather_elements(&rd, &ri, -2, want.data());
        expect_same(t, SGK_REDUCE_NONE, want, el_out, "gather_elements");
    }
}

sgk_dtype index_dtype(ov::element::Type type) {
    return type == ov::element::i32 ? SGK_INT32 : SGK_INT64;
}

// Gather on every type, both index types, every axis (negative ones too)
// and indices of rank 0 to 2, the output sized by evaluate.
void test_gather_every_type(void**) {
    const ov::Shape index_shapes[] = {{}, {7}, {2, 3}};
    for (const TypeCase& t : type_cases) {
        ov::Tensor data = random_tensor(t, {3, 5, 4});
        for (auto index_type : {ov::element::i32, ov::element::i64}) {
            for (int64_t axis = -3; axis < 3; ++axis) {
                const int64_t extent = int64_t(data.get_shape()[size_t(axis < 0 ? axis + 3 : axis)]);
                for (const ov::Shape& index_shape : index_shapes) {
                    ov::Tensor indices = index_tensor(index_type, index_shape, -extent, extent);
                    auto op = std::make_shared<GatherOp>(parameter(data), parameter(indices), axis,
                                                         t.ov_type);
                    ov::Tensor out(t.ov_type, {0});
                    assert_true(evaluate(op, out, {data, indices}));
                    assert_true(op->get_output_partial_shape(0).to_shape() == out.get_shape());
                    std::vector<int64_t> d, i;
                    const sgk_tensor rd = view(data, t.dtype, d),
                                     ri = view(indices, index_dtype(index_type), i);
                    std::vector<uint8_t> want(out.get_byte_size());
                    ref_gather(&rd, &ri, axis, want.data());
                    expect_same(t, SGK_REDUCE_NONE, want, out, "gather");
                }
            }
        }
    }
}

// TensorScatter on every type, both modes, both index types, every
// sequence axis, with write_indices given (as a Parameter and as a
// Constant, which is planned) and left out.
void test_tensor_scatter_every_type(void**) {
    const ov::Shape cache_shape{3, 2, 6, 4};
    for (const TypeCase& t : type_cases) {
        for (sgk_tensor_scatter_mode mode : {SGK_TENSOR_SCATTER_LINEAR, SGK_TENSOR_SCATTER_CIRCULAR}) {
            const char* mode_name = mode == SGK_TENSOR_SCATTER_LINEAR ? "linear" : "circular";
            for (int64_t axis : {1, 2, -1, -2}) {
                const size_t a = size_t(axis < 0 ? axis + 4 : axis);
                const int64_t max_seq = int64_t(cache_shape[a]), seq = max_seq > 2 ? 2 : 1;
                ov::Shape update_shape = cache_shape;
                update_shape[a] = size_t(seq);
                for (auto index_type : {ov::element::i32, ov::element::i64}) {
                    for (int form = 0; form < 3; ++form) {  // parameter, constant, absent
                        ov::Tensor cache = random_tensor(t, cache_shape);
                        ov::Tensor update = random_tensor(t, update_shape);
                        ov::Tensor write = mode == SGK_TENSOR_SCATTER_LINEAR
                                               ? index_tensor(index_type, {3}, 0, max_seq - seq + 1)
                                               : index_tensor(index_type, {3}, -3 * max_seq, 3 * max_seq);
                        ov::OutputVector args = {parameter(cache), parameter(update)};
                        ov::TensorVector inputs = {cache, update};
                        if (form == 0)
                            args.push_back(parameter(write));
                        else if (form == 1)
                            args.push_back(std::make_shared<ov::op::v0::Constant>(write));
                        if (form != 2)
                            inputs.push_back(write);
                        auto op = std::make_shared<TensorScatterOp>(args, axis, mode_name, t.ov_type);
                        ov::Tensor out(t.ov_type, {0});
                        assert_true(evaluate(op, out, inputs));
                        assert_true(out.get_shape() == cache_shape);
                        std::vector<int64_t> c, u, w;
                        const sgk_tensor rc = view(cache, t.dtype, c), ru = view(update, t.dtype, u),
                                         rw = view(write, index_dtype(index_type), w);
                        std::vector<uint8_t> want(cache.get_byte_size());
                        ref_tensor_scatter(&rc, &ru, form == 2 ? nullptr : &rw, axis, mode, want.data());
                        expect_same(t, SGK_REDUCE_NONE, want, out, mode_name);
                    }
                }
            }
        }
    }
}

// Strings through both new operators: the chosen strings copied out, the
// inputs untouched.
void test_gather_and_tensor_scatter_strings(void**) {
    ov::Tensor table(ov::element::string, {3, 2});
    const char* words[] = {"a", "bb", "ccc", "dddd", "eeeee"};
    for (size_t i = 0; i < 6; ++i)
        table.data<std::string>()[i] = i == 5 ? std::string(60, 'f') : words[i];
    ov::Tensor ids(ov::element::i64, {2});
    ids.data<int64_t>()[0] = -1;
    ids.data<int64_t>()[1] = 0;
    auto gather = std::make_shared<GatherOp>(parameter(table), parameter(ids), 0, ov::element::string);
    ov::Tensor rows(ov::element::string, {2, 2});
    assert_true(evaluate(gather, rows, {table, ids}));
    const std::string* got = rows.data<std::string>();
    assert_string_equal(got[0].c_str(), "eeeee");
    assert_true(got[1] == std::string(60, 'f'));
    assert_string_equal(got[2].c_str(), "a");
    assert_string_equal(got[3].c_str(), "bb");

    ov::Tensor token(ov::element::string, {1, 1, 2});
    token.data<std::string>()[0] = "x";
    token.data<std::string>()[1] = std::string(40, 'y');
    ov::Tensor cache(ov::element::string, {1, 3, 2});
    for (size_t i = 0; i < 6; ++i)
        cache.data<std::string>()[i] = table.data<std::string>()[i];
    ov::Tensor at(ov::element::i64, {1});
    at.data<int64_t>()[0] = -1;  // circular: the last position
    auto scatter = std::make_shared<TensorScatterOp>(
        ov::OutputVector{parameter(cache), parameter(token), parameter(at)}, -2, "circular",
        ov::element::string);
    ov::Tensor present(ov::element::string, {1, 3, 2});
    assert_true(evaluate(scatter, present, {cache, token, at}));
    got = present.data<std::string>();
    assert_string_equal(got[0].c_str(), "a");
    assert_string_equal(got[3].c_str(), "dddd");
    assert_string_equal(got[4].c_str(), "x");
    assert_true(got[5] == std::string(40, 'y'));
    assert_string_equal(cache.data<std::string>()[4].c_str(), "eeeee");
}

// A plugin that lowers f16/bf16 to f32 hands the operator f32 tensors; a
// reduction must still round after every update in the declared type.
void test_lowered_16_bit_floats(void**) {
    for (const TypeCase& t : {TypeCase{ov::element::f16, SGK_FLOAT16}, TypeCase{ov::element::bf16, SGK_BFLOAT16}}) {
        const bool half = t.dtype == SGK_FLOAT16;
        auto narrow = [&](float f) { return half ? ref_f32_to_f16(f) : ref_f32_to_bf16(f); };
        auto widen = [&](uint16_t bits) { return half ? ref_f16_to_f32(bits) : ref_bf16_to_f32(bits); };
        // Large data and small updates, many on the same elements: each
        // sum rounds in 16 bits.
        std::vector<uint16_t> d16(8), u16(40), want16(8);
        for (auto& v : d16)
            v = narrow(float(int(rng() % 9)) * 1000);
        for (auto& v : u16)
            v = narrow(float(int(rng() % 17) - 8) / 2 + 0.25f);
        ov::Tensor data(ov::element::f32, {8}), updates(ov::element::f32, {40});
        for (size_t i = 0; i < 8; ++i)
            data.data<float>()[i] = widen(d16[i]);
        for (size_t i = 0; i < 40; ++i)
            updates.data<float>()[i] = widen(u16[i]);
        ov::Tensor indices = index_tensor(ov::element::i64, {40, 1}, 0, 3);
        auto op = std::make_shared<ScatterNDOp>(parameter(data), parameter(indices), parameter(updates),
                                                "add", t.ov_type);
        ov::Tensor out(ov::element::f32, {8});
        assert_true(evaluate(op, out, {data, indices, updates}));
        std::vector<int64_t> dd{8}, ud{40}, id{40, 1};
        const sgk_tensor rd{t.dtype, 1, dd.data(), d16.data()}, ru{t.dtype, 1, ud.data(), u16.data()},
            ri{SGK_INT64, 2, id.data(), indices.data()};
        ref_scatter_nd(&rd, &ri, &ru, SGK_REDUCE_ADD, want16.data());
        for (size_t i = 0; i < 8; ++i) {
            const float want = widen(want16[i]);
            if (memcmp(&want, &out.data<float>()[i], 4) != 0)
                fail_msg("%s add lowered to f32: [%zu] = %g, want %g", t.ov_type.get_type_name().c_str(),
                         i, double(out.data<float>()[i]), double(want));
        }
    }
}

// Booleans held as u8 keep OR: 256 true updates on one element stay true.
void test_booleans_held_as_u8(void**) {
    ov::Tensor data(ov::element::u8, {2}), updates(ov::element::u8, {256});
    ov::Tensor indices(ov::element::i64, {256, 1});
    data.data<uint8_t>()[0] = 0;
    data.data<uint8_t>()[1] = 0;
    for (size_t i = 0; i < 256; ++i) {
        updates.data<uint8_t>()[i] = 1;
        indices.data<int64_t>()[i] = 0;
    }
    auto op = std::make_shared<ScatterNDOp>(parameter(data), parameter(indices), parameter(updates),
                                            "add", ov::element::boolean);
    ov::Tensor out(ov::element::u8, {2});
    assert_true(evaluate(op, out, {data, indices, updates}));
    assert_int_equal(out.data<uint8_t>()[0], 1);
    assert_int_equal(out.data<uint8_t>()[1], 0);
}

void test_strings(void**) {
    ov::Tensor data(ov::element::string, {4}), updates(ov::element::string, {2});
    ov::Tensor indices(ov::element::i64, {2, 1});
    const char* words[] = {"a", "bb", "ccc", "dddd"};
    for (size_t i = 0; i < 4; ++i)
        data.data<std::string>()[i] = words[i];
    updates.data<std::string>()[0] = "x";
    updates.data<std::string>()[1] = std::string(100, 'y');  // beyond any small-string buffer
    indices.data<int64_t>()[0] = -1;
    indices.data<int64_t>()[1] = 1;
    auto op = std::make_shared<ScatterNDOp>(parameter(data), parameter(indices), parameter(updates),
                                            "none", ov::element::string);
    ov::Tensor out(ov::element::string, {4});
    assert_true(evaluate(op, out, {data, indices, updates}));
    const std::string* got = out.data<std::string>();
    assert_string_equal(got[0].c_str(), "a");
    assert_true(got[1] == std::string(100, 'y'));
    assert_string_equal(got[2].c_str(), "ccc");
    assert_string_equal(got[3].c_str(), "x");
    assert_string_equal(data.data<std::string>()[3].c_str(), "dddd");

    bool refused = false;
    try {
        ScatterNDOp(parameter(data), parameter(indices), parameter(updates), "add", ov::element::string);
    } catch (const ov::Exception&) {
        refused = true;
    }
    assert_true(refused);
}

// One operator object, Constant indices, evaluated from four threads at
// once (as the CPU plugin's streams do): one plan, every result right.
void test_kept_plan_from_threads(void**) {
    const TypeCase t{ov::element::f32, SGK_FLOAT32};
    ov::Tensor indices = index_tensor(ov::element::i64, {300, 16}, -64, 64);
    auto constant = std::make_shared<ov::op::v0::Constant>(indices);
    ov::Tensor shape_data = random_tensor(t, {64, 16}), shape_updates = random_tensor(t, {300, 16});
    auto op = std::make_shared<ScatterElementsOp>(parameter(shape_data), constant, parameter(shape_updates),
                                                  0, "add", ov::element::f32);
    const uint64_t plans_before = counters().plans_built.load();
    const uint64_t runs_before = counters().plan_runs.load();
    const int threads = 4, rounds = 25;
    std::vector<std::vector<ov::Tensor>> inputs(threads);
    std::vector<std::vector<std::vector<uint8_t>>> wants(threads);
    for (int w = 0; w < threads; ++w) {
        for (int r = 0; r < rounds; ++r) {
            ov::Tensor data = random_tensor(t, {64, 16}), updates = random_tensor(t, {300, 16});
            std::vector<int64_t> d, i, u;
            const sgk_tensor rd = view(data, t.dtype, d), ri = view(indices, SGK_INT64, i),
                             ru = view(updates, t.dtype, u);
            std::vector<uint8_t> want(data.get_byte_size());
            ref_scatter_elements(&rd, &ri, &ru, 0, SGK_REDUCE_ADD, want.data());
            inputs[w].push_back(data);
            inputs[w].push_back(updates);
            wants[w].push_back(want);
        }
    }
    std::vector<int> wrong(threads, 0);
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) {
        pool.emplace_back([&, w] {
            for (int r = 0; r < rounds; ++r) {
                ov::Tensor out(ov::element::f32, {64, 16});
                ov::TensorVector outputs{out};
                op->evaluate(outputs, {inputs[w][2 * r], indices, inputs[w][2 * r + 1]});
                wrong[w] += memcmp(out.data(), wants[w][r].data(), wants[w][r].size()) != 0;
            }
        });
    }
    for (auto& thread : pool)
        thread.join();
    for (int w = 0; w < threads; ++w)
        assert_int_equal(wrong[w], 0);
    assert_int_equal(counters().plans_built.load() - plans_before, 1);
    assert_int_equal(counters().plan_runs.load() - runs_before, threads * rounds);
}

// An index out of range: an ov::Exception carrying sgk's message, and the
// output not written.
void test_errors(void**) {
    const TypeCase t{ov::element::f32, SGK_FLOAT32};
    for (bool constant : {false, true}) {
        ov::Tensor data = random_tensor(t, {3}), updates = random_tensor(t, {2});
        ov::Tensor indices(ov::element::i64, {2});
        indices.data<int64_t>()[0] = 0;
        indices.data<int64_t>()[1] = -5;
        std::shared_ptr<ov::Node> index_input = parameter(indices);
        if (constant)
            index_input = std::make_shared<ov::op::v0::Constant>(indices);
        auto op = std::make_shared<ScatterElementsOp>(parameter(data), index_input, parameter(updates),
                                                      0, "none", ov::element::f32);
        ov::Tensor out(ov::element::f32, {3});
        std::fill_n(out.data<float>(), 3, 42.0f);
        std::string message;
        try {
            evaluate(op, out, {data, indices, updates});
        } catch (const ov::Exception& e) {
            message = e.what();
        }
        if (message.find("SGK_ERR_INDEX_OUT_OF_RANGE") == std::string::npos ||
            message.find("-5") == std::string::npos)
            fail_msg("no sgk error for index -5 into 3 elements: '%s'", message.c_str());
        for (int i = 0; i < 3; ++i)
            assert_true(out.data<float>()[i] == 42.0f);
    }
}

// Gather and TensorScatter out of range: an ov::Exception carrying sgk's
// message, for constant (planned) and dynamic indices, nothing written.
void test_gather_tensor_scatter_errors(void**) {
    const TypeCase t{ov::element::f32, SGK_FLOAT32};
    for (bool constant : {false, true}) {
        auto index_input = [&](const ov::Tensor& indices) -> ov::Output<ov::Node> {
            if (constant)
                return std::make_shared<ov::op::v0::Constant>(indices);
            return parameter(indices);
        };
        ov::Tensor data = random_tensor(t, {3, 4});
        ov::Tensor ids(ov::element::i32, {2});
        ids.data<int32_t>()[0] = 1;
        ids.data<int32_t>()[1] = 7;
        auto gather = std::make_shared<GatherOp>(parameter(data), index_input(ids), 1, ov::element::f32);
        ov::Tensor out(ov::element::f32, {3, 2});
        std::fill_n(out.data<float>(), 6, 42.0f);
        std::string message;
        try {
            evaluate(gather, out, {data, ids});
        } catch (const ov::Exception& e) {
            message = e.what();
        }
        if (message.find("SGK_ERR_INDEX_OUT_OF_RANGE") == std::string::npos ||
            message.find("7") == std::string::npos)
            fail_msg("no sgk error for gather index 7 into 4: '%s'", message.c_str());
        for (int i = 0; i < 6; ++i)
            assert_true(out.data<float>()[i] == 42.0f);

        ov::Tensor cache = random_tensor(t, {2, 5, 3}), update = random_tensor(t, {2, 2, 3});
        ov::Tensor write(ov::element::i64, {2});
        write.data<int64_t>()[0] = 0;
        write.data<int64_t>()[1] = 4;  // positions [4, 6) leave a sequence of 5
        auto scatter = std::make_shared<TensorScatterOp>(
            ov::OutputVector{parameter(cache), parameter(update), index_input(write)}, 1, "linear",
            ov::element::f32);
        ov::Tensor present(ov::element::f32, {2, 5, 3});
        std::fill_n(present.data<float>(), 30, 42.0f);
        message.clear();
        try {
            evaluate(scatter, present, {cache, update, write});
        } catch (const ov::Exception& e) {
            message = e.what();
        }
        if (message.find("SGK_ERR_INDEX_OUT_OF_RANGE") == std::string::npos ||
            message.find("write_indices[1] = 4") == std::string::npos)
            fail_msg("no sgk error for write index 4: '%s'", message.c_str());
        for (int i = 0; i < 30; ++i)
            assert_true(present.data<float>()[i] == 42.0f);
    }
}

// A TensorScatter without write_indices writes from position 0 and, its
// indices being absent rather than dynamic, keeps one plan.
void test_tensor_scatter_plan_without_indices(void**) {
    const TypeCase t{ov::element::f16, SGK_FLOAT16};
    ov::Tensor cache = random_tensor(t, {2, 8, 4}), update = random_tensor(t, {2, 3, 4});
    auto op = std::make_shared<TensorScatterOp>(ov::OutputVector{parameter(cache), parameter(update)}, 1,
                                                "linear", ov::element::f16);
    const uint64_t plans_before = counters().plans_built.load();
    for (int round = 0; round < 3; ++round) {
        ov::Tensor fresh = random_tensor(t, {2, 8, 4});
        ov::Tensor out(t.ov_type, {2, 8, 4});
        assert_true(evaluate(op, out, {fresh, update}));
        std::vector<int64_t> c, u;
        const sgk_tensor rc = view(fresh, t.dtype, c), ru = view(update, t.dtype, u);
        std::vector<uint8_t> want(fresh.get_byte_size());
        ref_tensor_scatter(&rc, &ru, nullptr, 1, SGK_TENSOR_SCATTER_LINEAR, want.data());
        expect_same(t, SGK_REDUCE_NONE, want, out, "no write_indices");
    }
    assert_int_equal(counters().plans_built.load() - plans_before, 1);
}

void test_shape_inference(void**) {
    using ov::Dimension;
    using ov::PartialShape;
    auto param = [](ov::element::Type type, const PartialShape& shape) {
        return std::make_shared<ov::op::v0::Parameter>(type, shape);
    };
    auto nd = std::make_shared<GatherNDOp>(param(ov::element::f32, {Dimension::dynamic(), 10, 8, 4}),
                                           param(ov::element::i64, {2, Dimension::dynamic(), 1}), 1,
                                           ov::element::f32);
    assert_true(nd->get_output_partial_shape(0).same_scheme(PartialShape{2, Dimension::dynamic(), 8, 4}));
    auto dynamic_k = std::make_shared<GatherNDOp>(param(ov::element::f32, {5, 6}),
                                                  param(ov::element::i32, {3, Dimension::dynamic()}), 0,
                                                  ov::element::f32);
    assert_true(dynamic_k->get_output_partial_shape(0).rank().is_dynamic());
    auto scatter = std::make_shared<ScatterNDOp>(param(ov::element::f16, PartialShape::dynamic()),
                                                 param(ov::element::i64, PartialShape::dynamic()),
                                                 param(ov::element::f16, PartialShape::dynamic()), "max",
                                                 ov::element::f16);
    assert_true(scatter->get_output_partial_shape(0).rank().is_dynamic());
    assert_true(scatter->get_output_element_type(0) == ov::element::f16);
    auto elements = std::make_shared<GatherElementsOp>(param(ov::element::u8, {4, Dimension::dynamic()}),
                                                       param(ov::element::i32, {Dimension::dynamic(), 3}), 1,
                                                       ov::element::u8);
    assert_true(elements->get_output_partial_shape(0).same_scheme(PartialShape{Dimension::dynamic(), 3}));
    auto clone = scatter->clone_with_new_inputs(scatter->input_values());
    assert_true(std::dynamic_pointer_cast<ScatterNDOp>(clone)->declared_type() == ov::element::f16);

    auto gather = std::make_shared<GatherOp>(param(ov::element::bf16, {Dimension::dynamic(), 7, 3}),
                                             param(ov::element::i32, {2, Dimension::dynamic()}), -2,
                                             ov::element::bf16);
    assert_true(gather->get_output_partial_shape(0).same_scheme(
        PartialShape{Dimension::dynamic(), 2, Dimension::dynamic(), 3}));
    auto scalar_index = std::make_shared<GatherOp>(param(ov::element::f32, {5, 6}),
                                                   param(ov::element::i64, PartialShape{}), 0,
                                                   ov::element::f32);
    assert_true(scalar_index->get_output_partial_shape(0).same_scheme(PartialShape{6}));
    auto unknown_indices = std::make_shared<GatherOp>(param(ov::element::f32, {5, 6}),
                                                      param(ov::element::i64, PartialShape::dynamic()), 1,
                                                      ov::element::f32);
    assert_true(unknown_indices->get_output_partial_shape(0).rank().is_dynamic());

    // The cache's shape, refined by the update's batch and head dimensions
    // and by write_indices' length.
    auto ts = std::make_shared<TensorScatterOp>(
        ov::OutputVector{param(ov::element::f16, {Dimension::dynamic(), Dimension::dynamic(), 4096, 128}),
                         param(ov::element::f16, {Dimension::dynamic(), 32, 1, 128}),
                         param(ov::element::i64, {8})},
        -2, "circular", ov::element::f16);
    assert_true(ts->get_output_partial_shape(0).same_scheme(PartialShape{8, 32, 4096, 128}));
    auto ts_dynamic = std::make_shared<TensorScatterOp>(
        ov::OutputVector{param(ov::element::u8, PartialShape::dynamic()),
                         param(ov::element::u8, {2, Dimension::dynamic(), 5})},
        1, "linear", ov::element::u8);
    assert_true(ts_dynamic->get_output_partial_shape(0).same_scheme(PartialShape{2, Dimension::dynamic(), 5}));
    auto ts_clone = std::dynamic_pointer_cast<TensorScatterOp>(ts->clone_with_new_inputs(ts->input_values()));
    assert_true(ts_clone && ts_clone->get_input_size() == 3 && ts_clone->declared_type() == ov::element::f16);

    const std::function<void()> refusals[] = {
        [&] { GatherNDOp(param(ov::element::f32, {5, 6}), param(ov::element::f32, {3, 1}), 0, ov::element::f32); },
        [&] { GatherOp(param(ov::element::f32, {5, 6}), param(ov::element::i64, {3}), 2, ov::element::f32); },
        [&] { GatherOp(param(ov::element::f32, {5, 6}), param(ov::element::f16, {3}), 0, ov::element::f32); },
        [&] {  // axis 0 is the batch
            TensorScatterOp({param(ov::element::f32, {2, 6}), param(ov::element::f32, {2, 1})}, 0, "linear",
                            ov::element::f32);
        },
        [&] {  // the head dimension differs
            TensorScatterOp({param(ov::element::f32, {2, 4, 6, 8}), param(ov::element::f32, {2, 3, 1, 8})}, -2,
                            "linear", ov::element::f32);
        },
        [&] {  // three write indices for a batch of two
            TensorScatterOp({param(ov::element::f32, {2, 6, 8}), param(ov::element::f32, {2, 1, 8}),
                             param(ov::element::i64, {3})},
                            1, "linear", ov::element::f32);
        },
        [&] {
            TensorScatterOp({param(ov::element::f32, {2, 6, 8}), param(ov::element::f32, {2, 1, 8})}, 1, "ring",
                            ov::element::f32);
        },
        [&] {
            TensorScatterOp({param(ov::element::f32, {2, 6, 8}), param(ov::element::f16, {2, 1, 8})}, 1,
                            "linear", ov::element::f32);
        },
    };
    for (const auto& refusal : refusals) {
        bool refused = false;
        try {
            refusal();
        } catch (const ov::Exception&) {
            refused = true;
        }
        assert_true(refused);
    }
}

// sgk's loops on oneTBB: the same bytes as the reference on a problem
// large enough to be split between threads.
void test_tbb_backend(void**) {
    install_threading();
    assert_string_equal(threading_name(), "tbb");
    const TypeCase t{ov::element::i64, SGK_INT64};
    ov::Tensor data = random_tensor(t, {4096, 64}), updates = random_tensor(t, {20000, 64});
    ov::Tensor indices = index_tensor(ov::element::i64, {20000, 1}, -4096, 4096);
    auto op = std::make_shared<ScatterNDOp>(parameter(data), parameter(indices), parameter(updates), "add",
                                            t.ov_type);
    ov::Tensor out(t.ov_type, {4096, 64});
    assert_true(evaluate(op, out, {data, indices, updates}));
    std::vector<int64_t> d, i, u;
    const sgk_tensor rd = view(data, t.dtype, d), ri = view(indices, SGK_INT64, i), ru = view(updates, t.dtype, u);
    std::vector<uint8_t> want(data.get_byte_size());
    ref_scatter_nd(&rd, &ri, &ru, SGK_REDUCE_ADD, want.data());
    expect_same(t, SGK_REDUCE_ADD, want, out, "tbb");
    uninstall_threading();
    assert_string_equal(threading_name(), "openmp");
}

// The element types, as the library answers for them: every type of the
// table above as itself; strings as pointers; the 8-bit float formats as
// bytes (exact copies, no reduction); sub-byte and dynamic types not at all.
void test_element_types_from_the_library(void**) {
    for (const TypeCase& t : type_cases) {
        const SgkType got = sgk_type_of(t.ov_type);
        if (!got.known || got.dtype != t.dtype || !got.exact)
            fail_msg("%s maps to %s", t.ov_type.get_type_name().c_str(), sgk_dtype_name(got.dtype));
        assert_true(sgk_reduces(got, SGK_REDUCE_ADD) && sgk_reduces(got, SGK_REDUCE_MAX));
    }
    const SgkType strings = sgk_type_of(ov::element::string);
    assert_true(strings.known && strings.exact && strings.dtype == SGK_STRING);
    assert_true(sgk_reduces(strings, SGK_REDUCE_NONE) && !sgk_reduces(strings, SGK_REDUCE_ADD));
    for (ov::element::Type bytes : {ov::element::f8e4m3, ov::element::f8e5m2, ov::element::f8e8m0}) {
        const SgkType got = sgk_type_of(bytes);
        assert_true(got.known && !got.exact && got.dtype == SGK_UINT8);
        assert_true(sgk_reduces(got, SGK_REDUCE_NONE) && !sgk_reduces(got, SGK_REDUCE_MUL));
    }
    for (ov::element::Type none : {ov::element::i4, ov::element::u4, ov::element::u1, ov::element::nf4,
                                   ov::element::f4e2m1, ov::element::dynamic})
        assert_false(sgk_type_of(none).known);
    assert_int_equal(sgk_run_type(ov::element::u8, ov::element::boolean), SGK_BOOL);
    assert_int_equal(sgk_run_type(ov::element::u8, ov::element::u8), SGK_UINT8);
}

// The operators' types, as IR files and OpExtension name them.
void test_operator_types(void**) {
    const std::pair<const ov::DiscreteTypeInfo&, const char*> types[] = {
        {ScatterNDOp::get_type_info_static(), "SgkScatterND"},
        {GatherNDOp::get_type_info_static(), "SgkGatherND"},
        {ScatterElementsOp::get_type_info_static(), "SgkScatterElements"},
        {GatherElementsOp::get_type_info_static(), "SgkGatherElements"},
        {GatherOp::get_type_info_static(), "SgkGather"},
        {TensorScatterOp::get_type_info_static(), "SgkTensorScatter"},
    };
    for (const auto& type : types) {
        assert_string_equal(type.first.name, type.second);
        assert_string_equal(type.first.version_id, "sgk_opset1");
        assert_true(type.first.is_castable(SgkOp::get_type_info_static()));
    }
}

// The library this test runs on is the one it was built against; a binding
// built against a newer sgk.h is refused with both versions named.
void test_library_version(void**) {
    require_library_version();
    std::string message;
    try {
        require_library_version(SGK_VERSION_MAJOR + 1, 0);
    } catch (const ov::Exception& e) {
        message = e.what();
    }
    if (message.find("cannot run on the libsgk loaded") == std::string::npos ||
        message.find(sgk_version()) == std::string::npos)
        fail_msg("no clear refusal of a newer major version: '%s'", message.c_str());
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatter_nd_every_type),
        cmocka_unit_test(test_scatter_elements_every_type),
        cmocka_unit_test(test_gathers_every_type),
        cmocka_unit_test(test_gather_every_type),
        cmocka_unit_test(test_tensor_scatter_every_type),
        cmocka_unit_test(test_gather_and_tensor_scatter_strings),
        cmocka_unit_test(test_lowered_16_bit_floats),
        cmocka_unit_test(test_booleans_held_as_u8),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_kept_plan_from_threads),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_gather_tensor_scatter_errors),
        cmocka_unit_test(test_tensor_scatter_plan_without_indices),
        cmocka_unit_test(test_shape_inference),
        cmocka_unit_test(test_tbb_backend),
        cmocka_unit_test(test_element_types_from_the_library),
        cmocka_unit_test(test_operator_types),
        cmocka_unit_test(test_library_version),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
