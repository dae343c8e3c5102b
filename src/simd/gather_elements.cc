// Element gathers: out[n] = data[slot[n]] for 4- and 8-byte elements, with
// Highway's GatherIndex (same-width indices, as Highway 1.0.3 requires: the
// planner keeps 32-bit slots for 4-byte elements).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/gather_elements.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/cache_control.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// stream: whole vectors of output go out with non-temporal stores, from the
// first vector-aligned element on, so that the output is not read first.
template <typename T, typename I>
HWY_INLINE void GatherRun(T* HWY_RESTRICT out, const T* HWY_RESTRICT data,
                          const I* HWY_RESTRICT slot, int64_t begin, int64_t end,
                          bool stream) {
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t n = begin;
  if (stream) {
    const size_t vector_bytes = static_cast<size_t>(N) * sizeof(T);
    for (; n < end && reinterpret_cast<uintptr_t>(out + n) % vector_bytes != 0; n++)
      out[n] = data[slot[n]];
    for (; n + N <= end; n += N)
      hn::Stream(hn::GatherIndex(d, data, hn::LoadU(di, slot + n)), d, out + n);
    hwy::FlushStream();
  }
  for (; n + N <= end; n += N)
    hn::StoreU(hn::GatherIndex(d, data, hn::LoadU(di, slot + n)), d, out + n);
  for (; n < end; n++) out[n] = data[slot[n]];
}

void GatherElements32(void* out, const void* data, const int32_t* slot, int64_t begin,
                      int64_t end, bool stream) {
  GatherRun(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(data), slot, begin,
            end, stream);
}

void GatherElements64(void* out, const void* data, const int64_t* slot, int64_t begin,
                      int64_t end, bool stream) {
  GatherRun(static_cast<uint64_t*>(out), static_cast<const uint64_t*>(data), slot, begin,
            end, stream);
}

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {
HWY_EXPORT(GatherElements32);
HWY_EXPORT(GatherElements64);

extern "C" void sgk_simd_gather_elements32(void* out, const void* data, const int32_t* slot,
                                           int64_t begin, int64_t end, bool stream) {
  SGK_DISPATCH(GatherElements32)(out, data, slot, begin, end, stream);
}

extern "C" void sgk_simd_gather_elements64(void* out, const void* data, const int64_t* slot,
                                           int64_t begin, int64_t end, bool stream) {
  SGK_DISPATCH(GatherElements64)(out, data, slot, begin, end, stream);
}
}  // namespace sgk
#endif  // HWY_ONCE
