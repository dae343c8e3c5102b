// GatherElements (ONNX 11, 13) on sgk_gather_elements.
#pragma once

#include "sgk_op.hpp"

namespace sgk_openvino {

class GatherElementsOp : public SgkOp {
public:
    OPENVINO_OP("SgkGatherElements", "sgk_opset1", SgkOp);

    GatherElementsOp() = default;
    GatherElementsOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices,
                     int64_t axis, ov::element::Type declared_type);

    void validate_and_infer_types() override;
    bool visit_attributes(ov::AttributeVisitor& visitor) override;
    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override;

protected:
    bool scatters() const override { return false; }
    sgk_status result_shape(const Operands& operands, ov::Shape* shape) const override;
    sgk_status run_once(const Operands& operands, void* output) const override;
    sgk_status make_plan(sgk_plan** plan, const Operands& operands) const override;

private:
    int64_t m_axis = 0;
};

}  // namespace sgk_openvino
