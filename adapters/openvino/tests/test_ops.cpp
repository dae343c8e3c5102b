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
// Here shape inference, the TBB backend, the element types, the operators'
// type names and the version; the rest in test_ops_every_type.cpp and
// test_ops_plans_errors.cpp.

#include "test_ops.hpp"

using namespace test_ops;

namespace {

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
        cmocka_unit_test(test_rank_limits),
        cmocka_unit_test(test_shape_inference),
        cmocka_unit_test(test_tbb_backend),
        cmocka_unit_test(test_element_types_from_the_library),
        cmocka_unit_test(test_operator_types),
        cmocka_unit_test(test_library_version),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
