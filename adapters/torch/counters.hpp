// Per op: how many calls sgk served and how many went to PyTorch's own
// kernel, and why (sgk.torch.counters()).  SGK_VERBOSE=1 logs each op's
// fallback reason the first time it is seen.
#pragma once

#include <cstdint>
#include <string>

namespace sgk_torch {

enum class Op {
    gather, scatter, scatter_add, scatter_reduce, index_select, index_add, index_copy,
    index_reduce, index_fill, index_put, take, embedding_dense_backward, count_
};

const char* op_name(Op op);

void count_served(Op op);
void count_fallback(Op op, const char* reason);

// {"op": {"sgk": n, "fallback": n, "reasons": {"reason": n}}} as JSON.
std::string counters_json();
void reset_counters();

}  // namespace sgk_torch
