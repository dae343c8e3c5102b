// Index reading at memory speed: the bounds check every one-shot call
// makes before its first write, and the normalization of checked indices
// into slots.  A scalar loop spends several instructions per index; a
// vector compares or offsets a whole register of them.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/index_check.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <limits>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whether every idx[0..n) lies in [-dim, dim) (from_zero: [0, dim)):
// within [lo, hi], the bounds clamped to T's range (an int32 index cannot
// leave a dimension of 2^31 or more).
template <typename T>
bool InRangeOf(const T* HWY_RESTRICT idx, int64_t n, int64_t dim, bool from_zero) {
  if (dim <= 0) return n == 0;
  const int64_t tmin = std::numeric_limits<T>::min(), tmax = std::numeric_limits<T>::max();
  const int64_t low = from_zero ? 0 : -dim;
  const T lo = static_cast<T>(low < tmin ? tmin : low);
  const T hi = static_cast<T>(dim - 1 > tmax ? tmax : dim - 1);
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  auto bad = hn::Zero(d);
  int64_t i = 0;
  // two vectors a step: the loads, not the compares, are the limit
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::LoadU(d, idx + i), b = hn::LoadU(d, idx + i + N);
    bad = hn::Or(bad, hn::VecFromMask(d, hn::Or(hn::Lt(a, vlo), hn::Gt(a, vhi))));
    bad = hn::Or(bad, hn::VecFromMask(d, hn::Or(hn::Lt(b, vlo), hn::Gt(b, vhi))));
  }
  bool ok = hn::AllFalse(d, hn::MaskFromVec(bad));
  for (; i < n; i++) ok &= idx[i] >= lo && idx[i] <= hi;
  return ok;
}

bool IndicesInRange(const void* idx, bool idx64, int64_t n, int64_t dim, bool from_zero) {
  return idx64 ? InRangeOf(static_cast<const int64_t*>(idx), n, dim, from_zero)
               : InRangeOf(static_cast<const int32_t*>(idx), n, dim, from_zero);
}

// Whether every v[0..n) equals value: XORs ORed together, one test at the
// end (a row that differs is rare and found at its end).
template <typename T>
bool AllEqualOf(const T* HWY_RESTRICT v, int64_t n, T value) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vv = hn::Set(d, value);
  auto diff = hn::Zero(d);
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    diff = hn::Or(diff, hn::Xor(hn::LoadU(d, v + i), vv));
    diff = hn::Or(diff, hn::Xor(hn::LoadU(d, v + i + N), vv));
  }
  T rest = 0;
  for (; i < n; i++) rest |= v[i] ^ value;
  return rest == 0 && hn::AllTrue(d, hn::Eq(diff, hn::Zero(d)));
}

bool AllEqual(const void* v, bool is64, int64_t n, int64_t value) {
  return is64 ? AllEqualOf(static_cast<const int64_t*>(v), n, value)
              : AllEqualOf(static_cast<const int32_t*>(v), n, static_cast<int32_t>(value));
}

// base + the index, plus dim when negative, in 64-bit lanes.
template <class V>
HWY_INLINE V Offset(V v, V vdim, V vbase) {
  return hn::Add(vbase, hn::Add(v, hn::And(vdim, hn::ShiftRight<63>(v))));
}

// c plus dim when negative; a bad c (below -dim) stays negative, and c +
// dim cannot overflow for dim > 0.
template <typename T>
HWY_INLINE int64_t Wrapped(T c, int64_t dim) {
  return c < 0 ? static_cast<int64_t>(c) + dim : static_cast<int64_t>(c);
}

// A vector of indices as 64-bit lanes.
template <class D>
HWY_INLINE hn::Vec<D> LoadAs64(D d, const int64_t* HWY_RESTRICT idx) {
  return hn::LoadU(d, idx);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadAs64(D d, const int32_t* HWY_RESTRICT idx) {
  return hn::PromoteTo(d, hn::LoadU(hn::Rebind<int32_t, D>(), idx));
}

// 64-bit slots from int64 or int32 indices.
template <typename T>
void OffsetTo64(const T* HWY_RESTRICT idx, int64_t n, int64_t dim, int64_t base,
                int64_t* HWY_RESTRICT slot) {
  const hn::ScalableTag<int64_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vdim = hn::Set(d, dim), vbase = hn::Set(d, base);
  int64_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(Offset(LoadAs64(d, idx + i), vdim, vbase), d, slot + i);
  for (; i < n; i++) slot[i] = base + Wrapped(idx[i], dim);
}

// Pairs of two coordinates (k = 2), interleaved as the indices hold them,
// into 64-bit slots base + w0 * s0 + w1 (w: the wrapped coordinates); false
// when a coordinate lies outside [-d0, d0) or [-d1, d1).  A vector holds
// N / 2 pairs, c0 in the even lanes: the even lanes take w0 * s0 (a 32 x 32
// -> 64-bit product, exact as d0 and s0 are below 2^32) plus the odd
// lane's w1, and the even lanes of two vectors make N slots.
template <typename T>
bool MapPairs2Of(const T* HWY_RESTRICT idx, int64_t pairs, int64_t d0, int64_t d1,
                 int64_t s0, int64_t base, int64_t* HWY_RESTRICT slot,
                 int32_t* HWY_RESTRICT slot32) {
  int64_t n = 0;
  bool ok = true;
#if HWY_TARGET != HWY_SCALAR  // one lane holds no pair
  const hn::ScalableTag<int64_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Repartition<uint32_t, decltype(du)> d32;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto lo = hn::InterleaveLower(hn::Set(d, -d0), hn::Set(d, -d1));
  const auto hi = hn::InterleaveLower(hn::Set(d, d0 - 1), hn::Set(d, d1 - 1));
  const auto dim = hn::InterleaveLower(hn::Set(d, d0), hn::Set(d, d1));
  const auto vs0 = hn::BitCast(d32, hn::Set(du, static_cast<uint64_t>(s0)));
  const auto vbase = hn::Set(du, static_cast<uint64_t>(base));
  auto bad = hn::Zero(d);
  for (; n + N <= pairs; n += N) {
    const auto a = LoadAs64(d, idx + 2 * n), b = LoadAs64(d, idx + 2 * n + N);
    bad = hn::Or(bad, hn::VecFromMask(d, hn::Or(hn::Lt(a, lo), hn::Gt(a, hi))));
    bad = hn::Or(bad, hn::VecFromMask(d, hn::Or(hn::Lt(b, lo), hn::Gt(b, hi))));
    const auto wa = hn::BitCast(du, hn::Add(a, hn::And(dim, hn::ShiftRight<63>(a))));
    const auto wb = hn::BitCast(du, hn::Add(b, hn::And(dim, hn::ShiftRight<63>(b))));
    const auto fa = hn::Add(hn::Add(hn::MulEven(hn::BitCast(d32, wa), vs0), hn::Shuffle01(wa)),
                            vbase);
    const auto fb = hn::Add(hn::Add(hn::MulEven(hn::BitCast(d32, wb), vs0), hn::Shuffle01(wb)),
                            vbase);
    const auto f = hn::ConcatEven(du, fb, fa);
    if (slot32 != nullptr) {
      const hn::Rebind<uint32_t, decltype(du)> dn;
      hn::StoreU(hn::TruncateTo(dn, f), dn, reinterpret_cast<uint32_t*>(slot32) + n);
    } else {
      hn::StoreU(hn::BitCast(d, f), d, slot + n);
    }
  }
  ok = hn::AllFalse(d, hn::MaskFromVec(bad));
#endif
  for (; n < pairs; n++) {
    const int64_t c0 = idx[2 * n], c1 = idx[2 * n + 1];
    ok &= c0 >= -d0 && c0 < d0 && c1 >= -d1 && c1 < d1;
    // unsigned: a bad coordinate's product must not overflow a signed type
    const uint64_t flat = static_cast<uint64_t>(base) +
                          static_cast<uint64_t>(Wrapped(c0, d0)) * static_cast<uint64_t>(s0) +
                          static_cast<uint64_t>(Wrapped(c1, d1));
    if (slot32 != nullptr)
      slot32[n] = static_cast<int32_t>(flat);
    else
      slot[n] = static_cast<int64_t>(flat);
  }
  return ok;
}

bool MapPairs2(const void* idx, bool idx64, int64_t pairs, int64_t d0, int64_t d1, int64_t s0,
               int64_t base, int64_t* slot, int32_t* slot32) {
  return idx64 ? MapPairs2Of(static_cast<const int64_t*>(idx), pairs, d0, d1, s0, base, slot,
                             slot32)
               : MapPairs2Of(static_cast<const int32_t*>(idx), pairs, d0, d1, s0, base, slot,
                             slot32);
}

// 32-bit slots (they fit: the planner chose them), from int64 indices:
// computed in 64 bits, then cut to their low halves.
void OffsetTo32From64(const int64_t* HWY_RESTRICT idx, int64_t n, int64_t dim, int64_t base,
                      int32_t* HWY_RESTRICT slot) {
  const hn::ScalableTag<int64_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<uint32_t, decltype(du)> d32;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vdim = hn::Set(d, dim), vbase = hn::Set(d, base);
  uint32_t* out = reinterpret_cast<uint32_t*>(slot);
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    const auto s = Offset(hn::LoadU(d, idx + i), vdim, vbase);
    hn::StoreU(hn::TruncateTo(d32, hn::BitCast(du, s)), d32, out + i);
  }
  for (; i < n; i++) slot[i] = static_cast<int32_t>(base + Wrapped(idx[i], dim));
}

// 32-bit slots from int32 indices: base + the wrapped index fits, so 32-bit
// lanes (unsigned, so that the sums wrap as the 64-bit ones would) do.
void OffsetTo32From32(const int32_t* HWY_RESTRICT idx, int64_t n, int64_t dim, int64_t base,
                      int32_t* HWY_RESTRICT slot) {
  const hn::ScalableTag<int32_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vdim = hn::Set(du, static_cast<uint32_t>(dim));
  const auto vbase = hn::Set(du, static_cast<uint32_t>(base));
  uint32_t* out = reinterpret_cast<uint32_t*>(slot);
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, idx + i);
    const auto neg = hn::BitCast(du, hn::ShiftRight<31>(v));
    hn::StoreU(hn::Add(vbase, hn::Add(hn::BitCast(du, v), hn::And(vdim, neg))), du, out + i);
  }
  for (; i < n; i++) slot[i] = static_cast<int32_t>(base + Wrapped(idx[i], dim));
}

// 16-bit slots within the axis (dim at most 65536): the index plus dim
// where negative, cut to its low 16 bits, in lanes as wide as the index.
template <typename T>
void WrapTo16Of(const T* HWY_RESTRICT idx, int64_t n, int64_t dim, uint16_t* HWY_RESTRICT out) {
  const hn::ScalableTag<T> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<uint16_t, decltype(du)> d16;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vdim = hn::Set(d, static_cast<T>(dim));
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, idx + i);
    const auto w = hn::Add(v, hn::And(vdim, hn::ShiftRight<sizeof(T) * 8 - 1>(v)));
    hn::StoreU(hn::TruncateTo(d16, hn::BitCast(du, w)), d16, out + i);
  }
  for (; i < n; i++) out[i] = static_cast<uint16_t>(Wrapped(idx[i], dim));
}

void WrapIndices16(const void* idx, bool idx64, int64_t n, int64_t dim, uint16_t* out) {
  if (idx64)
    WrapTo16Of(static_cast<const int64_t*>(idx), n, dim, out);
  else
    WrapTo16Of(static_cast<const int32_t*>(idx), n, dim, out);
}

void OffsetIndices(const void* idx, bool idx64, int64_t n, int64_t dim, int64_t base,
                   int64_t* slot, int32_t* slot32) {
  if (slot32 != nullptr) {
    if (idx64)
      OffsetTo32From64(static_cast<const int64_t*>(idx), n, dim, base, slot32);
    else
      OffsetTo32From32(static_cast<const int32_t*>(idx), n, dim, base, slot32);
  } else if (idx64) {
    OffsetTo64(static_cast<const int64_t*>(idx), n, dim, base, slot);
  } else {
    OffsetTo64(static_cast<const int32_t*>(idx), n, dim, base, slot);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {
HWY_EXPORT(IndicesInRange);
HWY_EXPORT(OffsetIndices);
HWY_EXPORT(WrapIndices16);
HWY_EXPORT(AllEqual);
HWY_EXPORT(MapPairs2);

extern "C" bool sgk_simd_map_pairs2(const void* idx, bool idx64, int64_t pairs, int64_t d0,
                                    int64_t d1, int64_t s0, int64_t base, int64_t* slot,
                                    int32_t* slot32) {
  return SGK_DISPATCH(MapPairs2)(idx, idx64, pairs, d0, d1, s0, base, slot, slot32);
}

extern "C" bool sgk_simd_all_equal(const void* v, bool is64, int64_t n, int64_t value) {
  return SGK_DISPATCH(AllEqual)(v, is64, n, value);
}

extern "C" bool sgk_simd_indices_in_range(const void* idx, bool idx64, int64_t n,
                                          int64_t dim) {
  return SGK_DISPATCH(IndicesInRange)(idx, idx64, n, dim, false);
}

extern "C" bool sgk_simd_indices_below(const void* idx, bool idx64, int64_t n, int64_t dim) {
  return SGK_DISPATCH(IndicesInRange)(idx, idx64, n, dim, true);
}

extern "C" void sgk_simd_offset_indices(const void* idx, bool idx64, int64_t n, int64_t dim,
                                        int64_t base, int64_t* slot, int32_t* slot32) {
  SGK_DISPATCH(OffsetIndices)(idx, idx64, n, dim, base, slot, slot32);
}

extern "C" void sgk_simd_wrap_indices16(const void* idx, bool idx64, int64_t n, int64_t dim,
                                        uint16_t* out) {
  SGK_DISPATCH(WrapIndices16)(idx, idx64, n, dim, out);
}
}  // namespace sgk
#endif  // HWY_ONCE
