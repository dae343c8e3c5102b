// Vectorized single-element reductions over a block's 16-bit slots (the
// twin of sgk_apply16_fn, src/kernels/reduce.h), for float32 max and min
// on targets with vector scatters (AVX-512).  The pairs are taken a vector
// at a time; a vector whose slots are all distinct is gathered, reduced
// and scattered at once, which keeps every slot's updates in their order,
// as vectors run in order and no slot is written twice within one.  A
// vector that names a slot twice (rarely: a few per thousand in a block of
// 65536 slots) runs lane by lane, as do the tail and pairs read through
// positions.  Both use the lane functors of reduce_lanes-inl.h, so the
// results are the scalar kernels' bit for bit.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/apply16.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <stddef.h>
#include <stdint.h>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "sgk.h"
#include "simd/simd.h"
#include "simd/reduce_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Elsewhere scatters are emulated a lane at a time, no faster than the
// scalar kernel.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL

// Pairs [begin, end) one at a time: block[slot[i]] = f(it, src[pos[i] or i]).
template <typename L, class F>
HWY_INLINE void ApplyLanes(L* HWY_RESTRICT block, const uint16_t* HWY_RESTRICT slot,
                           const L* HWY_RESTRICT src, const int64_t* HWY_RESTRICT pos,
                           int64_t begin, int64_t end) {
  const hn::CappedTag<L, 1> d1;
  const F f;
  for (int64_t i = begin; i < end; i++) {
    L* to = block + slot[i];
    const L* from = src + (pos != nullptr ? pos[i] : i);
    hn::StoreU(f(d1, hn::LoadU(d1, to), hn::LoadU(d1, from)), d1, to);
  }
}

template <typename L, class F>
void Apply16(void* block_, const uint16_t* HWY_RESTRICT slot, const void* src_,
             const int64_t* HWY_RESTRICT pos, int64_t begin, int64_t end) {
  L* HWY_RESTRICT block = static_cast<L*>(block_);
  const L* HWY_RESTRICT src = static_cast<const L*>(src_);
  int64_t i = begin;
  if (pos == nullptr) {
    const hn::ScalableTag<L> d;
    const hn::RebindToSigned<decltype(d)> di;
    const hn::Rebind<uint16_t, decltype(di)> d16;
    const F f;
    const int64_t n = static_cast<int64_t>(hn::Lanes(d));
    // Lane j against lane j + k (mod n, a power of two), k = 1 .. n / 2:
    // every two lanes meet once.
    decltype(hn::IndicesFromVec(di, hn::Zero(di))) rotation[HWY_LANES(L) / 2];
    const auto last_lane = hn::Set(di, static_cast<int32_t>(n - 1));
    for (int64_t k = 1; k <= n / 2; k++)
      rotation[k - 1] = hn::IndicesFromVec(di, hn::And(hn::Iota(di, k), last_lane));
    for (; i + n <= end; i += n) {
      // two vectors ahead, as the scalar kernel fetches: a sparse block's
      // slots miss L1
      if (i + 3 * n <= end)
        for (int64_t j = i + 2 * n; j < i + 3 * n; j++) hwy::Prefetch(block + slot[j]);
      const auto idx = hn::PromoteTo(di, hn::LoadU(d16, slot + i));
      auto twice = hn::Eq(idx, hn::TableLookupLanes(idx, rotation[0]));
      for (int64_t k = 1; k < n / 2; k++)
        twice = hn::Or(twice, hn::Eq(idx, hn::TableLookupLanes(idx, rotation[k])));
      if (!hn::AllFalse(di, twice)) {
        ApplyLanes<L, F>(block, slot, src, nullptr, i, i + n);
        continue;
      }
      const auto stored = hn::GatherIndex(d, block, idx);
      hn::ScatterIndex(f(d, stored, hn::LoadU(d, src + i)), d, block, idx);
    }
  }
  ApplyLanes<L, F>(block, slot, src, pos, i, end);
}

// float32 max/min only: their scalar select costs about 16 instructions a
// pair, which the vectors save (sgk-bench --mode oneshot on the 2-core
// Xeon, alternated with the scalar kernel: dense_max_l3 and elementwise_max
// 0.81 of the time).  add's scalar loop is four instructions and already
// keeps up with the block; the vector one was 1.05-1.15 of its time.
sgk_simd_apply16_fn Apply16Kernel(int dtype, int reduction) {
  if (dtype != SGK_FLOAT32) return nullptr;
  switch (reduction) {
    case SGK_REDUCE_MAX: return Apply16<float, FloatMaxF>;
    case SGK_REDUCE_MIN: return Apply16<float, FloatMinF>;
    default: return nullptr;
  }
}

#else

sgk_simd_apply16_fn Apply16Kernel(int, int) { return nullptr; }

#endif

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.h"

namespace sgk {
HWY_EXPORT(Apply16Kernel);

extern "C" sgk_simd_apply16_fn sgk_simd_apply16_kernel(int dtype, int reduction) {
  return SGK_DISPATCH(Apply16Kernel)(dtype, reduction);
}
}  // namespace sgk
#endif  // HWY_ONCE
