#include "scatter_elements_op.hpp"

#include "elements_shape.hpp"

namespace sgk_openvino {

ScatterElementsOp::ScatterElementsOp(const ov::Output<ov::Node>& data,
                                     const ov::Output<ov::Node>& indices,
                                     const ov::Output<ov::Node>& updates, int64_t axis,
                                     const std::string& reduction, ov::element::Type declared_type)
    : SgkOp({data, indices, updates}, declared_type), m_axis(axis), m_reduction(reduction) {
    constructor_validate_and_infer_types();
}

void ScatterElementsOp::validate_and_infer_types() {
    m_code = reduction_from_name(m_reduction);
    const ov::element::Type type = validate_types();
    const ov::PartialShape& data = get_input_partial_shape(0);
    check_elements_shapes(this, data, get_input_partial_shape(1), m_axis);
    NODE_VALIDATION_CHECK(this, get_input_partial_shape(2).compatible(get_input_partial_shape(1)),
                          "updates shape ", get_input_partial_shape(2), " differs from indices shape ",
                          get_input_partial_shape(1));
    set_output_type(0, type, data);
}

bool ScatterElementsOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("axis", m_axis);
    visitor.on_attribute("reduction", m_reduction);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> ScatterElementsOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    check_new_args_count(this, args);
    return std::make_shared<ScatterElementsOp>(args.at(0), args.at(1), args.at(2), m_axis,
                                               m_reduction, declared_type());
}

sgk_status ScatterElementsOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const auto& dims = operands.data.shape();
    *shape = ov::Shape(dims.begin(), dims.end());
    return SGK_OK;
}

sgk_status ScatterElementsOp::run_once(const Operands& operands, void* output) const {
    return sgk_scatter_elements(operands.data.get(), operands.indices.get(), operands.updates.get(),
                                m_axis, m_code, output);
}

sgk_status ScatterElementsOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_scatter_elements(plan, operands.data.get(), operands.indices.get(),
                                     operands.updates.get(), m_axis, m_code, 0);
}

}  // namespace sgk_openvino
