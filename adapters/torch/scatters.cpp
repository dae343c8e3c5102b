// scatter, scatter_add and scatter_reduce on sgk's ScatterElements, and on
// ScatterND with k = 1 when the index picks whole rows (rows.hpp).

#include <ATen/CPUFunctions.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones.h>
#include <c10/core/WrapDimMinimal.h>

#include "counters.hpp"
#include "kernels.hpp"
#include "operands.hpp"
#include "reductions.hpp"
#include "rows.hpp"
#include "size_rule.hpp"
#include "threads.hpp"

namespace sgk_torch {

namespace {

enum class Into { fresh, self, out };

struct Scatter {
    const char* name;
    Reduction reduction;
    bool reduce_two = false;  // scatter_reduce.two (rather than scatter/scatter_add)
};

// One sgk call: rows (ScatterND k = 1 over [s, ...]) or elements.
sgk_status run(const Operand& data, const at::Tensor& rows, const at::Tensor& index,
               const Operand& updates, int64_t dim, sgk_reduction reduction, void* output) {
    if (rows.defined()) {
        const Operand idx(rows.scalar_type() == at::kLong ? SGK_INT64 : SGK_INT32, {rows.numel(), 1},
                          rows.const_data_ptr());
        return sgk_scatter_nd(data.get(), idx.get(), updates.get(), reduction, output);
    }
    return sgk_scatter_elements(data.get(), Operand(index).get(), updates.get(), dim, reduction,
                                output);
}

// The call on sgk into `out` (a new tensor, self, or the caller's out=);
// nullptr when served, else why not, with nothing written.
const char* scatter_on_sgk(const Scatter& call, const at::Tensor& given, int64_t dim,
                           const at::Tensor& index, const at::Tensor* src,
                           const at::Scalar* value, at::Tensor& out, Into into) {
    // A functional call's output is a copy of self anyway: a strided self
    // (a gradient's view, in a GNN layer's backward) is copied contiguous
    // once, and the scatter runs in place on that copy.
    const bool copied = into == Into::fresh && given.defined() && !given.is_contiguous() &&
                        given.layout() == at::kStrided && given.device().is_cpu();
    const at::Tensor self = copied ? given.contiguous() : given;
    if (const char* why = not_plain(self))
        return why;
    if ((index.scalar_type() != at::kLong && index.scalar_type() != at::kInt) ||
        !index.device().is_cpu() || index.layout() != at::kStrided)
        return "index not an int32 or int64 CPU tensor";
    const int64_t rank = self.dim();
    if (rank == 0 || index.dim() != rank)
        return "0-d tensors or ranks that differ";
    if (src && (src->dim() != rank || src->scalar_type() != self.scalar_type() ||
                !src->device().is_cpu() || src->layout() != at::kStrided ||
                src->is_quantized() || src->is_conj() || src->is_neg()))
        return "src of another rank, type or layout";
    if (dim < -rank || dim >= rank)
        return "dim out of range";
    dim = c10::maybe_wrap_dim(dim, rank);
    for (int64_t d = 0; d < rank; ++d)
        if ((d != dim && index.size(d) > self.size(d)) || (src && index.size(d) > src->size(d)))
            return "index larger than self or src";
    if (index.numel() == 0)
        return "empty index";
    if (const char* why = unserved_reduction(call.reduction, self.scalar_type(), !call.reduce_two))
        return why;

    // The updates: src over the index's extent, which must be a
    // contiguous view; rows when dim is 0 and the index is a row index.
    const at::Tensor rows = dim == 0 ? row_index(index, dim, self.sizes(), false) : at::Tensor();
    if (!rows.defined() && !index.is_contiguous())
        return "index neither contiguous nor rows (stride 0 after dim 0)";
    if (!rows.defined())
        if (const char* why = elements_too_large(
                index.numel(), call.reduction.mean || (call.reduction.sgk != SGK_REDUCE_NONE &&
                                                       call.reduction.sgk != SGK_REDUCE_ADD)))
            return why;
    at::Tensor updates;
    if (src) {
        updates = *src;
        for (int64_t d = 0; d < rank; ++d)
            if (updates.size(d) != index.size(d))
                updates = updates.narrow(d, 0, index.size(d));
        if (!updates.is_contiguous())
            return "src not contiguous over the index's extent";
    }
    if (into == Into::self) {
        if (const char* why = overlapping(self, {&index, src}))
            return why;
    } else if (into == Into::out) {
        if (out.is_same(self))
            into = Into::self;
        else if (const char* why = unusable_out(out, self.sizes(), self.scalar_type(),
                                                {&self, &index, src ? src : &self}))
            return why;
    }

    sync_threads();
    const at::Tensor& negatives = rows.defined() ? rows : index;
    if (int64_t bad = first_negative(negatives); bad >= 0)
        raise_negative(call.name, negatives, bad, dim, self.size(dim), Raises::runtime_error);
    if (into == Into::fresh)
        out = copied ? self : new_output(self.sizes(), self.options());
    if (into == Into::self)
        out = self;
    const Reduction& r = call.reduction;
    // Rows to fill with one value (scatter's value form, or a reduction's
    // identity for include_self=False) are filled once each, not through a
    // tensor of the value as large as the index; a bad index goes to sgk
    // below instead, which reports it before writing.
    const bool fill_value = !src && rows.defined() && r.sgk == SGK_REDUCE_NONE;
    const bool fill_identity = !r.include_self && rows.defined();
    std::optional<std::vector<int64_t>> touched;
    if (fill_value || fill_identity)
        touched = touched_slots(rows, self.size(0));
    const bool fills = touched.has_value();
    if (!src && !(fill_value && fills))
        updates = at::full(index.sizes(), *value, self.options());
    if (fills) {
        if (!out.is_same(self))
            out.copy_(self);
        fill_rows(out, *touched, fill_value ? *value : identity(r, self.scalar_type()));
        if (fill_value)
            return nullptr;
    }

    const Operand data(self);
    const Operand upd(updates);
    const Operand result(out);
    sgk_status status;
    if (fills) {
        status = run(result, rows, index, upd, dim, r.sgk, out.data_ptr());
        TORCH_CHECK(status == SGK_OK, call.name, ": ", sgk_last_error());
    } else if (!r.include_self) {
        // PyTorch's definition: the touched places take the identity,
        // then the reduction runs over them as if self held it.
        const at::Tensor start = at::full(updates.sizes(), identity(r, self.scalar_type()),
                                          self.options());
        status = run(data, rows, index, Operand(start), dim, SGK_REDUCE_NONE, out.data_ptr());
        if (status == SGK_OK) {
            // The output holds the identities now: no falling back from here.
            status = run(result, rows, index, upd, dim, r.sgk, out.data_ptr());
            TORCH_CHECK(status == SGK_OK, call.name, ": ", sgk_last_error());
        }
    } else {
        status = run(data, rows, index, upd, dim, r.sgk, out.data_ptr());
    }
    if (!check(status, Raises::runtime_error))
        return sgk_status_name(status);
    if (r.mean && rows.defined()) {
        at::Tensor count = count_rows(out, rows, r.include_self);
        divide_by_count(out, count);
    } else if (r.mean) {
        at::Tensor count = start_count(self, r);
        const at::Tensor ones = at::ones(updates.sizes(), self.options());
        status = run(Operand(count), rows, index, Operand(ones), dim, SGK_REDUCE_ADD,
                     count.data_ptr());
        TORCH_CHECK(status == SGK_OK, "scatter_reduce mean: counting failed: ", sgk_last_error());
        divide_by_count(out, count);
    }
    return nullptr;
}

// The three forms of every overload: functional, in place, out=.
template <typename Fallback>
at::Tensor functional(Op op, const Scatter& call, const at::Tensor& self, int64_t dim,
                      const at::Tensor& index, const at::Tensor* src, const at::Scalar* value,
                      Fallback fallback) {
    at::Tensor out;
    if (const char* why = scatter_on_sgk(call, self, dim, index, src, value, out, Into::fresh)) {
        count_fallback(op, why);
        return fallback();
    }
    count_served(op);
    return out;
}

template <typename Fallback>
at::Tensor& in_place(Op op, const Scatter& call, at::Tensor& self, int64_t dim,
                     const at::Tensor& index, const at::Tensor* src, const at::Scalar* value,
                     Fallback fallback) {
    at::Tensor out;
    if (const char* why = scatter_on_sgk(call, self, dim, index, src, value, out, Into::self)) {
        count_fallback(op, why);
        return fallback();
    }
    count_served(op);
    return self;
}

template <typename Fallback>
at::Tensor& into_out(Op op, const Scatter& call, const at::Tensor& self, int64_t dim,
                     const at::Tensor& index, const at::Tensor* src, const at::Scalar* value,
                     at::Tensor& out, Fallback fallback) {
    if (const char* why = scatter_on_sgk(call, self, dim, index, src, value, out, Into::out)) {
        count_fallback(op, why);
        return fallback();
    }
    count_served(op);
    return out;
}

const Scatter plain_scatter{"scatter", {}};
const Scatter add_scatter{"scatter_add", {SGK_REDUCE_ADD}};

}  // namespace

at::Tensor scatter_src(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                       const at::Tensor& src) {
    return functional(Op::scatter, plain_scatter, self, dim, index, &src, nullptr,
                      [&] { return at::cpu::scatter(self, dim, index, src); });
}
at::Tensor& scatter_src_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                         const at::Tensor& src) {
    return in_place(Op::scatter, plain_scatter, self, dim, index, &src, nullptr,
                    [&]() -> at::Tensor& { return at::cpu::scatter_(self, dim, index, src); });
}
at::Tensor& scatter_src_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                            const at::Tensor& src, at::Tensor& out) {
    return into_out(Op::scatter, plain_scatter, self, dim, index, &src, nullptr, out,
                    [&]() -> at::Tensor& { return at::cpu::scatter_outf(self, dim, index, src, out); });
}

at::Tensor scatter_value(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                         const at::Scalar& value) {
    return functional(Op::scatter, plain_scatter, self, dim, index, nullptr, &value,
                      [&] { return at::cpu::scatter(self, dim, index, value); });
}
at::Tensor& scatter_value_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                           const at::Scalar& value) {
    return in_place(Op::scatter, plain_scatter, self, dim, index, nullptr, &value,
                    [&]() -> at::Tensor& { return at::cpu::scatter_(self, dim, index, value); });
}
at::Tensor& scatter_value_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const at::Scalar& value, at::Tensor& out) {
    return into_out(Op::scatter, plain_scatter, self, dim, index, nullptr, &value, out,
                    [&]() -> at::Tensor& { return at::cpu::scatter_outf(self, dim, index, value, out); });
}

at::Tensor scatter_reduce_src(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const at::Tensor& src, c10::string_view reduce) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return functional(Op::scatter, call, self, dim, index, &src, nullptr,
                      [&] { return at::cpu::scatter(self, dim, index, src, reduce); });
}
at::Tensor& scatter_reduce_src_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                                const at::Tensor& src, c10::string_view reduce) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return in_place(Op::scatter, call, self, dim, index, &src, nullptr,
                    [&]() -> at::Tensor& { return at::cpu::scatter_(self, dim, index, src, reduce); });
}
at::Tensor& scatter_reduce_src_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                   const at::Tensor& src, c10::string_view reduce,
                                   at::Tensor& out) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return into_out(Op::scatter, call, self, dim, index, &src, nullptr, out, [&]() -> at::Tensor& {
        return at::cpu::scatter_outf(self, dim, index, src, reduce, out);
    });
}

at::Tensor scatter_reduce_value(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                const at::Scalar& value, c10::string_view reduce) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return functional(Op::scatter, call, self, dim, index, nullptr, &value,
                      [&] { return at::cpu::scatter(self, dim, index, value, reduce); });
}
at::Tensor& scatter_reduce_value_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                                  const at::Scalar& value, c10::string_view reduce) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return in_place(Op::scatter, call, self, dim, index, nullptr, &value, [&]() -> at::Tensor& {
        return at::cpu::scatter_(self, dim, index, value, reduce);
    });
}
at::Tensor& scatter_reduce_value_out(const at::Tensor& self, int64_t dim,
                                     const at::Tensor& index, const at::Scalar& value,
                                     c10::string_view reduce, at::Tensor& out) {
    const Scatter call{"scatter", legacy_reduction(reduce)};
    return into_out(Op::scatter, call, self, dim, index, nullptr, &value, out,
                    [&]() -> at::Tensor& {
                        return at::cpu::scatter_outf(self, dim, index, value, reduce, out);
                    });
}

at::Tensor scatter_add(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                       const at::Tensor& src) {
    return functional(Op::scatter_add, add_scatter, self, dim, index, &src, nullptr,
                      [&] { return at::cpu::scatter_add(self, dim, index, src); });
}
at::Tensor& scatter_add_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                         const at::Tensor& src) {
    return in_place(Op::scatter_add, add_scatter, self, dim, index, &src, nullptr,
                    [&]() -> at::Tensor& { return at::cpu::scatter_add_(self, dim, index, src); });
}
at::Tensor& scatter_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                            const at::Tensor& src, at::Tensor& out) {
    return into_out(Op::scatter_add, add_scatter, self, dim, index, &src, nullptr, out,
                    [&]() -> at::Tensor& { return at::cpu::scatter_add_outf(self, dim, index, src, out); });
}

at::Tensor scatter_reduce_two(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const at::Tensor& src, c10::string_view reduce, bool include_self) {
    const Scatter call{"scatter_reduce", two_reduction(reduce, include_self), true};
    return functional(Op::scatter_reduce, call, self, dim, index, &src, nullptr, [&] {
        return at::cpu::scatter_reduce(self, dim, index, src, reduce, include_self);
    });
}
at::Tensor& scatter_reduce_two_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                                const at::Tensor& src, c10::string_view reduce,
                                bool include_self) {
    const Scatter call{"scatter_reduce", two_reduction(reduce, include_self), true};
    return in_place(Op::scatter_reduce, call, self, dim, index, &src, nullptr,
                    [&]() -> at::Tensor& {
                        return at::cpu::scatter_reduce_(self, dim, index, src, reduce, include_self);
                    });
}
at::Tensor& scatter_reduce_two_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                   const at::Tensor& src, c10::string_view reduce,
                                   bool include_self, at::Tensor& out) {
    const Scatter call{"scatter_reduce", two_reduction(reduce, include_self), true};
    return into_out(Op::scatter_reduce, call, self, dim, index, &src, nullptr, out,
                    [&]() -> at::Tensor& {
                        return at::cpu::scatter_reduce_outf(self, dim, index, src, reduce,
                                                            include_self, out);
                    });
}

}  // namespace sgk_torch
