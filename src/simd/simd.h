/* The C face of the Highway kernels.  Nothing outside src/simd/ includes a
   Highway header; everything else calls these. */
#ifndef SGK_SIMD_H
#define SGK_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Highway's name of the target the kernels dispatch to ("AVX3", "EMU128"...). */
const char *sgk_simd_target_name(void);

/* Makes the kernels dispatch to the target named (as sgk_simd_targets
   names them: "avx2", "scalar" for Highway's portable fallback) instead
   of the best one the CPU supports; "auto" restores the best.  Returns 0,
   or -1 for a name that is no target this build compiled and this CPU
   runs (nothing changes).  The policy is the configuration's (SGK_SIMD),
   pushed down here so that these kernels depend on nothing above them:
   the configuration calls this once, while it loads.  The target is
   chosen at the first kernel call (or sgk_simd_target_name) and kept for
   the process, so that every kernel of a plan runs on the same one; a
   call after that changes nothing.  That first call always comes later:
   every public entry point that reaches a kernel loads the configuration
   first (a plan is built from its thread count and thresholds, execution
   needs a plan, and sgk_runtime_describe reads it before naming the
   target). */
int sgk_simd_force_target(const char *name);

/* The targets sgk_simd_force_target takes: those this build compiled and
   this CPU runs, best first, space-separated, "scalar" last (a static
   string). */
const char *sgk_simd_runnable_targets(void);

/* dst[0..bytes) = src[0..bytes); the buffers do not overlap.  stream: write
   with non-temporal stores, for output that will not be read again soon. */
void sgk_simd_copy_bytes(void *dst, const void *src, size_t bytes, bool stream);

/* Copies bytes (a multiple of 64) from src to dst, both 64-byte aligned,
   with non-temporal stores and no fence: for write-combining buffers
   flushed a line at a time.  The kernel is looked up once, as its callers
   call it often with few lines. */
typedef void (*sgk_simd_stream_fn)(void *dst, const void *src, size_t bytes);
sgk_simd_stream_fn sgk_simd_stream_lines_kernel(void);

/* Orders the non-temporal stores made so far before any store after it
   (sfence on x86): ends a run of sgk_simd_stream_lines_kernel copies
   before other threads read what they wrote. */
void sgk_simd_stream_fence(void);

/* For n in [begin, end): copy the slice_bytes at src + src_slots[n] *
   stride_bytes to dst + dst_slots[n] * stride_bytes.  A NULL slot list means
   slot n.  Slices may repeat only in src.  stream: as for
   sgk_simd_copy_bytes (used only where slices are long enough to be worth
   it). */
void sgk_simd_move_slices(void *dst, const int64_t *dst_slots, const void *src,
                          const int64_t *src_slots, int64_t begin, int64_t end,
                          size_t slice_bytes, size_t stride_bytes, bool stream);

/* Row gather in a given order: for i in [begin, end), with n = order[i],
   copy the row_bytes at src + src_slots[n] * row_bytes to dst + n *
   row_bytes.  stream: as for sgk_simd_copy_bytes. */
void sgk_simd_move_rows_in_order(void *dst, const void *src, const int64_t *src_slots,
                                 const int32_t *order, int64_t begin, int64_t end,
                                 size_t row_bytes, bool stream);

/* out[n] = data[slot[n]] for n in [begin, end), elements of 4 bytes (32-bit
   slots) or 8 bytes (64-bit slots), through vector gathers.  stream: as for
   sgk_simd_copy_bytes.  The 32-bit form also brings the fetch_bytes at
   fetch (NULL and 0 for none) into cache over the course of the run: the
   range the next run will gather from. */
void sgk_simd_gather_elements32(void *out, const void *data, const int32_t *slot,
                                int64_t begin, int64_t end, bool stream, const void *fetch,
                                size_t fetch_bytes);
void sgk_simd_gather_elements64(void *out, const void *data, const int64_t *slot,
                                int64_t begin, int64_t end, bool stream);
/* The 32-bit form over n 16-bit slots (out[k] = data[slot[k]], k < n):
   elements of one line of at most 65536. */
void sgk_simd_gather_elements16(void *out, const void *data, const uint16_t *slot, int64_t n,
                                bool stream, const void *fetch, size_t fetch_bytes);

/* Whether every index idx[0..n) (int64 when idx64, else int32) lies in
   [-dim, dim). */
bool sgk_simd_indices_in_range(const void *idx, bool idx64, int64_t n, int64_t dim);

/* Whether every index idx[0..n) lies in [0, dim): no index needs
   wrapping. */
bool sgk_simd_indices_below(const void *idx, bool idx64, int64_t n, int64_t dim);

/* For indices idx[0..n) already checked against [-dim, dim): slot[k] =
   base + idx[k], plus dim where idx[k] is negative.  Into slot32 instead
   when it is not NULL (the slots then fit in 32 bits). */
void sgk_simd_offset_indices(const void *idx, bool idx64, int64_t n, int64_t dim, int64_t base,
                             int64_t *slot, int32_t *slot32);

/* For indices idx[0..n) already checked against [-dim, dim), dim at most
   65536: out[k] = idx[k], plus dim where it is negative. */
void sgk_simd_wrap_indices16(const void *idx, bool idx64, int64_t n, int64_t dim,
                             uint16_t *out);

/* Index pairs (k = 2) idx[2n], idx[2n + 1] for n in [0, pairs) to slot[n]
   = base + c0 * s0 + c1, each coordinate wrapped (plus its dimension when
   negative), or into slot32 when it is not NULL (the slots then fit in 32
   bits); false, the slots then unspecified, when a coordinate lies outside
   [-d0, d0) or [-d1, d1).  For d0 and s0 at most 2^32. */
bool sgk_simd_map_pairs2(const void *idx, bool idx64, int64_t pairs, int64_t d0, int64_t d1,
                         int64_t s0, int64_t base, int64_t *slot, int32_t *slot32);

/* Whether every v[0..n) (int64 when is64, else int32) equals value. */
bool sgk_simd_all_equal(const void *v, bool is64, int64_t n, int64_t value);

/* The vectorized twin of sgk_apply_fn (src/kernels/reduce.h), same contract and
   the same results bit for bit: for each pair i in [begin, end), in order,
   elements [0, width) of the slice at dst + slot[i] * stride = f(them, the
   same elements of the slice at src + (pos ? pos[i] : i) * stride). */
typedef void (*sgk_simd_apply_fn)(void *dst, const int64_t *slot, const void *src,
                                  const int64_t *pos, int64_t begin, int64_t end,
                                  int64_t stride, int64_t width);

/* The kernel for an sgk_dtype and sgk_reduction (as ints, so that this header
   needs no other), or NULL where there is none: NONE and unsupported
   cells. */
sgk_simd_apply_fn sgk_simd_apply_kernel(int dtype, int reduction);

/* The vectorized twin of sgk_apply16_fn (src/kernels/reduce.h), same
   contract and the same results bit for bit: for each pair i in [begin,
   end), in order, block[slot[i]] = f(it, src[pos ? pos[i] : i]). */
typedef void (*sgk_simd_apply16_fn)(void *block, const uint16_t *slot, const void *src,
                                    const int64_t *pos, int64_t begin, int64_t end);

/* The kernel for an sgk_dtype and sgk_reduction, or NULL where there is
   none: there is one for float32 max and min, on targets with vector
   scatters (AVX-512); elsewhere the scalar kernel is as fast. */
sgk_simd_apply16_fn sgk_simd_apply16_kernel(int dtype, int reduction);

#ifdef __cplusplus
}
#endif

#endif
