// TensorScatter (ONNX 24), the KV-cache write, on sgk_tensor_scatter:
// inputs past_cache, update and the optional write_indices (absent: every
// batch item writes from position 0), attributes axis and mode.
#pragma once

#include "sgk_op.hpp"

namespace sgk_openvino {

class TensorScatterOp : public SgkOp {
public:
    OPENVINO_OP("SgkTensorScatter", "sgk_opset1", SgkOp);

    TensorScatterOp() = default;
    // args: past_cache, update and, optionally, write_indices.
    TensorScatterOp(const ov::OutputVector& args, int64_t axis, const std::string& mode,
                    ov::element::Type declared_type);

    void validate_and_infer_types() override;
    bool visit_attributes(ov::AttributeVisitor& visitor) override;
    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override;

protected:
    bool scatters() const override { return true; }
    size_t indices_input() const override { return 2; }
    size_t updates_input() const override { return 1; }
    sgk_status result_shape(const Operands& operands, ov::Shape* shape) const override;
    sgk_status run_once(const Operands& operands, void* output) const override;
    sgk_status make_plan(sgk_plan** plan, const Operands& operands) const override;

private:
    ov::PartialShape infer_shape(const ov::PartialShape& cache, const ov::PartialShape& update) const;

    int64_t m_axis = -2;
    std::string m_mode = "linear";
    sgk_tensor_scatter_mode m_code = SGK_TENSOR_SCATTER_LINEAR;
};

}  // namespace sgk_openvino
