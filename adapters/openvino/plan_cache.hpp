// The plan an operator keeps for its constant indices.
//
// The CPU plugin shares one operator object between the graphs of all its
// streams, so evaluate() runs on several threads at once.  The plan is made
// once, under a lock, by the first evaluation that needs it and is then
// only read: sgk_execute runs one plan from several threads at once.  It is
// keyed by the operands' types and shapes; an evaluation with other shapes
// (a dynamic data shape) makes a new plan, and evaluations still running
// the old one keep it alive until they return.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "sgk.h"

namespace sgk_openvino {

// What a plan was made for: the element types and every operand's shape.
struct PlanKey {
    std::vector<int64_t> words;
    bool operator==(const PlanKey& other) const { return words == other.words; }
};

class KeptPlan {
public:
    KeptPlan(PlanKey key, sgk_plan* plan) : m_key(std::move(key)), m_plan(plan) {}
    ~KeptPlan() { sgk_plan_destroy(m_plan); }
    KeptPlan(const KeptPlan&) = delete;
    KeptPlan& operator=(const KeptPlan&) = delete;

    const PlanKey& key() const { return m_key; }
    const sgk_plan* plan() const { return m_plan; }

private:
    PlanKey m_key;
    sgk_plan* m_plan;
};

class PlanCache {
public:
    // make(&plan) plans with sgk and returns its status.
    using Maker = std::function<sgk_status(sgk_plan**)>;

    // The kept plan for key, made with make when there is none for it.
    // On failure returns null with *status set (and sgk_last_error() of
    // this thread describing it).
    std::shared_ptr<const KeptPlan> get(const PlanKey& key, const Maker& make, sgk_status* status);

private:
    std::mutex m_making;
    std::shared_ptr<const KeptPlan> m_plan;
};

}  // namespace sgk_openvino
