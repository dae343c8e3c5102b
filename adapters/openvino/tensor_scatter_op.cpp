#include "tensor_scatter_op.hpp"

#include <vector>

namespace sgk_openvino {

TensorScatterOp::TensorScatterOp(const ov::OutputVector& args, int64_t axis,
                                 const std::string& mode, ov::element::Type declared_type)
    : SgkOp(args, declared_type), m_axis(axis), m_mode(mode) {
    constructor_validate_and_infer_types();
}

// The cache's shape, its dimensions other than the sequence refined by the
// update's (which must match them); the sequence is checked by sgk on the
// tensors (sequence_length <= max_sequence_length).
ov::PartialShape TensorScatterOp::infer_shape(const ov::PartialShape& cache,
                                              const ov::PartialShape& update) const {
    NODE_VALIDATION_CHECK(this, cache.rank().compatible(update.rank()), "update rank ",
                          update.rank(), " differs from past_cache rank ", cache.rank());
    const ov::Rank rank = cache.rank().is_static() ? cache.rank() : update.rank();
    if (rank.is_dynamic())
        return cache;
    const int64_t r = rank.get_length();
    NODE_VALIDATION_CHECK(this, r >= 2, "past_cache must have rank 2 or more");
    NODE_VALIDATION_CHECK(this, m_axis >= -r && m_axis < r, "axis ", m_axis,
                          " out of range for rank ", r);
    const int64_t axis = m_axis < 0 ? m_axis + r : m_axis;
    NODE_VALIDATION_CHECK(this, axis != 0, "axis 0 is the batch dimension");
    std::vector<ov::Dimension> dims(static_cast<size_t>(r));
    for (int64_t d = 0; d < r; ++d) {
        const ov::Dimension cache_dim = cache.rank().is_static() ? cache[d] : ov::Dimension::dynamic();
        const ov::Dimension update_dim = update.rank().is_static() ? update[d] : ov::Dimension::dynamic();
        if (d == axis) {
            dims[d] = cache_dim;
            continue;
        }
        NODE_VALIDATION_CHECK(this, ov::Dimension::merge(dims[d], cache_dim, update_dim),
                              "update dimension ", d, " (", update_dim,
                              ") differs from past_cache's (", cache_dim, ")");
    }
    if (get_input_size() > 2) {
        const ov::PartialShape& write = get_input_partial_shape(2);
        NODE_VALIDATION_CHECK(this, write.rank().compatible(1), "write_indices must have rank 1, not ",
                              write.rank());
        if (write.rank().is_static()) {
            NODE_VALIDATION_CHECK(this, ov::Dimension::merge(dims[0], dims[0], write[0]),
                                  "write_indices has ", write[0], " entries for batch ", dims[0]);
        }
    }
    return ov::PartialShape(dims);
}

void TensorScatterOp::validate_and_infer_types() {
    NODE_VALIDATION_CHECK(this, get_input_size() == 2 || get_input_size() == 3,
                          "takes past_cache, update and optionally write_indices, not ",
                          get_input_size(), " inputs");
    NODE_VALIDATION_CHECK(this, sgk_tensor_scatter_mode_from_name(m_mode.c_str(), &m_code) == SGK_OK,
                          "unknown mode '", m_mode, "' (linear or circular)");
    const ov::element::Type type = validate_types();
    set_output_type(0, type, infer_shape(get_input_partial_shape(0), get_input_partial_shape(1)));
}

bool TensorScatterOp::visit_attributes(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("axis", m_axis);
    visitor.on_attribute("mode", m_mode);
    return visit_declared_type(visitor);
}

std::shared_ptr<ov::Node> TensorScatterOp::clone_with_new_inputs(const ov::OutputVector& args) const {
    NODE_VALIDATION_CHECK(this, args.size() == get_input_size(), "expected ", get_input_size(),
                          " inputs, got ", args.size());
    return std::make_shared<TensorScatterOp>(args, m_axis, m_mode, declared_type());
}

sgk_status TensorScatterOp::result_shape(const Operands& operands, ov::Shape* shape) const {
    const auto& dims = operands.data.shape();
    *shape = ov::Shape(dims.begin(), dims.end());
    return SGK_OK;
}

sgk_status TensorScatterOp::run_once(const Operands& operands, void* output) const {
    return sgk_tensor_scatter(operands.data.get(), operands.updates.get(), operands.indices.get(),
                              m_axis, m_code, output);
}

sgk_status TensorScatterOp::make_plan(sgk_plan** plan, const Operands& operands) const {
    return sgk_plan_tensor_scatter(plan, operands.data.get(), operands.updates.get(),
                                   operands.indices.get(), m_axis, m_code, 0);
}

}  // namespace sgk_openvino
