/* One element's out = f(out, update) for each (dtype, reduction) cell the
   semantics define (docs/semantics.md), in the arithmetic the
   sequential definition prescribes.  The serial kernels (reduce.c) and the
   atomic ones (atomic_reduce.c) both apply these, so the two cannot drift
   apart.  Includers are compiled with -ffp-contract=off: a*b+c must round
   twice, as the sequential definition does. */
#ifndef SGK_CELL_OPS_H
#define SGK_CELL_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/half.h"

/* Integers wrap: arithmetic happens in uint64_t (no promotion to a signed
   int that uint16_t * uint16_t could overflow) and is cut back to the
   width.  max/min compare the type's own (signed or unsigned) values. */
#define WRAPPING_OP(name, S, U, op)                                               \
    static inline S name(S a, S b) { return (S)(U)((uint64_t)(U)a op (uint64_t)(U)b); }
#define INTEGER_CELL_OPS(S, U)                                                    \
    WRAPPING_OP(cell_add_##S, S, U, +)                                            \
    WRAPPING_OP(cell_sub_##S, S, U, -)                                            \
    WRAPPING_OP(cell_mul_##S, S, U, *)                                            \
    static inline S cell_max_##S(S a, S b) { return a >= b ? a : b; }            \
    static inline S cell_min_##S(S a, S b) { return a <= b ? a : b; }

INTEGER_CELL_OPS(int8_t, uint8_t)
INTEGER_CELL_OPS(uint8_t, uint8_t)
INTEGER_CELL_OPS(int16_t, uint16_t)
INTEGER_CELL_OPS(uint16_t, uint16_t)
INTEGER_CELL_OPS(int32_t, uint32_t)
INTEGER_CELL_OPS(uint32_t, uint32_t)
INTEGER_CELL_OPS(int64_t, uint64_t)
INTEGER_CELL_OPS(uint64_t, uint64_t)

/* max/min are numpy's maximum/minimum: a NaN on either side wins (the stored
   one first); ties keep the stored operand.  The ordered case is the
   instruction set's own max/min (b > a ? b : a keeps a on ties), without a
   branch: with random data a branch on the comparison mispredicts half the
   time.  NaNs, rare, take one unordered test, predicted not taken.  A
   select by bit mask instead cost twice as much per update where the
   destination misses the cache (random max into an 8 MiB float array,
   2-core EPYC: 6.5-8 ns against 3.5-4.4): its longer chain of integer
   operations holds fewer updates in flight. */
#define FLOAT_CELL_OPS(T)                                                         \
    static inline T cell_add_##T(T a, T b) { return a + b; }                      \
    static inline T cell_sub_##T(T a, T b) { return a - b; }                      \
    static inline T cell_mul_##T(T a, T b) { return a * b; }                      \
    static inline T cell_max_##T(T a, T b)                                        \
    {                                                                             \
        if (__builtin_expect(__builtin_isunordered(a, b), 0))                     \
            return a != a ? a : b;                                                \
        return b > a ? b : a;                                                     \
    }                                                                             \
    static inline T cell_min_##T(T a, T b)                                        \
    {                                                                             \
        if (__builtin_expect(__builtin_isunordered(a, b), 0))                     \
            return a != a ? a : b;                                                \
        return b < a ? b : a;                                                     \
    }

FLOAT_CELL_OPS(float)
FLOAT_CELL_OPS(double)

/* fp16/bf16 (H) in their uint16_t bits: widened exactly, computed in
   float32, rounded to nearest-even after every update.  max/min compare the
   widened values and keep the chosen operand's own bits. */
#define ROUNDED_OP(name, H, op)                                                   \
    static inline uint16_t name(uint16_t a, uint16_t b)                           \
    {                                                                             \
        return sgk_f32_to_##H(sgk_##H##_to_f32(a) op sgk_##H##_to_f32(b));        \
    }
#define HALF_CELL_OPS(H)                                                          \
    ROUNDED_OP(cell_add_##H, H, +)                                                \
    ROUNDED_OP(cell_sub_##H, H, -)                                                \
    ROUNDED_OP(cell_mul_##H, H, *)                                                \
    static inline uint16_t cell_max_##H(uint16_t a, uint16_t b)                   \
    {                                                                             \
        float x = sgk_##H##_to_f32(a), y = sgk_##H##_to_f32(b);                   \
        return x >= y || x != x ? a : b;                                          \
    }                                                                             \
    static inline uint16_t cell_min_##H(uint16_t a, uint16_t b)                   \
    {                                                                             \
        float x = sgk_##H##_to_f32(a), y = sgk_##H##_to_f32(b);                   \
        return x <= y || x != x ? a : b;                                          \
    }

HALF_CELL_OPS(f16)
HALF_CELL_OPS(bf16)

/* Complex numbers are (re, im) pairs, laid out as the buffers hold them.
   add/sub go per component; the product is the plain formula
   (ac - bd, ad + bc), as numpy computes it. */
typedef struct {
    float re, im;
} sgk_complex64;

typedef struct {
    double re, im;
} sgk_complex128;

#define COMPLEX_CELL_OPS(C)                                                       \
    static inline sgk_##C cell_add_##C(sgk_##C x, sgk_##C y)                      \
    {                                                                             \
        return (sgk_##C){x.re + y.re, x.im + y.im};                               \
    }                                                                             \
    static inline sgk_##C cell_sub_##C(sgk_##C x, sgk_##C y)                      \
    {                                                                             \
        return (sgk_##C){x.re - y.re, x.im - y.im};                               \
    }                                                                             \
    static inline sgk_##C cell_mul_##C(sgk_##C x, sgk_##C y)                      \
    {                                                                             \
        return (sgk_##C){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};   \
    }

COMPLEX_CELL_OPS(complex64)
COMPLEX_CELL_OPS(complex128)

/* bool: one byte, any non-zero byte is true, results are 0 or 1. */
static inline uint8_t cell_or_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) | (b != 0)); }
static inline uint8_t cell_xor_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) ^ (b != 0)); }
static inline uint8_t cell_and_bool(uint8_t a, uint8_t b) { return (uint8_t)((a != 0) & (b != 0)); }
/* The reductions on bool (named boolean: stdbool.h makes bool a macro), under the registry's names (registry.h): add is
   or, sub xor, mul and; max is or and min and. */
static inline uint8_t cell_add_boolean(uint8_t a, uint8_t b) { return cell_or_bool(a, b); }
static inline uint8_t cell_sub_boolean(uint8_t a, uint8_t b) { return cell_xor_bool(a, b); }
static inline uint8_t cell_mul_boolean(uint8_t a, uint8_t b) { return cell_and_bool(a, b); }
static inline uint8_t cell_max_boolean(uint8_t a, uint8_t b) { return cell_or_bool(a, b); }
static inline uint8_t cell_min_boolean(uint8_t a, uint8_t b) { return cell_and_bool(a, b); }

#undef WRAPPING_OP
#undef INTEGER_CELL_OPS
#undef FLOAT_CELL_OPS
#undef ROUNDED_OP
#undef HALF_CELL_OPS
#undef COMPLEX_CELL_OPS

#endif
