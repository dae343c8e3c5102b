#include "counters.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "extension_api.h"
#include "tbb_backend.hpp"

namespace sgk_openvino {

namespace {

// Nodes are looked up once per operator object (SgkOp caches the
// reference), so a lock here costs nothing per evaluation.
std::mutex nodes_lock;
std::map<std::string, std::unique_ptr<NodeCounters>>& nodes() {
    static std::map<std::string, std::unique_ptr<NodeCounters>> all;
    return all;
}

// Node names come from the user's model: escape what JSON requires.
void append_json_string(std::string& out, const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

}  // namespace

Counters& counters() {
    static Counters all;
    return all;
}

NodeCounters& node_counters(const std::string& name, const char* op) {
    std::lock_guard<std::mutex> hold(nodes_lock);
    auto& slot = nodes()[name];
    if (!slot) {
        slot = std::make_unique<NodeCounters>();
        slot->op = op;
    }
    return *slot;
}

std::string node_counters_json() {
    std::lock_guard<std::mutex> hold(nodes_lock);
    std::string out = "{";
    for (const auto& [name, node] : nodes()) {
        if (out.size() > 1)
            out += ", ";
        append_json_string(out, name);
        char numbers[160];
        std::snprintf(numbers, sizeof numbers,
                      ": {\"op\": \"%s\", \"calls\": %llu, \"plan_runs\": %llu, \"seconds\": %.9f}",
                      node->op.c_str(), static_cast<unsigned long long>(node->calls.load()),
                      static_cast<unsigned long long>(node->plan_runs.load()),
                      static_cast<double>(node->nanoseconds.load()) * 1e-9);
        out += numbers;
    }
    return out + "}";
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

extern "C" size_t sgk_openvino_node_counters_json(char* buf, size_t size) {
    const std::string text = sgk_openvino::node_counters_json();
    if (buf != nullptr && size > 0) {
        const size_t n = text.size() < size - 1 ? text.size() : size - 1;
        std::memcpy(buf, text.data(), n);
        buf[n] = '\0';
    }
    return text.size();
}

extern "C" const char* sgk_openvino_threading(void) {
    return sgk_openvino::threading_name();
}
