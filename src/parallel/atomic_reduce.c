/* Atomic reductions: every element update is one lock-free read-modify-write
   (GCC's __atomic builtins, which are C11's atomics on plain objects).
   Integer add/sub use the native fetch-and-add; every other cell computes
   the new value from the old bits and publishes it with a compare-and-swap,
   retrying when another thread got there first.  Relaxed ordering suffices:
   the parallel region's closing barrier publishes the results. */
#include <stdint.h>
#include <string.h>

#include "half.h"
#include "parallel/atomic_reduce.h"

#define RELAXED __ATOMIC_RELAXED

/* dst slice of pair i, src slice of pair i, for element type U. */
#define PAIR_LOOP(U, ...)                                                             \
    U *dst = dst_;                                                                    \
    const U *src = src_;                                                              \
    for (int64_t i = begin; i < end; i++) {                                           \
        U *d = dst + slot[i] * stride;                                                \
        const U *s = src + (pos != NULL ? pos[i] : i) * stride;                       \
        for (int64_t e = 0; e < width; e++) {                                         \
            __VA_ARGS__                                                               \
        }                                                                             \
    }

#define KERNEL_ARGS                                                                   \
    void *dst_, const int64_t *slot, const void *src_, const int64_t *pos,            \
        int64_t begin, int64_t end, int64_t stride, int64_t width

/* Unchanged bits need no store: a max that keeps the stored value costs a
   load, not a locked instruction. */
#define CAS_KERNEL(name, U, combine)                                                  \
    static void name(KERNEL_ARGS)                                                     \
    {                                                                                 \
        PAIR_LOOP(U, {                                                                \
            U b = s[e], a = __atomic_load_n(d + e, RELAXED), want;                    \
            do {                                                                      \
                want = combine(a, b);                                                 \
                if (want == a)                                                        \
                    break;                                                            \
            } while (!__atomic_compare_exchange_n(d + e, &a, want, true, RELAXED,     \
                                                  RELAXED));                          \
        })                                                                            \
    }

#define FETCH_KERNEL(name, U, fetch)                                                  \
    static void name(KERNEL_ARGS)                                                     \
    {                                                                                 \
        PAIR_LOOP(U, { fetch(d + e, s[e], RELAXED); })                                \
    }

/* ---- integers: unsigned storage wraps; max/min compare the signed view -- */

#define INTEGER_CELLS(U, S)                                                           \
    static inline U mul_##S(U a, U b) { return (U)((uint64_t)a * (uint64_t)b); }       \
    static inline U max_##S(U a, U b) { return (S)a >= (S)b ? a : b; }                \
    static inline U min_##S(U a, U b) { return (S)a <= (S)b ? a : b; }                \
    FETCH_KERNEL(atomic_add_##S, U, __atomic_fetch_add)                               \
    FETCH_KERNEL(atomic_sub_##S, U, __atomic_fetch_sub)                               \
    CAS_KERNEL(atomic_mul_##S, U, mul_##S)                                            \
    CAS_KERNEL(atomic_max_##S, U, max_##S)                                            \
    CAS_KERNEL(atomic_min_##S, U, min_##S)

INTEGER_CELLS(uint8_t, int8_t)
INTEGER_CELLS(uint8_t, uint8_t)
INTEGER_CELLS(uint16_t, int16_t)
INTEGER_CELLS(uint16_t, uint16_t)
INTEGER_CELLS(uint32_t, int32_t)
INTEGER_CELLS(uint32_t, uint32_t)
INTEGER_CELLS(uint64_t, int64_t)
INTEGER_CELLS(uint64_t, uint64_t)

/* ---- floats: computed on the values, swapped as bits --------------------- */

/* max/min as in reduce.c: a NaN on either side wins, the stored one first;
   ties keep the stored operand. */
#define FLOAT_CELLS(T, U)                                                             \
    static inline T T##_of(U u) { T f; memcpy(&f, &u, sizeof f); return f; }         \
    static inline U bits_##T(T f) { U u; memcpy(&u, &f, sizeof u); return u; }        \
    static inline U add_##T(U a, U b) { return bits_##T(T##_of(a) + T##_of(b)); }     \
    static inline U sub_##T(U a, U b) { return bits_##T(T##_of(a) - T##_of(b)); }     \
    static inline U mul_##T(U a, U b) { return bits_##T(T##_of(a) * T##_of(b)); }     \
    static inline U max_##T(U a, U b)                                                 \
    {                                                                                 \
        T x = T##_of(a), y = T##_of(b);                                               \
        return x >= y || x != x ? a : b;                                              \
    }                                                                                 \
    static inline U min_##T(U a, U b)                                                 \
    {                                                                                 \
        T x = T##_of(a), y = T##_of(b);                                               \
        return x <= y || x != x ? a : b;                                              \
    }                                                                                 \
    CAS_KERNEL(atomic_add_##T, U, add_##T)                                            \
    CAS_KERNEL(atomic_sub_##T, U, sub_##T)                                            \
    CAS_KERNEL(atomic_mul_##T, U, mul_##T)                                            \
    CAS_KERNEL(atomic_max_##T, U, max_##T)                                            \
    CAS_KERNEL(atomic_min_##T, U, min_##T)

FLOAT_CELLS(float, uint32_t)
FLOAT_CELLS(double, uint64_t)

/* fp16/bf16 are swapped in their own two bytes, rounded after every update
   as the sequential definition does. */
#define HALF_CELLS(H)                                                                 \
    static inline uint16_t add_##H(uint16_t a, uint16_t b)                            \
    {                                                                                 \
        return sgk_f32_to_##H(sgk_##H##_to_f32(a) + sgk_##H##_to_f32(b));             \
    }                                                                                 \
    static inline uint16_t sub_##H(uint16_t a, uint16_t b)                            \
    {                                                                                 \
        return sgk_f32_to_##H(sgk_##H##_to_f32(a) - sgk_##H##_to_f32(b));             \
    }                                                                                 \
    static inline uint16_t mul_##H(uint16_t a, uint16_t b)                            \
    {                                                                                 \
        return sgk_f32_to_##H(sgk_##H##_to_f32(a) * sgk_##H##_to_f32(b));             \
    }                                                                                 \
    static inline uint16_t max_##H(uint16_t a, uint16_t b)                            \
    {                                                                                 \
        float x = sgk_##H##_to_f32(a), y = sgk_##H##_to_f32(b);                       \
        return x >= y || x != x ? a : b;                                              \
    }                                                                                 \
    static inline uint16_t min_##H(uint16_t a, uint16_t b)                            \
    {                                                                                 \
        float x = sgk_##H##_to_f32(a), y = sgk_##H##_to_f32(b);                       \
        return x <= y || x != x ? a : b;                                              \
    }                                                                                 \
    CAS_KERNEL(atomic_add_##H, uint16_t, add_##H)                                     \
    CAS_KERNEL(atomic_sub_##H, uint16_t, sub_##H)                                     \
    CAS_KERNEL(atomic_mul_##H, uint16_t, mul_##H)                                     \
    CAS_KERNEL(atomic_max_##H, uint16_t, max_##H)                                     \
    CAS_KERNEL(atomic_min_##H, uint16_t, min_##H)

HALF_CELLS(f16)
HALF_CELLS(bf16)

/* ---- complex: add/sub per component; complex64 mul swaps the whole pair -- */

#define COMPLEX_COMPONENT_KERNEL(name, component_kernel)                              \
    static void name(KERNEL_ARGS)                                                     \
    {                                                                                 \
        component_kernel(dst_, slot, src_, pos, begin, end, 2 * stride, 2 * width);   \
    }

COMPLEX_COMPONENT_KERNEL(atomic_cadd_float, atomic_add_float)
COMPLEX_COMPONENT_KERNEL(atomic_csub_float, atomic_sub_float)
COMPLEX_COMPONENT_KERNEL(atomic_cadd_double, atomic_add_double)
COMPLEX_COMPONENT_KERNEL(atomic_csub_double, atomic_sub_double)

/* (a + bi)(c + di) = (ac - bd) + (ad + bc)i, as reduce.c computes it. */
static inline uint64_t cmul_float(uint64_t x, uint64_t y)
{
    float v[2], w[2], r[2];
    memcpy(v, &x, sizeof v);
    memcpy(w, &y, sizeof w);
    r[0] = v[0] * w[0] - v[1] * w[1];
    r[1] = v[0] * w[1] + v[1] * w[0];
    uint64_t bits;
    memcpy(&bits, r, sizeof bits);
    return bits;
}

CAS_KERNEL(atomic_cmul_float, uint64_t, cmul_float)

/* ---- bool: one byte, any non-zero is true, results 0 or 1 --------------- */

static inline uint8_t or_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) | (b != 0)); }
static inline uint8_t xor_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) ^ (b != 0)); }
static inline uint8_t and_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) & (b != 0)); }

CAS_KERNEL(atomic_or_bool, uint8_t, or_bool)
CAS_KERNEL(atomic_xor_bool, uint8_t, xor_bool)
CAS_KERNEL(atomic_and_bool, uint8_t, and_bool)

#define ROW(T)                                                                        \
    {NULL, atomic_add_##T, atomic_sub_##T, atomic_mul_##T, atomic_max_##T, atomic_min_##T}

static const sgk_apply_fn kernels[SGK_STRING + 1][SGK_REDUCE_MIN + 1] = {
    [SGK_BOOL] = {NULL, atomic_or_bool, atomic_xor_bool, atomic_and_bool, atomic_or_bool,
                  atomic_and_bool},
    [SGK_INT8] = ROW(int8_t),       [SGK_UINT8] = ROW(uint8_t),
    [SGK_INT16] = ROW(int16_t),     [SGK_UINT16] = ROW(uint16_t),
    [SGK_INT32] = ROW(int32_t),     [SGK_UINT32] = ROW(uint32_t),
    [SGK_INT64] = ROW(int64_t),     [SGK_UINT64] = ROW(uint64_t),
    [SGK_FLOAT16] = ROW(f16),       [SGK_BFLOAT16] = ROW(bf16),
    [SGK_FLOAT32] = ROW(float),     [SGK_FLOAT64] = ROW(double),
    [SGK_COMPLEX64] = {NULL, atomic_cadd_float, atomic_csub_float, atomic_cmul_float, NULL,
                       NULL},
    [SGK_COMPLEX128] = {NULL, atomic_cadd_double, atomic_csub_double, NULL, NULL, NULL},
    [SGK_STRING] = {NULL, NULL, NULL, NULL, NULL, NULL},
};

sgk_apply_fn sgk_atomic_apply_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    /* Every width used above is lock-free on the targets GCC supports with
       OpenMP; a target where one is not gets no atomic path at all. */
    if (!__atomic_always_lock_free(1, 0) || !__atomic_always_lock_free(2, 0) ||
        !__atomic_always_lock_free(4, 0) || !__atomic_always_lock_free(8, 0))
        return NULL;
    if ((int)dtype < 0 || dtype > SGK_STRING || (int)reduction < 0 ||
        reduction > SGK_REDUCE_MIN)
        return NULL;
    return kernels[dtype][reduction];
}

bool sgk_reduction_commutes(sgk_dtype dtype, sgk_reduction reduction)
{
    switch (dtype) {
    case SGK_BOOL:
    case SGK_INT8: case SGK_UINT8: case SGK_INT16: case SGK_UINT16:
    case SGK_INT32: case SGK_UINT32: case SGK_INT64: case SGK_UINT64:
        return reduction != SGK_REDUCE_NONE;
    default:
        return false;
    }
}
