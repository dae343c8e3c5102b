// Gather (ONNX 1, 11, 13; NumPy's take along an axis) on sgk_gather.
#pragma once

#include <cstdint>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct Gather : OperatorTraits {
    static constexpr const char* type_name = "SgkGather";
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

    static sgk_status result_shape(const Operands& operands, const Attributes& attributes,
                                   Dims* shape) {
        return gather_shape(sgk_gather_shape, operands, attributes.axis, shape);
    }

    static constexpr auto one_shot = sgk_gather;
    static constexpr auto plan = sgk_plan_gather;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.indices.get(), attributes.axis);
    }
};

using GatherOp = SgkOpOf<Gather>;

}  // namespace sgk_openvino
