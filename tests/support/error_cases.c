/*
 * The harness of the error tests; see tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "error_cases.h"
#include "sgk.h"

const char *const op_prefix[OP_COUNT] = {
    "scatter_nd: ", "gather_nd: ", "scatter_elements: ", "gather_elements: "};
const int op_ids[OP_COUNT] = {OP_SND, OP_GND, OP_SEL, OP_GEL};

float DATA_F[8192];
float UPD_F[8192];
int64_t IDX_ZERO[8192];
uint8_t BOOLS[256];
const char *STRS[128];
int64_t ONES[SGK_MAX_RANK + 8];
uint8_t DUMMY_D[4096], DUMMY_I[4096], DUMMY_U[4096];

/* What *plan holds before a plan call that must fail: a failing call leaves
   it alone (it may also set it to NULL). */
static char plan_sentinel_obj;
#define PLAN_SENTINEL ((sgk_plan *)(void *)&plan_sentinel_obj)

static const char *const string_pool[] = {"alpha", "beta", "gamma", "delta"};

int group_setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof DATA_F / sizeof DATA_F[0]; i++) DATA_F[i] = 0.25f * (float)i + 1.0f;
    for (size_t i = 0; i < sizeof UPD_F / sizeof UPD_F[0]; i++) UPD_F[i] = -3.5f - (float)i;
    for (size_t i = 0; i < sizeof BOOLS; i++) BOOLS[i] = (uint8_t)(i % 3 == 0);
    for (size_t i = 0; i < sizeof STRS / sizeof STRS[0]; i++) STRS[i] = string_pool[i % 4];
    for (size_t i = 0; i < sizeof ONES / sizeof ONES[0]; i++) ONES[i] = 1;
    return 0;
}

/* ---- small helpers ---------------------------------------------------- */

size_t bytes_of(sgk_dtype t, size_t n)
{
    size_t s = tc_dtype_size(t);
    return n * (s ? s : 4);
}

void failf(const char *file, int line, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    print_error("%s\n", buf);
    _fail(file, line);
}

void *snapshot(const void *p, size_t n)
{
    if (!p || !n) return NULL;
    void *s = xmalloc(n);
    memcpy(s, p, n);
    return s;
}

void check_bytes_at(const char *file, int line, const char *label, const char *what,
                    const void *got, const void *want, size_t n)
{
    const uint8_t *g = got, *w = want;
    size_t i = tc_first_difference(got, want, n);
    if (i < n)
        failf(file, line, "%s: %s modified at byte %zu of %zu (0x%02x, was 0x%02x)", label, what,
              i, n, g[i], w[i]);
}

/* The message left names another entry point than the one under test. */
void prime_last_error(const char *expected_prefix)
{
    if (expected_prefix && strncmp(expected_prefix, "execute", 7) == 0)
        (void)sgk_gather_elements(NULL, NULL, 0, NULL);
    else
        (void)sgk_execute(NULL, NULL, NULL, NULL);
}

void check_error_at(const char *file, int line, const char *label, sgk_status got,
                    sgk_status want, const char *prefix, const char *const *needles,
                    size_t n_needles)
{
    const char *msg = sgk_last_error();
    if (got != want)
        failf(file, line, "%s: status %s (%d), want %s (%d); last error \"%s\"", label,
              tc_status_name(got), (int)got, tc_status_name(want), (int)want, tc_last_error());
    if (msg == NULL || msg[0] == '\0')
        failf(file, line, "%s: sgk_last_error() is empty after a failure", label);
    if (prefix && strncmp(msg, prefix, strlen(prefix)) != 0)
        failf(file, line, "%s: last error \"%s\" does not start with \"%s\"", label, msg, prefix);
    for (size_t i = 0; i < n_needles; i++)
        if (needles[i] && !strstr(msg, needles[i]))
            failf(file, line, "%s: last error \"%s\" does not mention \"%s\"", label, msg,
                  needles[i]);
}

/* ---- one case: an operator call with exactly one thing wrong ------------ */

static const int64_t SHP_4_8[] = {4, 8}, SHP_4_2[] = {4, 2}, SHP_4[] = {4};
static const int64_t SHP_2_3_4[] = {2, 3, 4}, SHP_2_2[] = {2, 2};
static const int64_t SHP_3_4[] = {3, 4}, SHP_3_2[] = {3, 2};
static const int64_t IDX_SND[] = {0, 0, 1, 1, 2, 2, 3, 3};
static const int64_t IDX_GND[] = {0, 1, 1, 2};
static const int64_t IDX_EL[] = {0, 3, 1, -1, 2, -4};

opcase base(int op)
{
    opcase c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.modes = M_ALL;
    c.red = SGK_REDUCE_NONE;
    switch (op) {
    case OP_SND: /* data [4,8], indices [4,2], updates [4] */
        c.data = (sgk_tensor){SGK_FLOAT32, 2, SHP_4_8, DATA_F};
        c.indices = (sgk_tensor){SGK_INT64, 2, SHP_4_2, IDX_SND};
        c.updates = (sgk_tensor){SGK_FLOAT32, 1, SHP_4, UPD_F};
        c.data_elems = c.out_elems = 32;
        break;
    case OP_GND: /* data [2,3,4], indices [2,2], output [2,4] */
        c.data = (sgk_tensor){SGK_FLOAT32, 3, SHP_2_3_4, DATA_F};
        c.indices = (sgk_tensor){SGK_INT64, 2, SHP_2_2, IDX_GND};
        c.data_elems = 24;
        c.out_elems = 8;
        break;
    case OP_SEL: /* data [3,4], indices/updates [3,2], axis 1 */
        c.data = (sgk_tensor){SGK_FLOAT32, 2, SHP_3_4, DATA_F};
        c.indices = (sgk_tensor){SGK_INT64, 2, SHP_3_2, IDX_EL};
        c.updates = (sgk_tensor){SGK_FLOAT32, 2, SHP_3_2, UPD_F};
        c.attr = 1;
        c.data_elems = c.out_elems = 12;
        break;
    default: /* GEL: data [3,4], indices [3,2], axis 1, output [3,2] */
        c.data = (sgk_tensor){SGK_FLOAT32, 2, SHP_3_4, DATA_F};
        c.indices = (sgk_tensor){SGK_INT64, 2, SHP_3_2, IDX_EL};
        c.attr = 1;
        c.data_elems = 12;
        c.out_elems = 6;
        break;
    }
    return c;
}

sgk_status call_oneshot(const opcase *c, const sgk_tensor *data, void *out)
{
    const sgk_tensor *d = c->null_tensor == 1 ? NULL : data;
    const sgk_tensor *i = c->null_tensor == 2 ? NULL : &c->indices;
    const sgk_tensor *u = c->null_tensor == 3 ? NULL : &c->updates;
    switch (c->op) {
    case OP_SND: return sgk_scatter_nd(d, i, u, c->red, out);
    case OP_GND: return sgk_gather_nd(d, i, c->attr, out);
    case OP_SEL: return sgk_scatter_elements(d, i, u, c->attr, c->red, out);
    default: return sgk_gather_elements(d, i, c->attr, out);
    }
}

sgk_status call_plan(const opcase *c, sgk_plan **plan)
{
    const sgk_tensor *d = c->null_tensor == 1 ? NULL : &c->data;
    const sgk_tensor *i = c->null_tensor == 2 ? NULL : &c->indices;
    const sgk_tensor *u = c->null_tensor == 3 ? NULL : &c->updates;
    switch (c->op) {
    case OP_SND: return sgk_plan_scatter_nd(plan, d, i, u, c->red, c->flags);
    case OP_GND: return sgk_plan_gather_nd(plan, d, i, c->attr, c->flags);
    case OP_SEL: return sgk_plan_scatter_elements(plan, d, i, u, c->attr, c->red, c->flags);
    default: return sgk_plan_gather_elements(plan, d, i, c->attr, c->flags);
    }
}

static size_t count_needles(const opcase *c)
{
    size_t n = 0;
    while (n < 4 && c->needles[n]) n++;
    return n;
}

void run_case_at(const char *file, int line, const char *label, const opcase *c,
                 sgk_status want)
{
    const char *prefix = op_prefix[c->op];
    size_t n_needles = count_needles(c);
    size_t data_bytes = c->data.data ? bytes_of(c->data.dtype, c->data_elems) : 0;
    size_t out_bytes = bytes_of(c->data.dtype, c->out_elems) + GUARD;
    char lbl[512];

    if (c->modes & M_ONESHOT) {
        uint8_t *out = xmalloc(out_bytes), *out_ref = xmalloc(out_bytes);
        void *data_ref = snapshot(c->data.data, data_bytes);
        tc_fill_pattern(out, out_bytes);
        memcpy(out_ref, out, out_bytes);
        snprintf(lbl, sizeof lbl, "%s%s [one-shot]", prefix, label);
        prime_last_error(prefix);
        sgk_status st = call_oneshot(c, &c->data, c->null_output ? NULL : out);
        check_error_at(file, line, lbl, st, want, prefix, c->needles, n_needles);
        check_bytes_at(file, line, lbl, "output", out, out_ref, out_bytes);
        if (data_ref) check_bytes_at(file, line, lbl, "data input", c->data.data, data_ref, data_bytes);
        free(out);
        free(out_ref);
        free(data_ref);
    }

    if ((c->modes & M_INPLACE) && is_scatter(c->op) && c->null_tensor != 1 && c->data.data &&
        !c->null_output) {
        size_t work_bytes = data_bytes + GUARD;
        uint8_t *work = xmalloc(work_bytes), *work_ref = xmalloc(work_bytes);
        memcpy(work, c->data.data, data_bytes);
        tc_fill_pattern(work + data_bytes, GUARD);
        memcpy(work_ref, work, work_bytes);
        sgk_tensor d = c->data;
        d.data = work;
        snprintf(lbl, sizeof lbl, "%s%s [one-shot, in place]", prefix, label);
        prime_last_error(prefix);
        sgk_status st = call_oneshot(c, &d, work);
        check_error_at(file, line, lbl, st, want, prefix, c->needles, n_needles);
        check_bytes_at(file, line, lbl, "in-place data", work, work_ref, work_bytes);
        free(work);
        free(work_ref);
    }

    if (c->modes & M_PLAN) {
        for (int k = 0; k < 2; k++) {
            sgk_plan *initial = k == 0 ? NULL : PLAN_SENTINEL;
            sgk_plan *plan = initial;
            snprintf(lbl, sizeof lbl, "%s%s [plan, *plan initially %s]", prefix, label,
                     k == 0 ? "NULL" : "a sentinel");
            prime_last_error(prefix);
            sgk_status st = call_plan(c, &plan);
            if (st == SGK_OK && plan && plan != PLAN_SENTINEL) sgk_plan_destroy(plan);
            check_error_at(file, line, lbl, st, want, prefix, c->needles, n_needles);
            if (plan != NULL && plan != initial)
                failf(file, line, "%s: *plan was set to %p on failure", lbl, (void *)plan);
        }
    }
}

/* ---- positive controls: the bases are valid, so the failures mean something */

void test_base_cases_valid(void **state)
{
    (void)state;
    for (int op = 0; op < OP_COUNT; op++) {
        opcase c = base(op);
        size_t ob = bytes_of(c.data.dtype, c.out_elems);
        void *out = xmalloc(ob);
        if (call_oneshot(&c, &c.data, out) != SGK_OK)
            failf(__FILE__, __LINE__, "%sbase case fails: %s", op_prefix[op], tc_last_error());
        static const uint32_t flag_sets[] = {0, SGK_PLAN_DETERMINISTIC, SGK_PLAN_ALLOW_REORDER,
                                             SGK_PLAN_WIDE_ACCUMULATE,
                                             SGK_PLAN_DETERMINISTIC | SGK_PLAN_WIDE_ACCUMULATE};
        for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
            sgk_plan *plan = NULL;
            c.flags = flag_sets[f];
            if (call_plan(&c, &plan) != SGK_OK || plan == NULL)
                failf(__FILE__, __LINE__, "%sbase plan with flags %u fails: %s", op_prefix[op],
                      (unsigned)c.flags, tc_last_error());
            const char *desc = sgk_plan_describe(plan);
            assert_non_null(desc);
            assert_true(desc[0] != '\0');
            if (sgk_execute(plan, DATA_F, is_scatter(op) ? UPD_F : NULL, out) != SGK_OK)
                failf(__FILE__, __LINE__, "%sexecuting the base plan fails: %s", op_prefix[op],
                      tc_last_error());
            sgk_plan_destroy(plan);
        }
        free(out);
    }

    /* Reductions the type does support, next to the unsupported ones of
       tests/test_errors_unsupported.c. */
    {
        opcase c = base(OP_SND);
        uint8_t out[32 * 16];
        c.data.dtype = c.updates.dtype = SGK_COMPLEX64;
        c.red = SGK_REDUCE_ADD;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
        c.red = SGK_REDUCE_MUL;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
        c.data.dtype = c.updates.dtype = SGK_COMPLEX128;
        c.red = SGK_REDUCE_SUB;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
        c.data.dtype = c.updates.dtype = SGK_BOOL;
        c.data.data = BOOLS;
        c.updates.data = BOOLS + 100;
        c.red = SGK_REDUCE_MAX;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
        c.data.dtype = c.updates.dtype = SGK_STRING;
        c.data.data = STRS;
        c.updates.data = STRS + 64;
        c.red = SGK_REDUCE_NONE;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
    }
    /* ScatterND whose updates shape is [] (rank 0, shape may be NULL), or [1]. */
    {
        opcase c = base(OP_SND);
        float out[32];
        c.indices.rank = 1;
        c.indices.shape = (const int64_t[]){2};
        c.indices.data = (const int64_t[]){3, -1};
        c.updates.rank = 0;
        c.updates.shape = NULL;
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
        c.updates.rank = 1;
        c.updates.shape = (const int64_t[]){1};
        assert_int_equal(call_oneshot(&c, &c.data, out), SGK_OK);
    }
}

void each_bad_index(const char *what, const int64_t *bad, const char *const *needles, size_t n,
                    bad_index_case try_one, void *ctx)
{
    for (size_t k = 0; k < n; k++)
        for (int ix = 0; ix < 2; ix++) {
            if (ix == 0 && (bad[k] > INT32_MAX || bad[k] < INT32_MIN))
                continue;
            char label[96];
            snprintf(label, sizeof label, "%s %lld (%s)", what, (long long)bad[k],
                     ix ? "int64" : "int32");
            try_one(ctx, bad[k], ix ? SGK_INT64 : SGK_INT32, label, needles[k]);
        }
}
