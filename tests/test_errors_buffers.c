/*
 * SGK_ERR_INVALID_ARGUMENT for buffers that overlap where they must not, and
 * the errors of sgk_execute: updates overlapping the output (in place too),
 * data partly overlapping the output, Elements indices inside the output
 * they are read while it is written; for sgk_execute also a NULL plan and
 * NULL data, updates or output.  Adjacent, disjoint buffers are accepted.
 * Everything lives in one arena that must come out untouched.
 * Harness and contract: tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

/* The arena holding every buffer of a case, and where the output starts in
   it: room for data and updates on either side. */
#define ARENA 65536
#define OUT_AT 16384

/* ---- one-shot calls ---------------------------------------------------- */

/* Buffer overlaps in the one-shot form: everything lives in one arena that
   must come out untouched. */
static void oneshot_overlap_at(const char *file, int line, const char *label, const opcase *c,
                               uint8_t *arena, size_t arena_bytes, const void *data,
                               const void *updates, void *out)
{
    char lbl[256];
    uint8_t *ref = snapshot(arena, arena_bytes);
    opcase k = *c;
    k.data.data = data;
    k.updates.data = updates;
    snprintf(lbl, sizeof lbl, "%s%s [one-shot]", op_prefix[c->op], label);
    prime_last_error(op_prefix[c->op]);
    sgk_status st = call_oneshot(&k, &k.data, out);
    check_error_at(file, line, lbl, st, SGK_ERR_INVALID_ARGUMENT, op_prefix[c->op], NULL, 0);
    check_bytes_at(file, line, lbl, "buffers", arena, ref, arena_bytes);
    free(ref);
}
#define OVERLAP(label, c, data, upd, out) \
    oneshot_overlap_at(__FILE__, __LINE__, label, c, arena, ARENA, data, upd, out)

static void test_invalid_overlap_oneshot(void **state)
{
    const int op = *(const int *)*state;
    opcase c = base(op);
    size_t db = bytes_of(c.data.dtype, c.data_elems), ob = bytes_of(c.data.dtype, c.out_elems);
    size_t ub = is_scatter(op) ? (op == OP_SND ? 4 * 4 : 6 * 4) : 0;
    uint8_t *arena = xmalloc(ARENA);
    tc_fill_pattern(arena, ARENA);
    uint8_t *o = arena + OUT_AT;
    memcpy(arena, DATA_F, db);           /* a valid data copy at 0 */
    memcpy(arena + 8192, UPD_F, 64);     /* a valid updates copy at 8192 */

    /* Adjacent but disjoint buffers are fine. */
    {
        uint8_t *u = is_scatter(op) ? o + ob : NULL;
        memcpy(o - db, DATA_F, db);
        if (u) memcpy(u, UPD_F, ub);
        opcase k = c;
        k.data.data = o - db;
        k.updates.data = u;
        if (call_oneshot(&k, &k.data, o) != SGK_OK)
            failf(__FILE__, __LINE__, "%sadjacent, disjoint buffers rejected: %s", op_prefix[op],
                  tc_last_error());
        tc_fill_pattern(arena + OUT_AT - 4096, 8192);
    }

    if (is_scatter(op)) {
        memcpy(o, DATA_F, db); /* so that in-place cases start from valid data */
        OVERLAP("updates == output", &c, arena, o, o);
        OVERLAP("updates inside output", &c, arena, o + 4, o);
        OVERLAP("updates overlapping the start of output", &c, arena, o - ub + 4, o);
        OVERLAP("updates overlapping the end of output", &c, arena, o + ob - 4, o);
        OVERLAP("in place, updates == output", &c, o, o, o);
        OVERLAP("in place, updates inside output", &c, o, o + 4, o);
        OVERLAP("data starting inside output", &c, o + 4, arena + 8192, o);
        OVERLAP("data ending inside output", &c, o - db + 4, arena + 8192, o);
    } else {
        OVERLAP("data == output", &c, o, NULL, o);
        OVERLAP("data starting inside output", &c, o + 4, NULL, o);
        OVERLAP("data ending inside output", &c, o - db + 4, NULL, o);
        OVERLAP("output inside data", &c, o - 4, NULL, o);
    }
    free(arena);
}

/* One-shot Elements calls whose indices span data but along the axis read
   the index values while they write the output (the lines path): indices
   inside the output buffer are refused, on every path, before anything is
   written. */
static void test_indices_overlapping_output(void **state)
{
    (void)state;
    static const int64_t ds[] = {2, 8}, is[] = {2, 3};
    float data[16], upd[6];
    for (int i = 0; i < 16; i++) data[i] = (float)i;
    for (int i = 0; i < 6; i++) upd[i] = 100.0f + (float)i;
    _Alignas(16) uint8_t arena[256];
    tc_fill_pattern(arena, sizeof arena);
    float *out = (float *)(arena + 64); /* 64 bytes of output */
    int64_t *idx = (int64_t *)(arena + 72);
    const int64_t values[6] = {0, 7, 3, 1, 1, 6};
    memcpy(idx, values, sizeof values);
    uint8_t *ref = snapshot(arena, sizeof arena);
    sgk_tensor d = {SGK_FLOAT32, 2, ds, data}, ix = {SGK_INT64, 2, is, idx};
    sgk_tensor u = {SGK_FLOAT32, 2, is, upd};
    static const char *const needles[] = {"indices", "overlaps the output"};
    prime_last_error("scatter_elements");
    check_error_at(__FILE__, __LINE__, "scatter_elements, indices inside the output",
                   sgk_scatter_elements(&d, &ix, &u, 1, SGK_REDUCE_NONE, out),
                   SGK_ERR_INVALID_ARGUMENT, "scatter_elements", needles, 2);
    check_bytes_at(__FILE__, __LINE__, "scatter_elements, indices inside the output", "arena",
                   arena, ref, sizeof arena);
    prime_last_error("gather_elements");
    check_error_at(__FILE__, __LINE__, "gather_elements, indices inside the output",
                   sgk_gather_elements(&d, &ix, 1, arena + 56), SGK_ERR_INVALID_ARGUMENT,
                   "gather_elements", needles, 2);
    check_bytes_at(__FILE__, __LINE__, "gather_elements, indices inside the output", "arena",
                   arena, ref, sizeof arena);
    free(ref);
}

/* ---- sgk_execute ------------------------------------------------------- */

static void exec_expect_at(const char *file, int line, int op, const char *label,
                           const sgk_plan *plan, const void *data, const void *upd, void *out,
                           uint8_t *arena, size_t arena_bytes)
{
    char lbl[256];
    uint8_t *ref = snapshot(arena, arena_bytes);
    snprintf(lbl, sizeof lbl, "execute (%s plan): %s", op_prefix[op], label);
    prime_last_error("execute: ");
    sgk_status st = sgk_execute(plan, data, upd, out);
    check_error_at(file, line, lbl, st, SGK_ERR_INVALID_ARGUMENT, "execute: ", NULL, 0);
    check_bytes_at(file, line, lbl, "buffers", arena, ref, arena_bytes);
    free(ref);
}
#define EXEC_BAD(label, data, upd, out) \
    exec_expect_at(__FILE__, __LINE__, op, label, plan, data, upd, out, arena, ARENA)

static void test_execute_errors(void **state)
{
    const int op = *(const int *)*state;
    const int sc = is_scatter(op);
    opcase c = base(op);
    size_t db = bytes_of(c.data.dtype, c.data_elems), ob = bytes_of(c.data.dtype, c.out_elems);
    size_t ub = sc ? (op == OP_SND ? 4 * 4 : 6 * 4) : 0;

    /* data and updates pointers are NULL at plan time */
    c.data.data = NULL;
    c.updates.data = NULL;
    sgk_plan *plan = NULL;
    if (call_plan(&c, &plan) != SGK_OK || !plan)
        failf(__FILE__, __LINE__, "%splan with NULL data/updates pointers fails: %s",
              op_prefix[op], tc_last_error());

    uint8_t *arena = xmalloc(ARENA);
    tc_fill_pattern(arena, ARENA);
    uint8_t *o = arena + OUT_AT, *d = arena, *u = arena + 8192;
    memcpy(d, DATA_F, db);
    memcpy(u, UPD_F, ub);

    /* Positive controls: separate and adjacent buffers. */
    assert_int_equal(sgk_execute(plan, d, sc ? u : NULL, o), SGK_OK);
    memcpy(o - db, DATA_F, db);
    if (sc) memcpy(o + ob, UPD_F, ub);
    assert_int_equal(sgk_execute(plan, o - db, sc ? o + ob : NULL, o), SGK_OK);
    tc_fill_pattern(arena + OUT_AT - 4096, 8192);

    prime_last_error("execute: ");
    check_error_at(__FILE__, __LINE__, "execute with NULL plan",
                   sgk_execute(NULL, d, sc ? u : NULL, o), SGK_ERR_INVALID_ARGUMENT, "execute: ",
                   NULL, 0);

    EXEC_BAD("NULL data", NULL, sc ? u : NULL, o);
    EXEC_BAD("NULL output", d, sc ? u : NULL, NULL);
    if (sc) {
        EXEC_BAD("NULL updates", d, NULL, o);
        memcpy(o, DATA_F, db);
        EXEC_BAD("NULL updates, in place", o, NULL, o);
        EXEC_BAD("updates == output", d, o, o);
        EXEC_BAD("updates inside output", d, o + 4, o);
        EXEC_BAD("updates overlapping the start of output", d, o - ub + 4, o);
        EXEC_BAD("updates overlapping the end of output", d, o + ob - 4, o);
        EXEC_BAD("in place, updates inside output", o, o + 4, o);
        EXEC_BAD("data starting inside output", o + 4, u, o);
        EXEC_BAD("data ending inside output", o - db + 4, u, o);
    } else {
        EXEC_BAD("data == output", o, NULL, o);
        EXEC_BAD("data starting inside output", o + 4, NULL, o);
        EXEC_BAD("data ending inside output", o - db + 4, NULL, o);
        EXEC_BAD("output inside data", o - 4, NULL, o);
    }
    sgk_plan_destroy(plan);

    /* A plan whose updates have no elements accepts NULL updates; a plan
       whose output has no elements accepts a NULL output. */
    if (op == OP_SND) {
        opcase z = base(op);
        z.indices.shape = (const int64_t[]){0, 2};
        z.indices.data = NULL;
        z.updates.shape = (const int64_t[]){0};
        z.updates.data = NULL;
        plan = NULL;
        assert_int_equal(call_plan(&z, &plan), SGK_OK);
        assert_int_equal(sgk_execute(plan, d, NULL, o), SGK_OK);
        assert_memory_equal(o, DATA_F, db);
        sgk_plan_destroy(plan);
    }
    free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("invalid_overlap", test_invalid_overlap_oneshot),
        cmocka_unit_test(test_indices_overlapping_output),
        PER_OP("execute_errors", test_execute_errors),
    };
    return cmocka_run_group_tests_name("sgk errors: buffers", tests, group_setup, NULL);
}
