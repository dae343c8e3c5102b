// Element gathers: out[n] = data[slot[n]] for 4- and 8-byte elements, with
// Highway's GatherIndex (same-width indices, as Highway 1.0.3 requires: the
// planner keeps 32-bit slots for 4-byte elements, and 16-bit ones are
// widened as they are loaded).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/gather_elements.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/cache_control.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Brings a byte range into L1 a few lines at a time while a gather runs:
// as four streams a quarter of the range apart, each advancing by `step`
// lines per gathered vector, so that the whole range is fetched by the end
// of the run.  Fetching it all at once when the run starts would overflow
// the core's queue of misses, and most of those prefetches would be dropped
// (sgk-bench gather_elements, whose runs fetch 16 KiB ranges).
class Fetcher {
 public:
  Fetcher(const uint8_t* begin, size_t bytes, int64_t vectors)
      : begin_(begin), bytes_(bytes), quarter_((bytes + 4 * 64 - 1) / (4 * 64) * 64) {
    const size_t lines = quarter_ / 64;
    const size_t runs = vectors > 0 ? static_cast<size_t>(vectors) : 1;
    step_ = (lines + runs - 1) / runs * 64;
  }
  HWY_INLINE void Some() { Upto(next_ + step_); }
  HWY_INLINE void Rest() { Upto(quarter_); }

 private:
  HWY_INLINE void Upto(size_t until) {
    for (; next_ < until && next_ < quarter_; next_ += 64)
      for (size_t at = next_; at < bytes_; at += quarter_) hwy::Prefetch(begin_ + at);
  }
  const uint8_t* begin_;
  size_t bytes_, quarter_, step_ = 0, next_ = 0;
};

// A vector of slots as the gather's signed lanes: 16-bit slots (within a
// line of at most 65536 elements) are widened.
template <class DI>
HWY_INLINE hn::Vec<DI> LoadSlots(DI di, const hn::TFromD<DI>* HWY_RESTRICT slot) {
  return hn::LoadU(di, slot);
}
template <class DI>
HWY_INLINE hn::Vec<DI> LoadSlots(DI di, const uint16_t* HWY_RESTRICT slot) {
  const hn::RebindToUnsigned<DI> du;
  return hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(hn::Rebind<uint16_t, DI>(), slot)));
}

// stream: whole vectors of output go out with non-temporal stores, from the
// first vector-aligned element on, so that the output is not read first.
template <typename T, typename I>
HWY_INLINE void GatherRun(T* HWY_RESTRICT out, const T* HWY_RESTRICT data,
                          const I* HWY_RESTRICT slot, int64_t begin, int64_t end,
                          bool stream, Fetcher& fetch) {
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t n = begin;
  if (stream) {
    const size_t vector_bytes = static_cast<size_t>(N) * sizeof(T);
    for (; n < end && reinterpret_cast<uintptr_t>(out + n) % vector_bytes != 0; n++)
      out[n] = data[slot[n]];
    for (; n + N <= end; n += N) {
      fetch.Some();
      hn::Stream(hn::GatherIndex(d, data, LoadSlots(di, slot + n)), d, out + n);
    }
    hwy::FlushStream();
  }
  for (; n + N <= end; n += N) {
    fetch.Some();
    hn::StoreU(hn::GatherIndex(d, data, LoadSlots(di, slot + n)), d, out + n);
  }
  for (; n < end; n++) out[n] = data[slot[n]];
  fetch.Rest();
}

void GatherElements32(void* out, const void* data, const int32_t* slot, int64_t begin,
                      int64_t end, bool stream, const void* fetch, size_t fetch_bytes) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint32_t>()));
  Fetcher fetcher(static_cast<const uint8_t*>(fetch), fetch_bytes, (end - begin) / lanes);
  GatherRun(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(data), slot, begin,
            end, stream, fetcher);
}

void GatherElements16(void* out, const void* data, const uint16_t* slot, int64_t n,
                      bool stream, const void* fetch, size_t fetch_bytes) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint32_t>()));
  Fetcher fetcher(static_cast<const uint8_t*>(fetch), fetch_bytes, n / lanes);
  GatherRun(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(data), slot, 0, n, stream,
            fetcher);
}

void GatherElements64(void* out, const void* data, const int64_t* slot, int64_t begin,
                      int64_t end, bool stream) {
  Fetcher none(nullptr, 0, 0);
  GatherRun(static_cast<uint64_t*>(out), static_cast<const uint64_t*>(data), slot, begin,
            end, stream, none);
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
HWY_EXPORT(GatherElements16);

extern "C" void sgk_simd_gather_elements32(void* out, const void* data, const int32_t* slot,
                                           int64_t begin, int64_t end, bool stream,
                                           const void* fetch, size_t fetch_bytes) {
  SGK_DISPATCH(GatherElements32)(out, data, slot, begin, end, stream, fetch, fetch_bytes);
}

extern "C" void sgk_simd_gather_elements16(void* out, const void* data, const uint16_t* slot,
                                           int64_t n, bool stream, const void* fetch,
                                           size_t fetch_bytes) {
  SGK_DISPATCH(GatherElements16)(out, data, slot, n, stream, fetch, fetch_bytes);
}

extern "C" void sgk_simd_gather_elements64(void* out, const void* data, const int64_t* slot,
                                           int64_t begin, int64_t end, bool stream) {
  SGK_DISPATCH(GatherElements64)(out, data, slot, begin, end, stream);
}
}  // namespace sgk
#endif  // HWY_ONCE
