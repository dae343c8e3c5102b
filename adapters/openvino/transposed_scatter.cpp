#include "transposed_scatter.hpp"

#include <cstdint>
#include <vector>

#include <openvino/op/broadcast.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/shape_of.hpp>
#include <openvino/op/squeeze.hpp>
#include <openvino/op/transpose.hpp>
#include <openvino/op/unsqueeze.hpp>

#include "scatter_elements_op.hpp"

namespace sgk_openvino {

namespace {

// The permutation of a Transpose whose order is a constant, else empty.
std::vector<int64_t> constant_order(const ov::Node* node) {
    if (!ov::is_type<ov::op::v1::Transpose>(node))
        return {};
    const auto* order = ov::as_type<ov::op::v0::Constant>(node->get_input_node_ptr(1));
    return order != nullptr ? order->cast_vector<int64_t>() : std::vector<int64_t>{};
}

// The axis p brings to the front, keeping the others in order, or -1
// (also for 0: those Transposes copy nothing).
int64_t front_axis(const std::vector<int64_t>& p) {
    if (p.empty() || p[0] < 0 || p[0] >= static_cast<int64_t>(p.size()))
        return -1;
    for (size_t i = 1, next = 0; i < p.size(); i++, next++) {
        if (static_cast<int64_t>(next) == p[0])
            next++;
        if (p[i] != static_cast<int64_t>(next))
            return -1;
    }
    return p[0];
}

// The inverse of the permutation p.
std::vector<int64_t> inverse(const std::vector<int64_t>& p) {
    std::vector<int64_t> q(p.size());
    for (size_t i = 0; i < p.size(); i++)
        q[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
    return q;
}

std::shared_ptr<ov::op::v0::Constant> int64s(const std::vector<int64_t>& values) {
    return ov::op::v0::Constant::create(ov::element::i64, ov::Shape{values.size()}, values);
}

// Where the shapes are known, the element scatter of the updates must cost
// less than the two copies of the data it saves.  An element update (read
// its index, check it, write at random) costs several element copies, so
// at most data / 8 updates: a KV cache's one token of its positions is far
// below that.
bool worth_it(const ov::PartialShape& data, const ov::PartialShape& updates) {
    if (!data.is_static() || !updates.is_static())
        return true;
    return ov::shape_size(updates.to_shape()) * 8 <= ov::shape_size(data.to_shape());
}

}  // namespace

ov::Output<ov::Node> untransposed_scatter(const ov::Output<ov::Node>& data,
                                          const ov::Output<ov::Node>& indices,
                                          const ov::Output<ov::Node>& updates,
                                          const std::string& reduction, const std::string& name) {
    const ov::Node* forward = data.get_node();
    const std::vector<int64_t> p = constant_order(forward);
    const int64_t axis = front_axis(p);
    const ov::PartialShape& index_shape = indices.get_partial_shape();
    if (axis <= 0 || index_shape.rank().is_dynamic() || index_shape.rank().get_length() != 2
        || index_shape[1].is_dynamic() || index_shape[1].get_length() != 1)
        return {};
    // No writes known at compile time: nothing to gain, and the CPU plugin
    // (2026.4) dies of SIGFPE compiling a Broadcast of a static empty
    // tensor (it runs one whose emptiness shows only at run time).
    if (index_shape[0].is_static() && index_shape[0].get_length() == 0)
        return {};
    // Updates of another rank are the ScatterND's error to report (sgk's
    // message), not a Transpose's at conversion.
    const ov::Dimension rank = updates.get_partial_shape().rank();
    const ov::Output<ov::Node> x = forward->input_value(0);
    if (rank.is_dynamic() || rank.get_length() != static_cast<int64_t>(p.size())
        || !worth_it(x.get_partial_shape(), updates.get_partial_shape()))
        return {};

    // The updates in x's layout, and each one's index beside it: indices
    // [n, 1] as n on the axis and 1 on every other, then broadcast.
    const auto x_updates = std::make_shared<ov::op::v1::Transpose>(updates, int64s(inverse(p)));
    std::vector<int64_t> others;
    for (int64_t i = 0; i < static_cast<int64_t>(p.size()); i++) {
        if (i != axis)
            others.push_back(i);
    }
    const auto index_column = std::make_shared<ov::op::v0::Unsqueeze>(
        std::make_shared<ov::op::v0::Squeeze>(indices, int64s({1})), int64s(others));
    const auto x_indices = std::make_shared<ov::op::v3::Broadcast>(
        index_column, std::make_shared<ov::op::v3::ShapeOf>(x_updates));
    const auto scatter = std::make_shared<ScatterElementsOp>(x, x_indices, x_updates, axis,
                                                             reduction, x.get_element_type());
    scatter->set_friendly_name(name);
    return std::make_shared<ov::op::v1::Transpose>(scatter, int64s(p))->output(0);
}

}  // namespace sgk_openvino
