/*
 * What the plan tests (tests/test_plans_*.c) share: random float32 inputs,
 * float comparisons, the check of what a plan's description must say, and
 * the sequential definition of the four operators on float32
 * (docs/semantics.md), written here and nothing else.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_checks.h"
/* Random inputs; the expected values are computed from them. */
tc_rng plans_rng = {0x9E3779B97F4A7C15ull};

/* Uniform in [-5, 5) with a full mantissa, so that any reordering of float
   sums shows up in the low bits. */
float *random_floats(size_t n)
{
    float *p = xmalloc(n * sizeof(float));
    tc_fill_uniform_f32(&plans_rng, p, n, -5.0, 5.0);
    return p;
}

void check_floats_at(const char *file, int line, const char *what, const float *got,
                            const float *want, size_t n)
{
    size_t byte = tc_first_difference(got, want, n * sizeof(float));
    if (byte == n * sizeof(float)) return;
    size_t i = byte / sizeof(float);
    print_error("%s: element %zu of %zu is %.9g, want %.9g\n", what, i, n, (double)got[i],
                (double)want[i]);
    _fail(file, line);
}

/* The word after `key` in text (up to a space or ';'), or "" when absent. */
static void word_after(const char *text, const char *key, char *word, size_t size)
{
    const char *at = strstr(text, key);
    size_t n = 0;
    if (at != NULL)
        for (at += strlen(key); at[n] != '\0' && at[n] != ' ' && at[n] != ';' && n + 1 < size;)
            n++;
    memcpy(word, at != NULL ? at : "", n);
    word[n] = '\0';
}

/* What sgk_plan_describe must say (sgk.h): the path the plan took, by the
   name sgk_plan_path gives, the threads it runs on (the runtime's, which
   the plan was made with, or fewer: serial runs on one) and the SIMD
   target the runtime reports. */
void check_describe(const sgk_plan *plan)
{
    const char *d = sgk_plan_describe(plan), *path = sgk_plan_path(plan);
    char want[64], got[64], runtime[64];
    assert_non_null(d);
    assert_non_null(path);
    snprintf(want, sizeof want, ": path %s", path);
    if (strstr(d, want) == NULL)
        fail_msg("\"%s\" does not name its path %s", d, path);
    word_after(sgk_runtime_describe(), "; threads ", runtime, sizeof runtime);
    word_after(d, "; threads ", got, sizeof got);
    assert_in_range(atoi(got), 1, atoi(runtime));
    word_after(sgk_runtime_describe(), "; simd ", runtime, sizeof runtime);
    word_after(d, "; simd ", got, sizeof got);
    assert_true(got[0] != '\0');
    assert_string_equal(got, runtime);
}

/* ---- the sequential definition, float32 ----------------------------------- */

static float reduce1(sgk_reduction r, float a, float b)
{
    switch (r) {
    case SGK_REDUCE_ADD: return a + b;
    case SGK_REDUCE_SUB: return a - b;
    case SGK_REDUCE_MUL: return a * b;
    case SGK_REDUCE_MAX: return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b);
    case SGK_REDUCE_MIN: return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b);
    default: return b;
    }
}

/* indices [n, k] */
void seq_scatter_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
                           int64_t n, int k, const float *upd, sgk_reduction red, float *out)
{
    int64_t total = tc_numel(r, ds), slice = tc_numel(r - k, ds + k);
    memcpy(out, data, (size_t)total * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int j = 0; j < k; j++) off = off * ds[j] + norm(idx[i * k + j], ds[j]);
        for (int64_t e = 0; e < slice; e++)
            out[off * slice + e] = reduce1(red, out[off * slice + e], upd[i * slice + e]);
    }
}

void seq_gather_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
                          const int64_t *is, int q, int b, float *out)
{
    int k = (int)is[q - 1];
    int64_t nb = tc_numel(b, ds), per_batch = tc_numel(q - 1 - b, is + b);
    int64_t slice = tc_numel(r - b - k, ds + b + k), batch_stride = tc_numel(r - b, ds + b);
    for (int64_t bb = 0; bb < nb; bb++)
        for (int64_t t = 0; t < per_batch; t++) {
            const int64_t *tup = idx + (bb * per_batch + t) * k;
            int64_t off = 0;
            for (int j = 0; j < k; j++) off = off * ds[b + j] + norm(tup[j], ds[b + j]);
            memcpy(out + (bb * per_batch + t) * slice, data + bb * batch_stride + off * slice,
                   (size_t)slice * sizeof(float));
        }
}

/* Flat offset into data of element i of an indices tensor (Elements ops). */
static int64_t elements_offset(int64_t i, const int64_t *ds, const int64_t *is, int r, int axis,
                               int64_t index)
{
    int64_t coord[8], rem = i, off = 0;
    for (int d = r - 1; d >= 0; d--) {
        coord[d] = rem % is[d];
        rem /= is[d];
    }
    for (int d = 0; d < r; d++) off = off * ds[d] + (d == axis ? norm(index, ds[d]) : coord[d]);
    return off;
}

void seq_scatter_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
                                 const int64_t *is, int axis, const float *upd, sgk_reduction red,
                                 float *out)
{
    memcpy(out, data, (size_t)tc_numel(r, ds) * sizeof(float));
    int64_t n = tc_numel(r, is);
    for (int64_t i = 0; i < n; i++) {
        int64_t off = elements_offset(i, ds, is, r, axis, idx[i]);
        out[off] = reduce1(red, out[off], upd[i]);
    }
}

void seq_gather_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
                                const int64_t *is, int axis, float *out)
{
    int64_t n = tc_numel(r, is);
    for (int64_t i = 0; i < n; i++) out[i] = data[elements_offset(i, ds, is, r, axis, idx[i])];
}

