/* Scalar kernels, the reference every faster path must match: the
   per-element arithmetic is cell_ops.h's, applied pair by pair. */
#include <stdbool.h>
#include <string.h>

#include "registry/registry.h"
#include "kernels/cell_ops.h"
#include "kernels/reduce.h"

/* Pairs ahead whose update and destination are prefetched: enough to cover
   a memory latency at a few nanoseconds per pair. */
#define PREFETCH_AHEAD 16

/* Runs of fewer pairs than this fetch nothing ahead: a tiny call's
   destinations sit in L1, and the prefetches only add work. */
#define PREFETCH_MIN_PAIRS 1024

/* Pairs of single elements, in pair order: the statements given run with
   `to` the pair's destination element and `from` its update, both counted
   in units of `scale` dst/src pointer steps.  Grouped pairs read their
   updates out of order, and one-shot ranges reach destinations past L2:
   both are fetched ahead.  Blocks in L2 gain too: an L2 hit still takes
   longer than a pair's own work (sgk-bench elementwise_max, 16-bit
   slots). */
#define SINGLE_ELEMENT_LOOPS(scale, ...)                                             \
    if (pos != NULL) {                                                               \
        for (int64_t i = begin; i < end; i++) {                                      \
            if (i + PREFETCH_AHEAD < end) {                                          \
                __builtin_prefetch(src + pos[i + PREFETCH_AHEAD] * (scale));         \
                __builtin_prefetch(dst + slot[i + PREFETCH_AHEAD] * (scale), 1);     \
            }                                                                        \
            const int64_t to = slot[i], from = pos[i];                               \
            __VA_ARGS__                                                              \
        }                                                                            \
        return;                                                                      \
    }                                                                                \
    /* a short run's destinations are in L1 already */                            \
    const int64_t fetched = end - begin >= PREFETCH_MIN_PAIRS ? end - PREFETCH_AHEAD : begin; \
    for (int64_t i = begin; i < fetched; i++) {                                      \
        __builtin_prefetch(dst + slot[i + PREFETCH_AHEAD] * (scale), 1);             \
        const int64_t to = slot[i], from = i;                                        \
        __VA_ARGS__                                                                  \
    }                                                                                \
    for (int64_t i = fetched; i < end; i++) {                                        \
        const int64_t to = slot[i], from = i;                                        \
        __VA_ARGS__                                                                  \
    }

/* One load, one op and one store per pair. */
#define REDUCE_PAIR(T, expr) T a = dst[to], b = src[from]; dst[to] = (expr);

/* Applies pairs [begin, end): elements [0, width) of the slice at
   dst + slot[i] * stride take f(that, the same elements of the slice at
   src + pos[i] * stride) (pos NULL meaning i), in pair order.  Callers pass
   dst and src already offset to a column range when threads split slices.
   Single elements (stride 1, the Elements operators and k == rank) get their
   own loops. */
#define ELEMENTWISE64(name, T, expr)                                                 \
    static void name(SGK_APPLY_PARAMS)                                               \
    {                                                                                \
        T *dst = dst_;                                                               \
        const T *src = src_;                                                         \
        if (stride == 1) {                                                           \
            SINGLE_ELEMENT_LOOPS(1, REDUCE_PAIR(T, expr))                            \
            return;                                                                  \
        }                                                                            \
        SGK_FOR_EACH_PAIR_ELEMENT(T, T a = d[e], b = s[e]; d[e] = (expr);)           \
    }

/* The same kernel over a block's 16-bit slots (sgk_apply16_fn), named
   name##_16. */
#define ELEMENTWISE16(name, T, expr)                                                 \
    static void name##_16(void *dst_, const uint16_t *slot, const void *src_,        \
                          const int64_t *pos, int64_t begin, int64_t end)            \
    {                                                                                \
        T *dst = dst_;                                                               \
        const T *src = src_;                                                         \
        SINGLE_ELEMENT_LOOPS(1, REDUCE_PAIR(T, expr))                                \
    }

#define ELEMENTWISE(name, T, expr) ELEMENTWISE64(name, T, expr) ELEMENTWISE16(name, T, expr)

/* Every reduction of the registry on type N stored as T: <op>_N and
   <op>_N_16, from cell_<op>_N. */
#define REDUCTION_KERNELS(N, T) SGK_REDUCTION_LIST(REDUCTION_KERNEL_, (N, T))
#define REDUCTION_KERNEL_(code, op, alias, nt) REDUCTION_KERNEL2_(op, SGK_UNPAREN_ nt)
#define REDUCTION_KERNEL2_(op, ...) REDUCTION_KERNEL3_(op, __VA_ARGS__)
#define REDUCTION_KERNEL3_(op, N, T) ELEMENTWISE(op##_##N, T, cell_##op##_##N(a, b))

REDUCTION_KERNELS(boolean, uint8_t)

REDUCTION_KERNELS(int8_t, int8_t)
REDUCTION_KERNELS(uint8_t, uint8_t)
REDUCTION_KERNELS(int16_t, int16_t)
REDUCTION_KERNELS(uint16_t, uint16_t)
REDUCTION_KERNELS(int32_t, int32_t)
REDUCTION_KERNELS(uint32_t, uint32_t)
REDUCTION_KERNELS(int64_t, int64_t)
REDUCTION_KERNELS(uint64_t, uint64_t)
REDUCTION_KERNELS(f16, uint16_t)
REDUCTION_KERNELS(bf16, uint16_t)
REDUCTION_KERNELS(float, float)
REDUCTION_KERNELS(double, double)

/* Complex slices keep the plain slice loop: ELEMENTWISE's single-element
   loops let GCC pair the components' operations otherwise, which changes
   which NaN payload survives. */
#define COMPLEX_KERNEL(name, C, op)                                                  \
    static void name(SGK_APPLY_PARAMS)                                               \
    {                                                                                \
        SGK_FOR_EACH_PAIR_ELEMENT(sgk_##C, d[e] = op(d[e], s[e]);)                   \
    }

#define COMPLEX_KERNELS(C)                                                 \
    COMPLEX_KERNEL(add_##C, C, cell_add_##C)                               \
    COMPLEX_KERNEL(sub_##C, C, cell_sub_##C)                               \
    COMPLEX_KERNEL(mul_##C, C, cell_mul_##C)

COMPLEX_KERNELS(complex64)
COMPLEX_KERNELS(complex128)

#define ROW(T) SGK_REDUCTION_KERNEL_ROW(, T)

static const sgk_apply_fn kernels[SGK_DTYPE_COUNT][SGK_REDUCTION_COUNT] = {
    [SGK_BOOL] = ROW(boolean),
    [SGK_INT8] = ROW(int8_t),       [SGK_UINT8] = ROW(uint8_t),
    [SGK_INT16] = ROW(int16_t),     [SGK_UINT16] = ROW(uint16_t),
    [SGK_INT32] = ROW(int32_t),     [SGK_UINT32] = ROW(uint32_t),
    [SGK_INT64] = ROW(int64_t),     [SGK_UINT64] = ROW(uint64_t),
    [SGK_FLOAT16] = ROW(f16),       [SGK_BFLOAT16] = ROW(bf16),
    [SGK_FLOAT32] = ROW(float),     [SGK_FLOAT64] = ROW(double),
    [SGK_COMPLEX64] = {[SGK_REDUCE_ADD] = add_complex64, [SGK_REDUCE_SUB] = sub_complex64,
                       [SGK_REDUCE_MUL] = mul_complex64},
    [SGK_COMPLEX128] = {[SGK_REDUCE_ADD] = add_complex128, [SGK_REDUCE_SUB] = sub_complex128,
                        [SGK_REDUCE_MUL] = mul_complex128},
};

static bool defined_cell(sgk_dtype dtype, sgk_reduction reduction)
{
    return sgk_dtype_valid(dtype) && sgk_reduction_valid(reduction);
}

sgk_status sgk_apply_kernel(sgk_dtype dtype, sgk_reduction reduction, sgk_apply_fn *kernel)
{
    if (!sgk_reduction_supported(dtype, reduction))
        return SGK_ERR_UNSUPPORTED;
    *kernel = kernels[dtype][reduction];
    return SGK_OK;
}

/* NONE over 16-bit slots: the update's S bytes replace the element's. */
#define MOVE16(S)                                                                    \
    static void move_##S##_16(void *dst_, const uint16_t *slot, const void *src_,    \
                              const int64_t *pos, int64_t begin, int64_t end)        \
    {                                                                                \
        unsigned char *dst = dst_;                                                   \
        const unsigned char *src = src_;                                             \
        SINGLE_ELEMENT_LOOPS(S, memcpy(dst + to * S, src + from * S, S);)            \
    }

MOVE16(1)
MOVE16(2)
MOVE16(4)
MOVE16(8)
MOVE16(16)

#define ROW16(T) SGK_REDUCTION_KERNEL_ROW(, T##_16)

/* Complex reductions have no row: see COMPLEX_KERNEL. */
static const sgk_apply16_fn kernels16[SGK_DTYPE_COUNT][SGK_REDUCTION_COUNT] = {
    [SGK_BOOL] = ROW16(boolean),
    [SGK_INT8] = ROW16(int8_t),     [SGK_UINT8] = ROW16(uint8_t),
    [SGK_INT16] = ROW16(int16_t),   [SGK_UINT16] = ROW16(uint16_t),
    [SGK_INT32] = ROW16(int32_t),   [SGK_UINT32] = ROW16(uint32_t),
    [SGK_INT64] = ROW16(int64_t),   [SGK_UINT64] = ROW16(uint64_t),
    [SGK_FLOAT16] = ROW16(f16),     [SGK_BFLOAT16] = ROW16(bf16),
    [SGK_FLOAT32] = ROW16(float),   [SGK_FLOAT64] = ROW16(double),
};

sgk_apply16_fn sgk_apply16_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    if (!defined_cell(dtype, reduction))
        return NULL;
    if (reduction != SGK_REDUCE_NONE)
        return kernels16[dtype][reduction];
    switch (sgk_elem_size(dtype)) {
    case 1: return move_1_16;
    case 2: return move_2_16;
    case 4: return move_4_16;
    case 8: return move_8_16;
    case 16: return move_16_16;
    default: return NULL;
    }
}

#define WIDEN_KERNEL(name, H, op)                                          \
    static void name(float *acc, const void *src_, int64_t n)              \
    {                                                                      \
        const uint16_t *src = src_;                                        \
        for (int64_t i = 0; i < n; i++)                                    \
            acc[i] = acc[i] op sgk_##H##_to_f32(src[i]);                   \
    }

WIDEN_KERNEL(wide_add_f16, f16, +)
WIDEN_KERNEL(wide_sub_f16, f16, -)
WIDEN_KERNEL(wide_mul_f16, f16, *)
WIDEN_KERNEL(wide_add_bf16, bf16, +)
WIDEN_KERNEL(wide_sub_bf16, bf16, -)
WIDEN_KERNEL(wide_mul_bf16, bf16, *)

sgk_widen_reduce_fn sgk_widen_reduce_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    bool f16 = dtype == SGK_FLOAT16;
    if (!f16 && dtype != SGK_BFLOAT16)
        return NULL;
    switch (reduction) {
    case SGK_REDUCE_ADD: return f16 ? wide_add_f16 : wide_add_bf16;
    case SGK_REDUCE_SUB: return f16 ? wide_sub_f16 : wide_sub_bf16;
    case SGK_REDUCE_MUL: return f16 ? wide_mul_f16 : wide_mul_bf16;
    default: return NULL;
    }
}
