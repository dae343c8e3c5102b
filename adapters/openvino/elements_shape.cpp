#include "elements_shape.hpp"

namespace sgk_openvino {

void check_elements_shapes(const ov::Node* node, const ov::PartialShape& data,
                           const ov::PartialShape& indices, int64_t axis) {
    NODE_VALIDATION_CHECK(node, data.rank().compatible(indices.rank()),
                          "indices rank ", indices.rank(), " differs from data rank ", data.rank());
    const ov::Rank rank = data.rank().is_static() ? data.rank() : indices.rank();
    if (rank.is_dynamic())
        return;
    const int64_t r = rank.get_length();
    NODE_VALIDATION_CHECK(node, r >= 1, "data must have rank 1 or more");
    NODE_VALIDATION_CHECK(node, axis >= -r && axis < r, "axis ", axis, " out of range for rank ", r);
}

}  // namespace sgk_openvino
