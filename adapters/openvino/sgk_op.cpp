#include "sgk_op.hpp"

#include <chrono>

#include <openvino/core/except.hpp>
#include <openvino/op/constant.hpp>

#include "element_types.hpp"

namespace sgk_openvino {

namespace {

bool is_index_type(ov::element::Type type) {
    return type == ov::element::i32 || type == ov::element::i64;
}

void append_shape(std::vector<int64_t>& words, const Dims& shape) {
    words.push_back(shape.rank);
    words.insert(words.end(), shape.begin(), shape.end());
}

}  // namespace

SgkOp::SgkOp(const ov::OutputVector& args, ov::element::Type declared_type)
    : ov::op::Op(args), m_declared_type(declared_type) {}

ov::element::Type SgkOp::validate_types() {
    ov::element::Type data_type = get_input_element_type(0);
    if (scatters()) {
        const ov::element::Type updates_type = get_input_element_type(updates_input());
        NODE_VALIDATION_CHECK(this, ov::element::Type::merge(data_type, data_type, updates_type),
                              "updates have element type ", updates_type, ", data has ",
                              get_input_element_type(0));
    }
    if (has_indices()) {
        const ov::element::Type index_type = get_input_element_type(indices_input());
        NODE_VALIDATION_CHECK(this, index_type.is_dynamic() || is_index_type(index_type),
                              "indices must be int32 or int64, not ", index_type);
    }
    if (data_type.is_static()) {
        const SgkType sgk_type = sgk_type_of(data_type);
        NODE_VALIDATION_CHECK(this, sgk_type.known, "sgk cannot hold element type ", data_type);
        NODE_VALIDATION_CHECK(this, sgk_reduces(sgk_type, reduction_code()),
                              "sgk has no arithmetic for element type ", data_type,
                              ": only reduction 'none' is supported");
    }
    return data_type;
}

bool SgkOp::visit_declared_type(ov::AttributeVisitor& visitor) {
    visitor.on_attribute("declared_type", m_declared_type);
    return true;
}

bool SgkOp::indices_are_constant() const {
    return !has_indices() || ov::is_type<ov::op::v0::Constant>(get_input_node_ptr(indices_input()));
}

void SgkOp::throw_sgk_error(const char* step, sgk_status status) const {
    OPENVINO_THROW("sgk ", step, " of ", get_type_name(), " '", get_friendly_name(), "' failed: ",
                   sgk_status_name(status), ": ", sgk_last_error());
}

NodeCounters& SgkOp::node_counters() const {
    NodeCounters* node = m_node_counters.load(std::memory_order_acquire);
    if (node == nullptr) {
        // Two threads may both look it up: they find the same counters.
        node = &sgk_openvino::node_counters(get_friendly_name(), get_type_name());
        m_node_counters.store(node, std::memory_order_release);
    }
    return *node;
}

bool SgkOp::evaluate(ov::TensorVector& outputs, const ov::TensorVector& inputs) const {
    const auto start = std::chrono::steady_clock::now();
    NodeCounters& node = node_counters();
    const ov::element::Type received = inputs[0].get_element_type();
    const SgkType sgk_type = sgk_type_of(received);
    if (!sgk_type.known)
        OPENVINO_THROW("sgk cannot hold element type ", received, " (", get_friendly_name(), ")");
    const bool indexed = indices_input() < inputs.size();
    const ov::element::Type index_type =
        indexed ? inputs[indices_input()].get_element_type() : ov::element::i64;
    if (!is_index_type(index_type))
        OPENVINO_THROW("sgk: indices must be int32 or int64, not ", index_type, " (",
                       get_friendly_name(), ")");

    const bool narrowed = scatters() && reduction_code() != SGK_REDUCE_NONE &&
                          runs_narrowed(received, m_declared_type);
    const sgk_dtype dtype = narrowed ? sgk_type_of(m_declared_type).dtype
                                     : sgk_run_type(received, m_declared_type);
    const Storage storage = narrowed ? Storage::narrowed
                            : received == ov::element::string ? Storage::strings
                                                              : Storage::direct;
    Operands operands;
    const auto bind = [&](Operand& operand, size_t input, sgk_dtype type, Storage how) {
        if (!operand.bind(inputs[input], type, how))
            OPENVINO_THROW("sgk takes tensors of rank up to ", SGK_MAX_RANK, ", not ",
                           inputs[input].get_shape().size(), " (", get_friendly_name(), ")");
    };
    bind(operands.data, 0, dtype, storage);
    if (indexed)
        bind(operands.indices, indices_input(),
             index_type == ov::element::i32 ? SGK_INT32 : SGK_INT64, Storage::direct);
    if (scatters())
        bind(operands.updates, updates_input(), dtype, storage);

    Dims shape;
    sgk_status status = result_shape(operands, &shape);
    if (status != SGK_OK)
        throw_sgk_error("shape check", status);
    // The plugin hands a static node its output at the right shape already;
    // setting it anyway cost half a microsecond a node (beam_gather).
    if (!(shape == outputs[0].get_shape()))
        outputs[0].set_shape(ov::Shape(shape.begin(), shape.end()));
    Result result(outputs[0], dtype, storage, shape.elements());
    const void* updates = scatters() ? operands.updates.data() : nullptr;

    if (indices_are_constant()) {
        PlanKey key;
        key.words = {static_cast<int64_t>(dtype),
                     indexed ? static_cast<int64_t>(operands.indices.get()->dtype) : -1};
        append_shape(key.words, operands.data.shape());
        if (indexed)
            append_shape(key.words, operands.indices.shape());
        if (scatters())
            append_shape(key.words, operands.updates.shape());
        auto kept = m_plans.get(
            key, [&](sgk_plan** plan) { return make_plan(plan, operands); }, &status);
        if (!kept)
            throw_sgk_error("planning", status);
        status = sgk_execute(kept->plan(), operands.data.data(), updates, result.data());
        if (status != SGK_OK)
            throw_sgk_error("execution", status);
        counters().plan_runs.fetch_add(1, std::memory_order_relaxed);
        node.plan_runs.fetch_add(1, std::memory_order_relaxed);
    } else {
        status = run_once(operands, result.data());
        if (status != SGK_OK)
            throw_sgk_error("call", status);
        counters().one_shot_runs.fetch_add(1, std::memory_order_relaxed);
    }
    result.finish();
    node.calls.fetch_add(1, std::memory_order_relaxed);
    node.nanoseconds.fetch_add(
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now() - start)
                                  .count()),
        std::memory_order_relaxed);
    return true;
}

}  // namespace sgk_openvino
