// _index_put_impl_ (index_put_, and indexing assignment) and
// embedding_dense_backward on sgk's ScatterND: the index tensors stacked
// into tuples, and the gradient's rows added at the indices' rows.
#include <vector>

#include <ATen/CPUFunctions.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>

#include "counters.hpp"
#include "kernels.hpp"
#include "operands.hpp"
#include "size_rule.hpp"
#include "threads.hpp"

namespace sgk_torch {

namespace {

// The index_put_ call on sgk, in place; nullptr when served.
const char* index_put_on_sgk(at::Tensor& self, const c10::List<std::optional<at::Tensor>>& indices,
                             const at::Tensor& values, bool accumulate) {
    if (const char* why = not_plain(self))
        return why;
    if (const char* why = not_plain(values))
        return why;
    if (values.scalar_type() != self.scalar_type())
        return "values of another type";
    if (accumulate && self.scalar_type() == at::kBool)
        return "boolean accumulation";
    const int64_t rank = self.dim();
    const int64_t k = static_cast<int64_t>(indices.size());
    if (rank == 0 || k == 0 || k > rank)
        return "0-d self, or no or too many indices";
    std::vector<at::Tensor> list;
    for (const std::optional<at::Tensor>& maybe : indices) {
        if (!maybe.has_value() || !maybe->defined())
            return "a None (a sliced dimension) among the indices";
        const at::Tensor& i = *maybe;
        if (i.scalar_type() != at::kLong && i.scalar_type() != at::kInt)
            return "boolean or byte mask, or an index of another type";
        if (!i.device().is_cpu() || i.layout() != at::kStrided)
            return "index not a strided CPU tensor";
        list.push_back(i);
    }
    std::vector<int64_t> q;
    try {
        for (const at::Tensor& i : list)
            q = at::infer_size(q, i.sizes());
    } catch (const c10::Error&) {
        return "indices that do not broadcast";
    }
    std::vector<int64_t> target = q;
    for (int64_t d = k; d < rank; ++d)
        target.push_back(self.size(d));
    int64_t count = 1;
    for (int64_t v : target)
        count *= v;
    if (count == 0)
        return "empty";
    // values as the updates: their shape, or one that differs by leading
    // 1s only (a free view); broadcasting them would cost a copy.
    if (values.numel() != count || !at::is_expandable_to(values.sizes(), target))
        return "values need broadcasting";
    if (const char* why = overlapping(self, {&values}))
        return why;
    for (const at::Tensor& i : list)
        if (const char* why = overlapping(self, {&i}))
            return why;

    sync_threads();
    at::Tensor stacked;
    std::vector<int64_t> idx_shape = q;
    idx_shape.push_back(k);
    if (k == 1 && list[0].sizes().vec() == q && list[0].is_contiguous()) {
        stacked = list[0];
    } else {
        std::vector<at::Tensor> wide;
        for (const at::Tensor& i : list)
            wide.push_back(i.to(at::kLong).expand(q));
        stacked = at::stack(wide, -1);
    }
    const sgk_dtype type = *sgk_type_of(self.scalar_type());
    const Operand idx(stacked.scalar_type() == at::kLong ? SGK_INT64 : SGK_INT32, idx_shape,
                      stacked.const_data_ptr());
    const Operand updates(type, target, values.const_data_ptr());
    const sgk_status status = sgk_scatter_nd(Operand(self).get(), idx.get(), updates.get(),
                                             accumulate ? SGK_REDUCE_ADD : SGK_REDUCE_NONE,
                                             self.data_ptr());
    return check(status, Raises::index_error) ? nullptr : sgk_status_name(status);
}

const char* embedding_backward_on_sgk(const at::Tensor& grad, const at::Tensor& indices,
                                      int64_t num_weights, int64_t padding_idx, bool scale,
                                      at::Tensor& out) {
    if (scale)
        return "scale_grad_by_freq";
    if (const char* why = not_plain(grad))
        return why;
    if ((indices.scalar_type() != at::kLong && indices.scalar_type() != at::kInt) || not_plain(indices))
        return "indices not a contiguous int32 or int64 CPU tensor";
    if (grad.dim() == 0 || !at::isFloatingType(grad.scalar_type()))
        return "0-d or non-float gradient";
    const int64_t n = indices.numel(), width = grad.size(-1);
    if (n == 0 || num_weights <= 0 || width == 0 || grad.numel() != n * width)
        return "empty, or a gradient of another shape";
    sync_threads();
    // PyTorch skips indices outside [0, num_weights) without an error;
    // sgk would raise or count negatives from the end.
    if (!all_within(indices, num_weights))
        return "an index outside [0, num_weights), which PyTorch skips";
    out = at::zeros({num_weights, width}, grad.options());
    const sgk_dtype type = *sgk_type_of(grad.scalar_type());
    const Operand data(type, {num_weights, width}, out.const_data_ptr());
    const Operand idx(indices.scalar_type() == at::kLong ? SGK_INT64 : SGK_INT32, {n, 1},
                      indices.const_data_ptr());
    const Operand updates(type, {n, width}, grad.const_data_ptr());
    const sgk_status status = sgk_scatter_nd(data.get(), idx.get(), updates.get(), SGK_REDUCE_ADD,
                                             out.data_ptr());
    if (status != SGK_OK)
        return sgk_status_name(status);
    // The padding row receives no gradient: every update it took is one
    // PyTorch skips, so zeroing it afterwards gives PyTorch's result.
    if (padding_idx >= 0 && padding_idx < num_weights)
        out.select(0, padding_idx).zero_();
    return nullptr;
}

}  // namespace

at::Tensor& index_put_impl_(at::Tensor& self, const c10::List<std::optional<at::Tensor>>& indices,
                            const at::Tensor& values, bool accumulate, bool unsafe) {
    if (const char* why = index_put_on_sgk(self, indices, values, accumulate)) {
        count_fallback(Op::index_put, why);
        return at::cpu::_index_put_impl_(self, indices, values, accumulate, unsafe);
    }
    count_served(Op::index_put);
    return self;
}

at::Tensor embedding_dense_backward(const at::Tensor& grad_output, const at::Tensor& indices,
                                    c10::SymInt num_weights, c10::SymInt padding_idx,
                                    bool scale_grad_by_freq) {
    at::Tensor out;
    if (const char* why = embedding_backward_on_sgk(grad_output, indices, num_weights.expect_int(),
                                                    padding_idx.expect_int(), scale_grad_by_freq,
                                                    out)) {
        count_fallback(Op::embedding_dense_backward, why);
        return at::cpu::embedding_dense_backward_symint(grad_output, indices, num_weights,
                                                        padding_idx, scale_grad_by_freq);
    }
    count_served(Op::embedding_dense_backward);
    return out;
}

}  // namespace sgk_torch
