// One operator class for all six: SgkOpOf<Traits> is an SgkOp made of what
// an operator's traits say of it (scatter_nd_op.hpp and its siblings), so
// that an operator is written as only what differs: its name, attributes,
// constructor, shape rules and sgk calls.  The traits are a struct of
// static members, on OperatorTraits for the defaults:
//
//   type_name            its type in sgk_opset1 ("SgkScatterND")
//   scatters             whether it has updates (SgkOp's scatters())
//   indices_input, updates_input   where they are among its inputs
//                        (OperatorTraits: 1 and 2)
//   Attributes           its attributes as ONNX names them, and what they
//                        parse to
//   construct(...)       its constructor: the parameters, split into the
//                        inputs, the attributes and the data's declared type
//   visit(visitor, a)    its attributes, for IR and cloning
//   check_attributes(node, a)   checks and parses them, before the types are
//                        checked (OperatorTraits: nothing to check)
//   reduction(a)         its reduction (OperatorTraits: none)
//   infer_shape(node, a) its output's partial shape, checking what partial
//                        shapes allow (sgk checks the tensors)
//   result_shape(operands, a, &shape)   its output's shape for tensors
//                        (OperatorTraits: the data's, as for every scatter)
//   one_shot, plan       its sgk calls, which take the same arguments
//   arguments(operands, a)   those arguments, without plan's first (the
//                        plan) and last (its flags) and one_shot's last (the
//                        output)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "sgk_op.hpp"

namespace sgk_openvino {

// What an operator's constructor makes of its parameters.
template <class Attributes>
struct Construction {
    ov::OutputVector inputs;
    Attributes attributes;
    ov::element::Type declared_type;
};

// ONNX's reduction name as sgk's code (throws on an unknown name).
sgk_reduction reduction_named(const ov::Node* node, const std::string& name);

// The output shape sgk works out for a gather (sgk_gather_nd_shape,
// sgk_gather_shape: data, indices and the operator's one attribute).
using GatherShapeFunction = sgk_status (*)(const sgk_tensor* data, const sgk_tensor* indices,
                                           int64_t attribute, int64_t* shape, int32_t* rank);
sgk_status gather_shape(GatherShapeFunction sgk_shape, const Operands& operands, int64_t attribute,
                        Dims* shape);

// The traits' defaults.
struct OperatorTraits {
    static constexpr size_t indices_input = 1;
    static constexpr size_t updates_input = 2;

    template <class Attributes>
    static void check_attributes(const ov::Node*, Attributes&) {}

    template <class Attributes>
    static sgk_reduction reduction(const Attributes&) {
        return SGK_REDUCE_NONE;
    }

    template <class Attributes>
    static sgk_status result_shape(const Operands& operands, const Attributes&, Dims* shape) {
        shape->assign(operands.data.shape());
        return SGK_OK;
    }
};

// The defaults of a scatter with ONNX's reduction attribute: its Attributes
// hold the name (reduction) and sgk's code for it (reduction_code).
struct ReducingScatterTraits : OperatorTraits {
    static constexpr bool scatters = true;

    template <class Attributes>
    static void check_attributes(const ov::Node* node, Attributes& attributes) {
        attributes.reduction_code = reduction_named(node, attributes.reduction);
    }

    template <class Attributes>
    static sgk_reduction reduction(const Attributes& attributes) {
        return attributes.reduction_code;
    }
};

// The class is specialized on the type of Traits::construct, so that its
// constructor takes the very parameters the operator's construct() does
// (braced input lists and implicit conversions included).
template <class Traits, class Constructor = decltype(&Traits::construct)>
class SgkOpOf;

template <class Traits, class Made, class... Parameters>
class SgkOpOf<Traits, Made (*)(Parameters...)> : public SgkOp {
public:
    OPENVINO_OP(Traits::type_name, "sgk_opset1", SgkOp);

    using Attributes = typename Traits::Attributes;

    SgkOpOf() = default;
    SgkOpOf(Parameters... parameters) : SgkOpOf(Traits::construct(parameters...)) {}
    explicit SgkOpOf(Construction<Attributes> made)
        : SgkOp(made.inputs, made.declared_type), m_attributes(std::move(made.attributes)) {
        constructor_validate_and_infer_types();
    }

    void validate_and_infer_types() override {
        Traits::check_attributes(this, m_attributes);
        const ov::element::Type type = validate_types();
        set_output_type(0, type, Traits::infer_shape(this, m_attributes));
    }

    bool visit_attributes(ov::AttributeVisitor& visitor) override {
        Traits::visit(visitor, m_attributes);
        return visit_declared_type(visitor);
    }

    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override {
        check_new_args_count(this, args);
        return std::make_shared<SgkOpOf>(Construction<Attributes>{args, m_attributes, declared_type()});
    }

protected:
    bool scatters() const override { return Traits::scatters; }
    sgk_reduction reduction_code() const override { return Traits::reduction(m_attributes); }
    size_t indices_input() const override { return Traits::indices_input; }
    size_t updates_input() const override { return Traits::updates_input; }

    sgk_status result_shape(const Operands& operands, Dims* shape) const override {
        return Traits::result_shape(operands, m_attributes, shape);
    }

    sgk_status run_once(const Operands& operands, void* output) const override {
        return std::apply([&](auto... arguments) { return Traits::one_shot(arguments..., output); },
                          Traits::arguments(operands, m_attributes));
    }

    sgk_status make_plan(sgk_plan** plan, const Operands& operands) const override {
        const uint32_t flags = 0;
        return std::apply([&](auto... arguments) { return Traits::plan(plan, arguments..., flags); },
                          Traits::arguments(operands, m_attributes));
    }

private:
    Attributes m_attributes;
};

}  // namespace sgk_openvino
