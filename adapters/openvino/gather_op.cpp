#include "gather_op.hpp"

#include <vector>

namespace sgk_openvino {

GatherOp::GatherOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices,
                   int64_t axis, ov::element::Type declared_type)
    : SgkOp({data, indices}, declared_type), m_axis(axis) {
    constructor_validate_and_infer_types();
}

// data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]; the rank is
// unknown until both ranks are.
ov::PartialShape GatherOp::infer_shape(const ov::PartialShape& data,
                                       const ov::PartialShape& indices) const {
    if (data.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t r = data.rank().get_length();
    NODE_VALIDATION_CHECK(this, r >= 1, "data must have rank 1 or more");
    NODE_VALIDATION_CHECK(this, m_axis >= -r && m_axis < r, "axis ", m_axis,
                          " out of range for rank ", r);
    if (indices.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t axis = m_axis < 0 ? m_axis + r : m_axis;
    std::vector<ov::Dimension> dims;
    for (int64_t d = 0; d < axis; ++d)
        dims.push_back(data[d]);
    for (int64_t d = 0; d < indices.rank().get_length(); ++d)
        dims.push_back(indices[d]);
    for (int64_t d = axis + 1; d < r; ++d)
        dims.push_back(data[d]);
    return ov::PartialShape(dims);
}

void GatherOp::validate_and_infer_types() {
    const ov::element::Type type = validate_types();
    set_output_type(0, type, infer_shape(get_input_partial_shape(0), get_input_partial_shape(1)));
}

bool GatherOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("axis", m_axis);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> GatherOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    check_new_args_count(this, args);
    return std::make_shared<GatherOp>(args.at(0), args.at(1), m_axis, declared_type());
}

sgk_status GatherOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const sgk_tensor* data = operands.data.get();
    const sgk_tensor* indices = operands.indices.get();
    std::vector<int64_t> dims(1 + static_cast<size_t>(data->rank) + static_cast<size_t>(indices->rank));
    int32_t rank = 0;
    const sgk_status status = sgk_gather_shape(data, indices, m_axis, dims.data(), &rank);
    if (status == SGK_OK)
        *shape = ov::Shape(dims.begin(), dims.begin() + rank);
    return status;
}

sgk_status GatherOp::run_once(const Operands& operands, void* output) const {
    return sgk_gather(operands.data.get(), operands.indices.get(), m_axis, output);
}

sgk_status GatherOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_gather(plan, operands.data.get(), operands.indices.get(), m_axis, 0);
}

}  // namespace sgk_openvino
