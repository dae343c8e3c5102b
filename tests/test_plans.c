/*
 * Plans (docs/integration.md, "The C API"): plan once and execute many times on
 * new buffers, the plan keeps no pointer to the caller's indices or shapes,
 * in-place execution, zero-sized problems, one plan executed from many
 * threads at once, and bit-identical results at every thread count
 * (deterministic by default).  Expected values come from the sequential
 * definition (docs/semantics.md), written below.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sgk.h"

/* ---- helpers -------------------------------------------------------------- */

/* Random inputs; the expected values are computed from them. */
static tc_rng rng = {0x9E3779B97F4A7C15ull};

static double absd(double x) { return x < 0 ? -x : x; }

/* Uniform in [-5, 5) with a full mantissa, so that any reordering of float
   sums shows up in the low bits. */
static float *random_floats(size_t n)
{
    float *p = xmalloc(n * sizeof(float));
    tc_fill_uniform_f32(&rng, p, n, -5.0, 5.0);
    return p;
}

static int64_t norm(int64_t v, int64_t s) { return v < 0 ? v + s : v; }

static void check_floats_at(const char *file, int line, const char *what, const float *got,
                            const float *want, size_t n)
{
    size_t byte = tc_first_difference(got, want, n * sizeof(float));
    if (byte == n * sizeof(float)) return;
    size_t i = byte / sizeof(float);
    print_error("%s: element %zu of %zu is %.9g, want %.9g\n", what, i, n, (double)got[i],
                (double)want[i]);
    _fail(file, line);
}
#define CHECK_FLOATS(what, got, want, n) check_floats_at(__FILE__, __LINE__, what, got, want, n)

static void check_describe(const sgk_plan *plan)
{
    const char *d = sgk_plan_describe(plan);
    assert_non_null(d);
    assert_true(d[0] != '\0');
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
static void ref_scatter_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
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

static void ref_gather_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
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

static void ref_scatter_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
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

static void ref_gather_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
                                const int64_t *is, int axis, float *out)
{
    int64_t n = tc_numel(r, is);
    for (int64_t i = 0; i < n; i++) out[i] = data[elements_offset(i, ds, is, r, axis, idx[i])];
}

static sgk_tensor f32(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_FLOAT32, r, shape, p};
}

static sgk_tensor i64(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_INT64, r, shape, p};
}

static sgk_tensor i32(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_INT32, r, shape, p};
}

/* ---- plan once, execute many --------------------------------------------- */

static void test_reuse_scatter_nd(void **state)
{
    (void)state;
    /* data [6, 4], indices [5, 1] with duplicates, updates [5, 4] */
    static const int64_t ds[] = {6, 4}, is[] = {5, 1}, us[] = {5, 4};
    static const int64_t idx[] = {1, 3, 1, -1, -5};
    static const int32_t idx32[] = {1, 3, 1, -1, -5};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_SUB,
                                         SGK_REDUCE_MUL, SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    for (int use32 = 0; use32 < 2; use32++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL);
            sgk_tensor ix = use32 ? i32(2, is, idx32) : i64(2, is, idx);
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
            assert_non_null(plan);
            check_describe(plan);
            for (int round = 0; round < 4; round++) {
                float *data = random_floats(24), *upd = random_floats(20);
                float out[24], want[24];
                ref_scatter_nd(data, ds, 2, idx, 5, 1, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_nd plan reuse", out, want, 24);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }

    /* k = r (element updates), last-wins duplicates, data pointer given at plan
       time but other buffers at execute */
    {
        static const int64_t is2[] = {7, 2}, us2[] = {7};
        static const int64_t idx2[] = {0, 0, 5, 3, -1, -1, 0, 0, 2, 1, 5, -1, 0, -4};
        float *plan_data = random_floats(24), *plan_upd = random_floats(7);
        sgk_tensor d = f32(2, ds, plan_data), u = f32(1, us2, plan_upd), ix = i64(2, is2, idx2);
        for (size_t ri = 0; ri < 3; ri++) {
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], SGK_PLAN_DETERMINISTIC));
            for (int round = 0; round < 3; round++) {
                float *data = random_floats(24), *upd = random_floats(7);
                float out[24], want[24];
                ref_scatter_nd(data, ds, 2, idx2, 7, 2, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_nd (k = r) plan reuse", out, want, 24);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }
        free(plan_data);
        free(plan_upd);
    }
}

static void test_reuse_gather_nd(void **state)
{
    (void)state;
    /* batch_dims 0: data [5, 3, 4], indices [3, 2, 2]  -> output [3, 2, 4]
       batch_dims 1: data [2, 6, 3], indices [2, 4, 1]  -> output [2, 4, 3] */
    static const int64_t ds0[] = {5, 3, 4}, is0[] = {3, 2, 2};
    static const int64_t idx0[] = {0, 0, 4, 2, -1, -3, 2, 1, 1, -1, -5, 0};
    static const int64_t ds1[] = {2, 6, 3}, is1[] = {2, 4, 1};
    static const int64_t idx1[] = {5, 0, -6, 2, 3, 3, -1, 1};
    static const int32_t idx1_32[] = {5, 0, -6, 2, 3, 3, -1, 1};
    struct {
        const int64_t *ds, *is, *idx;
        const void *idx_data;
        sgk_dtype idx_type;
        int b;
        int64_t n_data, n_out;
    } cases[] = {
        {ds0, is0, idx0, idx0, SGK_INT64, 0, 60, 24},
        {ds1, is1, idx1, idx1, SGK_INT64, 1, 36, 24},
        {ds1, is1, idx1, idx1_32, SGK_INT32, 1, 36, 24},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgk_tensor d = f32(3, cases[c].ds, NULL);
        sgk_tensor ix = {cases[c].idx_type, 3, cases[c].is, cases[c].idx_data};
        sgk_plan *plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, cases[c].b, 0));
        check_describe(plan);
        for (int round = 0; round < 4; round++) {
            float *data = random_floats((size_t)cases[c].n_data);
            float out[64], want[64];
            ref_gather_nd(data, cases[c].ds, 3, cases[c].idx, cases[c].is, 3, cases[c].b, want);
            CHECK_OK(sgk_execute(plan, data, NULL, out));
            CHECK_FLOATS("gather_nd plan reuse", out, want, (size_t)cases[c].n_out);
            free(data);
        }
        sgk_plan_destroy(plan);
    }
}

static void test_reuse_elements(void **state)
{
    (void)state;
    /* ScatterElements: data [4, 5], indices/updates [3, 5] on axis 0 (duplicates),
       and [4, 3] on axis 1. GatherElements: data [3, 5], indices [3, 7] on axis 1. */
    static const int64_t ds[] = {4, 5}, is0[] = {3, 5}, is1[] = {4, 3};
    static const int64_t idx0[] = {0, 3, 1, -1, 2, 0, 3, 1, 3, -4, 0, -1, 1, 3, 2};
    static const int64_t idx1[] = {0, 4, 0, -1, 2, 4, 3, 3, -5, 1, 1, 1};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN, SGK_REDUCE_SUB};
    for (int ax = 0; ax < 2; ax++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            const int64_t *is = ax ? is1 : is0, *idx = ax ? idx1 : idx0;
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, is, NULL), ix = i64(2, is, idx);
            sgk_plan *plan = NULL;
            int64_t axis = (ax == 1 && (ri & 1)) ? -1 : ax; /* axis 1 also as -1 */
            CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, axis, reds[ri], 0));
            check_describe(plan);
            for (int round = 0; round < 3; round++) {
                float *data = random_floats(20), *upd = random_floats(15);
                float out[20], want[20];
                ref_scatter_elements(data, ds, 2, idx, is, ax, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_elements plan reuse", out, want, 20);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }

    static const int64_t gds[] = {3, 5}, gis[] = {3, 7};
    static const int32_t gidx32[] = {0, 4, -1, -5, 2, 2, 3, 1, 1, 1, 0, -2, 4, 3, 4, 3, 2, 1, 0, -1, -3};
    int64_t gidx[21];
    for (int i = 0; i < 21; i++) gidx[i] = gidx32[i];
    sgk_tensor d = f32(2, gds, NULL), ix = i32(2, gis, gidx32);
    sgk_plan *plan = NULL;
    CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, -1, 0));
    check_describe(plan);
    for (int round = 0; round < 3; round++) {
        float *data = random_floats(15);
        float out[21], want[21];
        ref_gather_elements(data, gds, 2, gidx, gis, 1, want);
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        CHECK_FLOATS("gather_elements plan reuse", out, want, 21);
        free(data);
    }
    sgk_plan_destroy(plan);
    sgk_plan_destroy(NULL); /* like free(NULL) */
}

/* ---- an index constant after the axis: whole rows move ------------------ */

static void test_whole_rows(void **state)
{
    (void)state;
    /* ScatterElements: data [6, 5], indices/updates [4, 5] on axis 0, each
       row's index repeated along it (slot 2 twice); then one element
       breaks the pattern and the elements are moved one by one. */
    static const int64_t ds[] = {6, 5}, is[] = {4, 5};
    int64_t idx[20];
    static const int64_t rows[] = {2, -1, 2, 0};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN, SGK_REDUCE_SUB};
    for (int broken = 0; broken < 2; broken++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            for (int i = 0; i < 20; i++)
                idx[i] = rows[i / 5];
            if (broken)
                idx[13] = 1;
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, is, NULL), ix = i64(2, is, idx);
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, 0, reds[ri], 0));
            assert_int_equal(strstr(sgk_plan_describe(plan), "whole rows") != NULL, !broken);
            float *data = random_floats(30), *upd = random_floats(20);
            float out[30], want[30];
            ref_scatter_elements(data, ds, 2, idx, is, 0, upd, reds[ri], want);
            CHECK_OK(sgk_execute(plan, data, upd, out));
            CHECK_FLOATS("scatter_elements, whole rows", out, want, 30);
            CHECK_OK(sgk_execute(plan, data, upd, data)); /* in place */
            CHECK_FLOATS("scatter_elements, whole rows in place", data, want, 30);
            free(data);
            free(upd);
            sgk_plan_destroy(plan);
        }

    /* GatherElements: data [4, 3, 2], indices [3, 5, 2] on axis 1 (int32),
       constant along the last dimension: rows of 2 from the first 3 of 4
       outer positions. */
    static const int64_t gds[] = {4, 3, 2}, gis[] = {3, 5, 2};
    int32_t gidx32[30];
    int64_t gidx[30];
    for (int i = 0; i < 30; i++)
        gidx[i] = gidx32[i] = (int32_t)((i / 2 * 7) % 6) - 3;
    sgk_tensor d = f32(3, gds, NULL), ix = i32(3, gis, gidx32);
    sgk_plan *plan = NULL;
    CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, 1, 0));
    assert_non_null(strstr(sgk_plan_describe(plan), "whole rows"));
    float *data = random_floats(24);
    float out[30], want[30];
    ref_gather_elements(data, gds, 3, gidx, gis, 1, want);
    CHECK_OK(sgk_execute(plan, data, NULL, out));
    CHECK_FLOATS("gather_elements, whole rows", out, want, 30);
    free(data);
    sgk_plan_destroy(plan);

    /* Rows of 40, compared a vector at a time: one element off anywhere
       in the last row (vector lanes or scalar tail) means elements, with
       either index type. */
    static const int64_t lds[] = {4, 40}, lis[] = {3, 40};
    int64_t lidx[120];
    int32_t lidx32[120];
    float *ldata = random_floats(160);
    float lout[120], lwant[120];
    for (int is64 = 0; is64 < 2; is64++)
        for (int off = -1; off < 40; off++) {
            for (int i = 0; i < 120; i++)
                lidx[i] = lidx32[i] = (int32_t)(i / 40) - 1;
            if (off >= 0)
                lidx[80 + off] = lidx32[80 + off] = 3;
            sgk_tensor ld = f32(2, lds, NULL);
            sgk_tensor lix = is64 ? i64(2, lis, lidx) : i32(2, lis, lidx32);
            plan = NULL;
            CHECK_OK(sgk_plan_gather_elements(&plan, &ld, &lix, 0, 0));
            assert_int_equal(strstr(sgk_plan_describe(plan), "whole rows") != NULL, off < 0);
            ref_gather_elements(ldata, lds, 2, lidx, lis, 0, lwant);
            CHECK_OK(sgk_execute(plan, ldata, NULL, lout));
            CHECK_FLOATS("gather_elements, rows of 40", lout, lwant, 120);
            sgk_plan_destroy(plan);
        }
    free(ldata);
}

/* ---- the plan keeps no pointer to the caller's indices or shapes ---------- */

static void test_indices_freed_after_planning(void **state)
{
    (void)state;
    static const int64_t ds[] = {8, 3}, is[] = {6, 1}, us[] = {6, 3};
    static const int64_t orig[] = {7, 0, 7, -8, 3, 0};
    int64_t *idx = xmalloc(sizeof orig);
    memcpy(idx, orig, sizeof orig);
    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_plan *sp = NULL, *gp = NULL, *ep = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_ADD, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &ix, 0, 0));
    static const int64_t eis[] = {2, 3};
    sgk_tensor eix = i64(2, eis, idx), eu = f32(2, eis, NULL);
    CHECK_OK(sgk_plan_scatter_elements(&ep, &d, &eix, &eu, 0, SGK_REDUCE_MUL, 0));

    /* overwrite with values that would be out of range, then free */
    memset(idx, 0x7f, sizeof orig);
    float *data = random_floats(24), *upd = random_floats(18);
    float out[24], want[24];
    ref_scatter_nd(data, ds, 2, orig, 6, 1, upd, SGK_REDUCE_ADD, want);
    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after indices overwritten", out, want, 24);
    free(idx);
    idx = xmalloc(sizeof orig); /* likely reuses the block */
    memset(idx, 0x80, sizeof orig);

    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after indices freed", out, want, 24);
    ref_gather_nd(data, ds, 2, orig, is, 2, 0, want);
    CHECK_OK(sgk_execute(gp, data, NULL, out));
    CHECK_FLOATS("gather_nd after indices freed", out, want, 18);
    ref_scatter_elements(data, ds, 2, orig, eis, 0, upd, SGK_REDUCE_MUL, want);
    CHECK_OK(sgk_execute(ep, data, upd, out));
    CHECK_FLOATS("scatter_elements after indices freed", out, want, 24);

    free(idx);
    free(data);
    free(upd);
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
    sgk_plan_destroy(ep);
}

static void test_shapes_freed_after_planning(void **state)
{
    (void)state;
    static const int64_t ds_c[] = {5, 4}, is_c[] = {3, 1}, us_c[] = {3, 4};
    static const int64_t idx[] = {4, -5, 2};
    int64_t *ds = xmalloc(sizeof ds_c), *is = xmalloc(sizeof is_c), *us = xmalloc(sizeof us_c);
    memcpy(ds, ds_c, sizeof ds_c);
    memcpy(is, is_c, sizeof is_c);
    memcpy(us, us_c, sizeof us_c);
    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_plan *sp = NULL, *gp = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_NONE, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &ix, 0, 0));
    memset(ds, 0xff, sizeof ds_c);
    memset(is, 0xff, sizeof is_c);
    memset(us, 0xff, sizeof us_c);
    free(ds);
    free(is);
    free(us);

    float *data = random_floats(20), *upd = random_floats(12);
    float out[20], want[20];
    ref_scatter_nd(data, ds_c, 2, idx, 3, 1, upd, SGK_REDUCE_NONE, want);
    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after shapes freed", out, want, 20);
    ref_gather_nd(data, ds_c, 2, idx, is_c, 2, 0, want);
    CHECK_OK(sgk_execute(gp, data, NULL, out));
    CHECK_FLOATS("gather_nd after shapes freed", out, want, 12);
    free(data);
    free(upd);
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
}

/* ---- in place ------------------------------------------------------------- */

static void test_in_place(void **state)
{
    (void)state;
    static const int64_t ds[] = {16, 8}, is[] = {40, 1}, us[] = {40, 8};
    int64_t idx[40];
    for (int i = 0; i < 40; i++) idx[i] = (i * 7) % 16 - (i % 3 == 0 ? 16 : 0);
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MAX};
    for (size_t ri = 0; ri < 3; ri++) {
        float *data = random_floats(128), *upd = random_floats(320);
        float want[128], work[128];
        ref_scatter_nd(data, ds, 2, idx, 40, 1, upd, reds[ri], want);
        sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
        sgk_plan *plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
        memcpy(work, data, sizeof work);
        CHECK_OK(sgk_execute(plan, work, upd, work));
        CHECK_FLOATS("scatter_nd execute in place", work, want, 128);
        sgk_plan_destroy(plan);

        memcpy(work, data, sizeof work);
        d.data = work;
        u.data = upd;
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], work));
        CHECK_FLOATS("scatter_nd one-shot in place", work, want, 128);

        /* ScatterElements on axis 0 with indices [16, 8] */
        static const int64_t eis[] = {16, 8};
        int64_t eidx[128];
        for (int i = 0; i < 128; i++) eidx[i] = tc_rng_below(&rng, 32) - 16;
        ref_scatter_elements(data, ds, 2, eidx, eis, 0, upd, reds[ri], want);
        sgk_tensor eix = i64(2, eis, eidx), eu = f32(2, eis, upd);
        memcpy(work, data, sizeof work);
        d.data = work;
        CHECK_OK(sgk_scatter_elements(&d, &eix, &eu, 0, reds[ri], work));
        CHECK_FLOATS("scatter_elements one-shot in place", work, want, 128);
        memcpy(work, data, sizeof work);
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &eix, &eu, 0, reds[ri], 0));
        CHECK_OK(sgk_execute(plan, work, upd, work));
        CHECK_FLOATS("scatter_elements execute in place", work, want, 128);
        sgk_plan_destroy(plan);
        free(data);
        free(upd);
    }
}

/* ---- zero-sized problems --------------------------------------------------- */

static void test_zero_sized(void **state)
{
    (void)state;
    float data[32], out[40];
    for (int i = 0; i < 32; i++) data[i] = (float)i * 1.5f - 7.0f;
    static const int64_t ds[] = {4, 8};
    sgk_plan *plan;

    /* ScatterND, zero updates: output == data. NULL indices/updates pointers
       are fine for tensors without elements. */
    {
        static const int64_t is[] = {0, 2}, us[] = {0}, is1[] = {0, 1}, us1[] = {0, 8};
        static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL};
        for (size_t ri = 0; ri < 3; ri++) {
            sgk_tensor d = f32(2, ds, data), ix = i64(2, is, NULL), u = f32(1, us, NULL);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], out));
            CHECK_FLOATS("scatter_nd with zero updates", out, data, 32);
            ix = i32(2, is1, NULL);
            u = f32(2, us1, NULL);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], out));
            CHECK_FLOATS("scatter_nd with zero slice updates", out, data, 32);
            plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
            check_describe(plan);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_execute(plan, data, NULL, out));
            CHECK_FLOATS("scatter_nd plan with zero updates", out, data, 32);
            float work[32];
            memcpy(work, data, sizeof work);
            CHECK_OK(sgk_execute(plan, work, NULL, work));
            CHECK_FLOATS("scatter_nd plan with zero updates, in place", work, data, 32);
            sgk_plan_destroy(plan);
        }
    }
    /* ScatterND on data with a zero dimension: nothing to write, NULL output ok. */
    {
        static const int64_t zds[] = {0, 8}, is[] = {0, 1}, us[] = {0, 8};
        sgk_tensor d = f32(2, zds, NULL), ix = i64(2, is, NULL), u = f32(2, us, NULL);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, NULL));
        tc_fill_pattern(out, sizeof out);
        uint8_t before[sizeof out];
        memcpy(before, out, sizeof out);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, out));
        assert_memory_equal(out, before, sizeof out);

        static const int64_t zds2[] = {4, 0}, is2[] = {3, 1}, us2[] = {3, 0};
        static const int64_t idx2[] = {3, -4, 0};
        d = f32(2, zds2, NULL);
        ix = i64(2, is2, idx2);
        u = f32(2, us2, NULL);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_NONE, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        CHECK_OK(sgk_execute(plan, NULL, NULL, out));
        assert_memory_equal(out, before, sizeof out);
        sgk_plan_destroy(plan);
    }
    /* GatherND: no index tuples, or empty slices. */
    {
        static const int64_t is[] = {0, 1}, zds[] = {4, 0}, is2[] = {2, 1};
        static const int64_t idx2[] = {-1, 2};
        int64_t shape[8];
        int32_t rank = -1;
        sgk_tensor d = f32(2, ds, data), ix = i64(2, is, NULL);
        CHECK_OK(sgk_gather_nd_shape(&d, &ix, 0, shape, &rank));
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 0);
        assert_int_equal(shape[1], 8);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, NULL));
        tc_fill_pattern(out, sizeof out);
        uint8_t before[sizeof out];
        memcpy(before, out, sizeof out);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, out));
        assert_memory_equal(out, before, sizeof out);
        d = f32(2, zds, NULL);
        ix = i64(2, is2, idx2);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, 0, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        sgk_plan_destroy(plan);
        /* batch_dims 1 with an empty batch */
        static const int64_t bds[] = {0, 3}, bis[] = {0, 1};
        d = f32(2, bds, NULL);
        ix = i64(2, bis, NULL);
        CHECK_OK(sgk_gather_nd(&d, &ix, 1, NULL));
    }
    /* Elements. */
    {
        static const int64_t eds[] = {4, 8}, eis[] = {4, 0}, zds[] = {3, 0}, zis[] = {3, 0};
        sgk_tensor d = f32(2, eds, data), ix = i64(2, eis, NULL), u = f32(2, eis, NULL);
        tc_fill_pattern(out, sizeof out);
        CHECK_OK(sgk_scatter_elements(&d, &ix, &u, 1, SGK_REDUCE_ADD, out));
        CHECK_FLOATS("scatter_elements with zero updates", out, data, 32);
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, 0, SGK_REDUCE_MAX, 0));
        tc_fill_pattern(out, sizeof out);
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        CHECK_FLOATS("scatter_elements plan with zero updates", out, data, 32);
        sgk_plan_destroy(plan);
        CHECK_OK(sgk_gather_elements(&d, &ix, 1, NULL));
        d = f32(2, zds, NULL);
        ix = i64(2, zis, NULL);
        u = f32(2, zis, NULL);
        CHECK_OK(sgk_scatter_elements(&d, &ix, &u, 1, SGK_REDUCE_NONE, NULL));
        CHECK_OK(sgk_gather_elements(&d, &ix, -1, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, 0, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        sgk_plan_destroy(plan);
    }
}

/* ---- one plan, many threads ----------------------------------------------- */

#define NT 8
#define CT_ROWS 2048
#define CT_COLS 128
#define CT_UPD 4096       /* ScatterND updates rows, into 512 distinct rows */
#define CT_GROWS 4096     /* GatherND index rows */
#define CT_ROUNDS 3

typedef struct {
    const sgk_plan *scatter, *gather;
    pthread_barrier_t *barrier;
    const float *data, *upd, *want_scatter, *want_gather;
    float *out_scatter, *out_gather;
    int scatter_bad, gather_bad;
    sgk_status status;
} ct_job;

static void *ct_worker(void *arg)
{
    ct_job *j = arg;
    pthread_barrier_wait(j->barrier);
    for (int r = 0; r < CT_ROUNDS; r++) {
        tc_fill_pattern(j->out_scatter, sizeof(float) * CT_ROWS * CT_COLS);
        sgk_status st = sgk_execute(j->scatter, j->data, j->upd, j->out_scatter);
        if (st != SGK_OK) j->status = st;
        else if (memcmp(j->out_scatter, j->want_scatter, sizeof(float) * CT_ROWS * CT_COLS))
            j->scatter_bad++;
        tc_fill_pattern(j->out_gather, sizeof(float) * CT_GROWS * CT_COLS);
        st = sgk_execute(j->gather, j->data, NULL, j->out_gather);
        if (st != SGK_OK) j->status = st;
        else if (memcmp(j->out_gather, j->want_gather, sizeof(float) * CT_GROWS * CT_COLS))
            j->gather_bad++;
    }
    return NULL;
}

static void test_concurrent_execute(void **state)
{
    (void)state;
    static const int64_t ds[] = {CT_ROWS, CT_COLS}, is[] = {CT_UPD, 1}, us[] = {CT_UPD, CT_COLS};
    static const int64_t gis[] = {CT_GROWS, 1};
    int64_t *idx = xmalloc(CT_UPD * sizeof(int64_t)), *gidx = xmalloc(CT_GROWS * sizeof(int64_t));
    for (int i = 0; i < CT_UPD; i++) idx[i] = tc_rng_below(&rng, 512) * 3 - (i & 1 ? CT_ROWS : 0);
    for (int i = 0; i < CT_GROWS; i++) gidx[i] = tc_rng_below(&rng, 2 * CT_ROWS) - CT_ROWS;

    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_tensor gix = i64(2, gis, gidx);
    sgk_plan *sp = NULL, *gp = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_ADD, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &gix, 0, 0));
    check_describe(sp);
    check_describe(gp);

    const size_t nd = (size_t)CT_ROWS * CT_COLS, nu = (size_t)CT_UPD * CT_COLS,
                 ng = (size_t)CT_GROWS * CT_COLS;
    ct_job jobs[NT];
    pthread_t th[NT];
    pthread_barrier_t barrier;
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < NT; t++) {
        float *data = random_floats(nd), *upd = random_floats(nu);
        float *ws = xmalloc(nd * sizeof(float)), *wg = xmalloc(ng * sizeof(float));
        ref_scatter_nd(data, ds, 2, idx, CT_UPD, 1, upd, SGK_REDUCE_ADD, ws);
        ref_gather_nd(data, ds, 2, gidx, gis, 2, 0, wg);
        jobs[t] = (ct_job){sp, gp, &barrier, data, upd, ws, wg, xmalloc(nd * sizeof(float)),
                           xmalloc(ng * sizeof(float)), 0, 0, SGK_OK};
    }
    /* The single-threaded results equal the sequential definition. */
    CHECK_OK(sgk_execute(sp, jobs[0].data, jobs[0].upd, jobs[0].out_scatter));
    CHECK_FLOATS("scatter_nd add, one thread", jobs[0].out_scatter, jobs[0].want_scatter, nd);
    CHECK_OK(sgk_execute(gp, jobs[0].data, NULL, jobs[0].out_gather));
    CHECK_FLOATS("gather_nd, one thread", jobs[0].out_gather, jobs[0].want_gather, ng);

    assert_int_equal(pthread_barrier_init(&barrier, NULL, NT), 0);
    for (int t = 0; t < NT; t++) assert_int_equal(pthread_create(&th[t], NULL, ct_worker, &jobs[t]), 0);
    for (int t = 0; t < NT; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&barrier);

    for (int t = 0; t < NT; t++) {
        if (jobs[t].status != SGK_OK || jobs[t].scatter_bad || jobs[t].gather_bad) {
            print_error("thread %d: status %d, %d/%d scatter and %d/%d gather results differ "
                        "from the single-threaded result\n",
                        t, (int)jobs[t].status, jobs[t].scatter_bad, CT_ROUNDS,
                        jobs[t].gather_bad, CT_ROUNDS);
            fail();
        }
    }
    for (int t = 0; t < NT; t++) {
        free((void *)jobs[t].data);
        free((void *)jobs[t].upd);
        free((void *)jobs[t].want_scatter);
        free((void *)jobs[t].want_gather);
        free(jobs[t].out_scatter);
        free(jobs[t].out_gather);
    }
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
    free(idx);
    free(gidx);
}

/* ---- identical bytes at every thread count ---------------------------------- */

static void test_thread_counts(void **state)
{
    (void)state;
    /* ScatterND add on rows: data [4096, 64], 32768 update rows into 1024 rows */
    static const int64_t ds[] = {4096, 64}, is[] = {32768, 1}, us[] = {32768, 64};
    /* ScatterND add on elements (k = r): data [512, 512], 262144 updates into 4096 */
    static const int64_t eds[] = {512, 512}, eis[] = {262144, 2}, eus[] = {262144};
    /* ScatterElements add, axis 1: data [256, 1024], indices [256, 2048] */
    static const int64_t sds[] = {256, 1024}, sis[] = {256, 2048};
    /* GatherND: data [4096, 64] by 16384 rows */
    static const int64_t gis[] = {16384, 1};
    const size_t nd = 4096 * 64, nu = 32768 * 64, ne = 512 * 512, nse = 256 * 2048;
    const size_t ng = 16384 * 64;

    int64_t *idx = xmalloc(32768 * sizeof(int64_t)), *eidx = xmalloc(262144 * 2 * sizeof(int64_t));
    int64_t *sidx = xmalloc(nse * sizeof(int64_t)), *gidx = xmalloc(16384 * sizeof(int64_t));
    for (size_t i = 0; i < 32768; i++)
        idx[i] = tc_rng_below(&rng, 1024) * 4 - (i % 3 == 0 ? 4096 : 0);
    for (size_t i = 0; i < 262144; i++) {
        int64_t cell = tc_rng_below(&rng, 4096);
        eidx[2 * i] = (cell / 64) * 8;
        eidx[2 * i + 1] = (cell % 64) * 8 - (i & 1 ? 512 : 0);
    }
    for (size_t i = 0; i < nse; i++) sidx[i] = tc_rng_below(&rng, 64) - (i & 1 ? 1024 : 0);
    for (size_t i = 0; i < 16384; i++) gidx[i] = tc_rng_below(&rng, 8192) - 4096;

    float *data = random_floats(nd), *upd = random_floats(nu);
    float *edata = random_floats(ne), *eupd = random_floats(262144);
    float *sdata = random_floats(256 * 1024), *supd = random_floats(nse);
    float *want = xmalloc(nd * sizeof(float)), *ewant = xmalloc(ne * sizeof(float));
    float *swant = xmalloc(256 * 1024 * sizeof(float)), *gwant = xmalloc(ng * sizeof(float));
    float *out = xmalloc(ng * sizeof(float));
    ref_scatter_nd(data, ds, 2, idx, 32768, 1, upd, SGK_REDUCE_ADD, want);
    ref_scatter_nd(edata, eds, 2, eidx, 262144, 2, eupd, SGK_REDUCE_ADD, ewant);
    ref_scatter_elements(sdata, sds, 2, sidx, sis, 1, supd, SGK_REDUCE_ADD, swant);
    ref_gather_nd(data, ds, 2, gidx, gis, 2, 0, gwant);

    sgk_tensor d = f32(2, ds, data), u = f32(2, us, upd), ix = i64(2, is, idx);
    sgk_tensor ed = f32(2, eds, edata), eu = f32(1, eus, eupd), eix = i64(2, eis, eidx);
    sgk_tensor sd = f32(2, sds, sdata), su = f32(2, sis, supd), six = i64(2, sis, sidx);
    sgk_tensor gix = i64(2, gis, gidx);

    /* a plan made before the thread count changes */
    sgk_plan *early = NULL;
    CHECK_OK(sgk_set_num_threads(1));
    CHECK_OK(sgk_plan_scatter_nd(&early, &d, &ix, &u, SGK_REDUCE_ADD, 0));

    static const int counts[] = {1, 2, 4, 0, 3};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        char what[96];
        CHECK_OK(sgk_set_num_threads(counts[ci]));
        sgk_plan *plan;
        static const uint32_t flag_sets[] = {0, SGK_PLAN_DETERMINISTIC};

        snprintf(what, sizeof what, "scatter_nd add (rows), %d threads, one-shot", counts[ci]);
        tc_fill_pattern(out, nd * sizeof(float));
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, out));
        check_floats_at(__FILE__, __LINE__, what, out, want, nd);
        for (size_t f = 0; f < 2; f++) {
            plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, flag_sets[f]));
            tc_fill_pattern(out, nd * sizeof(float));
            CHECK_OK(sgk_execute(plan, data, upd, out));
            snprintf(what, sizeof what, "scatter_nd add (rows), %d threads, plan flags %u",
                     counts[ci], (unsigned)flag_sets[f]);
            check_floats_at(__FILE__, __LINE__, what, out, want, nd);
            sgk_plan_destroy(plan);
        }
        tc_fill_pattern(out, nd * sizeof(float));
        CHECK_OK(sgk_execute(early, data, upd, out));
        snprintf(what, sizeof what, "scatter_nd add, earlier plan, %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, want, nd);

        tc_fill_pattern(out, ne * sizeof(float));
        CHECK_OK(sgk_scatter_nd(&ed, &eix, &eu, SGK_REDUCE_ADD, out));
        snprintf(what, sizeof what, "scatter_nd add (elements), %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, ewant, ne);

        tc_fill_pattern(out, 256 * 1024 * sizeof(float));
        CHECK_OK(sgk_scatter_elements(&sd, &six, &su, 1, SGK_REDUCE_ADD, out));
        snprintf(what, sizeof what, "scatter_elements add, %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, swant, 256 * 1024);

        tc_fill_pattern(out, ng * sizeof(float));
        CHECK_OK(sgk_gather_nd(&d, &gix, 0, out));
        snprintf(what, sizeof what, "gather_nd, %d threads, one-shot", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, gwant, ng);
        plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &gix, 0, 0));
        tc_fill_pattern(out, ng * sizeof(float));
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        snprintf(what, sizeof what, "gather_nd, %d threads, plan", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, gwant, ng);
        sgk_plan_destroy(plan);

        /* Opting out of determinism changes rounding only. */
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, SGK_PLAN_ALLOW_REORDER));
        CHECK_OK(sgk_execute(plan, data, upd, out));
        for (size_t i = 0; i < nd; i++) {
            double tol = 1e-4 * (absd((double)want[i]) + 64.0);
            if (!(absd((double)out[i] - (double)want[i]) <= tol)) {
                print_error("reorder-allowed scatter_nd add, %d threads: element %zu is %.9g, "
                            "want %.9g within rounding\n",
                            counts[ci], i, (double)out[i], (double)want[i]);
                fail();
            }
        }
        sgk_plan_destroy(plan);
    }
    CHECK_OK(sgk_set_num_threads(0));
    sgk_plan_destroy(early);
    free(idx); free(eidx); free(sidx); free(gidx);
    free(data); free(upd); free(edata); free(eupd); free(sdata); free(supd);
    free(want); free(ewant); free(swant); free(gwant); free(out);
}

/* ---- duplicate statistics ------------------------------------------------ */

/* The distinct destinations a plan reports ("... to D distinct of ..."). */
static long long described_distinct(const sgk_plan *plan)
{
    const char *d = sgk_plan_describe(plan), *to = strstr(d, " updates to ");
    long long distinct = -1;
    if (to == NULL || sscanf(to, " updates to %lld distinct", &distinct) != 1) {
        print_error("no distinct count in \"%s\"\n", d);
        fail();
    }
    return distinct;
}

/* A library built without OpenMP plans for one thread until the host
   installs a pool (configure --without-openmp). */
static int built_without_openmp(void)
{
    return strstr(sgk_runtime_describe(), "built without OpenMP") != NULL;
}

/* The planner's count of distinct destinations (docs/architecture.md:
   the statistics the reduction paths are chosen by) against a bitmap over the
   slots, on every path that counts them: serial at 1 thread; owner-computes
   at 2 and 4, where single-element slices are counted block by block while
   the slots are made block-local, and 16-byte `none` slices are counted
   first, to decide whether to drop the overwritten updates.  (Built
   without OpenMP, every count plans for one thread: serial only.) */
static void test_duplicate_statistics(void **state)
{
    (void)state;
    enum { SLOTS = 1 << 20, PAIRS = 1 << 19 };
    static const int counts[] = {1, 2, 4};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD};
    int64_t *idx = xmalloc(PAIRS * sizeof *idx);
    uint8_t *seen = xmalloc(SLOTS);
    for (int width = 1; width <= 4; width *= 4) {
        const int64_t slots = SLOTS / width, pairs = PAIRS / width;
        /* a quarter of the slots drawn from, negative half the time */
        memset(seen, 0, SLOTS);
        long long want = 0;
        for (int64_t n = 0; n < pairs; n++) {
            int64_t v = tc_rng_below(&rng, slots / 4) * 4;
            idx[n] = tc_rng_next(&rng) & 1 ? v - slots : v;
            want += !seen[v];
            seen[v] = 1;
        }
        const int64_t ds[] = {slots, width}, is[] = {pairs, 1}, us[] = {pairs, width};
        sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            CHECK_OK(sgk_set_num_threads(counts[ci]));
            for (size_t ri = 0; ri < sizeof reds / sizeof *reds; ri++) {
                sgk_plan *plan = NULL;
                CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
                const int threads = built_without_openmp() ? 1 : counts[ci];
                const char *path = threads == 1 ? "path serial" : "path owner-computes";
                if (strstr(sgk_plan_describe(plan), path) == NULL) {
                    print_error("expected %s: %s\n", path, sgk_plan_describe(plan));
                    fail();
                }
                assert_int_equal(described_distinct(plan), want);
                sgk_plan_destroy(plan);
            }
        }
    }
    CHECK_OK(sgk_set_num_threads(0));
    free(idx);
    free(seen);
}

/* GatherND with long rows of whole cache lines from a source beyond the
   cache reads the rows in source order (sorted at plan time) and writes each
   to its place when the output is line-aligned, in output order when it is
   not: both against the sequential definition, at 1, 2 and 4 threads, with
   duplicate and negative indices, batch_dims 0 and 1. */
static void test_rows_in_source_order(void **state)
{
    (void)state;
    enum { ROW = 128, ROWS = 16384, PICKS = 12004 }; /* uneven quarters at 2 and 4 threads */
    const int64_t ds0[] = {ROWS, ROW}, is0[] = {PICKS, 1};
    /* two batches, each reading a 4 MiB stretch: past L2, so still sorted */
    const int64_t ds1[] = {2, ROWS / 2, ROW}, is1[] = {2, PICKS / 2, 1};
    int64_t *idx = xmalloc(PICKS * sizeof *idx);
    float *data = random_floats((size_t)ROWS * ROW);
    float *want = xmalloc((size_t)PICKS * ROW * sizeof *want);
    /* room for an output one line in, and one 16 bytes off a line */
    float *buffer = aligned_alloc(64, (size_t)PICKS * ROW * sizeof *buffer + 64);
    assert_non_null(buffer);
    for (int b = 0; b <= 1; b++) {
        const int64_t *ds = b ? ds1 : ds0, *is = b ? is1 : is0;
        const int64_t rows = ds[b];
        for (int64_t n = 0; n < PICKS; n++) {
            int64_t v = tc_rng_below(&rng, rows);
            idx[n] = tc_rng_next(&rng) & 1 ? v - rows : v;
        }
        ref_gather_nd(data, ds, 2 + b, idx, is, 2 + b, b, want);
        sgk_tensor d = f32(2 + b, ds, NULL), ix = i64(2 + b, is, idx);
        for (int threads = 1; threads <= 4; threads *= 2) {
            CHECK_OK(sgk_set_num_threads(threads));
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, b, 0));
            if (strstr(sgk_plan_describe(plan), "read in source order") == NULL) {
                print_error("expected rows read in source order: %s\n",
                            sgk_plan_describe(plan));
                fail();
            }
            for (int offset = 0; offset <= 4; offset += 4) {
                float *out = buffer + offset;
                memset(out, 0, (size_t)PICKS * ROW * sizeof *out);
                CHECK_OK(sgk_execute(plan, data, NULL, out));
                CHECK_FLOATS("gather_nd rows in source order", out, want,
                             (size_t)PICKS * ROW);
            }
            sgk_plan_destroy(plan);
        }
    }
    CHECK_OK(sgk_set_num_threads(0));
    free(idx);
    free(data);
    free(want);
    free(buffer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_scatter_nd),
        cmocka_unit_test(test_reuse_gather_nd),
        cmocka_unit_test(test_reuse_elements),
        cmocka_unit_test(test_whole_rows),
        cmocka_unit_test(test_indices_freed_after_planning),
        cmocka_unit_test(test_shapes_freed_after_planning),
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_zero_sized),
        cmocka_unit_test(test_concurrent_execute),
        cmocka_unit_test(test_thread_counts),
        cmocka_unit_test(test_duplicate_statistics),
        cmocka_unit_test(test_rows_in_source_order),
    };
    return cmocka_run_group_tests_name("sgk plans", tests, NULL, NULL);
}
