// The base of the extension's operators: one evaluate() for all six, whose
// per-operator parts the template of sgk_op_of.hpp supplies.
//
// evaluate() maps the tensors onto sgk (operands.hpp), sizes the output,
// and runs either a kept plan, when the indices input is a Constant of the
// model (an initializer or a folded subgraph: the plan is made by the first
// evaluation and reused by every later one, plan_cache.hpp) or absent (a
// TensorScatter without write_indices), or a one-shot call.  It is reentrant: the CPU plugin evaluates one operator object from
// all its streams at once.  sgk's errors (an index out of range) are thrown
// as ov::Exception carrying sgk_last_error(); nothing is written then.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <openvino/op/op.hpp>

#include "counters.hpp"
#include "operands.hpp"
#include "plan_cache.hpp"
#include "sgk.h"

namespace sgk_openvino {

// The operands of one evaluation, as sgk sees them.  indices is unbound
// (get() null) when the node has no index input.
struct Operands {
    Operand data, indices, updates;
};

class SgkOp : public ov::op::Op {
public:
    OPENVINO_OP("SgkOp", "sgk_opset1");

    bool has_evaluate() const override { return true; }
    bool evaluate(ov::TensorVector& outputs, const ov::TensorVector& inputs) const override;

    // The data's element type in the source model, before a plugin lowered
    // it (element_types.hpp).
    ov::element::Type declared_type() const { return m_declared_type; }
    void set_declared_type(ov::element::Type type) { m_declared_type = type; }

protected:
    SgkOp() = default;
    SgkOp(const ov::OutputVector& args, ov::element::Type declared_type);

    // What each operator says about itself.
    virtual bool scatters() const = 0;
    virtual sgk_reduction reduction_code() const { return SGK_REDUCE_NONE; }
    // Where the indices and the updates are among the node's inputs (data
    // is input 0): ONNX puts TensorScatter's write_indices, which may be
    // absent, after its update.  A position past the last input: none.
    virtual size_t indices_input() const { return 1; }
    virtual size_t updates_input() const { return 2; }
    // The output's shape for these operands (sgk checks them); SGK_OK or an
    // sgk status.
    virtual sgk_status result_shape(const Operands& operands, Dims* shape) const = 0;
    virtual sgk_status run_once(const Operands& operands, void* output) const = 0;
    virtual sgk_status make_plan(sgk_plan** plan, const Operands& operands) const = 0;

    // Checks shared by every validate_and_infer_types: index and data types,
    // and the reduction the data's type allows.  Returns the data's type.
    ov::element::Type validate_types();
    bool visit_declared_type(ov::AttributeVisitor& visitor);

private:
    bool has_indices() const { return indices_input() < get_input_size(); }
    bool indices_are_constant() const;
    [[noreturn]] void throw_sgk_error(const char* step, sgk_status status) const;
    // This node's counters, found by name at the first evaluation (the
    // name is final by then) and kept.
    NodeCounters& node_counters() const;

    ov::element::Type m_declared_type = ov::element::dynamic;
    mutable PlanCache m_plans;
    mutable std::atomic<NodeCounters*> m_node_counters{nullptr};
};

}  // namespace sgk_openvino
