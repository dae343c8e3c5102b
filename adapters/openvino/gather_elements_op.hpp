// GatherElements (ONNX 11, 13) on sgk_gather_elements.
#pragma once

#include <cstdint>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct GatherElements : OperatorTraits {
    static constexpr const char* type_name = "SgkGatherElements";
    static constexpr bool scatters = false;

    struct Attributes {
        int64_t axis = 0;
    };

    static Construction<Attributes> construct(const ov::Output<ov::Node>& data,
                                              const ov::Output<ov::Node>& indices, int64_t axis,
                                              ov::element::Type declared_type) {
        return {{data, indices}, {axis}, declared_type};
    }

    static void visit(ov::AttributeVisitor& visitor, Attributes& attributes) {
        visitor.on_attribute("axis", attributes.axis);
    }

    static ov::PartialShape infer_shape(const ov::Node* node, const Attributes& attributes);

    // The indices' shape.
    static sgk_status result_shape(const Operands& operands, const Attributes&, Dims* shape) {
        shape->assign(operands.indices.shape());
        return SGK_OK;
    }

    static constexpr auto one_shot = sgk_gather_elements;
    static constexpr auto plan = sgk_plan_gather_elements;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.indices.get(), attributes.axis);
    }
};

using GatherElementsOp = SgkOpOf<GatherElements>;

}  // namespace sgk_openvino
