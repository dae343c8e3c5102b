#include "scatter_elements_op.hpp"

#include "elements_shape.hpp"

namespace sgk_openvino {

// The data's shape; updates shaped as the indices.
ov::PartialShape ScatterElements::infer_shape(const ov::Node* node, const Attributes& attributes) {
    const ov::PartialShape& data = node->get_input_partial_shape(0);
    const ov::PartialShape& indices = node->get_input_partial_shape(1);
    const ov::PartialShape& updates = node->get_input_partial_shape(2);
    check_elements_shapes(node, data, indices, attributes.axis);
    NODE_VALIDATION_CHECK(node, updates.compatible(indices), "updates shape ", updates,
                          " differs from indices shape ", indices);
    return data;
}

}  // namespace sgk_openvino
