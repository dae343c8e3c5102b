#include "scatter_nd_op.hpp"

namespace sgk_openvino {

ScatterNDOp::ScatterNDOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices,
                         const ov::Output<ov::Node>& updates, const std::string& reduction,
                         ov::element::Type declared_type)
    : SgkOp({data, indices, updates}, declared_type), m_reduction(reduction) {
    constructor_validate_and_infer_types();
}

void ScatterNDOp::validate_and_infer_types() {
    m_code = reduction_from_name(m_reduction);
    const ov::element::Type type = validate_types();
    const ov::PartialShape& data = get_input_partial_shape(0);
    const ov::PartialShape& indices = get_input_partial_shape(1);
    NODE_VALIDATION_CHECK(this, data.rank().is_dynamic() || data.rank().get_length() >= 1,
                          "data must have rank 1 or more");
    NODE_VALIDATION_CHECK(this, indices.rank().is_dynamic() || indices.rank().get_length() >= 1,
                          "indices must have rank 1 or more");
    if (data.rank().is_static() && indices.rank().is_static() &&
        indices[indices.size() - 1].is_static()) {
        NODE_VALIDATION_CHECK(this, indices[indices.size() - 1].get_length() <= data.rank().get_length(),
                              "indices' last dimension exceeds the data's rank");
    }
    set_output_type(0, type, data);
}

bool ScatterNDOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("reduction", m_reduction);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> ScatterNDOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    check_new_args_count(this, args);
    return std::make_shared<ScatterNDOp>(args.at(0), args.at(1), args.at(2), m_reduction,
                                         declared_type());
}

sgk_status ScatterNDOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const auto& dims = operands.data.shape();
    *shape = ov::Shape(dims.begin(), dims.end());
    return SGK_OK;
}

sgk_status ScatterNDOp::run_once(const Operands& operands, void* output) const {
    return sgk_scatter_nd(operands.data.get(), operands.indices.get(), operands.updates.get(),
                          m_code, output);
}

sgk_status ScatterNDOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_scatter_nd(plan, operands.data.get(), operands.indices.get(),
                               operands.updates.get(), m_code, 0);
}

}  // namespace sgk_openvino
