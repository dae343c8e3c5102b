// TensorScatter (ONNX 24), the KV-cache write, on sgk_tensor_scatter:
// inputs past_cache, update and the optional write_indices (absent: every
// batch item writes from position 0), attributes axis and mode.
#pragma once

#include <cstdint>
#include <string>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct TensorScatter : OperatorTraits {
    static constexpr const char* type_name = "SgkTensorScatter";
    static constexpr bool scatters = true;
    // ONNX puts write_indices, which may be absent, after the update.
    static constexpr size_t indices_input = 2;
    static constexpr size_t updates_input = 1;

    struct Attributes {
        int64_t axis = -2;
        std::string mode = "linear";
        sgk_tensor_scatter_mode mode_code = SGK_TENSOR_SCATTER_LINEAR;
    };

    // args: past_cache, update and, optionally, write_indices.
    static Construction<Attributes> construct(const ov::OutputVector& args, int64_t axis,
                                              const std::string& mode,
                                              ov::element::Type declared_type) {
        return {args, {axis, mode}, declared_type};
    }

    static void visit(ov::AttributeVisitor& visitor, Attributes& attributes) {
        visitor.on_attribute("axis", attributes.axis);
        visitor.on_attribute("mode", attributes.mode);
    }

    static void check_attributes(const ov::Node* node, Attributes& attributes);
    static ov::PartialShape infer_shape(const ov::Node* node, const Attributes& attributes);

    static constexpr auto one_shot = sgk_tensor_scatter;
    static constexpr auto plan = sgk_plan_tensor_scatter;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.updates.get(), operands.indices.get(),
                               attributes.axis, attributes.mode_code);
    }
};

using TensorScatterOp = SgkOpOf<TensorScatter>;

}  // namespace sgk_openvino
