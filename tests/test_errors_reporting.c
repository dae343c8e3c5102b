/*
 * How errors are reported, and the small entry points: distinct names for
 * every status (and a name for invalid ones), sgk_dtype_size of valid and
 * invalid types, sgk_reduction_from_name and sgk_set_num_threads refusing
 * bad values with a message of their own, and sgk_last_error() kept per
 * thread (a new thread starts empty; one thread's failure leaves another's
 * message alone).
 * Harness and contract: tests/support/error_cases.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "registry/registry.h"
#include "sgk.h"

/* ---- names, runtime ------------------------------------------------------ */

static void test_status_names(void **state)
{
    (void)state;
    const char *names[SGK_STATUS_COUNT];
    for (int s = 0; s < SGK_STATUS_COUNT; s++) {
        names[s] = sgk_status_name((sgk_status)s);
        assert_non_null(names[s]);
        assert_true(names[s][0] != '\0');
        for (int t = 0; t < s; t++)
            if (strcmp(names[s], names[t]) == 0)
                failf(__FILE__, __LINE__, "statuses %d and %d share the name \"%s\"", t, s,
                      names[s]);
    }
    static const int bad[] = {7, 99, -1, INT_MAX};
    for (size_t i = 0; i < 4; i++) {
        const char *n = sgk_status_name((sgk_status)bad[i]);
        assert_non_null(n);
        assert_true(n[0] != '\0');
        for (int s = 0; s < SGK_STATUS_COUNT; s++)
            if (strcmp(n, names[s]) == 0)
                failf(__FILE__, __LINE__, "status %d is named like status %d: \"%s\"", bad[i], s,
                      n);
    }
}

static void test_dtype_sizes(void **state)
{
    (void)state;
    /* sgk.h's sizes, written out here as the reference: a new type is a
       new row of this table too. */
    static const size_t want[] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 8, 16,
                                  sizeof(const char *)};
    const int count = (int)(sizeof want / sizeof *want);
    assert_int_equal(sgk_dtype_count(), count);
    for (int t = 0; t < count; t++) {
        if (sgk_dtype_size((sgk_dtype)t) != want[t])
            failf(__FILE__, __LINE__, "sgk_dtype_size(%d) = %zu, want %zu", t,
                  sgk_dtype_size((sgk_dtype)t), want[t]);
    }
    assert_int_equal(sgk_dtype_size((sgk_dtype)count), 0);
    assert_int_equal(sgk_dtype_size((sgk_dtype)-1), 0);
    assert_int_equal(sgk_dtype_size((sgk_dtype)1000), 0);
}

static void test_reduction_names(void **state)
{
    (void)state;
    static const struct { const char *name; sgk_reduction r; } good[] = {
        {"none", SGK_REDUCE_NONE}, {"add", SGK_REDUCE_ADD}, {"sum", SGK_REDUCE_ADD},
        {"sub", SGK_REDUCE_SUB},   {"mul", SGK_REDUCE_MUL}, {"prod", SGK_REDUCE_MUL},
        {"max", SGK_REDUCE_MAX},   {"min", SGK_REDUCE_MIN}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        sgk_reduction r = (sgk_reduction)77;
        if (sgk_reduction_from_name(good[i].name, &r) != SGK_OK || r != good[i].r)
            failf(__FILE__, __LINE__, "sgk_reduction_from_name(\"%s\") gave %d, want %d",
                  good[i].name, (int)r, (int)good[i].r);
    }
    static const char *const bad[] = {"bogus", "", "maxx", "ad", "add ", " none", "mean"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char lbl[64];
        sgk_reduction r = SGK_REDUCE_NONE;
        snprintf(lbl, sizeof lbl, "sgk_reduction_from_name(\"%s\")", bad[i]);
        prime_last_error(NULL); /* leaves an "execute: " message */
        check_error_at(__FILE__, __LINE__, lbl, sgk_reduction_from_name(bad[i], &r),
                       SGK_ERR_INVALID_ARGUMENT, NULL, NULL, 0);
        if (strncmp(sgk_last_error(), "execute: ", 9) == 0)
            failf(__FILE__, __LINE__, "%s: failed without setting sgk_last_error()", lbl);
    }
    sgk_reduction r;
    prime_last_error(NULL);
    check_error_at(__FILE__, __LINE__, "sgk_reduction_from_name(NULL)",
                   sgk_reduction_from_name(NULL, &r), SGK_ERR_INVALID_ARGUMENT, NULL, NULL, 0);
    if (strncmp(sgk_last_error(), "execute: ", 9) == 0)
        failf(__FILE__, __LINE__, "sgk_reduction_from_name(NULL) did not set sgk_last_error()");
}

static void test_runtime(void **state)
{
    (void)state;
    const char *v = sgk_version(), *rt = sgk_runtime_describe();
    assert_non_null(v);
    assert_true(v[0] != '\0');
    assert_non_null(rt);
    assert_true(rt[0] != '\0');

    static const int bad[] = {-1, -2, INT_MIN};
    for (size_t i = 0; i < 3; i++) {
        char lbl[64];
        snprintf(lbl, sizeof lbl, "sgk_set_num_threads(%d)", bad[i]);
        prime_last_error(NULL);
        check_error_at(__FILE__, __LINE__, lbl, sgk_set_num_threads(bad[i]),
                       SGK_ERR_INVALID_ARGUMENT, NULL, NULL, 0);
        if (strncmp(sgk_last_error(), "execute: ", 9) == 0)
            failf(__FILE__, __LINE__, "%s did not set sgk_last_error()", lbl);
    }
    assert_int_equal(sgk_set_num_threads(1), SGK_OK);
    assert_int_equal(sgk_set_num_threads(0), SGK_OK);
}

/* ---- sgk_last_error is per thread --------------------------------------- */

typedef struct {
    pthread_barrier_t *barrier;
    char initial[512];
    char after_error[512];
    char at_end[512];
    int initial_null;
} tl_state;

static void copy_msg(char *dst, size_t n)
{
    const char *m = sgk_last_error();
    snprintf(dst, n, "%s", m ? m : "(null)");
}

static void *tl_thread(void *arg)
{
    tl_state *t = arg;
    t->initial_null = sgk_last_error() == NULL;
    copy_msg(t->initial, sizeof t->initial);
    (void)sgk_gather_nd(NULL, NULL, 0, NULL);
    copy_msg(t->after_error, sizeof t->after_error);
    pthread_barrier_wait(t->barrier); /* main fails differently now */
    pthread_barrier_wait(t->barrier);
    copy_msg(t->at_end, sizeof t->at_end);
    return NULL;
}

static void test_last_error_thread_local(void **state)
{
    (void)state;
    char main_msg[512], after[512];
    pthread_barrier_t barrier;
    tl_state t;
    memset(&t, 0, sizeof t);
    t.barrier = &barrier;

    assert_int_equal(sgk_scatter_nd(NULL, NULL, NULL, SGK_REDUCE_NONE, NULL),
                     SGK_ERR_INVALID_ARGUMENT);
    copy_msg(main_msg, sizeof main_msg);
    assert_true(strncmp(main_msg, "scatter_nd: ", 12) == 0);

    assert_int_equal(pthread_barrier_init(&barrier, NULL, 2), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, tl_thread, &t), 0);
    pthread_barrier_wait(&barrier);
    /* the thread has failed in gather_nd; ours must be unchanged */
    copy_msg(after, sizeof after);
    int unchanged_1 = strcmp(after, main_msg) == 0;
    (void)sgk_scatter_elements(NULL, NULL, NULL, 0, SGK_REDUCE_NONE, NULL);
    copy_msg(main_msg, sizeof main_msg);
    pthread_barrier_wait(&barrier);
    pthread_join(th, NULL);
    pthread_barrier_destroy(&barrier);

    if (t.initial_null || t.initial[0] != '\0')
        failf(__FILE__, __LINE__, "a new thread's sgk_last_error() is \"%s\", want \"\"",
              t.initial);
    if (strncmp(t.after_error, "gather_nd: ", 11) != 0)
        failf(__FILE__, __LINE__, "thread's own error is \"%s\"", t.after_error);
    if (!unchanged_1)
        failf(__FILE__, __LINE__, "another thread's failure changed this thread's message to \"%s\"",
              after);
    if (strcmp(t.at_end, t.after_error) != 0)
        failf(__FILE__, __LINE__, "main thread's failure changed the other thread's message to \"%s\"",
              t.at_end);
    copy_msg(after, sizeof after);
    assert_string_equal(after, main_msg);
    assert_true(strncmp(main_msg, "scatter_elements: ", 18) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_dtype_sizes),
        cmocka_unit_test(test_reduction_names),
        cmocka_unit_test(test_runtime),
        cmocka_unit_test(test_last_error_thread_local),
    };
    return cmocka_run_group_tests_name("sgk errors: reporting", tests, NULL, NULL);
}
