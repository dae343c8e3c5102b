// Every operator on every type class against the independent reference
// (tests/support/reference.c), Gather and TensorScatter (with and without
// write_indices) included, with the 64-bit types the CPU plugin would
// lower; strings; the f16/bf16 reductions of tensors a plugin lowered to
// f32; booleans held as u8.
#include "test_ops.hpp"

namespace test_ops {

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

static sgk_dtype index_dtype(ov::element::Type type) {
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

}  // namespace test_ops
