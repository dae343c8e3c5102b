// Gather (ONNX 1, 11, 13; NumPy's take along an axis) on sgk_gather.
#pragma once

#include "sgk_op.hpp"

namespace sgk_openvino {

class GatherOp : public SgkOp {
public:
    OPENVINO_OP("SgkGather", "sgk_opset1", SgkOp);

    GatherOp() = default;
    GatherOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices, int64_t axis,
             ov::element::Type declared_type);

    void validate_and_infer_types() override;
    bool visit_attributes(ov::AttributeVisitor& visitor) override;
    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override;

protected:
    bool scatters() const override { return false; }
    sgk_status result_shape(const Operands& operands, ov::Shape* shape) const override;
    sgk_status run_once(const Operands& operands, void* output) const override;
    sgk_status make_plan(sgk_plan** plan, const Operands& operands) const override;

private:
    ov::PartialShape infer_shape(const ov::PartialShape& data, const ov::PartialShape& indices) const;

    int64_t m_axis = 0;
};

}  // namespace sgk_openvino
