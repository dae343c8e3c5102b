// index_add, index_copy, index_reduce and index_fill_ on sgk's ScatterND:
// rows of a [b, s, r] view of self, the moved dimension in the middle,
// which is free for a contiguous tensor.  index_put_ and
// embedding_dense_backward are in index_put.cpp.
#include <vector>

#include <ATen/CPUFunctions.h>
#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/ones.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/accumulate.h>

#include "counters.hpp"
#include "kernels.hpp"
#include "operands.hpp"
#include "reductions.hpp"
#include "size_rule.hpp"
#include "threads.hpp"

namespace sgk_torch {

namespace {

enum class Into { fresh, self, out };

struct IndexUpdate {
    const char* name;
    Reduction reduction;
    Raises raises;
    bool int32_index;        // whether PyTorch takes an int32 index too
    bool negatives_wrap = false;  // whether PyTorch counts negative indices from the end
};

const IndexUpdate add_update{"index_add", {SGK_REDUCE_ADD}, Raises::runtime_error, true};
const IndexUpdate copy_update{"index_copy", {}, Raises::index_error, false};

// index_fill: a copy of one value into the rows, negative indices counting
// from the end as in sgk.
const IndexUpdate fill_update{"index_fill", {}, Raises::index_error, false, true};

IndexUpdate reduce_update(c10::string_view reduce, bool include_self) {
    return {"index_reduce", two_reduction(reduce, include_self, false), Raises::index_error, true};
}

bool is_one(const at::Scalar& alpha) {
    if (alpha.isBoolean())
        return alpha.toBool();
    if (alpha.isIntegral(false))
        return alpha.toLong() == 1;
    if (alpha.isFloatingPoint())
        return alpha.toDouble() == 1.0;
    return alpha.toComplexDouble() == c10::complex<double>(1.0, 0.0);
}

// index_add's alpha: PyTorch adds alpha * source.  For integers that is
// exact in any grouping (wrapping), so sgk adds a scaled copy; for floats
// PyTorch may fuse the multiply into the add, so only alpha = 1 is served.
const char* unserved_alpha(const at::Scalar& alpha, const at::Tensor& self) {
    if (is_one(alpha))
        return nullptr;
    if (at::isIntegralType(self.scalar_type(), false) && alpha.isIntegral(false))
        return nullptr;
    return "alpha other than 1 on floats";
}

// self with source's slices added (copied) at index along dim, into out.
const char* index_update_on_sgk(const IndexUpdate& call, const at::Tensor& self, int64_t dim,
                                const at::Tensor& index, const at::Tensor& source,
                                at::Tensor& out, Into into) {
    if (const char* why = not_plain(self))
        return why;
    if (const char* why = not_plain(source))
        return why;
    if (source.scalar_type() != self.scalar_type())
        return "source of another type";
    if (!(index.scalar_type() == at::kLong || (call.int32_index && index.scalar_type() == at::kInt)) ||
        index.dim() > 1 || not_plain(index))
        return "index not a contiguous 1-d integer tensor of the type PyTorch takes";
    if (const char* why = unserved_reduction(call.reduction, self.scalar_type(), true))
        return why;
    const int64_t rank = self.dim();
    if (rank == 0 || source.dim() != rank)
        return "0-d tensors or ranks that differ";
    if (dim < -rank || dim >= rank)
        return "dim out of range";
    dim = c10::maybe_wrap_dim(dim, rank);
    const int64_t n = index.numel();
    for (int64_t d = 0; d < rank; ++d)
        if (source.size(d) != (d == dim ? n : self.size(d)))
            return "source of another shape";
    if (n == 0 || self.numel() == 0)
        return "empty";
    if (into == Into::out && out.is_same(self))
        into = Into::self;
    if (into == Into::self) {
        if (const char* why = overlapping(self, {&index, &source}))
            return why;
    } else if (into == Into::out) {
        if (const char* why = unusable_out(out, self.sizes(), self.scalar_type(), {&self, &index, &source}))
            return why;
    }

    sync_threads();
    if (!call.negatives_wrap)
        if (int64_t bad = first_negative(index); bad >= 0)
            raise_negative(call.name, index, bad, dim, self.size(dim), call.raises);
    if (into == Into::fresh)
        out = new_output(self.sizes(), self.options());
    if (into == Into::self)
        out = self;

    const sgk_dtype type = *sgk_type_of(self.scalar_type());
    const int64_t b = extent(self.sizes(), 0, dim), s = self.size(dim),
                  r = extent(self.sizes(), dim + 1, rank);
    // With leading dimensions: (batch, position) pairs, b * n of them, so
    // that each update is still a row of r elements.
    std::vector<int64_t> pairs;
    if (b > 1) {
        pairs.resize(static_cast<size_t>(b * n * 2));
        const at::Tensor wide = index.to(at::kLong);
        const int64_t* positions = wide.const_data_ptr<int64_t>();
        for (int64_t i = 0; i < b; ++i)
            for (int64_t j = 0; j < n; ++j) {
                pairs[static_cast<size_t>((i * n + j) * 2)] = i;
                pairs[static_cast<size_t>((i * n + j) * 2 + 1)] = positions[j];
            }
    }
    const sgk_dtype positions = index.scalar_type() == at::kLong ? SGK_INT64 : SGK_INT32;
    const auto scatter_rows = [&](const void* data, const void* updates, sgk_reduction reduction,
                                  void* output) {
        if (b == 1)
            return sgk_scatter_nd(Operand(type, {s, r}, data).get(),
                                  Operand(positions, {n, 1}, index.const_data_ptr()).get(),
                                  Operand(type, {n, r}, updates).get(), reduction, output);
        return sgk_scatter_nd(Operand(type, {b, s, r}, data).get(),
                              Operand(SGK_INT64, {b, n, 2}, pairs.data()).get(),
                              Operand(type, {b, n, r}, updates).get(), reduction, output);
    };
    const Reduction& red = call.reduction;
    sgk_status status;
    if (!red.include_self) {
        // PyTorch fills the touched places with the identity, then reduces.
        const at::Tensor start = at::full(source.sizes(), identity(red, self.scalar_type()),
                                          self.options());
        status = scatter_rows(self.const_data_ptr(), start.const_data_ptr(), SGK_REDUCE_NONE,
                              out.data_ptr());
        if (status == SGK_OK) {
            // The output holds the identities now: no falling back from here.
            status = scatter_rows(out.const_data_ptr(), source.const_data_ptr(), red.sgk,
                                  out.data_ptr());
            TORCH_CHECK(status == SGK_OK, call.name, ": ", sgk_last_error());
        }
    } else {
        status = scatter_rows(self.const_data_ptr(), source.const_data_ptr(), red.sgk,
                              out.data_ptr());
    }
    if (!check(status, call.raises))
        return sgk_status_name(status);
    if (red.mean) {
        at::Tensor count = start_count(self, red);
        const at::Tensor ones = at::ones(source.sizes(), self.options());
        status = scatter_rows(count.const_data_ptr(), ones.const_data_ptr(), SGK_REDUCE_ADD,
                              count.data_ptr());
        TORCH_CHECK(status == SGK_OK, "index_reduce mean: counting failed: ", sgk_last_error());
        divide_by_count(out, count);
    }
    return nullptr;
}

template <typename Fallback>
at::Tensor& updated(Op op, const IndexUpdate& call, const at::Tensor& self, int64_t dim,
                    const at::Tensor& index, const at::Tensor& source, at::Tensor& out,
                    Into into, const char* refused, Fallback fallback) {
    const char* why = refused ? refused
                              : index_update_on_sgk(call, self, dim, index, source, out, into);
    if (why) {
        count_fallback(op, why);
        return fallback();
    }
    count_served(op);
    return out;
}

// alpha * source, which sgk adds, when alpha is not 1 (integers only).
at::Tensor scaled(const at::Tensor& source, const at::Scalar& alpha, const char* refused) {
    return refused || is_one(alpha) ? source : at::mul(source, alpha);
}

}  // namespace

at::Tensor index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                     const at::Tensor& source, const at::Scalar& alpha) {
    at::Tensor out;
    const char* refused = unserved_alpha(alpha, self);
    return updated(Op::index_add, add_update, self, dim, index, scaled(source, alpha, refused), out,
                   Into::fresh, refused, [&]() -> at::Tensor& {
                       return out = at::cpu::index_add(self, dim, index, source, alpha);
                   });
}
at::Tensor& index_add_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                       const at::Tensor& source, const at::Scalar& alpha) {
    at::Tensor out;
    const char* refused = unserved_alpha(alpha, self);
    updated(Op::index_add, add_update, self, dim, index, scaled(source, alpha, refused), out,
            Into::self, refused,
            [&]() -> at::Tensor& { return at::cpu::index_add_(self, dim, index, source, alpha); });
    return self;
}
at::Tensor& index_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                          const at::Tensor& source, const at::Scalar& alpha, at::Tensor& out) {
    const char* refused = unserved_alpha(alpha, self);
    return updated(Op::index_add, add_update, self, dim, index, scaled(source, alpha, refused), out,
                   Into::out, refused, [&]() -> at::Tensor& {
                       return at::cpu::index_add_outf(self, dim, index, source, alpha, out);
                   });
}

at::Tensor index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                      const at::Tensor& source) {
    at::Tensor out;
    return updated(Op::index_copy, copy_update, self, dim, index, source, out, Into::fresh,
                   nullptr, [&]() -> at::Tensor& {
                       return out = at::cpu::index_copy(self, dim, index, source);
                   });
}
at::Tensor& index_copy_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                        const at::Tensor& source) {
    at::Tensor out;
    updated(Op::index_copy, copy_update, self, dim, index, source, out, Into::self, nullptr,
            [&]() -> at::Tensor& { return at::cpu::index_copy_(self, dim, index, source); });
    return self;
}
at::Tensor& index_copy_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                           const at::Tensor& source, at::Tensor& out) {
    return updated(Op::index_copy, copy_update, self, dim, index, source, out, Into::out, nullptr,
                   [&]() -> at::Tensor& {
                       return at::cpu::index_copy_outf(self, dim, index, source, out);
                   });
}

at::Tensor index_reduce(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                        const at::Tensor& source, c10::string_view reduce, bool include_self) {
    at::Tensor out;
    return updated(Op::index_reduce, reduce_update(reduce, include_self), self, dim, index, source,
                   out, Into::fresh, nullptr, [&]() -> at::Tensor& {
                       return out = at::cpu::index_reduce(self, dim, index, source, reduce,
                                                          include_self);
                   });
}
at::Tensor& index_reduce_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                          const at::Tensor& source, c10::string_view reduce, bool include_self) {
    at::Tensor out;
    updated(Op::index_reduce, reduce_update(reduce, include_self), self, dim, index, source, out,
            Into::self, nullptr, [&]() -> at::Tensor& {
                return at::cpu::index_reduce_(self, dim, index, source, reduce, include_self);
            });
    return self;
}
at::Tensor& index_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                             const at::Tensor& source, c10::string_view reduce, bool include_self,
                             at::Tensor& out) {
    return updated(Op::index_reduce, reduce_update(reduce, include_self), self, dim, index, source,
                   out, Into::out, nullptr, [&]() -> at::Tensor& {
                       return at::cpu::index_reduce_outf(self, dim, index, source, reduce,
                                                         include_self, out);
                   });
}

// sgk has no fill: the value goes in as rows of a tensor made for the
// call, which doubles the bytes written.  So only fills within the size
// rule's bound reach sgk (where the call's overhead, not its bytes, is
// the cost); larger ones stay with PyTorch's kernel.
at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                        const at::Scalar& value) {
    at::Tensor out, rows;
    const char* refused = nullptr;
    if (self.dim() == 0 || dim < -self.dim() || dim >= self.dim())
        refused = "0-d self or dim out of range";
    else if (index.dim() > 1 || !index.defined())
        refused = "index of more than one dimension";
    else {
        auto sizes = self.sizes().vec();
        sizes[c10::maybe_wrap_dim(dim, self.dim())] = index.numel();
        refused = elements_too_large(c10::multiply_integers(sizes), false);
        if (!refused)
            rows = at::full(sizes, value, self.options());
    }
    updated(Op::index_fill, fill_update, self, dim, index, rows, out, Into::self, refused,
            [&]() -> at::Tensor& { return at::cpu::index_fill_(self, dim, index, value); });
    return self;
}

at::Tensor& index_fill_tensor_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                               const at::Tensor& value) {
    if (value.dim() != 0 || !value.device().is_cpu()) {
        count_fallback(Op::index_fill, "value not a 0-d CPU tensor");
        return at::cpu::index_fill_(self, dim, index, value);
    }
    return index_fill_(self, dim, index, value.item());
}

}  // namespace sgk_torch
