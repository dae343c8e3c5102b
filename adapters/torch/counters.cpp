#include "counters.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

namespace sgk_torch {

namespace {

constexpr size_t op_count = static_cast<size_t>(Op::count_);

constexpr std::array<const char*, op_count> names = {
    "gather", "scatter", "scatter_add", "scatter_reduce", "index_select", "index_add",
    "index_copy", "index_reduce", "index_fill", "index_put", "take", "embedding_dense_backward"};

// Served calls are the hot path: a relaxed atomic each.  Fallbacks carry a
// reason, kept in a map under a lock: they are the slow path anyway.
std::array<std::atomic<uint64_t>, op_count> served{};
std::array<std::atomic<uint64_t>, op_count> fell_back{};
std::mutex reasons_lock;
std::map<std::pair<size_t, std::string>, uint64_t> reasons;

bool verbose() {
    static const bool on = [] {
        const char* v = std::getenv("SGK_VERBOSE");
        return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
    }();
    return on;
}

void append_json_string(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

}  // namespace

const char* op_name(Op op) {
    return names[static_cast<size_t>(op)];
}

void count_served(Op op) {
    served[static_cast<size_t>(op)].fetch_add(1, std::memory_order_relaxed);
}

void count_fallback(Op op, const char* reason) {
    const size_t i = static_cast<size_t>(op);
    fell_back[i].fetch_add(1, std::memory_order_relaxed);
    bool first;
    {
        std::lock_guard<std::mutex> hold(reasons_lock);
        first = reasons[{i, reason}]++ == 0;
    }
    if (first && verbose())
        std::fprintf(stderr, "sgk.torch: %s falls back to PyTorch: %s\n", names[i], reason);
}

std::string counters_json() {
    std::lock_guard<std::mutex> hold(reasons_lock);
    std::string out = "{";
    for (size_t i = 0; i < op_count; ++i) {
        if (i)
            out += ", ";
        append_json_string(out, names[i]);
        out += ": {\"sgk\": " + std::to_string(served[i].load()) +
               ", \"fallback\": " + std::to_string(fell_back[i].load()) + ", \"reasons\": {";
        bool first = true;
        for (const auto& [key, n] : reasons) {
            if (key.first != i)
                continue;
            if (!first)
                out += ", ";
            first = false;
            append_json_string(out, key.second);
            out += ": " + std::to_string(n);
        }
        out += "}}";
    }
    return out + "}";
}

void reset_counters() {
    std::lock_guard<std::mutex> hold(reasons_lock);
    for (size_t i = 0; i < op_count; ++i) {
        served[i].store(0);
        fell_back[i].store(0);
    }
    reasons.clear();
}

}  // namespace sgk_torch
