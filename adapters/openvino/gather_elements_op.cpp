#include "gather_elements_op.hpp"

#include "elements_shape.hpp"

namespace sgk_openvino {

ov::PartialShape GatherElements::infer_shape(const ov::Node* node, const Attributes& attributes) {
    const ov::PartialShape& indices = node->get_input_partial_shape(1);
    check_elements_shapes(node, node->get_input_partial_shape(0), indices, attributes.axis);
    return indices;
}

}  // namespace sgk_openvino
