/*
 * Shared by the libFuzzer targets (tests/fuzz/fuzz_*.c): decoding the
 * fuzzer's bytes into tensors, the contract a call must keep, and the checks.
 *
 * A target decodes a call, predicts from the documentation (docs/semantics.md,
 * and the statuses and plan rules of docs/integration.md, "The C API") which
 * statuses the library may return (an empty set: the call must succeed), runs
 * it, and traps on any breach:
 *   - success: the output equals the serial reference (tests/support/reference.c) bit
 *     for bit (NaN by NaN-ness where float arithmetic made it);
 *   - failure: a predicted status, a non-empty sgk_last_error(), and every
 *     buffer (output, data, updates) byte for byte as it was.
 * Buffers are exactly as large as their declared shapes, so AddressSanitizer
 * sees any access past them.  A shape larger than the harness allocates
 * (FZ_MAX_ELEMS, FZ_MAX_DATA_ELEMS) gets a small stand-in buffer, and only
 * when the call must fail; a valid call that large is only planned (no
 * buffers needed), never executed.
 *
 * Include this first: it sets the feature macros.
 */
#ifndef SGK_FUZZ_COMMON_H
#define SGK_FUZZ_COMMON_H

#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "sgk.h"

/* Largest tensor the harness allocates for real, in elements; data (and a
   scatter's output) may be larger, up to a few L2-sized blocks, so that the
   scatter's multi-block paths are reached. */
#define FZ_MAX_ELEMS 4096
#define FZ_MAX_DATA_ELEMS (1 << 17)
/* Dimensions decoded per shape: more than SGK_MAX_RANK, so that an
   over-long rank still comes with as many dimensions as it claims. */
#define FZ_DIMS 80
/* Bytes of the stand-in buffer for a tensor too large to allocate. */
#define FZ_STANDIN_BYTES 64

/* Helpers some targets do not use. */
#define FZ_MAYBE_UNUSED __attribute__((unused))

#define FZ_BREACH(...)                                                                   \
    do {                                                                                 \
        fprintf(stderr, "sgk fuzz breach at %s:%d: ", __FILE__, __LINE__);               \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n  last error: %s\n", sgk_last_error() ? sgk_last_error() : "(null)"); \
        __builtin_trap();                                                                \
    } while (0)

/* ---- input decoding ----------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
    tc_rng rng; /* bulk values (data, updates) come from here */
} fz_in;

static uint8_t fz_byte(fz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static uint64_t fz_rand(fz_in *in)
{
    return tc_rng_next(&in->rng);
}

static void fz_init(fz_in *in, const uint8_t *data, size_t size)
{
    in->p = data;
    in->n = size;
    in->rng.state = 0;
    for (int i = 0; i < 4; i++)
        in->rng.state = in->rng.state << 8 | fz_byte(in);
}

static sgk_dtype fz_dtype(fz_in *in)
{
    static const int bad[] = {16, 17, -1, 1000, INT32_MIN, 255};
    uint8_t b = fz_byte(in);
    return b < 250 ? (sgk_dtype)(b % 16) : (sgk_dtype)bad[b - 250];
}

static int fz_dtype_valid(sgk_dtype t) { return (int)t >= 0 && (int)t < 16; }

static sgk_dtype fz_index_dtype(fz_in *in)
{
    static const int other[] = {SGK_INT16, SGK_UINT64, SGK_FLOAT32, SGK_UINT32, SGK_BOOL,
                                99, -3, SGK_INT8};
    uint8_t b = fz_byte(in);
    if (b < 240)
        return b & 1 ? SGK_INT64 : SGK_INT32;
    return (sgk_dtype)other[b % 8];
}

FZ_MAYBE_UNUSED static sgk_reduction fz_reduction(fz_in *in)
{
    static const int bad[] = {6, -1, 100, INT32_MAX};
    uint8_t b = fz_byte(in);
    return b < 252 ? (sgk_reduction)(b % 6) : (sgk_reduction)bad[b - 252];
}

FZ_MAYBE_UNUSED static int fz_reduction_valid(sgk_reduction r) { return (int)r >= 0 && (int)r < 6; }

/* Plan flags: mostly valid combinations, sometimes contradictory or unknown. */
static uint32_t fz_flags(fz_in *in)
{
    static const uint32_t choice[] = {
        0, SGK_PLAN_DETERMINISTIC, SGK_PLAN_ALLOW_REORDER, SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_ALLOW_REORDER | SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER, /* contradictory */
        1u << 5, 0x80000000u, 0, 0, SGK_PLAN_WIDE_ACCUMULATE, 0, 0, 0, 0};
    return choice[fz_byte(in) % 16];
}

static int fz_flags_valid(uint32_t f)
{
    const uint32_t known =
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER | SGK_PLAN_WIDE_ACCUMULATE;
    return (f & ~known) == 0 &&
           !((f & SGK_PLAN_DETERMINISTIC) && (f & SGK_PLAN_ALLOW_REORDER));
}

/* Ranks 0-5 mostly; sometimes near SGK_MAX_RANK (dims then mostly 1), past
   it, or negative.  *high says "mostly ones". */
static int32_t fz_rank(fz_in *in, int *high)
{
    static const int32_t bad[] = {SGK_MAX_RANK + 1, 70, -1, INT32_MIN};
    uint8_t b = fz_byte(in);
    *high = 0;
    if (b < 232)
        return b % 6;
    if (b < 244) {
        *high = 1;
        return SGK_MAX_RANK - 4 + (b - 232) % 5;
    }
    if (b < 248)
        return bad[b - 244];
    return 1 + b % 3;
}

static const int64_t fz_small_dims[8] = {1, 2, 3, 4, 0, 1, 2, 5};
static const int64_t fz_odd_dims[16] = {
    INT64_C(1) << 40, INT64_C(1) << 62, INT64_MAX, -1, INT64_MIN, INT64_C(1) << 31,
    (INT64_C(1) << 32) + 1, INT64_C(3037000500), INT64_C(1) << 20, -(INT64_C(1) << 40),
    4096, 65, INT64_C(1) << 33, 7, 3, INT32_MAX};

static int64_t fz_dim(fz_in *in, int high)
{
    uint8_t b = fz_byte(in);
    if (high)
        return b < 236 ? 1 : b < 246 ? fz_small_dims[b % 8] : fz_odd_dims[b % 16];
    return b < 228 ? fz_small_dims[b % 8] : fz_odd_dims[b % 16];
}

/* Fills dims[0..min(rank, FZ_DIMS)) and zeroes the rest. */
static void fz_dims(fz_in *in, int32_t rank, int high, int64_t *dims)
{
    for (int d = 0; d < FZ_DIMS; d++)
        dims[d] = d < rank ? fz_dim(in, high) : 0;
}

/* The updates shape: mostly the one the rules want, sometimes OpenVINO's [1]
   for [], one dimension off, a dimension more or less, or anything. */
FZ_MAYBE_UNUSED static void fz_updates_shape(fz_in *in, const int64_t *want, int32_t want_rank, int32_t *rank,
                             int64_t *dims /* 2 * FZ_DIMS */)
{
    uint8_t b = fz_byte(in);
    *rank = want_rank;
    memcpy(dims, want, (size_t)want_rank * sizeof *dims);
    if (b < 200)
        return;
    if (b < 216) {
        if (want_rank == 0) {
            *rank = 1;
            dims[0] = 1;
        }
    } else if (b < 228) {
        if (want_rank > 0) {
            int64_t *dim = &dims[b % want_rank];
            if (__builtin_add_overflow(*dim, 1 + b % 2, dim))
                *dim = INT64_MAX - 1; /* still differs */
        } else {
            *rank = 1;
            dims[0] = 2;
        }
    } else if (b < 236) {
        if (want_rank < 2 * FZ_DIMS)
            dims[(*rank)++] = 1;
    } else if (b < 244) {
        if (want_rank > 0)
            (*rank)--;
    } else {
        int high;
        *rank = fz_rank(in, &high);
        fz_dims(in, *rank, high, dims);
    }
}

/* An index for a dimension of size dim: in range when in_range, otherwise
   from everything (in range, just outside, extreme). */
static int64_t fz_index(fz_in *in, int64_t dim, int in_range)
{
    static const int64_t extreme[] = {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX,
                                      (int64_t)INT32_MIN - 1, (int64_t)INT32_MAX + 1,
                                      INT64_MIN + 1, -(INT64_C(1) << 40)};
    uint8_t b = in_range ? 0 : fz_byte(in);
    if (b < 200 && dim > 0) {
        int64_t v = (int64_t)(fz_rand(in) % (uint64_t)dim);
        return fz_rand(in) & 1 ? v - dim : v;
    }
    if (b < 232) { /* just outside [-dim, dim-1] */
        int64_t v, off = b % 3;
        if (b & 1)
            return __builtin_add_overflow(dim, off, &v) ? INT64_MAX : v;
        return __builtin_sub_overflow(-dim - 1, off, &v) ? INT64_MIN : v;
    }
    return extreme[b % 8];
}

/* Stores v into an int32 or int64 index buffer; returns the stored value. */
static int64_t fz_store_index(sgk_dtype t, void *buf, int64_t i, int64_t v)
{
    if (t == SGK_INT32) {
        int32_t w = (int32_t)(uint32_t)(uint64_t)v;
        memcpy((char *)buf + i * 4, &w, 4);
        return w;
    }
    memcpy((char *)buf + i * 8, &v, 8);
    return v;
}

static int64_t fz_load_index(sgk_dtype t, const void *buf, int64_t i)
{
    if (t == SGK_INT32) {
        int32_t w;
        memcpy(&w, (const char *)buf + i * 4, 4);
        return w;
    }
    int64_t v;
    memcpy(&v, (const char *)buf + i * 8, 8);
    return v;
}

static const char *const fz_strings[] = {"", "a", "bb", "ccc", "sgk", "\xff\xfe",
                                         "a longer string", "x"};

/* One element of random content: special values (NaN with payloads, signed
   zeros, infinities, extremes, subnormals) one time in four. */
static void fz_value(fz_in *in, sgk_dtype t, unsigned char *dst)
{
    static const uint16_t f16[] = {0x7E00, 0x7C01, 0xFE01, 0x7C00, 0xFC00, 0x8000, 0x0000,
                                   0x7BFF, 0x0001, 0x3C00, 0xBC00, 0x03FF};
    static const uint16_t bf16[] = {0x7FC0, 0x7F81, 0xFFC1, 0x7F80, 0xFF80, 0x8000, 0x0000,
                                    0x7F7F, 0x0001, 0x3F80, 0xBF80, 0x007F};
    static const uint32_t f32[] = {0x7FC00000, 0x7F800001, 0xFFC00123, 0x7F800000, 0xFF800000,
                                   0x80000000, 0x00000000, 0x7F7FFFFF, 0x00000001, 0x3F800000,
                                   0xBF800000, 0x4B800000};
    static const uint64_t f64[] = {0x7FF8000000000000ull, 0x7FF0000000000001ull,
                                   0xFFF8000000000123ull, 0x7FF0000000000000ull,
                                   0xFFF0000000000000ull, 0x8000000000000000ull, 0,
                                   0x7FEFFFFFFFFFFFFFull, 1, 0x3FF0000000000000ull,
                                   0xBFF0000000000000ull, 0x4340000000000000ull};
    static const uint64_t ints[] = {0, 1, ~0ull, 0x7F, 0x80, 0x7FFF, 0x8000, 0x7FFFFFFF,
                                    0x80000000ull, 0x7FFFFFFFFFFFFFFFull,
                                    0x8000000000000000ull, 2};
    uint64_t r = fz_rand(in);
    int special = (r & 3) == 0;
    unsigned pick = (unsigned)(r >> 2) % 12;
    uint64_t bits = fz_rand(in);
    switch (t) {
    case SGK_STRING: {
        const char *s = fz_strings[bits % 8];
        memcpy(dst, &s, sizeof s);
        return;
    }
    case SGK_BOOL: {
        uint8_t v = special ? (uint8_t)bits : (uint8_t)(bits & 1);
        memcpy(dst, &v, 1);
        return;
    }
    case SGK_FLOAT16: case SGK_BFLOAT16: {
        uint16_t v = special ? (t == SGK_FLOAT16 ? f16 : bf16)[pick] : (uint16_t)bits;
        memcpy(dst, &v, 2);
        return;
    }
    case SGK_FLOAT32: case SGK_COMPLEX64:
        for (int c = 0; c < (t == SGK_COMPLEX64 ? 2 : 1); c++) {
            uint32_t v = special ? f32[(pick + (unsigned)c * 5) % 12] : (uint32_t)(bits >> (c * 32));
            memcpy(dst + 4 * c, &v, 4);
        }
        return;
    case SGK_FLOAT64: case SGK_COMPLEX128:
        for (int c = 0; c < (t == SGK_COMPLEX128 ? 2 : 1); c++) {
            uint64_t v = special ? f64[(pick + (unsigned)c * 5) % 12] : (c ? fz_rand(in) : bits);
            memcpy(dst + 8 * c, &v, 8);
        }
        return;
    default: {
        uint64_t v = special ? ints[pick] : bits;
        memcpy(dst, &v, tc_dtype_size(t));
        return;
    }
    }
}

static void fz_fill(fz_in *in, sgk_dtype t, void *buf, int64_t n)
{
    size_t es = tc_dtype_size(t);
    for (int64_t i = 0; i < n; i++)
        fz_value(in, t, (unsigned char *)buf + (size_t)i * es);
}

/* ---- the predicted outcome ---------------------------------------------- */

/* The statuses a call may return; none: it must succeed. */
typedef struct {
    unsigned allowed;
} fz_expect;

static void fz_allow(fz_expect *e, sgk_status s) { e->allowed |= 1u << (unsigned)s; }
static int fz_must_succeed(const fz_expect *e) { return e->allowed == 0; }

/* The tensor rules every operand obeys (dtype, rank, dimensions, 64-bit
   sizes); returns the element count, or -1 when it has none. */
static int64_t fz_tensor_elems(fz_expect *e, sgk_dtype t, int32_t rank, const int64_t *dims)
{
    if (!fz_dtype_valid(t))
        fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
    if (rank < 0 || rank > SGK_MAX_RANK) {
        fz_allow(e, SGK_ERR_SHAPE);
        return -1;
    }
    int64_t nonzero = 1;
    int zero = 0, bad = 0, overflow = 0;
    for (int d = 0; d < rank; d++) {
        if (dims[d] < 0) {
            fz_allow(e, SGK_ERR_SHAPE);
            bad = 1;
        } else if (dims[d] == 0) {
            zero = 1;
        } else if (!overflow && __builtin_mul_overflow(nonzero, dims[d], &nonzero)) {
            fz_allow(e, SGK_ERR_OVERFLOW);
            overflow = bad = 1;
        }
    }
    int64_t bytes;
    if (!overflow && fz_dtype_valid(t) &&
        __builtin_mul_overflow(nonzero, (int64_t)tc_dtype_size(t), &bytes)) {
        fz_allow(e, SGK_ERR_OVERFLOW);
        bad = 1;
    }
    if (bad || !fz_dtype_valid(t))
        return -1;
    return zero ? 0 : nonzero;
}

/* An output's element count (any rank): -1 and OVERFLOW when its element or
   byte count does not fit in 64 bits. */
FZ_MAYBE_UNUSED static int64_t fz_output_elems(fz_expect *e, size_t es, int rank, const int64_t *dims)
{
    int64_t nonzero = 1, bytes;
    int zero = 0;
    for (int d = 0; d < rank; d++) {
        if (dims[d] == 0)
            zero = 1;
        else if (__builtin_mul_overflow(nonzero, dims[d], &nonzero)) {
            fz_allow(e, SGK_ERR_OVERFLOW);
            return -1;
        }
    }
    if (__builtin_mul_overflow(nonzero, (int64_t)es, &bytes)) {
        fz_allow(e, SGK_ERR_OVERFLOW);
        return -1;
    }
    return zero ? 0 : nonzero;
}

/* Element count of dims[0..rank) when it fits in int64 (dims >= 0), else -1. */
static int64_t fz_count(const int64_t *dims, int rank)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        if (dims[d] == 0)
            return 0;
    for (int d = 0; d < rank; d++)
        if (dims[d] < 0 || __builtin_mul_overflow(n, dims[d], &n))
            return -1;
    return n;
}

static int fz_same_dims(const int64_t *a, const int64_t *b, int rank)
{
    for (int d = 0; d < rank; d++)
        if (a[d] != b[d])
            return 0;
    return 1;
}

/* The status is documented, allowed by the prediction, and explained. */
static void fz_check_failure(const fz_expect *e, sgk_status s, const char *call)
{
    if ((int)s < 1 || (int)s > 6)
        FZ_BREACH("%s returned undocumented status %d", call, (int)s);
    const char *name = sgk_status_name(s);
    if (name == NULL || name[0] == '\0')
        FZ_BREACH("%s: sgk_status_name(%d) is empty", call, (int)s);
    if (s != SGK_ERR_OUT_OF_MEMORY && !(e->allowed & (1u << (unsigned)s)))
        FZ_BREACH("%s returned %s, allowed set 0x%x", call, name, e->allowed);
    const char *msg = sgk_last_error();
    if (msg == NULL || msg[0] == '\0')
        FZ_BREACH("%s failed with %s but sgk_last_error() is empty", call, name);
}

/* Checks a call's status against the prediction; returns 1 when it
   succeeded (and was meant to). */
static int fz_check_status(const fz_expect *e, sgk_status s, const char *call)
{
    if (s == SGK_OK) {
        if (!fz_must_succeed(e))
            FZ_BREACH("%s succeeded, expected one of the statuses 0x%x", call, e->allowed);
        return 1;
    }
    if (fz_must_succeed(e) && s != SGK_ERR_OUT_OF_MEMORY)
        FZ_BREACH("%s failed with %s, expected success", call, sgk_status_name(s));
    fz_check_failure(e, s, call);
    return 0;
}

/* ---- buffers ------------------------------------------------------------ */

/* A tensor's buffer: exactly its bytes when its count is known and small,
   else a stand-in (only ever passed to calls that must fail). */
typedef struct {
    void *p;
    size_t bytes;  /* allocated */
    int real;      /* sized to the declared shape */
} fz_buf;

static void fz_alloc(fz_buf *b, int64_t elems, size_t es, int64_t cap)
{
    b->real = elems >= 0 && elems <= cap && es > 0;
    b->bytes = b->real ? (size_t)elems * es : FZ_STANDIN_BYTES;
    b->p = malloc(b->bytes ? b->bytes : 1);
    if (b->p == NULL)
        abort();
    memset(b->p, 0xA5, b->bytes ? b->bytes : 1);
}

static void *fz_dup(const void *p, size_t n)
{
    void *q = malloc(n ? n : 1);
    if (q == NULL)
        abort();
    if (n)
        memcpy(q, p, n);
    return q;
}

static void fz_check_untouched(const void *now, const void *before, size_t n, const char *what)
{
    if (n && memcmp(now, before, n) != 0)
        FZ_BREACH("%s changed by a failing (or read-only) use", what);
}

/* ---- result comparison -------------------------------------------------- */

static int fz_is_float_arith(sgk_dtype t, sgk_reduction r)
{
    int fl = t == SGK_FLOAT16 || t == SGK_BFLOAT16 || t == SGK_FLOAT32 || t == SGK_FLOAT64 ||
             t == SGK_COMPLEX64 || t == SGK_COMPLEX128;
    return fl && (r == SGK_REDUCE_ADD || r == SGK_REDUCE_SUB || r == SGK_REDUCE_MUL);
}

/* Element-by-element; `loose` (float arithmetic allowed to reorder) compares
   only the elements no update targets (touched[i] == 0). */
static void fz_compare(sgk_dtype t, sgk_reduction r, const void *want, const void *got,
                       int64_t n, const uint8_t *touched, int loose, const char *what)
{
    size_t es = tc_dtype_size(t);
    for (int64_t i = 0; i < n; i++) {
        const unsigned char *w = (const unsigned char *)want + (size_t)i * es;
        const unsigned char *g = (const unsigned char *)got + (size_t)i * es;
        if (loose && touched != NULL && touched[i])
            continue;
        if (!ref_same_result(t, r, w, g)) {
            char hw[40] = "", hg[40] = "";
            for (size_t b = 0; b < es && b < 16; b++) {
                snprintf(hw + 2 * b, 3, "%02x", w[b]);
                snprintf(hg + 2 * b, 3, "%02x", g[b]);
            }
            FZ_BREACH("%s: %s %s element %lld of %lld is %s, reference %s", what,
                      tc_dtype_name(t), tc_reduction_name(r), (long long)i, (long long)n,
                      hg, hw);
        }
    }
}

/* float16/bfloat16 add/sub/mul under SGK_PLAN_WIDE_ACCUMULATE: every touched
   element is widened once, takes its updates in order in float32 and is
   rounded once.  target[u] is the output element of update element u. */
static void fz_wide_reference(sgk_dtype t, sgk_reduction r, const void *data,
                              const void *updates, const int64_t *target, int64_t n_updates,
                              int64_t n_out, void *out)
{
    int bf = t == SGK_BFLOAT16;
    const uint16_t *d = data, *u = updates;
    uint16_t *o = out;
    float *acc = malloc((size_t)(n_out ? n_out : 1) * sizeof *acc);
    uint8_t *seen = calloc((size_t)(n_out ? n_out : 1), 1);
    if (acc == NULL || seen == NULL)
        abort();
    for (int64_t i = 0; i < n_out; i++)
        o[i] = d[i];
    for (int64_t k = 0; k < n_updates; k++) {
        int64_t i = target[k];
        if (!seen[i]) {
            seen[i] = 1;
            acc[i] = bf ? ref_bf16_to_f32(o[i]) : ref_f16_to_f32(o[i]);
        }
        float v = bf ? ref_bf16_to_f32(u[k]) : ref_f16_to_f32(u[k]);
        acc[i] = r == SGK_REDUCE_ADD ? acc[i] + v : r == SGK_REDUCE_SUB ? acc[i] - v : acc[i] * v;
    }
    for (int64_t i = 0; i < n_out; i++)
        if (seen[i])
            o[i] = bf ? ref_f32_to_bf16(acc[i]) : ref_f32_to_f16(acc[i]);
    free(acc);
    free(seen);
}

/* Picks the thread count for this input's plans (0: the default). */
static void fz_threads(uint8_t b)
{
    sgk_status s = sgk_set_num_threads(b % 4);
    if (s != SGK_OK)
        FZ_BREACH("sgk_set_num_threads(%d) failed", b % 4);
}

/* A plan for a huge (declared) problem may need more memory than there is:
   let allocations past 1 GiB fail (the library must then report
   SGK_ERR_OUT_OF_MEMORY) instead of exhausting the machine or tripping
   libFuzzer's malloc limit.  Both hooks are read by the sanitizer runtimes at
   start-up; the environment still overrides them. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1";
}
const char *__ubsan_default_options(void)
{
    return "print_stacktrace=1:halt_on_error=1";
}

/* Small problems run on one thread by default; let a few hundred bytes wake
   the team so that the parallel paths are fuzzed too. */
static void fz_setup(void)
{
    setenv("SGK_PARALLEL_MIN_BYTES", "256", 0);
    setenv("SGK_STREAM_MIN_BYTES", "4096", 0); /* streaming stores on the larger outputs */
}

#include "fuzz_run.h"

#endif /* SGK_FUZZ_COMMON_H */
