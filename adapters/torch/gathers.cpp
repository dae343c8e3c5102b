// gather, index_select and take on sgk's Gather, GatherND and
// GatherElements.
#include <ATen/CPUFunctions.h>
#include <ATen/ops/empty.h>
#include <c10/core/WrapDimMinimal.h>

#include "counters.hpp"
#include "kernels.hpp"
#include "operands.hpp"
#include "rows.hpp"
#include "size_rule.hpp"
#include "threads.hpp"

namespace sgk_torch {

namespace {

sgk_dtype index_type(const at::Tensor& index) {
    return index.scalar_type() == at::kLong ? SGK_INT64 : SGK_INT32;
}

// A gather's source, contiguous: `self` itself, or a copy when `self` is
// strided but at most a quarter of the output (the gradient of a
// concatenation in a GNN layer's backward is such a view): the copy then
// costs a fraction of the gather it lets sgk serve.  Undefined when
// neither holds.
at::Tensor contiguous_source(const at::Tensor& self, int64_t out_elements) {
    if (!not_plain(self))
        return self;
    if (self.is_contiguous() || self.numel() > out_elements / 4)
        return {};
    at::Tensor copy = self.contiguous();
    return not_plain(copy) ? at::Tensor() : copy;
}

// gather into `out` (allocated when `allocate`); nullptr when served, else
// why not (and nothing was written).
const char* gather_on_sgk(const at::Tensor& given, int64_t dim, const at::Tensor& index,
                          at::Tensor& out, bool allocate) {
    const at::Tensor self = contiguous_source(given, index.numel());
    if (!self.defined())
        return not_plain(given);
    if ((index.scalar_type() != at::kLong && index.scalar_type() != at::kInt) ||
        !index.device().is_cpu() || index.layout() != at::kStrided)
        return "index not an int32 or int64 CPU tensor";
    const int64_t rank = self.dim();
    if (rank == 0 || index.dim() != rank)
        return "0-d tensors or ranks that differ";
    if (dim < -rank || dim >= rank)
        return "dim out of range";
    dim = c10::maybe_wrap_dim(dim, rank);
    for (int64_t d = 0; d < rank; ++d)
        if (d != dim && index.size(d) > self.size(d))
            return "index larger than self";
    if (index.numel() == 0)
        return "empty index";
    const at::Tensor rows = row_index(index, dim, self.sizes(), true);
    if (!rows.defined())
        if (const char* why = elements_too_large(index.numel(), false))
            return why;
    if (allocate)
        out = new_output(index.sizes(), self.options());
    else if (const char* why = unusable_out(out, index.sizes(), self.scalar_type(),
                                            {&given, &index}))
        return why;

    sync_threads();
    const sgk_dtype type = *sgk_type_of(self.scalar_type());
    sgk_status status;
    if (rows.defined()) {
        if (int64_t bad = first_negative(rows); bad >= 0)
            raise_negative("gather", rows, bad, dim, self.size(dim), Raises::runtime_error);
        const int64_t b = extent(self.sizes(), 0, dim), s = self.size(dim),
                      r = extent(self.sizes(), dim + 1, rank), n = index.size(dim);
        if (b == 1) {
            const Operand data(type, {s, r}, self.const_data_ptr());
            const Operand idx(index_type(rows), {n}, rows.const_data_ptr());
            status = sgk_gather(data.get(), idx.get(), 0, out.data_ptr());
        } else {
            const Operand data(type, {b, s, r}, self.const_data_ptr());
            const Operand idx(index_type(rows), {b, n, 1}, rows.const_data_ptr());
            status = sgk_gather_nd(data.get(), idx.get(), 1, out.data_ptr());
        }
    } else {
        if (!index.is_contiguous())
            return "index neither contiguous nor rows (stride 0 after dim)";
        if (int64_t bad = first_negative(index); bad >= 0)
            raise_negative("gather", index, bad, dim, self.size(dim), Raises::runtime_error);
        status = sgk_gather_elements(Operand(self).get(), Operand(index).get(), dim,
                                     out.data_ptr());
    }
    return check(status, Raises::runtime_error) ? nullptr : sgk_status_name(status);
}

const char* index_select_on_sgk(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                at::Tensor& out, bool allocate) {
    if (const char* why = not_plain(self))
        return why;
    if ((index.scalar_type() != at::kLong && index.scalar_type() != at::kInt) ||
        index.dim() > 1 || not_plain(index))
        return "index not a contiguous 1-d int32 or int64 CPU tensor";
    const int64_t rank = self.dim();
    if (rank == 0)
        return "0-d self";
    if (dim < -rank || dim >= rank)
        return "dim out of range";
    dim = c10::maybe_wrap_dim(dim, rank);
    if (index.numel() == 0 || self.numel() == 0)
        return "empty";
    auto sizes = self.sizes().vec();
    sizes[dim] = index.numel();
    if (allocate)
        out = new_output(sizes, self.options());
    else if (const char* why = unusable_out(out, sizes, self.scalar_type(), {&self, &index}))
        return why;

    sync_threads();
    if (int64_t bad = first_negative(index); bad >= 0)
        raise_negative("index_select", index, bad, dim, self.size(dim), Raises::index_error);
    const Operand idx(index_type(index), {index.numel()}, index.const_data_ptr());
    const sgk_status status = sgk_gather(Operand(self).get(), idx.get(), dim, out.data_ptr());
    return check(status, Raises::index_error) ? nullptr : sgk_status_name(status);
}

const char* take_on_sgk(const at::Tensor& self, const at::Tensor& index, at::Tensor& out,
                        bool allocate) {
    if (const char* why = not_plain(self))
        return why;
    if (index.scalar_type() != at::kLong || not_plain(index))
        return "index not a contiguous int64 CPU tensor";
    if (index.dim() == 0)
        return "0-d index";
    if (index.numel() == 0 || self.numel() == 0)
        return "empty";
    if (const char* why = elements_too_large(index.numel(), false))
        return why;
    if (allocate)
        out = new_output(index.sizes(), self.options());
    else if (const char* why = unusable_out(out, index.sizes(), self.scalar_type(), {&self, &index}))
        return why;

    sync_threads();
    // take indexes the flattened tensor, negative values counting from
    // the end, as sgk's Gather along axis 0 of a 1-d view does.
    const Operand data(*sgk_type_of(self.scalar_type()), {self.numel()}, self.const_data_ptr());
    const sgk_status status = sgk_gather(data.get(), Operand(index).get(), 0, out.data_ptr());
    return check(status, Raises::index_error) ? nullptr : sgk_status_name(status);
}

}  // namespace

at::Tensor gather(const at::Tensor& self, int64_t dim, const at::Tensor& index, bool sparse_grad) {
    at::Tensor out;
    if (const char* why = gather_on_sgk(self, dim, index, out, true)) {
        count_fallback(Op::gather, why);
        return at::cpu::gather(self, dim, index, sparse_grad);
    }
    count_served(Op::gather);
    return out;
}

at::Tensor& gather_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                       bool sparse_grad, at::Tensor& out) {
    if (const char* why = gather_on_sgk(self, dim, index, out, false)) {
        count_fallback(Op::gather, why);
        return at::cpu::gather_outf(self, dim, index, sparse_grad, out);
    }
    count_served(Op::gather);
    return out;
}

at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
    at::Tensor out;
    if (const char* why = index_select_on_sgk(self, dim, index, out, true)) {
        count_fallback(Op::index_select, why);
        return at::cpu::index_select(self, dim, index);
    }
    count_served(Op::index_select);
    return out;
}

at::Tensor& index_select_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                             at::Tensor& out) {
    if (const char* why = index_select_on_sgk(self, dim, index, out, false)) {
        count_fallback(Op::index_select, why);
        return at::cpu::index_select_outf(self, dim, index, out);
    }
    count_served(Op::index_select);
    return out;
}

at::Tensor take(const at::Tensor& self, const at::Tensor& index) {
    at::Tensor out;
    if (const char* why = take_on_sgk(self, index, out, true)) {
        count_fallback(Op::take, why);
        return at::cpu::take(self, index);
    }
    count_served(Op::take);
    return out;
}

at::Tensor& take_out(const at::Tensor& self, const at::Tensor& index, at::Tensor& out) {
    if (const char* why = take_on_sgk(self, index, out, false)) {
        count_fallback(Op::take, why);
        return at::cpu::take_outf(self, index, out);
    }
    count_served(Op::take);
    return out;
}

}  // namespace sgk_torch
