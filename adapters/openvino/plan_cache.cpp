#include "plan_cache.hpp"

#include <atomic>

#include "counters.hpp"

namespace sgk_openvino {

std::shared_ptr<const KeptPlan> PlanCache::get(const PlanKey& key, const Maker& make,
                                               sgk_status* status) {
    *status = SGK_OK;
    std::shared_ptr<const KeptPlan> kept = std::atomic_load(&m_plan);
    if (kept && kept->key() == key)
        return kept;
    std::lock_guard<std::mutex> making(m_making);
    kept = std::atomic_load(&m_plan);
    if (kept && kept->key() == key)
        return kept;
    sgk_plan* plan = nullptr;
    *status = make(&plan);
    if (*status != SGK_OK)
        return nullptr;
    kept = std::make_shared<const KeptPlan>(key, plan);
    std::atomic_store(&m_plan, kept);
    counters().plans_built.fetch_add(1, std::memory_order_relaxed);
    return kept;
}

}  // namespace sgk_openvino
