#include "conversions.hpp"

#include <string>

#include "gather_elements_op.hpp"
#include "gather_nd_op.hpp"
#include "scatter_elements_op.hpp"
#include "scatter_nd_op.hpp"

namespace sgk_openvino {

namespace {

// Attributes missing from older opsets take the ONNX defaults: no
// reduction before ScatterND-16 and ScatterElements-16, batch_dims 0
// before GatherND-12, axis 0.
std::string reduction_of(const ov::frontend::NodeContext& node) {
    return node.get_attribute<std::string>("reduction", "none");
}

int64_t int_attribute(const ov::frontend::NodeContext& node, const char* name) {
    return node.get_attribute<int64_t>(name, 0);
}

ov::OutputVector convert_scatter_nd(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    auto op = std::make_shared<ScatterNDOp>(data, node.get_input(1), node.get_input(2),
                                            reduction_of(node), data.get_element_type());
    return {op->output(0)};
}

ov::OutputVector convert_gather_nd(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    auto op = std::make_shared<GatherNDOp>(data, node.get_input(1), int_attribute(node, "batch_dims"),
                                           data.get_element_type());
    return {op->output(0)};
}

// ScatterElements, and Scatter (9, 11), which is ScatterElements without
// a reduction attribute.
ov::OutputVector convert_scatter_elements(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    auto op = std::make_shared<ScatterElementsOp>(data, node.get_input(1), node.get_input(2),
                                                  int_attribute(node, "axis"), reduction_of(node),
                                                  data.get_element_type());
    return {op->output(0)};
}

ov::OutputVector convert_gather_elements(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    auto op = std::make_shared<GatherElementsOp>(data, node.get_input(1), int_attribute(node, "axis"),
                                                 data.get_element_type());
    return {op->output(0)};
}

}  // namespace

const std::vector<Conversion>& conversions() {
    static const std::vector<Conversion> table = {
        {"ScatterND", convert_scatter_nd},
        {"GatherND", convert_gather_nd},
        {"ScatterElements", convert_scatter_elements},
        {"Scatter", convert_scatter_elements},
        {"GatherElements", convert_gather_elements},
    };
    return table;
}

}  // namespace sgk_openvino
