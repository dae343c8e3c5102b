// ScatterElements (ONNX 11-18, every reduction) and the deprecated Scatter
// (9, 11) on sgk_scatter_elements.
#pragma once

#include <cstdint>
#include <string>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct ScatterElements : ReducingScatterTraits {
    static constexpr const char* type_name = "SgkScatterElements";

    struct Attributes {
        int64_t axis = 0;
        std::string reduction = "none";
        sgk_reduction reduction_code = SGK_REDUCE_NONE;
    };

    static Construction<Attributes> construct(const ov::Output<ov::Node>& data,
                                              const ov::Output<ov::Node>& indices,
                                              const ov::Output<ov::Node>& updates, int64_t axis,
                                              const std::string& reduction,
                                              ov::element::Type declared_type) {
        return {{data, indices, updates}, {axis, reduction}, declared_type};
    }

    static void visit(ov::AttributeVisitor& visitor, Attributes& attributes) {
        visitor.on_attribute("axis", attributes.axis);
        visitor.on_attribute("reduction", attributes.reduction);
    }

    static ov::PartialShape infer_shape(const ov::Node* node, const Attributes& attributes);

    static constexpr auto one_shot = sgk_scatter_elements;
    static constexpr auto plan = sgk_plan_scatter_elements;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.indices.get(), operands.updates.get(),
                               attributes.axis, attributes.reduction_code);
    }
};

using ScatterElementsOp = SgkOpOf<ScatterElements>;

}  // namespace sgk_openvino
