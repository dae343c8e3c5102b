// Vectorized reductions out = f(out, update) over slices: the same contract
// and the same arithmetic as the scalar kernels of src/kernels/reduce.c (the
// reference), lane by lane.  Every cell is an Op (what one vector step does
// to dst and src) run by one driver; the tail of a slice runs the same Op on
// narrower vectors, so it cannot compute anything the body would not.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/reduce.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "sgk.h"
#include "simd/simd.h"
#include "simd/reduce_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- ops: one vector step of dst = f(dst, src) --------------------------------
// T is the stored element, Lane the type of the vector lanes the Op computes
// in (the driver makes the tags), kScalars the T values one lane covers.

template <typename TT, class F>
struct Plain {
  using T = TT;
  using Lane = TT;
  static constexpr size_t kScalars = 1;
  template <class D>
  HWY_INLINE void operator()(D d, T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) const {
    hn::StoreU(F()(d, hn::LoadU(d, dst), hn::LoadU(d, src)), d, dst);
  }
};

// 8-bit products: Highway 1.0.3 has no 8-bit Mul, so multiply in 16-bit
// lanes and keep the low byte.
struct Mul8 {
  using T = uint8_t;
  using Lane = uint16_t;
  static constexpr size_t kScalars = 1;
  template <class D>
  HWY_INLINE void operator()(D d, T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) const {
    const hn::Rebind<uint8_t, D> d8;
    const hn::RebindToSigned<D> di;
    const auto p = hn::Mul(hn::PromoteTo(d, hn::LoadU(d8, dst)), hn::PromoteTo(d, hn::LoadU(d8, src)));
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(di, hn::And(p, hn::Set(d, 0xff)))), d8, dst);
  }
};

// fp16/bf16 add/sub/mul: widen, compute in float32, round after this update.
template <class Half, class F>
struct HalfArith {
  using T = uint16_t;
  using Lane = float;
  static constexpr size_t kScalars = 1;
  template <class D>
  HWY_INLINE void operator()(D d, T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) const {
    const hn::Rebind<uint16_t, D> d16;
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
    const auto a = Half::Widen(d, hn::PromoteTo(du, hn::LoadU(d16, dst)));
    const auto b = Half::Widen(d, hn::PromoteTo(du, hn::LoadU(d16, src)));
    const auto r = Half::Narrow(d, F()(d, a, b));
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, r)), d16, dst);
  }
};

// fp16/bf16 max/min: compare widened, keep the chosen operand's own bits.
template <class Half, class F>
struct HalfPick {
  using T = uint16_t;
  using Lane = float;
  static constexpr size_t kScalars = 1;
  template <class D>
  HWY_INLINE void operator()(D d, T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) const {
    const hn::Rebind<uint16_t, D> d16;
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
    const auto a = hn::PromoteTo(du, hn::LoadU(d16, dst));
    const auto b = hn::PromoteTo(du, hn::LoadU(d16, src));
    const auto keep = F::KeepStored(Half::Widen(d, a), Half::Widen(d, b));
    const auto r = hn::IfThenElse(hn::RebindMask(du, keep), a, b);
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, r)), d16, dst);
  }
};

// Complex product (ac - bd, ad + bc) on deinterleaved parts, each operation
// rounded on its own as in reduce.c (no FMA: -ffp-contract=off).
template <typename F>
struct ComplexMul {
  using T = F;
  using Lane = F;
  static constexpr size_t kScalars = 2;
  template <class D>
  HWY_INLINE void operator()(D d, T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) const {
    hn::Vec<D> a, b, c, e;
    hn::LoadInterleaved2(d, dst, a, b);
    hn::LoadInterleaved2(d, src, c, e);
    const auto re = hn::Sub(hn::Mul(a, c), hn::Mul(b, e));
    const auto im = hn::Add(hn::Mul(a, e), hn::Mul(b, c));
    hn::StoreInterleaved2(re, im, d, dst);
  }
};

// ---- the driver ----------------------------------------------------------------

// The rest of a slice, shorter than a full vector: vectors of kLanes,
// kLanes/2, ... 1 lanes, each used at most once (a narrow slice costs a few
// operations, not one per element).
template <class Op, size_t kLanes>
HWY_INLINE void ApplyTail(typename Op::T* HWY_RESTRICT dst,
                          const typename Op::T* HWY_RESTRICT src, size_t e, size_t n) {
  const hn::CappedTag<typename Op::Lane, kLanes> d;
  const size_t step = hn::Lanes(d) * Op::kScalars;
  if (e + step <= n) {
    Op()(d, dst + e, src + e);
    e += step;
  }
  if constexpr (kLanes > 1) ApplyTail<Op, kLanes / 2>(dst, src, e, n);
}

// One slice of n T values: full vectors (two at a time while they last),
// then the tail, all through the same Op.
template <class Op>
HWY_INLINE void ApplySlice(typename Op::T* HWY_RESTRICT dst,
                           const typename Op::T* HWY_RESTRICT src, size_t n) {
  using Lane = typename Op::Lane;
  const hn::ScalableTag<Lane> d;
  const Op op;
  const size_t step = hn::Lanes(d) * Op::kScalars;
  size_t e = 0;
  for (; e + 2 * step <= n; e += 2 * step) {
    op(d, dst + e, src + e);
    op(d, dst + e + step, src + e + step);
  }
  for (; e + step <= n; e += step) op(d, dst + e, src + e);
  constexpr size_t kHalf = HWY_LANES(Lane) / 2;
  if constexpr (kHalf >= 1) ApplyTail<Op, kHalf>(dst, src, e, n);
}

// Pairs ahead whose update slice is prefetched, as in move_slices.cc.
constexpr int64_t kPrefetchAhead = 2;
constexpr size_t kPrefetchMinBytes = 256;

// The sgk_apply_fn contract (src/kernels/reduce.h); kPerElement T values make one
// element (2 for complex).
template <class Op, size_t kPerElement = 1>
void Apply(void* dst_v, const int64_t* slot, const void* src_v, const int64_t* pos,
           int64_t begin, int64_t end, int64_t stride, int64_t width) {
  using T = typename Op::T;
  T* dst = static_cast<T*>(dst_v);
  const T* src = static_cast<const T*>(src_v);
  const size_t row = static_cast<size_t>(stride) * kPerElement;
  const size_t n = static_cast<size_t>(width) * kPerElement;
  // Updates picked through pos are read out of order: fetch the slice after
  // next (up to 1 KiB of it) while this one is reduced.  Slices below
  // kPrefetchMinBytes do without: out-of-order execution already overlaps
  // their loads, so a prefetch would only add work to every pair.
  const bool prefetch = pos != nullptr && n * sizeof(T) >= kPrefetchMinBytes;
  for (int64_t i = begin; i < end; i++) {
    if (prefetch && i + kPrefetchAhead < end) {
      const uint8_t* next =
          reinterpret_cast<const uint8_t*>(src + static_cast<size_t>(pos[i + kPrefetchAhead]) * row);
      for (size_t b = 0; b < n * sizeof(T) && b < 1024; b += 64) hwy::Prefetch(next + b);
    }
    ApplySlice<Op>(dst + static_cast<size_t>(slot[i]) * row,
                   src + static_cast<size_t>(pos != nullptr ? pos[i] : i) * row, n);
  }
}

// ---- the (dtype, reduction) table ------------------------------------------------

// A cell without a vector Op (void) has no kernel.
template <class Op, size_t kPer>
sgk_simd_apply_fn Kernel() {
  if constexpr (std::is_void_v<Op>) {
    return nullptr;
  } else {
    return Apply<Op, kPer>;
  }
}

template <class Add, class Sub, class Mul, class Max, class Min, size_t kPer = 1>
sgk_simd_apply_fn Row(int reduction) {
  switch (reduction) {
    case SGK_REDUCE_ADD: return Kernel<Add, kPer>();
    case SGK_REDUCE_SUB: return Kernel<Sub, kPer>();
    case SGK_REDUCE_MUL: return Kernel<Mul, kPer>();
    case SGK_REDUCE_MAX: return Kernel<Max, kPer>();
    case SGK_REDUCE_MIN: return Kernel<Min, kPer>();
    default: return nullptr;
  }
}

// Add/sub/mul wrap in the unsigned type; max/min compare in S itself.
template <typename S>
sgk_simd_apply_fn IntegerRow(int reduction) {
  using U = hwy::MakeUnsigned<S>;
  using Mul = std::conditional_t<sizeof(S) == 1, Mul8, Plain<U, MulF>>;
  return Row<Plain<U, AddF>, Plain<U, SubF>, Mul, Plain<S, MaxF>, Plain<S, MinF>>(reduction);
}

template <typename F>
sgk_simd_apply_fn FloatRow(int reduction) {
  return Row<Plain<F, AddF>, Plain<F, SubF>, Plain<F, MulF>, Plain<F, FloatMaxF>,
             Plain<F, FloatMinF>>(reduction);
}

template <class Half>
sgk_simd_apply_fn HalfRow(int reduction) {
  return Row<HalfArith<Half, AddF>, HalfArith<Half, SubF>, HalfArith<Half, MulF>,
             HalfPick<Half, FloatMaxF>, HalfPick<Half, FloatMinF>>(reduction);
}

template <typename F>
sgk_simd_apply_fn ComplexRow(int reduction) {
  // componentwise add/sub are plain float lanes over both parts; no max/min
  return Row<Plain<F, AddF>, Plain<F, SubF>, ComplexMul<F>, void, void, 2>(reduction);
}

sgk_simd_apply_fn ApplyKernel(int dtype, int reduction) {
  switch (dtype) {
    case SGK_BOOL:
      return Row<Plain<uint8_t, BoolOrF>, Plain<uint8_t, BoolXorF>, Plain<uint8_t, BoolAndF>,
                 Plain<uint8_t, BoolOrF>, Plain<uint8_t, BoolAndF>>(reduction);
    case SGK_INT8: return IntegerRow<int8_t>(reduction);
    case SGK_UINT8: return IntegerRow<uint8_t>(reduction);
    case SGK_INT16: return IntegerRow<int16_t>(reduction);
    case SGK_UINT16: return IntegerRow<uint16_t>(reduction);
    case SGK_INT32: return IntegerRow<int32_t>(reduction);
    case SGK_UINT32: return IntegerRow<uint32_t>(reduction);
    case SGK_INT64: return IntegerRow<int64_t>(reduction);
    case SGK_UINT64: return IntegerRow<uint64_t>(reduction);
    case SGK_FLOAT16: return HalfRow<F16>(reduction);
    case SGK_BFLOAT16: return HalfRow<BF16>(reduction);
    case SGK_FLOAT32: return FloatRow<float>(reduction);
    case SGK_FLOAT64: return FloatRow<double>(reduction);
    case SGK_COMPLEX64: return ComplexRow<float>(reduction);
    case SGK_COMPLEX128: return ComplexRow<double>(reduction);
    default: return nullptr;
  }
}


}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.h"

namespace sgk {
HWY_EXPORT(ApplyKernel);

extern "C" sgk_simd_apply_fn sgk_simd_apply_kernel(int dtype, int reduction) {
  return SGK_DISPATCH(ApplyKernel)(dtype, reduction);
}
}  // namespace sgk
#endif  // HWY_ONCE
