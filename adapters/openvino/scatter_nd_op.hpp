// ScatterND (ONNX 11-18, every reduction) on sgk_scatter_nd.
#pragma once

#include "sgk_op.hpp"

namespace sgk_openvino {

class ScatterNDOp : public SgkOp {
public:
    OPENVINO_OP("SgkScatterND", "sgk_opset1", SgkOp);

    ScatterNDOp() = default;
    ScatterNDOp(const ov::Output<ov::Node>& data, const ov::Output<ov::Node>& indices,
                const ov::Output<ov::Node>& updates, const std::string& reduction,
                ov::element::Type declared_type);

    void validate_and_infer_types() override;
    bool visit_attributes(ov::AttributeVisitor& visitor) override;
    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override;

protected:
    bool scatters() const override { return true; }
    sgk_reduction reduction_code() const override { return m_code; }
    sgk_status result_shape(const Operands& operands, ov::Shape* shape) const override;
    sgk_status run_once(const Operands& operands, void* output) const override;
    sgk_status make_plan(sgk_plan** plan, const Operands& operands) const override;

private:
    std::string m_reduction = "none";
    sgk_reduction m_code = SGK_REDUCE_NONE;
};

}  // namespace sgk_openvino
