#include "sgk_op_of.hpp"

namespace sgk_openvino {

sgk_reduction reduction_named(const ov::Node* node, const std::string& name) {
    sgk_reduction code = SGK_REDUCE_NONE;
    NODE_VALIDATION_CHECK(node, sgk_reduction_from_name(name.c_str(), &code) == SGK_OK,
                          "unknown reduction '", name, "'");
    return code;
}

// Dims holds twice SGK_MAX_RANK dimensions, more than the ranks of both
// inputs together, which bound the output's.
sgk_status gather_shape(GatherShapeFunction sgk_shape, const Operands& operands, int64_t attribute,
                        Dims* shape) {
    return sgk_shape(operands.data.get(), operands.indices.get(), attribute, shape->dim,
                     &shape->rank);
}

}  // namespace sgk_openvino
