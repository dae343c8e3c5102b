#include "scatter_nd_op.hpp"

namespace sgk_openvino {

// The data's shape; indices.shape[-1] (k) at most the data's rank (sgk
// checks the updates' shape on the tensors).
ov::PartialShape ScatterND::infer_shape(const ov::Node* node, const Attributes&) {
    const ov::PartialShape& data = node->get_input_partial_shape(0);
    const ov::PartialShape& indices = node->get_input_partial_shape(1);
    NODE_VALIDATION_CHECK(node, data.rank().is_dynamic() || data.rank().get_length() >= 1,
                          "data must have rank 1 or more");
    NODE_VALIDATION_CHECK(node, indices.rank().is_dynamic() || indices.rank().get_length() >= 1,
                          "indices must have rank 1 or more");
    if (data.rank().is_static() && indices.rank().is_static() &&
        indices[indices.size() - 1].is_static()) {
        NODE_VALIDATION_CHECK(node, indices[indices.size() - 1].get_length() <= data.rank().get_length(),
                              "indices' last dimension exceeds the data's rank");
    }
    return data;
}

}  // namespace sgk_openvino
