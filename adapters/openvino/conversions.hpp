// The ONNX operators the extension takes over, one row each: the ONNX
// op_type and the function that turns such a node into an sgk operator.
// Registering a name replaces OpenVINO's own translation of every opset
// version of it in the default domain, so one row covers all versions.
// Adding an operator is one converter and one row.
#pragma once

#include <vector>

#include <openvino/frontend/node_context.hpp>

namespace sgk_openvino {

struct Conversion {
    const char* onnx_op_type;
    ov::OutputVector (*convert)(const ov::frontend::NodeContext& node);
};

const std::vector<Conversion>& conversions();

}  // namespace sgk_openvino
