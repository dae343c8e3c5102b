/*
 * Every execution path forced by name (SGK_PATH, and SGK_REDUCE_PATH's
 * three) on small problems of every operator, several types and every
 * reduction, int32 and int64 indices: wherever the path can serve, it must
 * be the one taken (sgk_last_path, sgk_plan_path) and exact, bit for bit
 * against the reference (tests/support/reference.c); wherever it cannot, the plan
 * says it fell back and the automatic choice is exact.  A bad SGK_PATH is
 * ignored and reported.
 *
 * The library reads its environment once per process, so this program runs
 * itself once per path with the variable set (SGK_TEST_EXPECT naming the
 * path that child must see forced), keeping the rest of the environment:
 * tests/matrix.sh's thread counts and SIMD targets reach every child.
 * Under qemu-user, which does not follow an exec into emulation, the
 * children run through SGK_TEST_RUNNER (scripts/check-arm: the qemu
 * command line, split at spaces).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/common.h"
#include "support/forced_cases.h"

extern char **environ;

/* Every path the library has (docs/architecture.md), as SGK_PATH names it. */
static const char *const path_names[] = {
    "direct", "lines", "gather-elements", "gather-rows", "distinct-slices", "sorted-runs",
    "replicas", "binned", "serial", "owner-ranges", "atomic", "sorted-segment",
    "owner-blocks",
};
#define PATH_COUNT (int)(sizeof path_names / sizeof *path_names)

static bool is(const char *a, const char *b) { return a != NULL && strcmp(a, b) == 0; }

static bool integral(sgk_dtype t)
{
    return t == SGK_BOOL || (t >= SGK_INT8 && t <= SGK_UINT64);
}

/* Where the path can serve the problem: written from each path's
   fitness test, so that a path that stops serving what it should fails
   here, not only in speed. */
static bool must_serve(const char *path, const fc_case *c, bool one_shot)
{
    const bool scatter = fc_scatters(c);
    const bool elements = c->op == FC_SCATTER_ELEMENTS || c->op == FC_GATHER_ELEMENTS;
    const size_t es = tc_dtype_size(c->dtype);
    if (path[0] == '\0')
        return false;
    if (is(path, "direct"))
        return one_shot;
    if (is(path, "lines"))
        return one_shot && elements && c->spans;
    if (is(path, "gather-elements"))
        return !scatter && c->single && (es == 4 || es == 8);
    if (is(path, "gather-rows"))
        return !scatter;
    if (is(path, "distinct-slices"))
        return c->op == FC_TENSOR_SCATTER;
    if (is(path, "sorted-runs"))
        return scatter && one_shot && c->sorted;
    if (is(path, "replicas")) { /* integers; float max/min */
        const bool selects = c->reduction == SGK_REDUCE_MAX || c->reduction == SGK_REDUCE_MIN;
        const bool floating = (sgk_dtype_flags(c->dtype) & SGK_DTYPE_FLOAT) != 0;
        return scatter && one_shot && c->reduction != SGK_REDUCE_NONE &&
               ((integral(c->dtype) && c->dtype != SGK_BOOL) || (selects && floating));
    }
    if (is(path, "binned"))
        return scatter && one_shot;
    if (is(path, "atomic"))
        return scatter && (c->reduction == SGK_REDUCE_NONE || integral(c->dtype));
    return scatter; /* serial, owner-ranges, sorted-segment, owner-blocks */
}

static const char *expected; /* the forced path's name; "" when none is */
static int served;           /* cases on which the forced path ran */

static void run_cases(fc_op op, const sgk_dtype *dtypes, int ndtypes)
{
    fc_case cases[512];
    const int n = fc_cases(op, dtypes, ndtypes, cases, 512);
    assert_true(n > 0 && n < 512);
    for (int i = 0; i < n; i++) {
        const fc_case *c = &cases[i];
        fc_outcome o;
        fc_run(c, 0x5EED0000u + (uint64_t)i, &o);
        char what[128];
        snprintf(what, sizeof what, "case %d (op %d, %s %s, %s indices)", i, (int)c->op,
                 tc_dtype_name(c->dtype), tc_reduction_name(c->reduction),
                 tc_dtype_name(c->index_dtype));
        if (o.failure[0] != '\0')
            fail_msg("%s forced %s: %s", what, expected, o.failure);
        if (o.one_shot_path == NULL || o.plan_path == NULL)
            fail_msg("%s: no path reported", what);
        if (must_serve(expected, c, true) && !is(o.one_shot_path, expected))
            fail_msg("%s: one-shot took %s, not the forced %s", what, o.one_shot_path, expected);
        if (must_serve(expected, c, false) && !is(o.plan_path, expected))
            fail_msg("%s: plan took %s, not the forced %s: %s", what, o.plan_path, expected,
                     o.plan_description);
        const bool forced = expected[0] != '\0';
        if (forced && !is(o.plan_path, expected) && !strstr(o.plan_description, "fell back"))
            fail_msg("%s: the plan does not say it fell back: %s", what, o.plan_description);
        if (is(o.plan_path, expected) && !strstr(o.plan_description, "; forced by SGK_"))
            fail_msg("%s: the plan does not say it was forced: %s", what, o.plan_description);
        if (!forced && strstr(o.plan_description, "forced"))
            fail_msg("%s: nothing was forced: %s", what, o.plan_description);
        served += is(o.one_shot_path, expected) + is(o.plan_path, expected);
    }
}

static const sgk_dtype scatter_dtypes[] = {
    SGK_FLOAT32, SGK_FLOAT16, SGK_BFLOAT16, SGK_FLOAT64, SGK_INT8,
    SGK_INT64,   SGK_UINT8,   SGK_BOOL,     SGK_COMPLEX64};
static const sgk_dtype gather_dtypes[] = {SGK_FLOAT32, SGK_FLOAT16, SGK_INT64,
                                          SGK_UINT8,   SGK_BOOL,    SGK_COMPLEX64};
#define COUNT(a) (int)(sizeof a / sizeof *a)

#define OPERATOR_TEST(name, op, dtypes)                                               \
    static void name(void **state)                                                    \
    {                                                                                 \
        (void)state;                                                                  \
        run_cases(op, dtypes, COUNT(dtypes));                                         \
    }
OPERATOR_TEST(test_scatter_nd, FC_SCATTER_ND, scatter_dtypes)
OPERATOR_TEST(test_scatter_elements, FC_SCATTER_ELEMENTS, scatter_dtypes)
OPERATOR_TEST(test_tensor_scatter, FC_TENSOR_SCATTER, gather_dtypes)
OPERATOR_TEST(test_gather_nd, FC_GATHER_ND, gather_dtypes)
OPERATOR_TEST(test_gather_elements, FC_GATHER_ELEMENTS, gather_dtypes)
OPERATOR_TEST(test_gather, FC_GATHER, gather_dtypes)

/* After every operator: a forced path that served nothing was not forced. */
static void test_forced_path_served(void **s)
{
    (void)s;
    if (expected[0] != '\0' && served == 0)
        fail_msg("SGK_PATH=%s served no case", expected);
}

/* The runtime says which path is forced, or which bad value it ignored. */
static void test_runtime_reports_forcing(void **s)
{
    (void)s;
    const char *text = sgk_runtime_describe(), *bad = getenv("SGK_TEST_BAD_PATH");
    char want[96];
    if (bad != NULL)
        snprintf(want, sizeof want, "ignored: SGK_PATH=%s", bad);
    else if (expected[0] != '\0')
        snprintf(want, sizeof want, "forced path %s by SGK_", expected);
    else
        snprintf(want, sizeof want, "forced path none;");
    if (strstr(text, want) == NULL)
        fail_msg("sgk_runtime_describe() lacks \"%s\": %s", want, text);
}

static int run_child(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatter_nd),      cmocka_unit_test(test_scatter_elements),
        cmocka_unit_test(test_tensor_scatter),  cmocka_unit_test(test_gather_nd),
        cmocka_unit_test(test_gather_elements), cmocka_unit_test(test_gather),
        cmocka_unit_test(test_forced_path_served), cmocka_unit_test(test_runtime_reports_forcing),
    };
    char name[96];
    snprintf(name, sizeof name, "forced path %s", expected[0] ? expected : "(none)");
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}

/* This program again, with the environment but the forcing variables,
   then `assignments` (NULL-terminated "NAME=value" strings). */
static int spawn_self(const char *const *assignments)
{
    size_t n = 0, m = 0;
    while (environ[n] != NULL)
        n++;
    char **env = xmalloc((n + 8) * sizeof *env);
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "SGK_PATH=", 9) != 0 &&
            strncmp(environ[i], "SGK_REDUCE_PATH=", 16) != 0 &&
            strncmp(environ[i], "SGK_TEST_", 9) != 0)
            env[m++] = environ[i];
    for (size_t i = 0; assignments[i] != NULL; i++)
        env[m++] = (char *)assignments[i];
    env[m] = NULL;
    /* argv: the runner's words, if any, then this program */
    const char *runner = getenv("SGK_TEST_RUNNER");
    char *words = xmalloc(runner != NULL ? strlen(runner) + 1 : 1);
    char *argv[16], self[4096];
    int argc = 0;
    if (runner != NULL)
        for (char *w = strtok(strcpy(words, runner), " "); w != NULL && argc < 14;
             w = strtok(NULL, " "))
            argv[argc++] = w;
    /* qemu-user answers readlink(/proc/self/exe) with the emulated program */
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    const bool through_runner = argc > 0;
    argv[argc++] = through_runner ? self : "test_forced_paths";
    argv[argc] = NULL;
    pid_t pid;
    int status = -1;
    const int spawned = through_runner ? posix_spawnp(&pid, argv[0], NULL, NULL, argv, env)
                                 : posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, env);
    if (spawned != 0 || waitpid(pid, &status, 0) != pid)
        status = -1;
    free(words);
    free(env);
    return status == 0 ? 0 : 1;
}

int main(void)
{
    if ((expected = getenv("SGK_TEST_EXPECT")) != NULL)
        return run_child();
    int failed = 0;
    char force[PATH_COUNT][48], expect[PATH_COUNT][64];
    for (int i = 0; i < PATH_COUNT; i++) {
        snprintf(force[i], sizeof force[i], "SGK_PATH=%s", path_names[i]);
        snprintf(expect[i], sizeof expect[i], "SGK_TEST_EXPECT=%s", path_names[i]);
        failed += spawn_self((const char *const[]){force[i], expect[i], NULL});
    }
    /* Each row NULL-terminated: four columns for at most three
       assignments.  With three columns, the bad-path row ran on into the
       next and its child saw SGK_PATH twice; glibc's getenv takes the
       first, but a program under qemu-user saw the second. */
    static const char *const reduce_paths[][4] = {
        {"SGK_REDUCE_PATH=sorted", "SGK_TEST_EXPECT=sorted-segment", NULL},
        {"SGK_REDUCE_PATH=atomic", "SGK_TEST_EXPECT=atomic", NULL},
        {"SGK_REDUCE_PATH=serial", "SGK_TEST_EXPECT=serial", NULL},
        {"SGK_PATH=no-such-path", "SGK_TEST_EXPECT=", "SGK_TEST_BAD_PATH=no-such-path"},
        {"SGK_PATH=auto", "SGK_TEST_EXPECT=", NULL},
    };
    for (int i = 0; i < COUNT(reduce_paths); i++)
        failed += spawn_self(reduce_paths[i]);
    printf("test_forced_paths: %d of %d configurations failed\n", failed,
           PATH_COUNT + COUNT(reduce_paths));
    return failed != 0;
}
