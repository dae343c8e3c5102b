// Process-wide counts of how the extension's operators ran, for tests and
// benchmarks (sgk_openvino_counters in extension_api.h).
#pragma once

#include <atomic>
#include <cstdint>

namespace sgk_openvino {

struct Counters {
    std::atomic<uint64_t> plans_built{0};    // plans made for constant indices
    std::atomic<uint64_t> plan_runs{0};      // evaluations that executed a kept plan
    std::atomic<uint64_t> one_shot_runs{0};  // evaluations by a one-shot call
};

Counters& counters();

}  // namespace sgk_openvino
