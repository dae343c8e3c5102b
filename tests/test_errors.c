/*
 * Error contract of every public entry point (DESIGN.md §2-§3): each failing
 * call returns the exact status, leaves a message in sgk_last_error() that
 * names the operator (and, for index errors, the offending value), and writes
 * nothing: the output buffer, or the data when output == data, stays
 * byte-for-byte as it was.
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
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sgk.h"

/* Slack after every checked buffer, to catch writes past the end too. */
#define GUARD 1024
#define P(n) ((int64_t)1 << (n))

enum { OP_SND, OP_GND, OP_SEL, OP_GEL, OP_COUNT };
static const char *const op_prefix[OP_COUNT] = {
    "scatter_nd: ", "gather_nd: ", "scatter_elements: ", "gather_elements: "};
static const int op_ids[OP_COUNT] = {OP_SND, OP_GND, OP_SEL, OP_GEL};

static int is_scatter(int op) { return op == OP_SND || op == OP_SEL; }

/* Backing storage shared by the cases; large enough that a buggy library
   reading a little too far does not crash the whole program. */
static float DATA_F[8192];
static float UPD_F[8192];
static int64_t IDX_ZERO[8192];
static uint8_t BOOLS[256];
static const char *STRS[128];
static int64_t ONES[SGK_MAX_RANK + 8];
/* Stand-ins for tensors whose sizes overflow: never to be dereferenced. */
static uint8_t DUMMY_D[4096], DUMMY_I[4096], DUMMY_U[4096];

static char plan_sentinel_obj;
#define PLAN_SENTINEL ((sgk_plan *)(void *)&plan_sentinel_obj)

static const char *const string_pool[] = {"alpha", "beta", "gamma", "delta"};

static int group_setup(void **state)
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

/* Bytes of n elements; an invalid dtype counts as 4 bytes per element. */
static size_t bytes_of(sgk_dtype t, size_t n)
{
    size_t s = tc_dtype_size(t);
    return n * (s ? s : 4);
}

static void failf(const char *file, int line, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    print_error("%s\n", buf);
    _fail(file, line);
}

static void *snapshot(const void *p, size_t n)
{
    if (!p || !n) return NULL;
    void *s = xmalloc(n);
    memcpy(s, p, n);
    return s;
}

static void check_bytes_at(const char *file, int line, const char *label, const char *what,
                           const void *got, const void *want, size_t n)
{
    const uint8_t *g = got, *w = want;
    size_t i = tc_first_difference(got, want, n);
    if (i < n)
        failf(file, line, "%s: %s modified at byte %zu of %zu (0x%02x, was 0x%02x)", label, what,
              i, n, g[i], w[i]);
}

/* Leave a known, unrelated message behind so that a call which fails without
   setting its own message is caught. */
static void prime_last_error(const char *expected_prefix)
{
    if (expected_prefix && strncmp(expected_prefix, "execute", 7) == 0)
        (void)sgk_gather_elements(NULL, NULL, 0, NULL);
    else
        (void)sgk_execute(NULL, NULL, NULL, NULL);
}

static void check_error_at(const char *file, int line, const char *label, sgk_status got,
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

enum { M_ONESHOT = 1, M_INPLACE = 2, M_PLAN = 4, M_ALL = 7 };

typedef struct {
    int op;
    sgk_tensor data, indices, updates;
    int null_tensor; /* 0, or which tensor pointer is NULL: 1 data, 2 indices, 3 updates */
    int64_t attr;    /* batch_dims or axis */
    sgk_reduction red;
    uint32_t flags;
    size_t data_elems; /* elements readable at data.data */
    size_t out_elems;  /* elements the output would have */
    int null_output;
    int modes;
    const char *needles[4];
} opcase;

static const int64_t SHP_4_8[] = {4, 8}, SHP_4_2[] = {4, 2}, SHP_4[] = {4};
static const int64_t SHP_2_3_4[] = {2, 3, 4}, SHP_2_2[] = {2, 2};
static const int64_t SHP_3_4[] = {3, 4}, SHP_3_2[] = {3, 2};
static const int64_t IDX_SND[] = {0, 0, 1, 1, 2, 2, 3, 3};
static const int64_t IDX_GND[] = {0, 1, 1, 2};
static const int64_t IDX_EL[] = {0, 3, 1, -1, 2, -4};

/* A valid call of each operator; every case below changes one thing. */
static opcase base(int op)
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

static sgk_status call_oneshot(const opcase *c, const sgk_tensor *data, void *out)
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

static sgk_status call_plan(const opcase *c, sgk_plan **plan)
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

static void run_case_at(const char *file, int line, const char *label, const opcase *c,
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
#define RUN(label, c, want) run_case_at(__FILE__, __LINE__, label, c, want)

/* ---- positive controls: the bases are valid, so the failures mean something */

static void test_base_cases_valid(void **state)
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

    /* Reductions the type does support, next to the unsupported ones below. */
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

/* ---- SGK_ERR_INVALID_ARGUMENT ----------------------------------------- */

static void test_invalid_argument(void **state)
{
    const int op = *(const int *)*state;
    const int sc = is_scatter(op);
    const sgk_status E = SGK_ERR_INVALID_ARGUMENT;
    opcase c;

    c = base(op); c.null_tensor = 1; c.modes = M_ONESHOT | M_PLAN;
    RUN("NULL data tensor", &c, E);
    c = base(op); c.null_tensor = 2;
    RUN("NULL indices tensor", &c, E);
    if (sc) { c = base(op); c.null_tensor = 3; RUN("NULL updates tensor", &c, E); }

    c = base(op); c.data.shape = NULL;
    RUN("NULL data shape with rank > 0", &c, E);
    c = base(op); c.indices.shape = NULL;
    RUN("NULL indices shape with rank > 0", &c, E);
    if (sc) { c = base(op); c.updates.shape = NULL; RUN("NULL updates shape with rank > 0", &c, E); }

    /* data/updates pointers may be NULL at plan time, so only the one-shot form. */
    c = base(op); c.data.data = NULL; c.modes = M_ONESHOT;
    RUN("NULL data pointer", &c, E);
    c = base(op); c.indices.data = NULL;
    RUN("NULL indices pointer", &c, E);
    if (sc) {
        c = base(op); c.updates.data = NULL; c.modes = M_ONESHOT | M_INPLACE;
        RUN("NULL updates pointer", &c, E);
    }
    c = base(op); c.null_output = 1; c.modes = M_ONESHOT;
    RUN("NULL output", &c, E);

    static const int bad_dtypes[] = {16, -1, 1000, INT_MAX};
    for (size_t i = 0; i < sizeof bad_dtypes / sizeof bad_dtypes[0]; i++) {
        char lbl[96];
        c = base(op);
        c.data.dtype = (sgk_dtype)bad_dtypes[i];
        snprintf(lbl, sizeof lbl, "data dtype %d", bad_dtypes[i]);
        RUN(lbl, &c, E);
        if (sc) {
            c.updates.dtype = (sgk_dtype)bad_dtypes[i];
            snprintf(lbl, sizeof lbl, "data and updates dtype %d", bad_dtypes[i]);
            RUN(lbl, &c, E);
        }
    }

    if (sc) {
        /* INT32 has float32's size: the check must compare types, not sizes. */
        static const sgk_dtype other[] = {SGK_FLOAT64, SGK_INT32, SGK_UINT32, SGK_FLOAT16};
        for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
            char lbl[96];
            c = base(op);
            c.updates.dtype = other[i];
            snprintf(lbl, sizeof lbl, "updates dtype %d with float32 data", (int)other[i]);
            RUN(lbl, &c, E);
        }
        static const int bad_red[] = {6, -1, 100};
        for (size_t i = 0; i < sizeof bad_red / sizeof bad_red[0]; i++) {
            char lbl[96];
            c = base(op);
            c.red = (sgk_reduction)bad_red[i];
            snprintf(lbl, sizeof lbl, "reduction %d", bad_red[i]);
            RUN(lbl, &c, E);
        }
    }

    static const uint32_t bad_flags[] = {1u << 3, 1u << 31, 0xffffffffu,
                                         SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER,
                                         SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER |
                                             SGK_PLAN_WIDE_ACCUMULATE,
                                         SGK_PLAN_DETERMINISTIC | (1u << 4)};
    for (size_t i = 0; i < sizeof bad_flags / sizeof bad_flags[0]; i++) {
        char lbl[96];
        c = base(op);
        c.flags = bad_flags[i];
        c.modes = M_PLAN;
        snprintf(lbl, sizeof lbl, "plan flags 0x%x", (unsigned)bad_flags[i]);
        RUN(lbl, &c, E);
    }

    /* NULL plan out-pointer. */
    c = base(op);
    prime_last_error(op_prefix[op]);
    sgk_status st;
    switch (op) {
    case OP_SND: st = sgk_plan_scatter_nd(NULL, &c.data, &c.indices, &c.updates, c.red, 0); break;
    case OP_GND: st = sgk_plan_gather_nd(NULL, &c.data, &c.indices, c.attr, 0); break;
    case OP_SEL:
        st = sgk_plan_scatter_elements(NULL, &c.data, &c.indices, &c.updates, c.attr, c.red, 0);
        break;
    default: st = sgk_plan_gather_elements(NULL, &c.data, &c.indices, c.attr, 0); break;
    }
    check_error_at(__FILE__, __LINE__, "NULL plan out-pointer", st, E, op_prefix[op], NULL, 0);
}

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

#define ARENA 65536
#define OUT_AT 16384

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

/* ---- SGK_ERR_UNSUPPORTED ---------------------------------------------- */

static void test_unsupported(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_UNSUPPORTED;
    opcase c;

    static const sgk_dtype bad_index_types[] = {SGK_BOOL,    SGK_INT8,    SGK_UINT8,
                                                SGK_INT16,   SGK_UINT16,  SGK_UINT32,
                                                SGK_UINT64,  SGK_FLOAT16, SGK_FLOAT32,
                                                SGK_FLOAT64, SGK_COMPLEX64};
    for (size_t i = 0; i < sizeof bad_index_types / sizeof bad_index_types[0]; i++) {
        char lbl[96];
        c = base(op);
        c.indices.dtype = bad_index_types[i];
        c.indices.data = IDX_ZERO;
        snprintf(lbl, sizeof lbl, "indices dtype %d", (int)bad_index_types[i]);
        RUN(lbl, &c, E);
    }

    if (!is_scatter(op)) return;
    static const sgk_dtype complex_types[] = {SGK_COMPLEX64, SGK_COMPLEX128};
    static const sgk_reduction minmax[] = {SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    for (size_t t = 0; t < 2; t++)
        for (size_t r = 0; r < 2; r++) {
            char lbl[96];
            c = base(op);
            c.data.dtype = c.updates.dtype = complex_types[t];
            c.red = minmax[r];
            snprintf(lbl, sizeof lbl, "complex dtype %d with reduction %d", (int)complex_types[t],
                     (int)minmax[r]);
            RUN(lbl, &c, E);
        }
    static const sgk_reduction not_none[] = {SGK_REDUCE_ADD, SGK_REDUCE_SUB, SGK_REDUCE_MUL,
                                             SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    for (size_t r = 0; r < 5; r++) {
        char lbl[96];
        c = base(op);
        c.data.dtype = c.updates.dtype = SGK_STRING;
        c.data.data = STRS;
        c.updates.data = STRS + 64;
        c.red = not_none[r];
        snprintf(lbl, sizeof lbl, "string with reduction %d", (int)not_none[r]);
        RUN(lbl, &c, E);
    }
}

/* ---- SGK_ERR_SHAPE ----------------------------------------------------- */

static void generic_shape_cases(int op)
{
    const sgk_status E = SGK_ERR_SHAPE;
    opcase c;
    static const int32_t bad_ranks[] = {-1, INT32_MIN, SGK_MAX_RANK + 1};
    for (size_t i = 0; i < 3; i++) {
        char lbl[96];
        c = base(op);
        c.data.rank = bad_ranks[i];
        c.data.shape = ONES;
        snprintf(lbl, sizeof lbl, "data rank %d", (int)bad_ranks[i]);
        RUN(lbl, &c, E);
        c = base(op);
        c.indices.rank = bad_ranks[i];
        c.indices.shape = ONES;
        c.indices.data = IDX_ZERO;
        snprintf(lbl, sizeof lbl, "indices rank %d", (int)bad_ranks[i]);
        RUN(lbl, &c, E);
        if (is_scatter(op)) {
            c = base(op);
            c.updates.rank = bad_ranks[i];
            c.updates.shape = ONES;
            snprintf(lbl, sizeof lbl, "updates rank %d", (int)bad_ranks[i]);
            RUN(lbl, &c, E);
        }
    }
    /* Negative dimensions, in each tensor. */
    c = base(op);
    c.data.shape = (const int64_t[]){c.data.shape[0], -c.data.shape[1], 4};
    RUN("negative data dimension", &c, E);
    c = base(op);
    c.data.shape = (const int64_t[]){INT64_MIN, c.data.shape[1], 4};
    RUN("data dimension INT64_MIN", &c, E);
    c = base(op);
    c.indices.shape = (const int64_t[]){-c.indices.shape[0], c.indices.shape[1]};
    RUN("negative indices dimension", &c, E);
    if (is_scatter(op)) {
        c = base(op);
        static const int64_t neg1[] = {-4}, neg2[] = {3, -2};
        c.updates.shape = op == OP_SND ? neg1 : neg2;
        RUN("negative updates dimension", &c, E);
    }
}

static void test_shape(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_SHAPE;
    opcase c;
    generic_shape_cases(op);

    switch (op) {
    case OP_SND:
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.data_elems = c.out_elems = 1;
        RUN("data rank 0 (r >= 1)", &c, E);
        c = base(op); c.indices.rank = 0; c.indices.shape = NULL;
        RUN("indices rank 0 (q >= 1)", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){4, 0};
        c.updates.rank = 3; c.updates.shape = (const int64_t[]){4, 4, 8};
        RUN("k = 0", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){4, 3}; c.indices.data = IDX_ZERO;
        RUN("k = 3 > r = 2", &c, E);
        c = base(op); c.updates.shape = (const int64_t[]){3};
        RUN("updates [3] for [4]", &c, E);
        c = base(op); c.updates.shape = (const int64_t[]){5};
        RUN("updates [5] for [4]", &c, E);
        c = base(op); c.updates.rank = 2; c.updates.shape = (const int64_t[]){4, 1};
        RUN("updates [4, 1] for [4]", &c, E);
        c = base(op); c.updates.rank = 2; c.updates.shape = (const int64_t[]){4, 8};
        RUN("updates [4, 8] for [4]", &c, E);
        c = base(op); c.updates.rank = 0; c.updates.shape = NULL;
        RUN("updates [] for [4]", &c, E);
        c = base(op); c.indices.rank = 1; c.indices.shape = (const int64_t[]){2};
        c.updates.shape = (const int64_t[]){2};
        RUN("updates [2] where [] (or [1]) is expected", &c, E);
        {
            static const int64_t bad[][2] = {{3, 7}, {3, 9}, {8, 3}, {1, 8}};
            for (size_t i = 0; i < 4; i++) {
                char lbl[96];
                c = base(op);
                c.indices.shape = (const int64_t[]){3, 1};
                c.updates.rank = 2;
                c.updates.shape = bad[i];
                snprintf(lbl, sizeof lbl, "updates [%d, %d] for [3, 8]", (int)bad[i][0],
                         (int)bad[i][1]);
                RUN(lbl, &c, E);
            }
        }
        break;
    case OP_GND: {
        static const int64_t bad_b[] = {-1, 2, 3, INT64_MAX, INT64_MIN};
        for (size_t i = 0; i < sizeof bad_b / sizeof bad_b[0]; i++) {
            char lbl[96];
            c = base(op);
            c.attr = bad_b[i];
            snprintf(lbl, sizeof lbl, "batch_dims %lld with q = 2, r = 3", (long long)bad_b[i]);
            RUN(lbl, &c, E);
        }
        c = base(op); c.indices.shape = (const int64_t[]){2, 0}; c.out_elems = 48;
        RUN("k = 0", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){2, 4}; c.indices.data = IDX_ZERO;
        RUN("k = 4 > r - b = 3", &c, E);
        c = base(op); c.attr = 1; c.indices.shape = (const int64_t[]){2, 3};
        c.indices.data = IDX_ZERO;
        RUN("k = 3 > r - b = 2", &c, E);
        c = base(op); c.attr = 1; c.indices.shape = (const int64_t[]){3, 1};
        c.indices.data = IDX_ZERO;
        RUN("batch dims [3] vs data [2]", &c, E);
        c = base(op); c.attr = 2; c.indices.rank = 3;
        c.indices.shape = (const int64_t[]){2, 4, 1}; c.indices.data = IDX_ZERO;
        RUN("batch dims [2, 4] vs data [2, 3]", &c, E);
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.data_elems = 1;
        RUN("data rank 0", &c, E);
        c = base(op); c.indices.rank = 0; c.indices.shape = NULL;
        RUN("indices rank 0", &c, E);
        break;
    }
    case OP_SEL:
    case OP_GEL: {
        const int sc = op == OP_SEL;
        static const int64_t bad_axis[] = {2, -3, 100, INT64_MAX, INT64_MIN};
        for (size_t i = 0; i < sizeof bad_axis / sizeof bad_axis[0]; i++) {
            char lbl[96];
            c = base(op);
            c.attr = bad_axis[i];
            snprintf(lbl, sizeof lbl, "axis %lld with r = 2", (long long)bad_axis[i]);
            RUN(lbl, &c, E);
        }
        static const int64_t s6[] = {6}, s321[] = {3, 2, 1}, s42[] = {4, 2}, s35[] = {3, 5};
        c = base(op); c.indices.rank = 1; c.indices.shape = s6;
        c.attr = 0; c.indices.data = IDX_ZERO;
        if (sc) { c.updates.rank = 1; c.updates.shape = s6; }
        RUN("indices rank 1, data rank 2", &c, E);
        c = base(op); c.indices.rank = 3; c.indices.shape = s321;
        if (sc) { c.updates.rank = 3; c.updates.shape = s321; }
        RUN("indices rank 3, data rank 2", &c, E);
        c = base(op); c.indices.shape = s42; c.indices.data = IDX_ZERO;
        if (sc) c.updates.shape = s42;
        RUN("indices.shape[0] = 4 > data.shape[0] = 3 (axis 1)", &c, E);
        c = base(op); c.attr = 0; c.indices.shape = s35;
        c.indices.data = IDX_ZERO;
        if (sc) c.updates.shape = s35;
        RUN("indices.shape[1] = 5 > data.shape[1] = 4 (axis 0)", &c, E);
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.indices.rank = 0;
        c.indices.shape = NULL; c.attr = 0; c.data_elems = 1;
        if (sc) { c.updates.rank = 0; c.updates.shape = NULL; }
        RUN("rank 0 (no valid axis)", &c, E);
        if (sc) {
            static const int64_t bad_u[][2] = {{3, 3}, {2, 2}, {2, 3}, {3, 1}};
            for (size_t i = 0; i < 4; i++) {
                char lbl[96];
                c = base(op);
                c.updates.shape = bad_u[i];
                snprintf(lbl, sizeof lbl, "updates [%d, %d] for indices [3, 2]",
                         (int)bad_u[i][0], (int)bad_u[i][1]);
                RUN(lbl, &c, E);
            }
            c = base(op); c.updates.rank = 1; c.updates.shape = (const int64_t[]){6};
            RUN("updates [6] for indices [3, 2]", &c, E);
            c = base(op); c.updates.rank = 3; c.updates.shape = (const int64_t[]){3, 2, 1};
            RUN("updates [3, 2, 1] for indices [3, 2]", &c, E);
        }
        break;
    }
    }
}

/* ---- SGK_ERR_INDEX_OUT_OF_RANGE ---------------------------------------- */

/* The base case with the last index row (or element) replaced. */
static void index_case_at(const char *file, int line, int op, const int64_t *last, int32_t idx_type,
                          int64_t attr, const char *needle1, const char *needle2)
{
    opcase c = base(op);
    int64_t idx64[8];
    int32_t idx32[8];
    size_t n = op == OP_SND || op == OP_GND ? (op == OP_SND ? 8 : 4) : 6;
    size_t row = op == OP_SND || op == OP_GND ? 2 : 1;
    static const int64_t shape_2_1[] = {2, 1};
    static const int64_t el_axis0[] = {0, 2, 1, -1, 2, -3}; /* valid along axis 0 (size 3) */
    memcpy(idx64, c.indices.data, n * sizeof(int64_t));
    if (op == OP_GND && attr == 1) { /* indices [2, 1] for batch_dims 1 */
        c.indices.shape = shape_2_1;
        idx64[0] = 2;
        idx64[1] = -3;
        n = 2;
        row = 1;
    }
    if ((op == OP_SEL || op == OP_GEL) && attr == 0) memcpy(idx64, el_axis0, sizeof el_axis0);
    c.attr = attr;
    memcpy(idx64 + n - row, last, row * sizeof(int64_t));
    for (size_t i = 0; i < n; i++) idx32[i] = (int32_t)idx64[i];
    c.indices.dtype = (sgk_dtype)idx_type;
    c.indices.data = idx_type == SGK_INT32 ? (const void *)idx32 : (const void *)idx64;
    c.needles[0] = needle1;
    c.needles[1] = needle2;
    char lbl[160];
    if (row == 2)
        snprintf(lbl, sizeof lbl, "last index [%lld, %lld] (%s)", (long long)last[0],
                 (long long)last[1], idx_type == SGK_INT32 ? "int32" : "int64");
    else
        snprintf(lbl, sizeof lbl, "last index %lld (%s, attr %lld)", (long long)last[0],
                 idx_type == SGK_INT32 ? "int32" : "int64", (long long)attr);
    run_case_at(file, line, lbl, &c, SGK_ERR_INDEX_OUT_OF_RANGE);
}
#define IDX_CASE(op, last, type, attr, n1, n2) \
    index_case_at(__FILE__, __LINE__, op, (const int64_t[])last, type, attr, n1, n2)
#define L2(a, b) {a, b}
#define L1(a) {a}

/* Many valid indices, the bad one last (a library that writes while it
   validates is caught); big enough to take any parallel path. */
static void many_then_bad_at(const char *file, int line, int op, int32_t idx_type,
                             sgk_reduction red)
{
    opcase c = base(op);
    size_t n_idx, data_n, upd_n;
    int64_t bad;
    int64_t *data_shape = xmalloc(2 * sizeof(int64_t)), *idx_shape = xmalloc(2 * sizeof(int64_t));
    if (op == OP_SND || op == OP_GND) {
        /* data [65536, 4]; indices [262144, 1] */
        data_shape[0] = 65536; data_shape[1] = 4;
        idx_shape[0] = 262144; idx_shape[1] = 1;
        n_idx = 262144;
        data_n = 65536 * 4;
        upd_n = n_idx * 4;
        bad = -65537;
        c.data.rank = 2; c.indices.rank = 2;
        static const int64_t upd_shape[] = {262144, 4};
        c.updates.rank = 2;
        c.updates.shape = upd_shape;
        c.out_elems = op == OP_SND ? data_n : upd_n;
        c.attr = 0;
    } else {
        /* data [512, 512]; indices [512, 512], axis 1 */
        data_shape[0] = data_shape[1] = 512;
        idx_shape[0] = idx_shape[1] = 512;
        n_idx = 512 * 512;
        data_n = upd_n = n_idx;
        bad = -513;
        c.updates.shape = idx_shape;
        c.out_elems = op == OP_SEL ? data_n : n_idx;
        c.attr = 1;
    }
    float *data = xmalloc(data_n * sizeof(float)), *upd = xmalloc(upd_n * sizeof(float));
    int64_t *idx64 = xmalloc(n_idx * sizeof(int64_t));
    int32_t *idx32 = xmalloc(n_idx * sizeof(int32_t));
    const int64_t s = op == OP_SND || op == OP_GND ? 65536 : 512;
    for (size_t i = 0; i < data_n; i++) data[i] = (float)(i % 1000) * 0.5f;
    for (size_t i = 0; i < upd_n; i++) upd[i] = (float)(i % 777) - 300.0f;
    for (size_t i = 0; i < n_idx; i++) {
        int64_t v = (int64_t)((i * 2654435761u) % (uint64_t)s);
        idx64[i] = (i & 1) ? v - s : v; /* half negative, all valid */
    }
    idx64[n_idx - 1] = bad;
    for (size_t i = 0; i < n_idx; i++) idx32[i] = (int32_t)idx64[i];
    c.data.shape = data_shape;
    c.data.data = data;
    c.indices.shape = idx_shape;
    c.indices.dtype = (sgk_dtype)idx_type;
    c.indices.data = idx_type == SGK_INT32 ? (const void *)idx32 : (const void *)idx64;
    c.updates.data = upd;
    c.red = red;
    c.data_elems = data_n;
    char needle[32], lbl[128];
    snprintf(needle, sizeof needle, "%lld", (long long)bad);
    c.needles[0] = needle;
    snprintf(lbl, sizeof lbl, "%zu valid indices then %lld (%s, reduction %d)", n_idx - 1,
             (long long)bad, idx_type == SGK_INT32 ? "int32" : "int64", (int)red);
    run_case_at(file, line, lbl, &c, SGK_ERR_INDEX_OUT_OF_RANGE);
    free(data); free(upd); free(idx64); free(idx32); free(data_shape); free(idx_shape);
}
#define MANY_THEN_BAD(op, type, red) many_then_bad_at(__FILE__, __LINE__, op, type, red)

static void test_index_out_of_range(void **state)
{
    const int op = *(const int *)*state;
    const int32_t I32 = SGK_INT32, I64 = SGK_INT64;
    switch (op) {
    case OP_SND: /* data [4, 8] */
        IDX_CASE(op, L2(5, -9), I64, 0, "5, -9", "[4, 8]");
        IDX_CASE(op, L2(5, -9), I32, 0, "5, -9", "[4, 8]");
        IDX_CASE(op, L2(1, 9), I64, 0, "9", NULL);  /* flat offset 17 would be in range */
        IDX_CASE(op, L2(0, -9), I64, 0, "-9", NULL);
        IDX_CASE(op, L2(0, 8), I32, 0, "8", NULL);
        IDX_CASE(op, L2(4, 0), I64, 0, "4", NULL);
        IDX_CASE(op, L2(-5, 0), I64, 0, "-5", NULL);
        IDX_CASE(op, L2(0, INT64_MIN), I64, 0, "-9223372036854775808", NULL);
        IDX_CASE(op, L2(INT64_MAX, 0), I64, 0, "9223372036854775807", NULL);
        IDX_CASE(op, L2(P(32), 0), I64, 0, "4294967296", NULL); /* 0 if truncated to 32 bits */
        IDX_CASE(op, L2(0, P(32) + 1), I64, 0, "4294967297", NULL);
        IDX_CASE(op, L2(-P(32), 0), I64, 0, "-4294967296", NULL);
        IDX_CASE(op, L2(INT32_MIN, 0), I32, 0, "-2147483648", NULL);
        IDX_CASE(op, L2(0, INT32_MAX), I32, 0, "2147483647", NULL);
        /* k = 1: whole rows of [4, 8] */
        {
            opcase c = base(op);
            c.indices.shape = (const int64_t[]){3, 1};
            c.indices.data = (const int64_t[]){0, -4, 7};
            c.updates.rank = 2;
            c.updates.shape = (const int64_t[]){3, 8};
            c.needles[0] = "7";
            RUN("row index 7 of 4 (k = 1)", &c, SGK_ERR_INDEX_OUT_OF_RANGE);
        }
        break;
    case OP_GND: /* data [2, 3, 4], indices rows [0, 1], [x, y] */
        IDX_CASE(op, L2(1, 1000003), I64, 0, "1000003", NULL);
        IDX_CASE(op, L2(0, -4), I64, 0, "-4", NULL);
        IDX_CASE(op, L2(0, 3), I32, 0, "3", NULL); /* flat offset 3 would be in range */
        IDX_CASE(op, L2(-3, 0), I64, 0, "-3", NULL);
        IDX_CASE(op, L2(INT64_MIN, 0), I64, 0, "-9223372036854775808", NULL);
        IDX_CASE(op, L2(0, INT64_MAX), I64, 0, "9223372036854775807", NULL);
        IDX_CASE(op, L2(P(32) + 1, 0), I64, 0, "4294967297", NULL);
        IDX_CASE(op, L2(INT32_MIN, 0), I32, 0, "-2147483648", NULL);
        IDX_CASE(op, L2(0, INT32_MAX), I32, 0, "2147483647", NULL);
        /* batch_dims 1: indices [2, 1] address dimension 1 (size 3) */
        IDX_CASE(op, L1(-4), I64, 1, "-4", NULL);
        IDX_CASE(op, L1(3), I32, 1, "3", NULL);
        IDX_CASE(op, L1(INT64_MIN), I64, 1, "-9223372036854775808", NULL);
        break;
    default: /* Elements: data [3, 4], axis 1 (size 4) unless stated */
        IDX_CASE(op, L1(17), I64, 1, "17", NULL);
        IDX_CASE(op, L1(4), I32, 1, "4", NULL);
        IDX_CASE(op, L1(-5), I64, 1, "-5", NULL);
        IDX_CASE(op, L1(3), I64, 0, "3", NULL); /* axis 0 has size 3 */
        IDX_CASE(op, L1(-4), I32, 0, "-4", NULL);
        IDX_CASE(op, L1(INT64_MIN), I64, 1, "-9223372036854775808", NULL);
        IDX_CASE(op, L1(INT64_MAX), I64, 1, "9223372036854775807", NULL);
        IDX_CASE(op, L1(P(32) + 2), I64, 1, "4294967298", NULL);
        IDX_CASE(op, L1(INT32_MIN), I32, 1, "-2147483648", NULL);
        IDX_CASE(op, L1(INT32_MAX), I32, 1, "2147483647", NULL);
        /* axis 0, the index the same along each row of 4: whole rows move,
           and the message still names the row's first element */
        {
            opcase c = base(op);
            static const int64_t shape_2_4[] = {2, 4};
            c.indices.shape = shape_2_4;
            c.indices.data = (const int64_t[]){2, 2, 2, 2, -4, -4, -4, -4};
            c.updates.shape = shape_2_4;
            c.attr = 0;
            if (op == OP_GEL)
                c.out_elems = 8;
            c.needles[0] = "[1, 0] = -4";
            RUN("whole row index -4 of 3 (axis 0)", &c, SGK_ERR_INDEX_OUT_OF_RANGE);
        }
        break;
    }
    MANY_THEN_BAD(op, I64, SGK_REDUCE_NONE);
    MANY_THEN_BAD(op, I32, SGK_REDUCE_NONE);
    if (is_scatter(op)) {
        MANY_THEN_BAD(op, I64, SGK_REDUCE_ADD);
        MANY_THEN_BAD(op, I32, SGK_REDUCE_MAX);
    }
}

/* ---- SGK_ERR_OVERFLOW -------------------------------------------------- */

/* A case whose buffers are dummies that must never be dereferenced (except
   the small real indices given). */
static opcase overflow_base(int op)
{
    opcase c = base(op);
    c.data.data = DUMMY_D;
    c.updates.data = DUMMY_U;
    c.data_elems = c.out_elems = sizeof DUMMY_D / 4;
    return c;
}

static void test_overflow(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_OVERFLOW;
    opcase c;
    switch (op) {
    case OP_SND:
        /* index [0, 0] is valid; only the size of data is wrong */
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 2};
        c.updates.shape = (const int64_t[]){1};
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 8};
        RUN("data [2^61, 8]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2}; /* 2^62 elements, 2^64 bytes */
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        c.data.dtype = c.updates.dtype = SGK_COMPLEX128;
        c.data_elems = c.out_elems = sizeof DUMMY_D / 16;
        c.data.shape = (const int64_t[]){P(30), P(30)}; /* 2^60 elements, 2^64 bytes */
        RUN("data [2^30, 2^30] complex128 (byte size)", &c, E);
        c = overflow_base(op);
        c.data.rank = 5;
        c.data.shape = (const int64_t[]){P(13), P(13), P(13), P(13), P(13)};
        c.indices.shape = (const int64_t[]){1, 5};
        c.updates.shape = (const int64_t[]){1};
        RUN("data [2^13] * 5", &c, E);
        /* indices and updates too large; data [4, 8] fine */
        c = overflow_base(op);
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(62), 2};
        c.updates.shape = (const int64_t[]){P(62)};
        RUN("indices [2^62, 2], updates [2^62]", &c, E);
        c.indices.rank = 3;
        c.indices.shape = (const int64_t[]){P(40), P(40), 2};
        c.updates.rank = 2;
        c.updates.shape = (const int64_t[]){P(40), P(40)};
        RUN("indices [2^40, 2^40, 2]", &c, E);
        break;
    case OP_GND:
        c = overflow_base(op);
        c.data.rank = 2;
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 2};
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2};
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        /* inputs fit (2^35 bytes each), the output [2^32, 2^32] does not */
        c = overflow_base(op);
        c.data.rank = 2;
        c.data.shape = (const int64_t[]){2, P(32)};
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(32), 1};
        RUN("output [2^32, 2^32]", &c, E);
        break;
    default:
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 1};
        c.updates.shape = (const int64_t[]){1, 1};
        c.attr = 0;
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2};
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        /* data [1, 2^40] fits; indices (and updates / output) [2^40, 2^40] do not */
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){1, P(40)};
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(40), P(40)};
        c.updates.shape = (const int64_t[]){P(40), P(40)};
        c.attr = 0;
        RUN("indices [2^40, 2^40]", &c, E);
        break;
    }
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

/* ---- sgk_gather_nd_shape ----------------------------------------------- */

static void shape_expect_at(const char *file, int line, const char *label, const sgk_tensor *data,
                            const sgk_tensor *indices, int64_t b, int64_t *shape, int32_t *rank,
                            sgk_status want)
{
    char lbl[160];
    snprintf(lbl, sizeof lbl, "gather_nd_shape: %s", label);
    prime_last_error("gather_nd");
    sgk_status st = sgk_gather_nd_shape(data, indices, b, shape, rank);
    check_error_at(file, line, lbl, st, want, "gather_nd", NULL, 0);
}
#define SHAPE_BAD(label, d, i, b, want) \
    shape_expect_at(__FILE__, __LINE__, label, d, i, b, shape, &rank, want)

static void test_gather_nd_shape(void **state)
{
    (void)state;
    int64_t shape[2 * SGK_MAX_RANK + 4];
    int32_t rank = -7;
    opcase c = base(OP_GND);

    /* valid */
    assert_int_equal(sgk_gather_nd_shape(&c.data, &c.indices, 0, shape, &rank), SGK_OK);
    assert_int_equal(rank, 2);
    assert_int_equal(shape[0], 2);
    assert_int_equal(shape[1], 4);
    rank = -7;
    assert_int_equal(sgk_gather_nd_shape(&c.data, &c.indices, 0, NULL, &rank), SGK_OK);
    assert_int_equal(rank, 2);
    {
        sgk_tensor i = c.indices;
        i.shape = (const int64_t[]){2, 1};
        assert_int_equal(sgk_gather_nd_shape(&c.data, &i, 1, shape, &rank), SGK_OK);
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 2);
        assert_int_equal(shape[1], 4);
        i.rank = 3;
        i.shape = (const int64_t[]){5, 6, 3};
        assert_int_equal(sgk_gather_nd_shape(&c.data, &i, 0, shape, &rank), SGK_OK);
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 5);
        assert_int_equal(shape[1], 6);
    }

    const sgk_status INV = SGK_ERR_INVALID_ARGUMENT, SH = SGK_ERR_SHAPE;
    SHAPE_BAD("NULL data tensor", NULL, &c.indices, 0, INV);
    SHAPE_BAD("NULL indices tensor", &c.data, NULL, 0, INV);
    prime_last_error("gather_nd");
    check_error_at(__FILE__, __LINE__, "gather_nd_shape: NULL rank",
                   sgk_gather_nd_shape(&c.data, &c.indices, 0, shape, NULL), INV, "gather_nd",
                   NULL, 0);
    {
        sgk_tensor d = c.data, i = c.indices;
        d.shape = NULL;
        SHAPE_BAD("NULL data shape", &d, &c.indices, 0, INV);
        i.shape = NULL;
        SHAPE_BAD("NULL indices shape", &c.data, &i, 0, INV);
        d = c.data;
        d.dtype = (sgk_dtype)99;
        SHAPE_BAD("data dtype 99", &d, &c.indices, 0, INV);
        i = c.indices;
        i.dtype = SGK_FLOAT32;
        SHAPE_BAD("float32 indices", &c.data, &i, 0, SGK_ERR_UNSUPPORTED);
        i.dtype = SGK_UINT64;
        SHAPE_BAD("uint64 indices", &c.data, &i, 0, SGK_ERR_UNSUPPORTED);
    }
    SHAPE_BAD("batch_dims -1", &c.data, &c.indices, -1, SH);
    SHAPE_BAD("batch_dims 2 = min(q, r)", &c.data, &c.indices, 2, SH);
    SHAPE_BAD("batch_dims INT64_MAX", &c.data, &c.indices, INT64_MAX, SH);
    {
        sgk_tensor d = c.data, i = c.indices;
        i.shape = (const int64_t[]){2, 0};
        SHAPE_BAD("k = 0", &c.data, &i, 0, SH);
        i.shape = (const int64_t[]){2, 4};
        SHAPE_BAD("k = 4 > r", &c.data, &i, 0, SH);
        i.shape = (const int64_t[]){2, 3};
        SHAPE_BAD("k = 3 > r - b = 2", &c.data, &i, 1, SH);
        i.shape = (const int64_t[]){3, 1};
        SHAPE_BAD("batch [3] vs [2]", &c.data, &i, 1, SH);
        i = c.indices;
        i.rank = SGK_MAX_RANK + 1;
        i.shape = ONES;
        SHAPE_BAD("indices rank 65", &c.data, &i, 0, SH);
        i.rank = -1;
        SHAPE_BAD("indices rank -1", &c.data, &i, 0, SH);
        d.rank = SGK_MAX_RANK + 1;
        d.shape = ONES;
        SHAPE_BAD("data rank 65", &d, &c.indices, 0, SH);
        d.rank = -1;
        SHAPE_BAD("data rank -1", &d, &c.indices, 0, SH);
        d = c.data;
        d.shape = (const int64_t[]){2, -3, 4};
        SHAPE_BAD("negative data dimension", &d, &c.indices, 0, SH);
        i = c.indices;
        i.shape = (const int64_t[]){-2, 2};
        SHAPE_BAD("negative indices dimension", &c.data, &i, 0, SH);
        d = c.data;
        d.rank = 2;
        d.data = DUMMY_D;
        d.shape = (const int64_t[]){P(40), P(40)};
        SHAPE_BAD("data [2^40, 2^40]", &d, &c.indices, 0, SGK_ERR_OVERFLOW);
    }
}

/* ---- names, runtime ------------------------------------------------------ */

static void test_status_names(void **state)
{
    (void)state;
    const char *names[7];
    for (int s = 0; s <= 6; s++) {
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
        for (int s = 0; s <= 6; s++)
            if (strcmp(n, names[s]) == 0)
                failf(__FILE__, __LINE__, "status %d is named like status %d: \"%s\"", bad[i], s,
                      n);
    }
}

static void test_dtype_sizes(void **state)
{
    (void)state;
    static const size_t want[16] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 8, 16,
                                    sizeof(const char *)};
    for (int t = 0; t < 16; t++) {
        if (sgk_dtype_size((sgk_dtype)t) != want[t])
            failf(__FILE__, __LINE__, "sgk_dtype_size(%d) = %zu, want %zu", t,
                  sgk_dtype_size((sgk_dtype)t), want[t]);
    }
    assert_int_equal(sgk_dtype_size((sgk_dtype)16), 0);
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

/* ---------------------------------------------------------------------------- */

#define PER_OP(name, fn)                                                        \
    {"scatter_nd/" name, fn, NULL, NULL, (void *)&op_ids[OP_SND]},              \
    {"gather_nd/" name, fn, NULL, NULL, (void *)&op_ids[OP_GND]},               \
    {"scatter_elements/" name, fn, NULL, NULL, (void *)&op_ids[OP_SEL]},        \
    {"gather_elements/" name, fn, NULL, NULL, (void *)&op_ids[OP_GEL]}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("invalid_argument", test_invalid_argument),
        PER_OP("invalid_overlap", test_invalid_overlap_oneshot),
        PER_OP("unsupported", test_unsupported),
        PER_OP("shape", test_shape),
        PER_OP("index_out_of_range", test_index_out_of_range),
        PER_OP("overflow", test_overflow),
        PER_OP("execute_errors", test_execute_errors),
        cmocka_unit_test(test_gather_nd_shape),
        cmocka_unit_test(test_indices_overlapping_output),
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_dtype_sizes),
        cmocka_unit_test(test_reduction_names),
        cmocka_unit_test(test_runtime),
        cmocka_unit_test(test_last_error_thread_local),
    };
    return cmocka_run_group_tests_name("sgk errors", tests, group_setup, NULL);
}
