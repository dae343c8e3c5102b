#include "tensor_scatter_op.hpp"

#include <vector>

namespace sgk_openvino {

void TensorScatter::check_attributes(const ov::Node* node, Attributes& attributes) {
    NODE_VALIDATION_CHECK(node, node->get_input_size() == 2 || node->get_input_size() == 3,
                          "takes past_cache, update and optionally write_indices, not ",
                          node->get_input_size(), " inputs");
    NODE_VALIDATION_CHECK(node,
                          sgk_tensor_scatter_mode_from_name(attributes.mode.c_str(), &attributes.mode_code) ==
                              SGK_OK,
                          "unknown mode '", attributes.mode, "' (linear or circular)");
}

// The cache's shape, its dimensions other than the sequence refined by the
// update's (which must match them); the sequence is checked by sgk on the
// tensors (sequence_length <= max_sequence_length).
ov::PartialShape TensorScatter::infer_shape(const ov::Node* node, const Attributes& attributes) {
    const ov::PartialShape& cache = node->get_input_partial_shape(0);
    const ov::PartialShape& update = node->get_input_partial_shape(1);
    NODE_VALIDATION_CHECK(node, cache.rank().compatible(update.rank()), "update rank ",
                          update.rank(), " differs from past_cache rank ", cache.rank());
    const ov::Rank rank = cache.rank().is_static() ? cache.rank() : update.rank();
    if (rank.is_dynamic())
        return cache;
    const int64_t r = rank.get_length();
    NODE_VALIDATION_CHECK(node, r >= 2, "past_cache must have rank 2 or more");
    NODE_VALIDATION_CHECK(node, attributes.axis >= -r && attributes.axis < r, "axis ", attributes.axis,
                          " out of range for rank ", r);
    const int64_t axis = attributes.axis < 0 ? attributes.axis + r : attributes.axis;
    NODE_VALIDATION_CHECK(node, axis != 0, "axis 0 is the batch dimension");
    std::vector<ov::Dimension> dims(static_cast<size_t>(r));
    for (int64_t d = 0; d < r; ++d) {
        const ov::Dimension cache_dim = cache.rank().is_static() ? cache[d] : ov::Dimension::dynamic();
        const ov::Dimension update_dim = update.rank().is_static() ? update[d] : ov::Dimension::dynamic();
        if (d == axis) {
            dims[d] = cache_dim;
            continue;
        }
        NODE_VALIDATION_CHECK(node, ov::Dimension::merge(dims[d], cache_dim, update_dim),
                              "update dimension ", d, " (", update_dim,
                              ") differs from past_cache's (", cache_dim, ")");
    }
    if (node->get_input_size() > 2) {
        const ov::PartialShape& write = node->get_input_partial_shape(2);
        NODE_VALIDATION_CHECK(node, write.rank().compatible(1), "write_indices must have rank 1, not ",
                              write.rank());
        if (write.rank().is_static()) {
            NODE_VALIDATION_CHECK(node, ov::Dimension::merge(dims[0], dims[0], write[0]),
                                  "write_indices has ", write[0], " entries for batch ", dims[0]);
        }
    }
    return ov::PartialShape(dims);
}

}  // namespace sgk_openvino
