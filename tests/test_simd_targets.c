/*
 * SGK_SIMD: the target list, and that the target it names is the one the
 * kernels run.  tests/matrix.sh runs this program (like every C test) on
 * each target the CPU runs, so each run checks that its own SGK_SIMD took:
 * a matrix run that silently stayed on the best target would pass every
 * other test without testing that target's code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

static void test_target_list(void **state)
{
    (void)state;
    const char *targets = sgk_simd_targets();
    assert_non_null(targets);
    /* the portable fallback runs everywhere, and comes last */
    size_t n = strlen(targets);
    assert_true(n >= 6 && strcmp(targets + n - 6, "scalar") == 0);
}

/* The name sgk_runtime_describe gives the target the kernels run, lower-
   cased: "simd AVX2 (..." gives "avx2". */
static void running_target(char *name, size_t size)
{
    const char *d = strstr(sgk_runtime_describe(), "simd ");
    assert_non_null(d);
    d += 5;
    size_t i = 0;
    for (; d[i] != '\0' && d[i] != ' ' && i + 1 < size; i++)
        name[i] = (char)tolower((unsigned char)d[i]);
    name[i] = '\0';
}

static void test_forced_target_runs(void **state)
{
    (void)state;
    const char *wanted = getenv("SGK_SIMD");
    char running[32], best[32];
    running_target(running, sizeof running);
    sscanf(sgk_simd_targets(), "%31s", best);
    if (wanted == NULL || strcmp(wanted, "auto") == 0) {
        assert_string_equal(running, best);
        return;
    }
    /* Highway calls its portable fallback EMU128 or SCALAR */
    if (strcmp(wanted, "scalar") == 0 && strcmp(running, "emu128") == 0)
        return;
    assert_string_equal(running, wanted);
    assert_non_null(strstr(sgk_runtime_describe(), "forced by SGK_SIMD"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_list),
        cmocka_unit_test(test_forced_target_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
