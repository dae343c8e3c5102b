#include "gather_nd_op.hpp"

#include <vector>

namespace sgk_openvino {

GatherNDOp::GatherNDOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices,
                       int64_t batch_dims, ov::element::Type declared_type)
    : SgkOp({data, indices}, declared_type), m_batch_dims(batch_dims) {
    constructor_validate_and_infer_types();
}

// indices.shape[:-1] ++ data.shape[b+k:], the first b dimensions shared by
// both; the rank is unknown until the data's rank and k are.
ov::PartialShape GatherNDOp::infer_shape(const ov::PartialShape& data,
                                         const ov::PartialShape& indices) const {
    const int64_t b = m_batch_dims;
    NODE_VALIDATION_CHECK(this, b >= 0, "batch_dims ", b, " is negative");
    if (indices.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t q = indices.rank().get_length();
    NODE_VALIDATION_CHECK(this, q >= 1 && b < q, "indices rank ", q, " must exceed batch_dims ", b);
    if (data.rank().is_static()) {
        const int64_t r = data.rank().get_length();
        NODE_VALIDATION_CHECK(this, b < r, "data rank ", r, " must exceed batch_dims ", b);
        if (indices[q - 1].is_static()) {
            const int64_t k = indices[q - 1].get_length();
            NODE_VALIDATION_CHECK(this, k >= 1 && k <= r - b, "indices' last dimension ", k,
                                  " must be in [1, ", r - b, "]");
        }
    }
    if (data.rank().is_dynamic() || indices[q - 1].is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t k = indices[q - 1].get_length();
    std::vector<ov::Dimension> dims;
    for (int64_t d = 0; d < q - 1; ++d) {
        ov::Dimension dim = indices[d];
        if (d < b) {
            NODE_VALIDATION_CHECK(this, ov::Dimension::merge(dim, indices[d], data[d]),
                                  "batch dimension ", d, " differs between data and indices");
        }
        dims.push_back(dim);
    }
    for (int64_t d = b + k; d < data.rank().get_length(); ++d)
        dims.push_back(data[d]);
    return ov::PartialShape(dims);
}

void GatherNDOp::validate_and_infer_types() {
    const ov::element::Type type = validate_types();
    set_output_type(0, type, infer_shape(get_input_partial_shape(0), get_input_partial_shape(1)));
}

bool GatherNDOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("batch_dims", m_batch_dims);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> GatherNDOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    check_new_args_count(this, args);
    return std::make_shared<GatherNDOp>(args.at(0), args.at(1), m_batch_dims, declared_type());
}

sgk_status GatherNDOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const sgk_tensor* data = operands.data.get();
    const sgk_tensor* indices = operands.indices.get();
    std::vector<int64_t> dims(1 + static_cast<size_t>(data->rank) + static_cast<size_t>(indices->rank));
    int32_t rank = 0;
    const sgk_status status = sgk_gather_nd_shape(data, indices, m_batch_dims, dims.data(), &rank);
    if (status == SGK_OK)
        *shape = ov::Shape(dims.begin(), dims.begin() + rank);
    return status;
}

sgk_status GatherNDOp::run_once(const Operands& operands, void* output) const {
    return sgk_gather_nd(operands.data.get(), operands.indices.get(), m_batch_dims, output);
}

sgk_status GatherNDOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_gather_nd(plan, operands.data.get(), operands.indices.get(), m_batch_dims, 0);
}

}  // namespace sgk_openvino
