#include "sgk_op_of.hpp"

#include <vector>

namespace sgk_openvino {

sgk_reduction reduction_named(const ov::Node* node, const std::string& name) {
    sgk_reduction code = SGK_REDUCE_NONE;
    NODE_VALIDATION_CHECK(node, sgk_reduction_from_name(name.c_str(), &code) == SGK_OK,
                          "unknown reduction '", name, "'");
    return code;
}

sgk_status gather_shape(GatherShapeFunction sgk_shape, const Operands& operands, int64_t attribute,
                        ov::Shape* shape) {
    const sgk_tensor* data = operands.data.get();
    const sgk_tensor* indices = operands.indices.get();
    std::vector<int64_t> dims(1 + static_cast<size_t>(data->rank) + static_cast<size_t>(indices->rank));
    int32_t rank = 0;
    const sgk_status status = sgk_shape(data, indices, attribute, dims.data(), &rank);
    if (status == SGK_OK)
        *shape = ov::Shape(dims.begin(), dims.begin() + rank);
    return status;
}

}  // namespace sgk_openvino
