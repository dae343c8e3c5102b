// GatherND (ONNX 11-13, batch_dims) on sgk_gather_nd.
#pragma once

#include <cstdint>

#include "sgk_op_of.hpp"

namespace sgk_openvino {

struct GatherND : OperatorTraits {
    static constexpr const char* type_name = "SgkGatherND";
    static constexpr bool scatters = false;

    struct Attributes {
        int64_t batch_dims = 0;
    };

    static Construction<Attributes> construct(const ov::Output<ov::Node>& data,
                                              const ov::Output<ov::Node>& indices, int64_t batch_dims,
                                              ov::element::Type declared_type) {
        return {{data, indices}, {batch_dims}, declared_type};
    }

    static void visit(ov::AttributeVisitor& visitor, Attributes& attributes) {
        visitor.on_attribute("batch_dims", attributes.batch_dims);
    }

    static ov::PartialShape infer_shape(const ov::Node* node, const Attributes& attributes);

    static sgk_status result_shape(const Operands& operands, const Attributes& attributes,
                                   Dims* shape) {
        return gather_shape(sgk_gather_nd_shape, operands, attributes.batch_dims, shape);
    }

    static constexpr auto one_shot = sgk_gather_nd;
    static constexpr auto plan = sgk_plan_gather_nd;
    static auto arguments(const Operands& operands, const Attributes& attributes) {
        return std::make_tuple(operands.data.get(), operands.indices.get(), attributes.batch_dims);
    }
};

using GatherNDOp = SgkOpOf<GatherND>;

}  // namespace sgk_openvino
