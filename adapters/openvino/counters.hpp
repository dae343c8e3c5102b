// Process-wide counts of how the extension's operators ran (the totals,
// for tests and benchmarks), and per node: which nodes of the user's
// models sgk serves, how often and for how long (sgk_openvino_counters and
// sgk_openvino_node_counters_json in extension_api.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace sgk_openvino {

struct Counters {
    std::atomic<uint64_t> plans_built{0};    // plans made for constant indices
    std::atomic<uint64_t> plan_runs{0};      // evaluations that executed a kept plan
    std::atomic<uint64_t> one_shot_runs{0};  // evaluations by a one-shot call
};

Counters& counters();

// One node's evaluations: OpenVINO's profiling shows a custom operator only
// as "Reference", so these say which nodes are sgk's and what they cost.
struct NodeCounters {
    std::string op;                           // its type: "SgkScatterND", ...
    std::atomic<uint64_t> calls{0};           // evaluations, plan runs among them
    std::atomic<uint64_t> plan_runs{0};
    std::atomic<uint64_t> nanoseconds{0};     // inside evaluate(), summed over threads
};

// The counters of the node named `name` (its friendly name, which the CPU
// plugin keeps through compilation), made on first use; the reference
// stays valid for the life of the process.
NodeCounters& node_counters(const std::string& name, const char* op);

// Every node's counters as JSON: {name: {"op", "calls", "plan_runs",
// "seconds"}}, in name order.
std::string node_counters_json();

}  // namespace sgk_openvino
