/*
 * Every reduction cell of the semantics (docs/semantics.md; 16 types
 * x 6 reductions), with duplicate destinations, through sgk_scatter_nd and
 * sgk_scatter_elements.  Supported cells must equal
 * tests/support/reference.c (which tests/test_reduction_literals.c holds to
 * hand-computed cells); unsupported cells must return SGK_ERR_UNSUPPORTED
 * with a message and leave the output (and, in place, the data) untouched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/common.h"
#include "registry/registry.h"
#include "support/reference.h"
#include "support/result_diff.h"
#include "sgk.h"

#define SENTINEL 0x5C
#define MAX_ELEMS 16
#define MAX_BYTES (MAX_ELEMS * 16)

static const char *const strings[] = {"zero", "one", "two", "three", "four", "five", "six"};

/* ---- per-type value table --------------------------------------------- */

static const int64_t int_values[] = {
    3, -1, 127, -128, 2, 0, 1, -2, 100, 255, -32768, 32767, INT32_MIN, INT32_MAX,
    INT64_MIN, INT64_MAX, 5, -7, 64, 200, 65535, 17};
#define N_INT (sizeof int_values / sizeof *int_values)

static double real_value(size_t i)
{
    static const double v[] = {1.5, -2, 0.1, 3, -0.0, 0, NAN, INFINITY, -INFINITY, 65504,
                               1e-7, 7, 0.5, -3.75, 1e30, 2.5e-39, 6e-8, 1024, -1, 60000,
                               1.0 / 3, 2049};
    return v[i % (sizeof v / sizeof *v)];
}

/* The i-th interesting value of a type, stored at p. */
static void value_at(sgk_dtype dtype, size_t i, void *p)
{
    size_t es = tc_dtype_size(dtype);
    switch (dtype) {
    case SGK_BOOL: {
        static const uint8_t b[] = {1, 0, 2, 1, 0, 0xFF, 1, 1, 0, 0x80, 0};
        memcpy(p, &b[i % sizeof b], 1);
        break;
    }
    case SGK_FLOAT16: {
        uint16_t h = ref_f32_to_f16((float)real_value(i));
        memcpy(p, &h, 2);
        break;
    }
    case SGK_BFLOAT16: {
        uint16_t h = ref_f32_to_bf16((float)real_value(i));
        memcpy(p, &h, 2);
        break;
    }
    case SGK_FLOAT32: {
        float f = (float)real_value(i);
        memcpy(p, &f, 4);
        break;
    }
    case SGK_FLOAT64: {
        double d = real_value(i);
        memcpy(p, &d, 8);
        break;
    }
    case SGK_COMPLEX64: {
        float f[2] = {(float)real_value(i), (float)real_value(i + 7)};
        memcpy(p, f, 8);
        break;
    }
    case SGK_COMPLEX128: {
        double d[2] = {real_value(i), real_value(i + 7)};
        memcpy(p, d, 16);
        break;
    }
    case SGK_STRING: {
        const char *s = strings[i % (sizeof strings / sizeof *strings)];
        memcpy(p, &s, sizeof s);
        break;
    }
    default: {
        int64_t v = int_values[i % N_INT];
        memcpy(p, &v, es); /* little endian: the low bytes, wrapped */
        break;
    }
    }
}

static void fill_values(sgk_dtype dtype, size_t first, size_t n, void *buf)
{
    size_t es = tc_dtype_size(dtype);
    for (size_t i = 0; i < n; i++)
        value_at(dtype, first + i, (char *)buf + i * es);
}

/* ---- the two operators on one fixed problem each ---------------------- */

/* ScatterND: data [4,2]; 6 index tuples of which 4 hit row 1 (one as -3). */
static const int64_t nd_dshape[] = {4, 2};
static const int64_t nd_ishape[] = {6, 1};
static const int64_t nd_ushape[] = {6, 2};
static const int64_t nd_indices[] = {1, 3, 1, -3, 0, 1};

/* ScatterElements: data [2,3]; indices [2,3] along axis 1 (or -1): row 0
   hits column 2 three times, row 1 hits column 1 twice. */
static const int64_t el_dshape[] = {2, 3};
static const int64_t el_ishape[] = {2, 3};
static const int64_t el_indices_axis1[] = {2, -1, 2, 0, 1, -2};
/* Along axis 0 (or -2): column 0 gets rows 1,1; column 1 gets 0,-2; ... */
static const int64_t el_indices_axis0[] = {1, 0, -1, 1, -2, 1};

typedef struct {
    const char *name;
    int is_nd;
    int64_t axis;
    const int64_t *indices;
    int64_t dn, un;
} problem;

static const problem problems[] = {
    {"scatter_nd", 1, 0, nd_indices, 8, 12},
    {"scatter_elements axis=1", 0, 1, el_indices_axis1, 6, 6},
    {"scatter_elements axis=-1", 0, -1, el_indices_axis1, 6, 6},
    {"scatter_elements axis=-2", 0, -2, el_indices_axis0, 6, 6},
};

typedef struct {
    sgk_tensor data, indices, updates;
    int32_t indices32[MAX_ELEMS];
} built;

static void build(const problem *pb, sgk_dtype dtype, sgk_dtype idtype, const void *data,
                  const void *updates, built *b)
{
    for (size_t i = 0; i < 6; i++) /* both problems have 6 index values */
        b->indices32[i] = (int32_t)pb->indices[i];
    const void *idx = idtype == SGK_INT32 ? (const void *)b->indices32 : (const void *)pb->indices;
    if (pb->is_nd) {
        b->data = (sgk_tensor){dtype, 2, nd_dshape, data};
        b->indices = (sgk_tensor){idtype, 2, nd_ishape, idx};
        b->updates = (sgk_tensor){dtype, 2, nd_ushape, updates};
    } else {
        b->data = (sgk_tensor){dtype, 2, el_dshape, data};
        b->indices = (sgk_tensor){idtype, 2, el_ishape, idx};
        b->updates = (sgk_tensor){dtype, 2, el_ishape, updates};
    }
}

static sgk_status run_lib(const problem *pb, built *b, sgk_reduction red, void *out)
{
    if (pb->is_nd)
        return sgk_scatter_nd(&b->data, &b->indices, &b->updates, red, out);
    return sgk_scatter_elements(&b->data, &b->indices, &b->updates, pb->axis, red, out);
}

static sgk_status run_plan(const problem *pb, built *b, sgk_reduction red, sgk_plan **plan)
{
    if (pb->is_nd)
        return sgk_plan_scatter_nd(plan, &b->data, &b->indices, &b->updates, red, 0);
    return sgk_plan_scatter_elements(plan, &b->data, &b->indices, &b->updates, pb->axis, red, 0);
}

static void run_ref(const problem *pb, built *b, sgk_reduction red, void *out)
{
    if (pb->is_nd)
        ref_scatter_nd(&b->data, &b->indices, &b->updates, red, out);
    else
        ref_scatter_elements(&b->data, &b->indices, &b->updates, pb->axis, red, out);
}

static int check_supported(const problem *pb, sgk_dtype dtype, sgk_dtype idtype,
                           sgk_reduction red, size_t offset)
{
    size_t es = tc_dtype_size(dtype);
    unsigned char data[MAX_BYTES], upd[MAX_BYTES], expected[MAX_BYTES], out[MAX_BYTES + 16];
    unsigned char inplace[MAX_BYTES];
    char what[160];
    built b;
    int bad = 0;

    fill_values(dtype, offset, (size_t)pb->dn, data);
    fill_values(dtype, offset + 3, (size_t)pb->un, upd);
    build(pb, dtype, idtype, data, upd, &b);
    run_ref(pb, &b, red, expected);

    snprintf(what, sizeof what, "%s (%s indices, values from %zu)", pb->name,
             tc_dtype_name(idtype), offset);
    memset(out, SENTINEL, sizeof out);
    sgk_status st = run_lib(pb, &b, red, out);
    if (st != SGK_OK) {
        printf("FAIL %s dtype=%s reduction=%s: status %s (%s)\n", what, tc_dtype_name(dtype),
               tc_reduction_name(red), sgk_status_name(st), sgk_last_error());
        return 1;
    }
    bad += count_result_differences(what, dtype, red, expected, out, pb->dn);
    size_t end = (size_t)pb->dn * es;
    if (tc_first_byte_not(out + end, SENTINEL, sizeof out - end) < sizeof out - end) {
        printf("FAIL %s dtype=%s reduction=%s: wrote past the output\n", what,
               tc_dtype_name(dtype), tc_reduction_name(red));
        bad++;
    }

    memcpy(inplace, data, (size_t)pb->dn * es);
    b.data.data = inplace;
    st = run_lib(pb, &b, red, inplace);
    snprintf(what, sizeof what, "%s in place (%s indices, values from %zu)", pb->name,
             tc_dtype_name(idtype), offset);
    if (st != SGK_OK) {
        printf("FAIL %s dtype=%s reduction=%s: status %s (%s)\n", what, tc_dtype_name(dtype),
               tc_reduction_name(red), sgk_status_name(st), sgk_last_error());
        return bad + 1;
    }
    bad += count_result_differences(what, dtype, red, expected, inplace, pb->dn);
    return bad;
}

static int check_unsupported(const problem *pb, sgk_dtype dtype, sgk_reduction red)
{
    size_t es = tc_dtype_size(dtype);
    unsigned char data[MAX_BYTES], upd[MAX_BYTES], out[MAX_BYTES], inplace[MAX_BYTES];
    unsigned char untouched[MAX_BYTES];
    built b;
    int bad = 0;
    const char *cell_dt = tc_dtype_name(dtype), *cell_red = tc_reduction_name(red);

    fill_values(dtype, 0, (size_t)pb->dn, data);
    fill_values(dtype, 3, (size_t)pb->un, upd);
    build(pb, dtype, SGK_INT64, data, upd, &b);

    memset(out, SENTINEL, sizeof out);
    memset(untouched, SENTINEL, sizeof untouched);
    sgk_status st = run_lib(pb, &b, red, out);
    if (st != SGK_ERR_UNSUPPORTED) {
        printf("FAIL %s dtype=%s reduction=%s: status %s, expected SGK_ERR_UNSUPPORTED\n",
               pb->name, cell_dt, cell_red, sgk_status_name(st));
        bad++;
    } else if (!sgk_last_error() || !sgk_last_error()[0]) {
        printf("FAIL %s dtype=%s reduction=%s: no error message\n", pb->name, cell_dt, cell_red);
        bad++;
    }
    if (memcmp(out, untouched, sizeof out) != 0) {
        printf("FAIL %s dtype=%s reduction=%s: output written on error\n", pb->name, cell_dt,
               cell_red);
        bad++;
    }

    memcpy(inplace, data, (size_t)pb->dn * es);
    b.data.data = inplace;
    st = run_lib(pb, &b, red, inplace);
    if (st != SGK_ERR_UNSUPPORTED || memcmp(inplace, data, (size_t)pb->dn * es) != 0) {
        printf("FAIL %s in place dtype=%s reduction=%s: status %s, data %s\n", pb->name, cell_dt,
               cell_red, sgk_status_name(st),
               memcmp(inplace, data, (size_t)pb->dn * es) ? "modified" : "intact");
        bad++;
    }

    sgk_plan *plan = NULL;
    b.data.data = data;
    st = run_plan(pb, &b, red, &plan);
    if (st != SGK_ERR_UNSUPPORTED) {
        printf("FAIL plan %s dtype=%s reduction=%s: status %s, expected SGK_ERR_UNSUPPORTED\n",
               pb->name, cell_dt, cell_red, sgk_status_name(st));
        bad++;
    }
    if (st == SGK_OK)
        sgk_plan_destroy(plan);
    return bad;
}

/* One cmocka test per type: all six reductions, all problems, both index
   types, three value sets. */
static void test_type(void **state)
{
    sgk_dtype dtype = *(const sgk_dtype *)*state;
    int bad = 0;
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        for (size_t p = 0; p < sizeof problems / sizeof *problems; p++) {
            if (!ref_reduction_supported(dtype, (sgk_reduction)red)) {
                bad += check_unsupported(&problems[p], dtype, (sgk_reduction)red);
                continue;
            }
            for (size_t offset = 0; offset < 22; offset += 5) {
                sgk_dtype idtype = offset % 2 ? SGK_INT32 : SGK_INT64;
                bad += check_supported(&problems[p], dtype, idtype, (sgk_reduction)red, offset);
            }
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    /* one test per type of the registry, "table_<type>" */
    static sgk_dtype types[SGK_DTYPE_COUNT];
    static char names[SGK_DTYPE_COUNT][32];
    struct CMUnitTest tests[SGK_DTYPE_COUNT];
    for (int t = 0; t < SGK_DTYPE_COUNT; t++) {
        types[t] = (sgk_dtype)t;
        snprintf(names[t], sizeof names[t], "table_%s", tc_dtype_name(types[t]));
        tests[t] = (struct CMUnitTest){names[t], test_type, NULL, NULL, &types[t]};
    }
    return _cmocka_run_group_tests("test_reductions", tests, SGK_DTYPE_COUNT, NULL, NULL);
}
