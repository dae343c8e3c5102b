#include "counters.hpp"

#include "extension_api.h"
#include "tbb_backend.hpp"

namespace sgk_openvino {

Counters& counters() {
    static Counters all;
    return all;
}

}  // namespace sgk_openvino

extern "C" void sgk_openvino_counters(uint64_t* plans_built, uint64_t* plan_runs,
                                      uint64_t* one_shot_runs) {
    const auto& c = sgk_openvino::counters();
    if (plans_built)
        *plans_built = c.plans_built.load(std::memory_order_relaxed);
    if (plan_runs)
        *plan_runs = c.plan_runs.load(std::memory_order_relaxed);
    if (one_shot_runs)
        *one_shot_runs = c.one_shot_runs.load(std::memory_order_relaxed);
}

extern "C" const char* sgk_openvino_threading(void) {
    return sgk_openvino::threading_name();
}
