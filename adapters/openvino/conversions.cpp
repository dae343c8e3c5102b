#include "conversions.hpp"

#include <cstring>
#include <string>

#include <openvino/op/concat.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/convert.hpp>
#include <openvino/op/gather.hpp>
#include <openvino/op/shape_of.hpp>
#include <openvino/op/slice.hpp>
#include <openvino/op/squeeze.hpp>
#include <openvino/op/strided_slice.hpp>
#include <openvino/op/unsqueeze.hpp>

#include "gather_elements_op.hpp"
#include "gather_nd_op.hpp"
#include "gather_op.hpp"
#include "scatter_elements_op.hpp"
#include "scatter_nd_op.hpp"
#include "tensor_scatter_op.hpp"
#include "transposed_scatter.hpp"

namespace sgk_openvino {

namespace {

// Attributes missing from older opsets (or left out) take the ONNX
// defaults: no reduction before ScatterND-16 and ScatterElements-16,
// batch_dims 0 before GatherND-12, axis 0.
std::string reduction_of(const ov::frontend::NodeContext& node) {
    return node.get_attribute<std::string>("reduction", "none");
}

int64_t int_attribute(const ov::frontend::NodeContext& node, const char* name) {
    return node.get_attribute<int64_t>(name, 0);
}

ov::OutputVector convert_scatter_nd(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    const ov::Output<ov::Node> along_axis = untransposed_scatter(
        data, node.get_input(1), node.get_input(2), reduction_of(node), node.get_name());
    if (along_axis.get_node() != nullptr)
        return {along_axis};
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

// A value computed from tensor shapes (Shape, then slices, squeezes,
// concatenations, gathers of it): OpenVINO's own Gather keeps what the
// graph knows of such values (bounds, symbols) for the shape inference of
// the Reshapes and Expands they feed, which an opaque operator would hide.
// These are a few int64 elements; sgk has nothing to gain there.
bool is_shape_value(const ov::Output<ov::Node>& value, int depth = 0) {
    const ov::Node* node = value.get_node();
    if (ov::is_type<ov::op::v0::ShapeOf>(node) || ov::is_type<ov::op::v3::ShapeOf>(node))
        return true;
    if (depth >= 8)
        return false;
    if (ov::is_type<ov::op::v0::Concat>(node)) {
        bool any_shape = false;
        for (const auto& input : node->input_values()) {
            if (is_shape_value(input, depth + 1))
                any_shape = true;
            else if (!ov::is_type<ov::op::v0::Constant>(input.get_node()))
                return false;
        }
        return any_shape;
    }
    if (ov::is_type<ov::op::v8::Slice>(node) || ov::is_type<ov::op::v1::StridedSlice>(node) ||
        ov::is_type<ov::op::v0::Convert>(node) || ov::is_type<ov::op::v0::Squeeze>(node) ||
        ov::is_type<ov::op::v0::Unsqueeze>(node) || ov::is_type<ov::op::util::GatherBase>(node))
        return is_shape_value(node->input_value(0), depth + 1);
    return false;
}

ov::OutputVector convert_gather(const ov::frontend::NodeContext& node) {
    const auto data = node.get_input(0);
    const auto indices = node.get_input(1);
    const int64_t axis = int_attribute(node, "axis");
    if (is_shape_value(data)) {
        auto axis_constant = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{}, {axis});
        return {std::make_shared<ov::op::v8::Gather>(data, indices, axis_constant)->output(0)};
    }
    auto op = std::make_shared<GatherOp>(data, indices, axis, data.get_element_type());
    return {op->output(0)};
}

// An optional input left out: ONNX names it "", which the frontend turns
// into its placeholder node (no public type to test for).
bool is_absent(const ov::frontend::NodeContext& node, size_t index) {
    if (index >= node.get_input_size())
        return true;
    const char* type = node.get_input(static_cast<int>(index)).get_node()->get_type_name();
    return std::strcmp(type, "NullNode") == 0 || std::strcmp(type, "Null") == 0;
}

ov::OutputVector convert_tensor_scatter(const ov::frontend::NodeContext& node) {
    const auto cache = node.get_input(0);
    ov::OutputVector args = {cache, node.get_input(1)};
    if (!is_absent(node, 2))
        args.push_back(node.get_input(2));
    auto op = std::make_shared<TensorScatterOp>(args, node.get_attribute<int64_t>("axis", -2),
                                                node.get_attribute<std::string>("mode", "linear"),
                                                cache.get_element_type());
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
        {"Gather", convert_gather},
        {"TensorScatter", convert_tensor_scatter},
    };
    return table;
}

}  // namespace sgk_openvino
