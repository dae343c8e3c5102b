#include "gather_elements_op.hpp"

#include "elements_shape.hpp"

namespace sgk_openvino {

GatherElementsOp::GatherElementsOp(const ov::Output<ov::Node>& data,
                                   const ov::Output<ov::Node>& indices, int64_t axis,
                                   ov::element::Type declared_type)
    : SgkOp({data, indices}, declared_type), m_axis(axis) {
    constructor_validate_and_infer_types();
}

void GatherElementsOp::validate_and_infer_types() {
    const ov::element::Type type = validate_types();
    check_elements_shapes(this, get_input_partial_shape(0), get_input_partial_shape(1), m_axis);
    set_output_type(0, type, get_input_partial_shape(1));
}

bool GatherElementsOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("axis", m_axis);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> GatherElementsOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    check_new_args_count(this, args);
    return std::make_shared<GatherElementsOp>(args.at(0), args.at(1), m_axis, declared_type());
}

sgk_status GatherElementsOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const auto& dims = operands.indices.shape();
    *shape = ov::Shape(dims.begin(), dims.end());
    return SGK_OK;
}

sgk_status GatherElementsOp::run_once(const Operands& operands, void* output) const {
    return sgk_gather_elements(operands.data.get(), operands.indices.get(), m_axis, output);
}

sgk_status GatherElementsOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_gather_elements(plan, operands.data.get(), operands.indices.get(), m_axis, 0);
}

}  // namespace sgk_openvino
