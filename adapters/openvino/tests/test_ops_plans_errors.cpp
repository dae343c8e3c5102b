// Kept plans for Constant indices, evaluated from several threads at once
// and without write_indices; errors, which carry sgk's message and leave
// the output unwritten.
#include "test_ops.hpp"

namespace test_ops {

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
        const std::string message = evaluation_error(op, out, {data, indices, updates});
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
        std::string message = evaluation_error(gather, out, {data, ids});
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
        message = evaluation_error(scatter, present, {cache, update, write});
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

// Shapes are held in place (operands.hpp's Dims): a Gather of rank-64 data
// by rank-64 indices has an output of rank 127, which they must hold; an
// input of rank 65 is refused with a message naming the node, the output
// not written.
void test_rank_limits(void**) {
    const TypeCase t{ov::element::f32, SGK_FLOAT32};
    ov::Tensor data = random_tensor(t, ov::Shape(SGK_MAX_RANK, 1));
    ov::Tensor ids(ov::element::i64, ov::Shape(SGK_MAX_RANK, 1));
    ids.data<int64_t>()[0] = -1;
    auto gather = std::make_shared<GatherOp>(parameter(data), parameter(ids), 0, ov::element::f32);
    ov::Tensor out(ov::element::f32, ov::Shape(2 * SGK_MAX_RANK - 1, 1));
    assert_true(evaluate(gather, out, {data, ids}));
    assert_int_equal(out.get_shape().size(), 2 * SGK_MAX_RANK - 1);
    assert_true(out.data<float>()[0] == data.data<float>()[0]);

    ov::Tensor deep = random_tensor(t, ov::Shape(SGK_MAX_RANK + 1, 1));
    ov::Tensor index(ov::element::i64, ov::Shape(SGK_MAX_RANK + 1, 1));
    index.data<int64_t>()[0] = 0;
    auto elements = std::make_shared<GatherElementsOp>(parameter(deep), parameter(index), 0,
                                                       ov::element::f32);
    ov::Tensor kept(ov::element::f32, ov::Shape(SGK_MAX_RANK + 1, 1));
    kept.data<float>()[0] = 42.0f;
    const std::string message = evaluation_error(elements, kept, {deep, index});
    if (message.find("rank up to 64, not 65") == std::string::npos ||
        message.find(elements->get_friendly_name()) == std::string::npos)
        fail_msg("no error for a rank-65 input: '%s'", message.c_str());
    assert_true(kept.data<float>()[0] == 42.0f);
}

}  // namespace test_ops
