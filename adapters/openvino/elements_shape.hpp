// Shape inference shared by ScatterElements and GatherElements: the rules
// that can be checked on partial shapes (sgk checks the rest on the
// tensors).
#pragma once

#include <cstdint>

#include <openvino/core/node.hpp>
#include <openvino/core/partial_shape.hpp>

namespace sgk_openvino {

void check_elements_shapes(const ov::Node* node, const ov::PartialShape& data,
                           const ov::PartialShape& indices, int64_t axis);

}  // namespace sgk_openvino
