// Slice movement: the data->output copy, and copies of whole slices between
// slot lists (scatter without reduction, gathers).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/move_slices.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <string.h>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "simd/simd.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Long runs are copied four pages at a time.
constexpr size_t kPage = 4096;

// Copies four rows of row_bytes (a multiple of the vector) a vector from
// each in turn.  kStream: non-temporal stores, dst rows aligned to the
// vector.
template <bool kStream>
HWY_INLINE void CopyFourRows(uint8_t* const* dst, const uint8_t* const* src, size_t row_bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  for (size_t o = 0; o < row_bytes; o += N) {
    const auto v0 = hn::LoadU(d, src[0] + o);
    const auto v1 = hn::LoadU(d, src[1] + o);
    const auto v2 = hn::LoadU(d, src[2] + o);
    const auto v3 = hn::LoadU(d, src[3] + o);
    if constexpr (kStream) {
      hn::Stream(v0, d, dst[0] + o);
      hn::Stream(v1, d, dst[1] + o);
      hn::Stream(v2, d, dst[2] + o);
      hn::Stream(v3, d, dst[3] + o);
    } else {
      hn::StoreU(v0, d, dst[0] + o);
      hn::StoreU(v1, d, dst[1] + o);
      hn::StoreU(v2, d, dst[2] + o);
      hn::StoreU(v3, d, dst[3] + o);
    }
  }
}

// Streams 4 * kPage bytes a vector from each page in turn: four sequential
// streams, one per page, keep the hardware prefetchers fetching four pages
// at once where a single stream keeps one in flight (glibc's large memcpy
// does the same).  Whole pages, not smaller quarters: four streams of 1 KiB
// quarters were slower than one stream (sgk-bench ov_example5,
// kv_cache_token).
HWY_INLINE void StreamFourPages(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src) {
  uint8_t* const to[4] = {dst, dst + kPage, dst + 2 * kPage, dst + 3 * kPage};
  const uint8_t* const from[4] = {src, src + kPage, src + 2 * kPage, src + 3 * kPage};
  CopyFourRows<true>(to, from, kPage);
}

// Copies `bytes` bytes with full vectors; the tail is one more vector that
// ends exactly at the end (overlapping the previous one), so no scalar loop
// runs unless the whole copy is shorter than a vector.  Runs of four pages
// or more go to memcpy: the same page-interleaved loop unstreamed took 45
// or 85 us for 1 MiB, by the buffers' addresses, where glibc, which picks
// its strategy per CPU, took 38-44.
HWY_INLINE void CopyRun(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                        size_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  if (bytes < N || bytes >= 4 * kPage) {
    if (bytes != 0) memcpy(dst, src, bytes);  // memcpy wants real pointers even for 0
    return;
  }
  size_t i = 0;
  for (; i + 4 * N <= bytes; i += 4 * N) {
    const auto v0 = hn::LoadU(d, src + i);
    const auto v1 = hn::LoadU(d, src + i + N);
    const auto v2 = hn::LoadU(d, src + i + 2 * N);
    const auto v3 = hn::LoadU(d, src + i + 3 * N);
    hn::StoreU(v0, d, dst + i);
    hn::StoreU(v1, d, dst + i + N);
    hn::StoreU(v2, d, dst + i + 2 * N);
    hn::StoreU(v3, d, dst + i + 3 * N);
  }
  for (; i + N <= bytes; i += N) hn::StoreU(hn::LoadU(d, src + i), d, dst + i);
  if (i < bytes) hn::StoreU(hn::LoadU(d, src + bytes - N), d, dst + bytes - N);
}

// As CopyRun, with non-temporal stores for the aligned body: for output that
// is not read again soon, this skips reading the destination lines into the
// cache before overwriting them (a third of a plain copy's traffic).  The
// caller ends the run of streamed stores with FlushStream.
HWY_INLINE void StreamRun(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                          size_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  const size_t misalign = reinterpret_cast<uintptr_t>(dst) % N;
  const size_t head = misalign ? N - misalign : 0;
  if (bytes < head + 4 * N) {
    CopyRun(dst, src, bytes);
    return;
  }
  CopyRun(dst, src, head);
  size_t i = head;
  for (; i + 4 * kPage <= bytes; i += 4 * kPage) StreamFourPages(dst + i, src + i);
  for (; i + 2 * N <= bytes; i += 2 * N) {
    const auto v0 = hn::LoadU(d, src + i);
    const auto v1 = hn::LoadU(d, src + i + N);
    hn::Stream(v0, d, dst + i);
    hn::Stream(v1, d, dst + i + N);
  }
  CopyRun(dst + i, src + i, bytes - i);
}

void CopyBytes(void* dst, const void* src, size_t bytes, bool stream) {
  uint8_t* d = static_cast<uint8_t*>(dst);
  const uint8_t* s = static_cast<const uint8_t*>(src);
  if (stream) {
    StreamRun(d, s, bytes);
    hwy::FlushStream();
  } else {
    CopyRun(d, s, bytes);
  }
}

// Element-sized slices, and a few slices of up to a cache line, are single
// loads and stores: a fixed-size memcpy compiles to one or two moves, far
// cheaper than setting up a vector loop (a tiny call's rows of 16 floats).
template <size_t kBytes>
HWY_INLINE void MoveFixed(uint8_t* dst, const int64_t* dst_slots, const uint8_t* src,
                          const int64_t* src_slots, int64_t begin, int64_t end) {
  for (int64_t n = begin; n < end; n++) {
    const int64_t to = dst_slots ? dst_slots[n] : n;
    const int64_t from = src_slots ? src_slots[n] : n;
    memcpy(dst + static_cast<size_t>(to) * kBytes, src + static_cast<size_t>(from) * kBytes,
           kBytes);
  }
}

// Slices ahead whose source is prefetched: 4 for rows of 512 bytes and
// more; shorter rows need more misses in flight to cover the memory's
// latency, so the distance covers 2 KiB of rows, up to 32 (sgk-bench
// gather_rows_64b, 1M random 64-byte rows from 64 MiB: 7.3 ms at 4 ahead,
// 5.2-5.8 ms at 32 to 128).
constexpr int64_t kPrefetchAhead = 4;
constexpr int64_t kPrefetchAheadMost = 32;
constexpr size_t kPrefetchSpanBytes = 2048;

HWY_INLINE int64_t PrefetchAhead(size_t slice_bytes) {
  const size_t rows = kPrefetchSpanBytes / (slice_bytes > 0 ? slice_bytes : 1);
  return rows < static_cast<size_t>(kPrefetchAhead) ? kPrefetchAhead
         : rows > static_cast<size_t>(kPrefetchAheadMost) ? kPrefetchAheadMost
                                                          : static_cast<int64_t>(rows);
}

// Up to this many rows of 32 or 64 bytes move as fixed-size copies: a
// tiny call's few rows, where the prefetches below cost more than they
// save.
constexpr int64_t kFixedRowsMax = 64;

// Fetches up to the first KiB of a row into L2 only (hint 1): L2 prefetches
// do not hold the few L1 fill buffers the copy itself needs.
HWY_INLINE void PrefetchToL2(const uint8_t* row, size_t bytes) {
  for (size_t b = 0; b < bytes && b < 1024; b += 64) __builtin_prefetch(row + b, 0, 1);
}

// Slices picked by a slot list start at unpredictable places: fetch the
// one `ahead` slices on (PrefetchAhead, worked out once per run) while this
// one copies.  Not hwy::Prefetch, which has no hint and fetches into L1:
// there the prefetches compete with the copy for fill buffers, and fetched
// two ahead they were slower and far less steady (sgk-bench
// gather_embedding, gather_batch1).
HWY_INLINE void PrefetchNext(const uint8_t* src, const int64_t* src_slots, int64_t n,
                             int64_t end, int64_t ahead, size_t slice_bytes,
                             size_t stride_bytes) {
  if (src_slots != nullptr && n + ahead < end)
    PrefetchToL2(src + static_cast<size_t>(src_slots[n + ahead]) * stride_bytes, slice_bytes);
}

// Streams slices into consecutive output rows (row n at dst + n * slice_bytes;
// stride_bytes == slice_bytes) whose vectors do not all start aligned: an
// output 16 bytes off a vector boundary (NumPy's usual alignment), or slices
// not a multiple of the vector.
// StreamRun per row would write each row's first and last partial vector with
// plain stores, reading those lines first, between the streamed ones: for
// 1 KiB rows 16 bytes off, two lines read for every sixteen written, and
// the streamed stores interrupted twice a row.  Here the output is one run:
// every aligned vector is streamed, the one straddling rows n and n+1
// assembled from both, and only the range's first and last partial vectors
// are plain stores.  Needs slice_bytes >= the vector size.
HWY_INLINE void StreamRows(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                           const int64_t* src_slots, int64_t begin, int64_t end,
                           size_t slice_bytes, size_t stride_bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN uint8_t seam[HWY_MAX_BYTES];
  const auto from = [&](int64_t n) {
    return src + static_cast<size_t>(src_slots ? src_slots[n] : n) * stride_bytes;
  };
  // offset in the current row of its first vector-aligned output byte
  size_t a = (N - reinterpret_cast<uintptr_t>(dst + static_cast<size_t>(begin) * slice_bytes) % N) % N;
  const int64_t ahead = PrefetchAhead(slice_bytes);
  for (int64_t n = begin; n < end; n++) {
    PrefetchNext(src, src_slots, n, end, ahead, slice_bytes, stride_bytes);
    uint8_t* o = dst + static_cast<size_t>(n) * slice_bytes;
    const uint8_t* s = from(n);
    if (n == begin) CopyRun(o, s, a);  // else row n-1's seam wrote these a bytes
    size_t i = a;
    for (; i + N <= slice_bytes; i += N) hn::Stream(hn::LoadU(d, s + i), d, o + i);
    const size_t t = slice_bytes - i;  // < N bytes left in this row
    if (t == 0) {
      a = 0;
    } else if (n + 1 == end) {
      CopyRun(o + i, s + i, t);
    } else {
      memcpy(seam, s + i, t);
      memcpy(seam + t, from(n + 1), N - t);
      hn::Stream(hn::LoadU(d, seam), d, o + i);
      a = N - t;
    }
  }
  hwy::FlushStream();
}

void MoveSlices(void* dst_v, const int64_t* dst_slots, const void* src_v,
                const int64_t* src_slots, int64_t begin, int64_t end, size_t slice_bytes,
                size_t stride_bytes, bool stream) {
  uint8_t* dst = static_cast<uint8_t*>(dst_v);
  const uint8_t* src = static_cast<const uint8_t*>(src_v);
  switch (slice_bytes == stride_bytes ? slice_bytes : 0) {
    case 1: return MoveFixed<1>(dst, dst_slots, src, src_slots, begin, end);
    case 2: return MoveFixed<2>(dst, dst_slots, src, src_slots, begin, end);
    case 4: return MoveFixed<4>(dst, dst_slots, src, src_slots, begin, end);
    case 8: return MoveFixed<8>(dst, dst_slots, src, src_slots, begin, end);
    case 16: return MoveFixed<16>(dst, dst_slots, src, src_slots, begin, end);
    default: break;
  }
  // cache-line rows into a small output; large ones stream and prefetch below
  if (!stream && slice_bytes == stride_bytes && end - begin <= kFixedRowsMax) {
    if (slice_bytes == 32) return MoveFixed<32>(dst, dst_slots, src, src_slots, begin, end);
    if (slice_bytes == 64) return MoveFixed<64>(dst, dst_slots, src, src_slots, begin, end);
  }
  const size_t N = hn::Lanes(hn::ScalableTag<uint8_t>());
  if (stream && dst_slots == nullptr && slice_bytes == stride_bytes && slice_bytes >= N &&
      begin < end &&
      (reinterpret_cast<uintptr_t>(dst + static_cast<size_t>(begin) * slice_bytes) |
       slice_bytes) % N != 0)
    return StreamRows(dst, src, src_slots, begin, end, slice_bytes, stride_bytes);
  const int64_t ahead = PrefetchAhead(slice_bytes);
  for (int64_t n = begin; n < end; n++) {
    const int64_t to = dst_slots ? dst_slots[n] : n;
    const int64_t from = src_slots ? src_slots[n] : n;
    PrefetchNext(src, src_slots, n, end, ahead, slice_bytes, stride_bytes);
    uint8_t* d = dst + static_cast<size_t>(to) * stride_bytes;
    const uint8_t* s = src + static_cast<size_t>(from) * stride_bytes;
    if (stream)
      StreamRun(d, s, slice_bytes);
    else
      CopyRun(d, s, slice_bytes);
  }
  if (stream) hwy::FlushStream();
}

// Rows gathered in source order are sparse in the source (gather_batch1
// reads a fifth of its rows): the hardware prefetchers, which follow
// sequential lines, do not get ahead of them, so the first KiB of each
// stream's row two ahead is fetched into L2 (PrefetchToL2; the tail rows
// after the four quarters go unfetched).  sgk-bench gather_batch1 gains;
// gather_embedding, which reads most of its source rows, does not lose.
constexpr int64_t kRowsAhead = 2;

// Rows order[begin..end) in that order, which is ascending source order:
// the range's four quarters are copied side by side, a row of each in turn,
// so that the source is read as four front-to-back streams, not one (see
// StreamFourPages; sgk-bench gather_embedding).  dst and row_bytes are
// multiples of the vector.
void MoveRowsInOrder(void* dst_v, const void* src_v, const int64_t* src_slots,
                     const int32_t* order, int64_t begin, int64_t end, size_t row_bytes,
                     bool stream) {
  uint8_t* dst = static_cast<uint8_t*>(dst_v);
  const uint8_t* src = static_cast<const uint8_t*>(src_v);
  const int64_t quarter = (end - begin) / 4;
  uint8_t* to[4];
  const uint8_t* from[4];
  const auto pick = [&](int k, int64_t i) {
    const size_t n = static_cast<size_t>(order[i]);
    to[k] = dst + n * row_bytes;
    from[k] = src + static_cast<size_t>(src_slots[n]) * row_bytes;
  };
  for (int64_t i = begin; i < begin + quarter; i++) {
    for (int k = 0; k < 4; k++) pick(k, i + k * quarter);
    if (i + kRowsAhead < begin + quarter)
      for (int k = 0; k < 4; k++)
        PrefetchToL2(
            src + static_cast<size_t>(src_slots[order[i + kRowsAhead + k * quarter]]) * row_bytes,
            row_bytes);
    if (stream)
      CopyFourRows<true>(to, from, row_bytes);
    else
      CopyFourRows<false>(to, from, row_bytes);
  }
  for (int64_t i = begin + 4 * quarter; i < end; i++) {
    pick(0, i);
    if (stream)
      StreamRun(to[0], from[0], row_bytes);
    else
      CopyRun(to[0], from[0], row_bytes);
  }
  if (stream) hwy::FlushStream();
}

// Whole cache lines, streamed: dst and src 64-byte aligned, bytes a multiple
// of 64.  At most 64-byte vectors, so that the lines' alignment is the
// vectors'.  No fence: the caller ends its run of lines with
// sgk_simd_stream_fence.
void StreamLines(void* HWY_RESTRICT dst, const void* HWY_RESTRICT src, size_t bytes) {
  const hn::CappedTag<uint8_t, 64> d;
  const size_t N = hn::Lanes(d);
  uint8_t* HWY_RESTRICT to = static_cast<uint8_t*>(dst);
  const uint8_t* HWY_RESTRICT from = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < bytes; i += N) hn::Stream(hn::Load(d, from + i), d, to + i);
}

sgk_simd_stream_fn StreamLinesKernel() { return &StreamLines; }

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {
HWY_EXPORT(CopyBytes);
HWY_EXPORT(MoveSlices);
HWY_EXPORT(MoveRowsInOrder);
HWY_EXPORT(StreamLinesKernel);

extern "C" sgk_simd_stream_fn sgk_simd_stream_lines_kernel(void) {
  return SGK_DISPATCH(StreamLinesKernel)();
}

extern "C" void sgk_simd_stream_fence(void) { hwy::FlushStream(); }

// C linkage, declared at global scope in simd.h; defined here so that the
// dispatch tables above are in scope.
extern "C" void sgk_simd_copy_bytes(void* dst, const void* src, size_t bytes, bool stream) {
  SGK_DISPATCH(CopyBytes)(dst, src, bytes, stream);
}

extern "C" void sgk_simd_move_slices(void* dst, const int64_t* dst_slots, const void* src,
                                     const int64_t* src_slots, int64_t begin, int64_t end,
                                     size_t slice_bytes, size_t stride_bytes, bool stream) {
  SGK_DISPATCH(MoveSlices)(dst, dst_slots, src, src_slots, begin, end, slice_bytes,
                           stride_bytes, stream);
}

extern "C" void sgk_simd_move_rows_in_order(void* dst, const void* src, const int64_t* src_slots,
                                            const int32_t* order, int64_t begin, int64_t end,
                                            size_t row_bytes, bool stream) {
  SGK_DISPATCH(MoveRowsInOrder)(dst, src, src_slots, order, begin, end, row_bytes, stream);
}
}  // namespace sgk
#endif  // HWY_ONCE
