#include "gather_nd_op.hpp"

#include <vector>

namespace sgk_openvino {

// indices.shape[:-1] ++ data.shape[b+k:], the first b dimensions shared by
// both; the rank is unknown until the data's rank and k are.
ov::PartialShape GatherND::infer_shape(const ov::Node* node, const Attributes& attributes) {
    const ov::PartialShape& data = node->get_input_partial_shape(0);
    const ov::PartialShape& indices = node->get_input_partial_shape(1);
    const int64_t b = attributes.batch_dims;
    NODE_VALIDATION_CHECK(node, b >= 0, "batch_dims ", b, " is negative");
    if (indices.rank().is_dynamic())
        return ov::PartialShape::dynamic();
    const int64_t q = indices.rank().get_length();
    NODE_VALIDATION_CHECK(node, q >= 1 && b < q, "indices rank ", q, " must exceed batch_dims ", b);
    if (data.rank().is_static()) {
        const int64_t r = data.rank().get_length();
        NODE_VALIDATION_CHECK(node, b < r, "data rank ", r, " must exceed batch_dims ", b);
        if (indices[q - 1].is_static()) {
            const int64_t k = indices[q - 1].get_length();
            NODE_VALIDATION_CHECK(node, k >= 1 && k <= r - b, "indices' last dimension ", k,
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
            NODE_VALIDATION_CHECK(node, ov::Dimension::merge(dim, indices[d], data[d]),
                                  "batch dimension ", d, " differs between data and indices");
        }
        dims.push_back(dim);
    }
    for (int64_t d = b + k; d < data.rank().get_length(); ++d)
        dims.push_back(data[d]);
    return ov::PartialShape(dims);
}

}  // namespace sgk_openvino
