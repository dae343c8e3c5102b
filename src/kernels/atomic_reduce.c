/* Atomic reductions: every element update is one lock-free read-modify-write
   (GCC's __atomic builtins, which are C11's atomics on plain objects).
   Integer add/sub use the native fetch-and-add; every other cell computes
   the new value from the old bits and publishes it with a compare-and-swap,
   retrying when another thread got there first.  Relaxed ordering suffices:
   the parallel region's closing barrier publishes the results. */
#include <stdint.h>
#include <string.h>

#include "kernels/atomic_reduce.h"
#include "kernels/cell_ops.h"
#include "registry/registry.h"

#define RELAXED __ATOMIC_RELAXED

/* The cell's arithmetic runs on values of type T (cell_ops.h's), the
   compare-and-swap on their bits as U.  Unchanged bits need no store: a max
   that keeps the stored value costs a load, not a locked instruction. */
#define CAS_KERNEL(name, T, U, op)                                                    \
    static void name(SGK_APPLY_PARAMS)                                                \
    {                                                                                 \
        _Static_assert(sizeof(T) == sizeof(U), "a cell is swapped whole");            \
        SGK_FOR_EACH_PAIR_ELEMENT(U, {                                                \
            U a = __atomic_load_n(d + e, RELAXED), want;                              \
            T stored, update, result;                                                 \
            memcpy(&update, s + e, sizeof update);                                    \
            do {                                                                      \
                memcpy(&stored, &a, sizeof stored);                                   \
                result = op(stored, update);                                          \
                memcpy(&want, &result, sizeof want);                                  \
                if (want == a)                                                        \
                    break;                                                            \
            } while (!__atomic_compare_exchange_n(d + e, &a, want, true, RELAXED,     \
                                                  RELAXED));                          \
        })                                                                            \
    }

#define FETCH_KERNEL(name, U, fetch)                                                  \
    static void name(SGK_APPLY_PARAMS)                                                \
    {                                                                                 \
        SGK_FOR_EACH_PAIR_ELEMENT(U, { fetch(d + e, s[e], RELAXED); })                \
    }

#define CAS_KERNELS(N, T, U)                                                          \
    CAS_KERNEL(atomic_add_##N, T, U, cell_add_##N)                                    \
    CAS_KERNEL(atomic_sub_##N, T, U, cell_sub_##N)                                    \
    CAS_KERNEL(atomic_mul_##N, T, U, cell_mul_##N)                                    \
    CAS_KERNEL(atomic_max_##N, T, U, cell_max_##N)                                    \
    CAS_KERNEL(atomic_min_##N, T, U, cell_min_##N)

/* Integers: unsigned storage, whose fetch-and-add wraps; mul/max/min on the
   type's own values. */
#define INTEGER_KERNELS(S, U)                                                         \
    FETCH_KERNEL(atomic_add_##S, U, __atomic_fetch_add)                               \
    FETCH_KERNEL(atomic_sub_##S, U, __atomic_fetch_sub)                               \
    CAS_KERNEL(atomic_mul_##S, S, U, cell_mul_##S)                                    \
    CAS_KERNEL(atomic_max_##S, S, U, cell_max_##S)                                    \
    CAS_KERNEL(atomic_min_##S, S, U, cell_min_##S)

INTEGER_KERNELS(int8_t, uint8_t)
INTEGER_KERNELS(uint8_t, uint8_t)
INTEGER_KERNELS(int16_t, uint16_t)
INTEGER_KERNELS(uint16_t, uint16_t)
INTEGER_KERNELS(int32_t, uint32_t)
INTEGER_KERNELS(uint32_t, uint32_t)
INTEGER_KERNELS(int64_t, uint64_t)
INTEGER_KERNELS(uint64_t, uint64_t)

/* Floats are computed on their values and swapped as bits; fp16/bf16 in
   their own two bytes, rounded after every update as the sequential
   definition does. */
CAS_KERNELS(float, float, uint32_t)
CAS_KERNELS(double, double, uint64_t)
CAS_KERNELS(f16, uint16_t, uint16_t)
CAS_KERNELS(bf16, uint16_t, uint16_t)

/* Complex add/sub go per component; complex64 mul swaps the whole pair. */
#define COMPLEX_COMPONENT_KERNEL(name, component_kernel)                              \
    static void name(SGK_APPLY_PARAMS)                                                \
    {                                                                                 \
        component_kernel(dst_, slot, src_, pos, begin, end, 2 * stride, 2 * width);   \
    }

COMPLEX_COMPONENT_KERNEL(atomic_add_complex64, atomic_add_float)
COMPLEX_COMPONENT_KERNEL(atomic_sub_complex64, atomic_sub_float)
COMPLEX_COMPONENT_KERNEL(atomic_add_complex128, atomic_add_double)
COMPLEX_COMPONENT_KERNEL(atomic_sub_complex128, atomic_sub_double)
CAS_KERNEL(atomic_mul_complex64, sgk_complex64, uint64_t, cell_mul_complex64)

CAS_KERNELS(boolean, uint8_t, uint8_t)

#define ROW(T) SGK_REDUCTION_KERNEL_ROW(atomic_, T)

static const sgk_apply_fn kernels[SGK_DTYPE_COUNT][SGK_REDUCTION_COUNT] = {
    [SGK_BOOL] = ROW(boolean),
    [SGK_INT8] = ROW(int8_t),       [SGK_UINT8] = ROW(uint8_t),
    [SGK_INT16] = ROW(int16_t),     [SGK_UINT16] = ROW(uint16_t),
    [SGK_INT32] = ROW(int32_t),     [SGK_UINT32] = ROW(uint32_t),
    [SGK_INT64] = ROW(int64_t),     [SGK_UINT64] = ROW(uint64_t),
    [SGK_FLOAT16] = ROW(f16),       [SGK_BFLOAT16] = ROW(bf16),
    [SGK_FLOAT32] = ROW(float),     [SGK_FLOAT64] = ROW(double),
    [SGK_COMPLEX64] = {[SGK_REDUCE_ADD] = atomic_add_complex64,
                       [SGK_REDUCE_SUB] = atomic_sub_complex64,
                       [SGK_REDUCE_MUL] = atomic_mul_complex64},
    [SGK_COMPLEX128] = {[SGK_REDUCE_ADD] = atomic_add_complex128,
                        [SGK_REDUCE_SUB] = atomic_sub_complex128},
};

sgk_apply_fn sgk_atomic_apply_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    /* Every width used above is lock-free on the targets GCC supports with
       OpenMP; a target where one is not gets no atomic path at all. */
    if (!__atomic_always_lock_free(1, 0) || !__atomic_always_lock_free(2, 0) ||
        !__atomic_always_lock_free(4, 0) || !__atomic_always_lock_free(8, 0))
        return NULL;
    if (!sgk_dtype_valid(dtype) || !sgk_reduction_valid(reduction))
        return NULL;
    return kernels[dtype][reduction];
}
