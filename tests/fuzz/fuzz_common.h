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

#include "fuzz_decode.h"

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
