/*
 * Running tests/test_paths.c's cases and judging them
 * (tests/support/path_checks.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "path_cases.h"
#include "path_checks.h"
#include "sgk.h"
#include "tolerance.h"

#define MAX_REPORTS 30

/* ---- the environment under test ------------------------------------------ */

static const char *env_path = "auto";   /* SGK_REDUCE_PATH as the library reads it */
static const char *env_path_name;       /* the path it forces, as sgk_plan_path names it */

void path_checks_read_environment(void)
{
    static const char *const forced[][2] = {
        {"sorted", "sorted-segment"}, {"atomic", "atomic"}, {"serial", "serial"}};
    const char *v = getenv("SGK_REDUCE_PATH");
    for (size_t i = 0; v != NULL && i < sizeof forced / sizeof *forced; i++) {
        if (strcmp(v, forced[i][0]) == 0) {
            env_path = forced[i][0];
            env_path_name = forced[i][1];
        }
    }
    printf("test_paths: SGK_REDUCE_PATH=%s SGK_DETERMINISTIC=%s SGK_NUM_THREADS=%s\n",
           env_path, tol_env_allows_reorder() ? "0" : "1",
           getenv("SGK_NUM_THREADS") ? getenv("SGK_NUM_THREADS") : "(default)");
}

static int failures, reported;
static long executions;

int path_failures(void)
{
    return failures;
}

long path_executions(void)
{
    return executions;
}

/* ---- running the library ------------------------------------------------------ */

static sgk_status one_shot(const path_case *c, const void *data, void *out)
{
    sgk_tensor d, i, u;
    path_case_tensors(c, c->dtype, data, c->updates, c->indices, &d, &i, &u);
    executions++;
    if (c->op == OP_ELEMENTS)
        return sgk_scatter_elements(&d, &i, &u, c->axis, c->red, out);
    return sgk_scatter_nd(&d, &i, &u, c->red, out);
}

sgk_status path_case_plan(const path_case *c, uint32_t flags, int null_buffers, sgk_plan **plan)
{
    size_t ibytes = (size_t)c->in * (c->idtype == SGK_INT32 ? 4 : 8);
    char *icopy = xmalloc(ibytes);
    memcpy(icopy, c->indices, ibytes);
    sgk_tensor d, i, u;
    path_case_tensors(c, c->dtype, null_buffers ? NULL : c->data,
                      null_buffers ? NULL : c->updates, icopy, &d, &i, &u);
    sgk_status st = c->op == OP_ELEMENTS
                        ? sgk_plan_scatter_elements(plan, &d, &i, &u, c->axis, c->red, flags)
                        : sgk_plan_scatter_nd(plan, &d, &i, &u, c->red, flags);
    memset(icopy, 0x7F, ibytes);
    free(icopy);
    return st;
}

/* ---- reporting -------------------------------------------------------------- */

static const char *flags_name(uint32_t flags)
{
    return flags == SGK_PLAN_DETERMINISTIC   ? "DETERMINISTIC"
           : flags == SGK_PLAN_ALLOW_REORDER ? "ALLOW_REORDER"
                                             : "0";
}

static void print_bytes(const char *name, const void *p, size_t n)
{
    printf(" %s=0x", name);
    tc_print_hex(p, n);
}

void path_case_fail(const path_case *c, const char *route, const char *desc, const char *fmt,
                    ...)
{
    failures++;
    if (reported++ >= MAX_REPORTS)
        return;
    va_list ap;
    printf("FAIL op=%s dtype=%s reduction=%s structure=%s index=%s route=%s seed=0x%" PRIx64
           " [env SGK_REDUCE_PATH=%s SGK_DETERMINISTIC=%d]: ",
           path_op_names[c->op], tc_dtype_name(c->dtype), tc_reduction_name(c->red),
           path_structure_names[c->st], tc_dtype_name(c->idtype), route, c->seed, env_path,
           tol_env_allows_reorder() ? 0 : 1);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (desc)
        printf("    plan: %s\n", desc);
}

/* Compares an output (with its guard zone) with the reference. */
static void check_output(const path_case *c, const char *route, const char *desc, int reordered,
                         const char *got)
{
    size_t es = tc_dtype_size(c->dtype);
    tol_result res;
    if (!tol_compare(c->dtype, c->red, c->stats, reordered, 1, c->dn, c->want, got, &res)) {
        char detail[160] = "";
        if (res.bound >= 0)
            snprintf(detail, sizeof detail, ", bound %.6g over %" PRId64 " terms", res.bound,
                     res.terms);
        path_case_fail(c, route, desc,
                       "%s comparison, %" PRId64 " bad elements; element %" PRId64
                       " component %d: got %.17g want %.17g%s: %s",
                       reordered ? "reordered" : "exact", res.failures, res.element, res.component,
                       res.got, res.want, detail, res.why);
        if (reported <= MAX_REPORTS) {
            printf("   ");
            print_bytes("got", got + (size_t)res.element * es, es);
            print_bytes("want", (const char *)c->want + (size_t)res.element * es, es);
            printf("\n");
        }
    }
    if (tc_first_byte_not(got + (size_t)c->dn * es, PATH_GUARD_BYTE, PATH_GUARD) < PATH_GUARD)
        path_case_fail(c, route, desc, "wrote past the end of the output");
}

/* ---- the path taken, by identity ------------------------------------------------ */

static bool named_in(const char *path, const char *const *names)
{
    for (; path != NULL && *names != NULL; names++)
        if (strcmp(path, *names) == 0)
            return true;
    return false;
}

/* NULL when the path (sgk_plan_path or sgk_last_path) keeps the contract,
   else what it breaks: one of the scatter paths of its way in; the forced
   SGK_REDUCE_PATH's wherever that can serve (the plan says when it fell
   back); never atomic where float add/sub/mul must be exact. */
static const char *path_problem(const path_case *c, uint32_t flags, const char *path,
                                const sgk_plan *plan)
{
    static const char *const plan_paths[] = {"owner-blocks", "sorted-segment", "atomic",
                                             "serial", NULL};
    static const char *const one_shot_paths[] = {
        "tiny",   "direct",     "lines",  "sorted-runs",    "replicas",     "binned",
        "serial", "owner-ranges", "atomic", "sorted-segment", "owner-blocks", NULL};
    const bool exact = tol_order_sensitive(c->dtype, c->red) && !tol_reorder_allowed(flags);
    if (!named_in(path, plan != NULL ? plan_paths : one_shot_paths))
        return "is none of the scatter paths of its way in";
    if (exact && strcmp(path, "atomic") == 0)
        return "is atomic, yet float add/sub/mul must be exact here";
    if (env_path_name == NULL || strcmp(path, env_path_name) == 0)
        return NULL;
    if (plan != NULL && strstr(sgk_plan_describe(plan), "fell back") == NULL)
        return "is not the forced SGK_REDUCE_PATH's, and the plan does not say it fell back";
    /* sorted and serial serve every scatter; atomic not every cell, and a
       one-shot call does not say why (its plan does) */
    if (plan == NULL && strcmp(env_path_name, "atomic") != 0)
        return "is not the forced SGK_REDUCE_PATH's";
    return NULL;
}

/* ---- routes ------------------------------------------------------------------ */

void check_one_shots(const path_case *c)
{
    int reordered = tol_reorder_allowed(0);
    char *out = path_case_output(c);
    sgk_status st = one_shot(c, c->data, out);
    const char *problem = path_problem(c, 0, sgk_last_path(), NULL);
    if (st != SGK_OK)
        path_case_fail(c, "one-shot", NULL, "status %s: %s", sgk_status_name(st), sgk_last_error());
    else if (problem != NULL)
        path_case_fail(c, "one-shot", NULL, "path %s %s", sgk_last_path(), problem);
    else
        check_output(c, "one-shot", NULL, reordered, out);
    free(out);

    char *inplace = path_case_copy_of_data(c);
    st = one_shot(c, inplace, inplace);
    if (st != SGK_OK)
        path_case_fail(c, "one-shot in place", NULL, "status %s: %s", sgk_status_name(st),
                       sgk_last_error());
    else
        check_output(c, "one-shot in place", NULL, reordered, inplace);
    free(inplace);
}

/* A plan with the given flags: executed `runs` times (identical bytes
   required where the plan must be exact), then once in place. */
void check_plan(const path_case *c, uint32_t flags, int runs, int null_buffers)
{
    char route[96];
    int reordered = tol_reorder_allowed(flags);
    sgk_plan *plan = NULL;
    sgk_status st = path_case_plan(c, flags, null_buffers, &plan);
    snprintf(route, sizeof route, "plan flags=%s", flags_name(flags));
    if (st != SGK_OK || plan == NULL) {
        path_case_fail(c, route, NULL, "plan status %s: %s", sgk_status_name(st), sgk_last_error());
        return;
    }
    const char *desc = sgk_plan_describe(plan);
    const char *problem = path_problem(c, flags, sgk_plan_path(plan), plan);
    if (problem)
        path_case_fail(c, route, desc, "path %s %s", sgk_plan_path(plan), problem);

    size_t bytes = (size_t)c->dn * tc_dtype_size(c->dtype);
    char *first = path_case_output(c), *out = path_case_output(c);
    for (int run = 1; run <= runs; run++) {
        snprintf(route, sizeof route, "plan flags=%s run %d", flags_name(flags), run);
        char *dst = run == 1 ? first : out;
        memset(dst, PATH_GUARD_BYTE, bytes + PATH_GUARD);
        executions++;
        st = sgk_execute(plan, c->data, c->updates, dst);
        if (st != SGK_OK) {
            path_case_fail(c, route, desc, "status %s: %s", sgk_status_name(st), sgk_last_error());
            continue;
        }
        check_output(c, route, desc, reordered, dst);
        if (run > 1 && !(reordered && tol_reorder_relaxes(c->dtype, c->red)) &&
            memcmp(first, dst, bytes) != 0)
            path_case_fail(c, route, desc, "bytes differ from run 1 of the same plan");
    }
    snprintf(route, sizeof route, "plan flags=%s in place", flags_name(flags));
    char *inplace = path_case_copy_of_data(c);
    executions++;
    st = sgk_execute(plan, inplace, c->updates, inplace);
    if (st != SGK_OK)
        path_case_fail(c, route, desc, "status %s: %s", sgk_status_name(st), sgk_last_error());
    else
        check_output(c, route, desc, reordered, inplace);
    free(inplace);
    free(first);
    free(out);
    sgk_plan_destroy(plan);
}
