// ScatterND (ONNX 11-18, every reduction) on sgk_scatter_nd.
#pragma once

#include <string>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct ScatterND : ReducingScatterTraits {
    static constexpr const char* type_name = "SgkScatterND";

    struct Attributes {
        std::string reduction = "none";
        sgk_reduction reduction_code = SGK_REDUCE_NONE;
    };

    static Construction<Attributes> construct(const ov::Output<ov::Node>& data,
                                              const ov::Output<ov::Node>& indices,
                                              const ov::Output<ov::Node>& updates,
                                              const std::string& reduction,
                                              ov::element::Type declared_type) {
        return {{data, indices, updates}, {reduction}, declared_type};
    }

    static void visit(ov::AttributeVisitor& visitor, Attributes& attributes) {
        visitor.on_attribute("reduction", attributes.reduction);
    }

    static ov::PartialShape infer_shape(const ov::Node* node, const Attributes& attributes);

    static constexpr auto one_shot = sgk_scatter_nd;
    static constexpr auto plan = sgk_plan_scatter_nd;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.indices.get(), operands.updates.get(),
                               attributes.reduction_code);
    }
};

using ScatterNDOp = SgkOpOf<ScatterND>;

}  // namespace sgk_openvino
