/*
 * Scatter reductions on every execution path (docs/semantics.md, and the
 * paths of docs/architecture.md).
 *
 * For every dtype x reduction cell the semantics define, and for ScatterND
 * with slice length 1, ScatterND with slice length 37 and ScatterElements,
 * cases of each duplicate structure (tests/support/path_cases.c) are run
 * through the one-shot call, the one-shot call in place, a plan executed
 * twice and once in place, and plans made with SGK_PLAN_DETERMINISTIC and
 * with SGK_PLAN_ALLOW_REORDER (tests/support/path_checks.c, which says what
 * each configuration of the environment expects).  Results are compared
 * with tests/support/reference.c bit for bit, or, where the caller allowed
 * reordering, within the bounds of tests/support/tolerance.c; each such
 * bound is checked to have teeth (tests/support/tolerance_teeth.c).
 *
 * Finally a digest (FNV-1a) of a few large, duplicate-heavy float32 add
 * scatters, planned with SGK_PLAN_DETERMINISTIC at 1, 2 and 4 threads, must
 * equal the reference's; it is printed so that tests/test_reduce_paths.sh can check
 * that every configuration printed the same one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/path_cases.h"
#include "support/path_checks.h"
#include "support/reference.h"
#include "registry/registry.h"
#include "sgk.h"
#include "support/tolerance_teeth.h"

/* ---- one case, all routes --------------------------------------------------------- */

static void run_case(op_kind op, sgk_dtype dtype, sgk_reduction red, structure st)
{
    path_case c;
    path_case_build(&c, op, dtype, red, st);
    check_tolerance_teeth(&c);
    check_one_shots(&c);
    int null_buffers = (int)(c.seed & 1);
    check_plan(&c, 0, 2, null_buffers);
    check_plan(&c, SGK_PLAN_DETERMINISTIC, 2, !null_buffers);
    check_plan(&c, SGK_PLAN_ALLOW_REORDER, 1, null_buffers);
    path_case_free(&c);
}

static void test_op(void **state)
{
    op_kind op = *(const op_kind *)*state;
    int before = path_failures();
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++)
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++)
            if (ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                for (int st = 0; st < ST_COUNT; st++)
                    run_case(op, (sgk_dtype)dt, (sgk_reduction)red, (structure)st);
    assert_int_equal(path_failures() - before, 0);
}

/* The reordered comparison must have been exercised with teeth at all. */
static void test_teeth_were_checked(void **state)
{
    (void)state;
    teeth_counts n = tolerance_teeth_so_far();
    printf("test_paths: %ld executions; reordered comparison accepted %ld other orders, "
           "rejected %ld perturbed results (%ld cases had no update to perturb)\n",
           path_executions(), n.other_orders, n.perturbed, n.nothing_to_perturb);
    assert_true(n.perturbed > 0);
    assert_true(n.other_orders > 0);
}

/* ---- determinism across thread counts ------------------------------------------------ */

static uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* Large float32 add scatters with heavy duplicates: Zipf-like (u^4) rows. */
typedef struct {
    const char *name;
    op_kind op;
    int64_t d0, d1, n; /* data [d0, d1]; ScatterND: n updates of slices (k = 1);
                          elements: indices [d0, n], axis 1 */
} digest_case;

static const digest_case digest_cases[] = {
    {"nd-elements-400k", OP_ND_SLICE1, 1024, 1, 400000},
    {"nd-rows16-200k", OP_ND_SLICE37, 2048, 16, 200000},
    {"elements-axis1-262k", OP_ELEMENTS, 64, 256, 4096},
};

static void build_digest_case(const digest_case *dc, path_case *c)
{
    tc_rng r = {0xD16E57ull + (uint64_t)dc->n};
    memset(c, 0, sizeof *c);
    c->op = dc->op;
    c->dtype = SGK_FLOAT32;
    c->red = SGK_REDUCE_ADD;
    c->idtype = SGK_INT64;
    c->drank = 2;
    c->dshape[0] = dc->d0;
    c->dshape[1] = dc->d1;
    c->irank = 2;
    if (dc->op == OP_ELEMENTS) {
        c->ishape[0] = c->ushape[0] = dc->d0;
        c->ishape[1] = c->ushape[1] = dc->n;
        c->urank = 2;
        c->axis = 1;
    } else {
        c->ishape[0] = c->ushape[0] = dc->n;
        c->ishape[1] = 1;
        c->ushape[1] = dc->d1;
        c->urank = 2;
    }
    c->in = tc_numel(c->irank, c->ishape);
    c->dn = tc_numel(c->drank, c->dshape);
    c->un = tc_numel(c->urank, c->ushape);
    int64_t range = dc->op == OP_ELEMENTS ? dc->d1 : dc->d0;
    c->indices = xmalloc((size_t)c->in * 8);
    for (int64_t i = 0; i < c->in; i++) {
        double x = tc_rng_unit(&r);
        path_case_put_index(c, i, (int64_t)(x * x * x * x * (double)range));
    }
    float *d = xmalloc((size_t)c->dn * 4), *u = xmalloc((size_t)c->un * 4);
    for (int64_t i = 0; i < c->dn; i++)
        d[i] = (float)(tc_rng_unit(&r) * 8 - 4);
    for (int64_t i = 0; i < c->un; i++)
        u[i] = (float)(tc_rng_unit(&r) * 2 - 1);
    c->data = d;
    c->updates = u;
}

static void test_digest_across_threads(void **state)
{
    (void)state;
    static const int thread_counts[] = {1, 2, 4};
    int before = path_failures();
    for (size_t k = 0; k < sizeof digest_cases / sizeof *digest_cases; k++) {
        path_case c;
        build_digest_case(&digest_cases[k], &c);
        size_t bytes = (size_t)c.dn * 4;
        char *want = path_case_output(&c), *out = path_case_output(&c);
        path_case_reference(&c, c.dtype, c.red, c.data, c.updates, want);
        uint64_t expected = fnv1a(want, bytes);
        for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
            char route[64];
            snprintf(route, sizeof route, "digest %s threads %d", digest_cases[k].name,
                     thread_counts[t]);
            sgk_set_num_threads(thread_counts[t]);
            sgk_plan *plan = NULL;
            sgk_status st = path_case_plan(&c, SGK_PLAN_DETERMINISTIC, 1, &plan);
            if (st == SGK_OK)
                st = sgk_execute(plan, c.data, c.updates, out);
            if (st != SGK_OK) {
                path_case_fail(&c, route, NULL, "status %s: %s", sgk_status_name(st),
                               sgk_last_error());
            } else {
                uint64_t got = fnv1a(out, bytes);
                printf("test_paths digest %s threads=%d %016" PRIx64 "\n", digest_cases[k].name,
                       thread_counts[t], got);
                if (got != expected)
                    path_case_fail(&c, route, sgk_plan_describe(plan),
                                   "digest %016" PRIx64
                                   " differs from the sequential loop's %016" PRIx64,
                                   got, expected);
            }
            sgk_plan_destroy(plan);
        }
        sgk_set_num_threads(0);
        free(want);
        free(out);
        free(c.indices);
        free(c.data);
        free(c.updates);
    }
    assert_int_equal(path_failures() - before, 0);
}

int main(void)
{
    static const op_kind ops[] = {OP_ND_SLICE1, OP_ND_SLICE37, OP_ELEMENTS};
    const struct CMUnitTest tests[] = {
        {"scatter_nd_slice1", test_op, NULL, NULL, (void *)&ops[0]},
        {"scatter_nd_slice37", test_op, NULL, NULL, (void *)&ops[1]},
        {"scatter_elements", test_op, NULL, NULL, (void *)&ops[2]},
        cmocka_unit_test(test_teeth_were_checked),
        cmocka_unit_test(test_digest_across_threads),
    };
    path_checks_read_environment();
    int rc = cmocka_run_group_tests_name("test_paths", tests, NULL, NULL);
    printf("test_paths: %d failures\n", path_failures());
    return rc;
}
