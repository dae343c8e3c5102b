// The lane functions of the vectorized reductions (included by reduce.cc,
// once per Highway target): f(a, b) on whole vectors, with a the stored
// operand, and fp16/bf16 <-> float32 in integer lanes.  The per-target
// include guard is Highway's -inl.h idiom.
#if defined(SGK_SIMD_REDUCE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SGK_SIMD_REDUCE_LANES_INL_H_
#undef SGK_SIMD_REDUCE_LANES_INL_H_
#else
#define SGK_SIMD_REDUCE_LANES_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- lane functors: f(a, b) with a the stored operand -----------------------

struct AddF {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Add(a, b); }
};

struct SubF {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Sub(a, b); }
};

// Integers are multiplied in unsigned lanes (wraparound is the same bits).
// Highway 1.0.3 has no 64-bit Mul on x86: the low 64 bits of the product are
// lo*lo + ((hi_a*lo_b + lo_a*hi_b) << 32), from 32x32->64 MulEven.  The
// one-lane HWY_SCALAR target multiplies 64-bit lanes itself (and could not
// split one into two 32-bit lanes).
struct MulF {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if constexpr (sizeof(hn::TFromD<D>) == 8 && !hwy::IsFloat<hn::TFromD<D>>() &&
                  HWY_TARGET != HWY_SCALAR) {
      const hn::Repartition<uint32_t, D> d32;
      const V lo = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
      const V cross =
          hn::Add(hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(a)), hn::BitCast(d32, b)),
                  hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, hn::ShiftRight<32>(b))));
      (void)d;
      return hn::Add(lo, hn::ShiftLeft<32>(cross));
    } else {
      return hn::Mul(a, b);
    }
  }
};

// Integer max/min in the signed or unsigned type itself: ties are equal bits.
struct MaxF {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Max(a, b); }
};

struct MinF {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Min(a, b); }
};

// numpy maximum/minimum: keep the stored operand when it wins, ties it, or is
// NaN; otherwise the update (which then may be the NaN).  Highway's own
// Max/Min follow x86 maxps, which returns the second operand on NaN.  IsNaN,
// not Ne(a, a): Highway 1.0.3's != on AVX2/AVX3 is the ordered compare,
// false for NaN.
struct FloatMaxF {
  template <class V>
  static HWY_INLINE auto KeepStored(V a, V b) { return hn::Or(hn::Ge(a, b), hn::IsNaN(a)); }
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::IfThenElse(KeepStored(a, b), a, b); }
};

struct FloatMinF {
  template <class V>
  static HWY_INLINE auto KeepStored(V a, V b) { return hn::Or(hn::Le(a, b), hn::IsNaN(a)); }
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::IfThenElse(KeepStored(a, b), a, b); }
};

// bool: any non-zero byte is true; Min(x, 1) makes it 0/1 before the logic.
struct BoolOrF {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V one = hn::Set(d, 1);
    return hn::Or(hn::Min(a, one), hn::Min(b, one));
  }
};

struct BoolXorF {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V one = hn::Set(d, 1);
    return hn::Xor(hn::Min(a, one), hn::Min(b, one));
  }
};

struct BoolAndF {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V one = hn::Set(d, 1);
    return hn::And(hn::Min(a, one), hn::Min(b, one));
  }
};

// ---- fp16 / bf16 <-> float32 in integer lanes --------------------------------
// Bit for bit src/kernels/half.c, on every target: Highway 1.0.3's bf16 DemoteTo
// truncates, and its f16 conversions differ by target in NaN handling.  The
// 16-bit values travel zero-extended in 32-bit lanes.

struct F16 {
  template <class DF, class VU>
  static HWY_INLINE hn::Vec<DF> Widen(DF df, VU h) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    const VU sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
    const VU exp = hn::And(h, hn::Set(du, 0x7c00u));
    const VU man = hn::And(h, hn::Set(du, 0x3ffu));
    // normal: exponent rebiased by 127 - 15, mantissa moved up 13 bits
    const VU normal =
        hn::Add(hn::ShiftLeft<13>(hn::And(h, hn::Set(du, 0x7fffu))), hn::Set(du, 112u << 23));
    const VU inf_nan = hn::Or(hn::Set(du, 0x7f800000u), hn::ShiftLeft<13>(man));
    // zero or subnormal: man * 2^-24, exact in float32
    const VU small = hn::BitCast(
        du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, man)), hn::Set(df, 0x1p-24f)));
    const VU mag = hn::IfThenElse(hn::Eq(exp, hn::Set(du, 0x7c00u)), inf_nan,
                                  hn::IfThenElse(hn::Eq(exp, hn::Zero(du)), small, normal));
    return hn::BitCast(df, hn::Or(sign, mag));
  }

  template <class DF>
  static HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> Narrow(DF df, hn::Vec<DF> f) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    using VU = hn::Vec<decltype(du)>;
    const VU u = hn::BitCast(du, f);
    const VU sign = hn::And(hn::ShiftRight<16>(u), hn::Set(du, 0x8000u));
    const VU abs = hn::And(u, hn::Set(du, 0x7fffffffu));
    const auto abs_i = hn::BitCast(di, abs);  // < 2^31: signed compares are safe
    // NaN: quiet, keep the top payload bits
    const VU nan = hn::Or(hn::Set(du, 0x7e00u),
                          hn::And(hn::ShiftRight<13>(abs), hn::Set(du, 0x3ffu)));
    // below 2^-14: adding 0.5 lets the float adder round at 2^-24
    const VU tiny = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, abs), hn::Set(df, 0.5f))),
                            hn::Set(du, 0x3f000000u));
    const VU odd = hn::And(hn::ShiftRight<13>(abs), hn::Set(du, 1u));
    const VU normal = hn::ShiftRight<13>(
        hn::Sub(hn::Add(abs, hn::Add(hn::Set(du, 0xfffu), odd)), hn::Set(du, 0x38000000u)));
    VU mag = hn::IfThenElse(hn::RebindMask(du, hn::Lt(abs_i, hn::Set(di, 0x38800000))), tiny,
                            normal);
    // from 65520 up, rounding reaches infinity
    mag = hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x477fefff))),
                         hn::Set(du, 0x7c00u), mag);
    mag = hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x7f800000))), nan, mag);
    return hn::Or(sign, mag);
  }
};

struct BF16 {
  template <class DF, class VU>
  static HWY_INLINE hn::Vec<DF> Widen(DF df, VU h) {
    return hn::BitCast(df, hn::ShiftLeft<16>(h));
  }

  template <class DF>
  static HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> Narrow(DF df, hn::Vec<DF> f) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    using VU = hn::Vec<decltype(du)>;
    (void)df;
    const VU u = hn::BitCast(du, f);
    const VU high = hn::ShiftRight<16>(u);
    const VU rounded = hn::ShiftRight<16>(
        hn::Add(u, hn::Add(hn::Set(du, 0x7fffu), hn::And(high, hn::Set(du, 1u)))));
    // NaN: quiet, never rounded up into infinity
    const auto is_nan = hn::Gt(hn::BitCast(di, hn::And(u, hn::Set(du, 0x7fffffffu))),
                               hn::Set(di, 0x7f800000));
    return hn::IfThenElse(hn::RebindMask(du, is_nan), hn::Or(high, hn::Set(du, 0x40u)),
                          rounded);
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#endif  // SGK_SIMD_REDUCE_LANES_INL_H_
