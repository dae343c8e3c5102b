#include "gather_op.hpp"

#include <vector>

namespace sgk_openvino {

// data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]; the rank is
// unknown until both ranks are.
ov::PartialShape Gather::infer_shape(const ov::Node* node, const Attributes& attributes) {
    const ov::PartialShape& data = node->get_input_partial_shape(0);
    const ov::PartialShape& indices = node->get_input_partial_shape(1);
    if (data.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t r = data.rank().get_length();
    NODE_VALIDATION_CHECK(node, r >= 1, "data must have rank 1 or more");
    NODE_VALIDATION_CHECK(node, attributes.axis >= -r && attributes.axis < r, "axis ", attributes.axis,
                          " out of range for rank ", r);
    if (indices.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t axis = attributes.axis < 0 ? attributes.axis + r : attributes.axis;
    std::vector<ov::Dimension> dims;
    for (int64_t d = 0; d < axis; ++d)
        dims.push_back(data[d]);
    for (int64_t d = 0; d < indices.rank().get_length(); ++d)
        dims.push_back(indices[d]);
    for (int64_t d = axis + 1; d < r; ++d)
        dims.push_back(data[d]);
    return ov::PartialShape(dims);
}

}  // namespace sgk_openvino
