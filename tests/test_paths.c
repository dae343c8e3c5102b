/*
 * Scatter reductions on every execution path (docs/semantics.md, and the
 * paths of docs/architecture.md).
 *
 * For every dtype x reduction cell the semantics define, and for ScatterND
 * with slice length 1, ScatterND with slice length 37 and ScatterElements,
 * cases of each duplicate structure (heavy skew, all to one destination, no
 * duplicates, random duplicates, empty, a single update, random duplicates
 * with NaN/infinity) are run through: the one-shot call, the one-shot call in
 * place, a plan executed twice and once in place, and plans made with
 * SGK_PLAN_DETERMINISTIC and with SGK_PLAN_ALLOW_REORDER.  Results are
 * compared with tests/support/reference.c bit for bit, or, where the caller allowed
 * reordering, within the bounds of tests/support/tolerance.c.  Each such bound is
 * checked to have teeth: a result missing one update, or applying it twice,
 * must fail it.
 *
 * The process's environment decides which expectations apply, so the test is
 * run once per configuration (tests/test_reduce_paths.sh):
 *   SGK_REDUCE_PATH=sorted|atomic|serial: every scatter takes that path
 *     (sgk_plan_path, sgk_last_path: sorted-segment, atomic, serial) where
 *     it can serve, and a plan that cannot says it "fell back";
 *   SGK_DETERMINISTIC=0: float add/sub/mul (and max/min's zero signs and NaN
 *     payloads) may differ from the sequential loop by rounding, except in
 *     plans made with SGK_PLAN_DETERMINISTIC; no plan that must be exact may
 *     take the atomic path for them.
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
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "registry/registry.h"
#include "sgk.h"
#include "support/tolerance.h"

#define GUARD 32
#define GUARD_BYTE 0xA5
#define MAX_REPORTS 30

/* ---- the environment under test ------------------------------------------ */

static const char *env_path = "auto";   /* SGK_REDUCE_PATH as the library reads it */
static const char *env_path_name;       /* the path it forces, as sgk_plan_path names it */

static void read_environment(void)
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

/* A random sign, for values symmetric around zero. */
static double rng_sign(tc_rng *r) { return tc_rng_percent(r, 50) ? -1.0 : 1.0; }

/* ---- the cases -------------------------------------------------------------- */

typedef enum { OP_ND_SLICE1, OP_ND_SLICE37, OP_ELEMENTS, OP_COUNT } op_kind;
static const char *const op_names[] = {"scatter_nd(slice 1)", "scatter_nd(slice 37)",
                                       "scatter_elements"};

typedef enum {
    ST_HEAVY, ST_ALL_ONE, ST_UNIQUE, ST_RANDOM, ST_EMPTY, ST_SINGLE, ST_SPECIALS, ST_COUNT
} structure;
static const char *const structure_names[] = {
    "heavy-skew", "all-to-one", "no-duplicates", "random-duplicates", "empty", "single",
    "random-duplicates+nan/inf"};

/* ScatterND slice 1: data [8, 24] indexed by [N, 2].  ScatterND slice 37:
   data [48, 37] indexed by [N, 1].  ScatterElements: data [3, 64], axis -1,
   indices [3, M] (each row's updates land in that row). */
static const int64_t nd1_dims[2] = {8, 24}, nd37_dims[2] = {48, 37}, el_dims[2] = {3, 64};

/* Updates per case (per row for ScatterElements). */
static int64_t updates_for(op_kind op, structure st)
{
    int64_t slots = op == OP_ND_SLICE1 ? 192 : op == OP_ND_SLICE37 ? 48 : 64;
    switch (st) {
    case ST_HEAVY: case ST_ALL_ONE: return op == OP_ELEMENTS ? 86 : 256;
    case ST_UNIQUE: return slots * 3 / 4;
    case ST_RANDOM: case ST_SPECIALS: return 2 * slots;
    case ST_EMPTY: return 0;
    default: return 1;
    }
}

typedef struct {
    op_kind op;
    sgk_dtype dtype, idtype;
    sgk_reduction red;
    structure st;
    int32_t drank, irank, urank;
    int64_t dshape[2], ishape[2], ushape[2];
    int64_t axis;
    int64_t dn, un, in, slice;
    void *indices, *data, *updates, *want;
    tol_stats *stats;
    uint64_t seed;
} pcase;

static int failures, reported;
static long executions, teeth_checked, teeth_skipped, orders_checked;

static void put_index(pcase *c, int64_t i, int64_t v)
{
    if (c->idtype == SGK_INT32) {
        int32_t t = (int32_t)v;
        memcpy((char *)c->indices + i * 4, &t, 4);
    } else {
        memcpy((char *)c->indices + i * 8, &v, 8);
    }
}

/* A coordinate in [0, dim), written as its negative alias 30% of the time. */
static int64_t aliased(tc_rng *r, int64_t coord, int64_t dim)
{
    return tc_rng_percent(r, 30) ? coord - dim : coord;
}

/* The destination of each update, by structure: a slot in [0, slots). */
static void choose_slots(tc_rng *r, structure st, int64_t n, int64_t slots, int64_t *out)
{
    int64_t hot = tc_rng_below(r, slots);
    if (st == ST_UNIQUE) {
        int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)slots);
        for (int64_t i = 0; i < slots; i++)
            perm[i] = i;
        for (int64_t i = slots - 1; i > 0; i--) {
            int64_t j = tc_rng_below(r, i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        memcpy(out, perm, sizeof(int64_t) * (size_t)n);
        free(perm);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        if (st == ST_ALL_ONE || (st == ST_HEAVY && tc_rng_percent(r, 90)))
            out[i] = hot;
        else
            out[i] = tc_rng_below(r, slots);
    }
}

static void build_indices(pcase *c, tc_rng *r)
{
    int64_t n = updates_for(c->op, c->st);
    size_t is = c->idtype == SGK_INT32 ? 4 : 8;
    if (c->op == OP_ELEMENTS) {
        int64_t rows = c->st == ST_SINGLE ? 1 : el_dims[0];
        c->drank = c->irank = c->urank = 2;
        memcpy(c->dshape, el_dims, sizeof el_dims);
        c->ishape[0] = c->ushape[0] = rows;
        c->ishape[1] = c->ushape[1] = n;
        c->axis = -1;
        c->in = rows * n;
        c->indices = xmalloc((size_t)c->in * is);
        int64_t *cols = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        for (int64_t row = 0; row < rows; row++) {
            choose_slots(r, c->st, n, el_dims[1], cols);
            for (int64_t m = 0; m < n; m++)
                put_index(c, row * n + m, aliased(r, cols[m], el_dims[1]));
        }
        free(cols);
        c->slice = 1;
    } else {
        const int64_t *dims = c->op == OP_ND_SLICE1 ? nd1_dims : nd37_dims;
        int64_t k = c->op == OP_ND_SLICE1 ? 2 : 1;
        int64_t slots = c->op == OP_ND_SLICE1 ? dims[0] * dims[1] : dims[0];
        c->drank = 2;
        memcpy(c->dshape, dims, sizeof c->dshape);
        c->irank = 2;
        c->ishape[0] = n;
        c->ishape[1] = k;
        c->urank = c->op == OP_ND_SLICE1 ? 1 : 2;
        c->ushape[0] = n;
        c->ushape[1] = dims[1];
        c->in = n * k;
        c->indices = xmalloc((size_t)(c->in ? c->in : 1) * is);
        int64_t *slot = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        choose_slots(r, c->st, n, slots, slot);
        for (int64_t u = 0; u < n; u++) {
            if (k == 2) {
                put_index(c, 2 * u, aliased(r, slot[u] / dims[1], dims[0]));
                put_index(c, 2 * u + 1, aliased(r, slot[u] % dims[1], dims[1]));
            } else {
                put_index(c, u, aliased(r, slot[u], dims[0]));
            }
        }
        free(slot);
        c->slice = c->op == OP_ND_SLICE1 ? 1 : dims[1];
    }
    c->dn = tc_numel(c->drank, c->dshape);
    c->un = tc_numel(c->urank, c->ushape);
}

/* ---- values ------------------------------------------------------------------ */

/* Values are chosen per reduction so that each check has teeth:
   - add/sub on fp16/bf16: small integers, so that every order of the sums is
     exact (tolerance.c's exactness clause) and a missing update shows;
   - add/sub otherwise: full-mantissa values over 2^-8..2^8, small integers
     and signed zeros (rounding shows in the low bits);
   - mul: factors near 1 (1 +- [2^-10, 2^-5], full mantissa) so that no
     order over- or underflows; on fp16/bf16 +-1 with rare +-2 and +-0.5, exact
     in every order;
   - max/min: few distinct values, +0 and -0, infinities: ties everywhere;
   - none: any bit pattern.
   NaN and infinities only in the "+nan/inf" structure, where they would
   otherwise make whole destinations NaN. */
static double real_value(tc_rng *r, sgk_dtype dtype, sgk_reduction red, int specials, int is_data)
{
    int half = dtype == SGK_FLOAT16 || dtype == SGK_BFLOAT16;
    if (specials && tc_rng_percent(r, 8)) {
        int k = (int)tc_rng_below(r, 3);
        return k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
    }
    switch (red) {
    case SGK_REDUCE_ADD: case SGK_REDUCE_SUB:
        if (half) {
            int64_t span = is_data ? 4 : dtype == SGK_FLOAT16 ? 2 : 1;
            return (double)(tc_rng_below(r, 2 * span + 1) - span);
        }
        if (tc_rng_percent(r, 10))
            return rng_sign(r) * 0.0;
        if (tc_rng_percent(r, 30))
            return (double)(tc_rng_below(r, 9) - 4);
        return rng_sign(r) * ldexp(1 + tc_rng_unit(r), (int)tc_rng_below(r, 17) - 8);
    case SGK_REDUCE_MUL:
        if (half) {
            if (is_data) {
                static const double d[] = {1, 1.5, 0.75, 2, 0};
                return rng_sign(r) * d[tc_rng_below(r, tc_rng_percent(r, 5) ? 5 : 4)];
            }
            int k = (int)tc_rng_below(r, 100);
            return rng_sign(r) * (k == 0 ? 2.0 : k == 1 ? 0.5 : 1.0);
        }
        if (is_data)
            return rng_sign(r) * ldexp(1 + tc_rng_unit(r), (int)tc_rng_below(r, 9) - 4);
        return rng_sign(r) * (1 + rng_sign(r) * (0x1p-10 + tc_rng_unit(r) * (0x1p-5 - 0x1p-10)));
    default: {
        static const double ties[] = {-2, -1, -0.0, 0.0, 0.5, 1, 2, INFINITY, -INFINITY};
        return ties[tc_rng_below(r, 9)];
    }
    }
}

static void random_value(tc_rng *r, const pcase *c, int is_data, void *p)
{
    size_t es = tc_dtype_size(c->dtype);
    int specials = c->st == ST_SPECIALS;
    switch (c->dtype) {
    case SGK_BOOL: {
        static const uint8_t odd[] = {2, 0x80, 0xFF};
        uint8_t v = tc_rng_percent(r, 90) ? (uint8_t)tc_rng_below(r, 2) : odd[tc_rng_below(r, 3)];
        memcpy(p, &v, 1);
        return;
    }
    case SGK_STRING: {
        static const char *const pool[] = {"alpha", "beta", "", "gamma"};
        const char *s = tc_rng_percent(r, 5) ? NULL : pool[tc_rng_below(r, 4)];
        memcpy(p, &s, sizeof s);
        return;
    }
    case SGK_FLOAT16: case SGK_BFLOAT16: case SGK_FLOAT32: case SGK_FLOAT64:
        break;
    case SGK_COMPLEX64: case SGK_COMPLEX128:
        break;
    default: { /* integers: small values, the width's edges, anything */
        uint64_t v;
        int k = (int)tc_rng_below(r, 10);
        unsigned bits = (unsigned)(8 * es);
        if (k < 5)
            v = (uint64_t)(tc_rng_below(r, 9) - 4);
        else if (k < 7)
            v = tc_rng_percent(r, 50) ? (uint64_t)1 << (bits - 1) : ((uint64_t)1 << (bits - 1)) - 1;
        else
            v = tc_rng_next(r);
        memcpy(p, &v, es);
        return;
    }
    }
    if (c->red == SGK_REDUCE_NONE) { /* any bits: payload NaNs, subnormals */
        uint64_t v[2] = {tc_rng_next(r), tc_rng_next(r)};
        memcpy(p, v, es);
        return;
    }
    if (c->dtype == SGK_COMPLEX64 || c->dtype == SGK_COMPLEX128) {
        double z[2];
        if (c->red == SGK_REDUCE_MUL) { /* near 1: |z - 1| in [2^-10, 2^-5] */
            double a = 0x1p-10 + tc_rng_unit(r) * (0x1p-5 - 0x1p-10);
            double t = 6.283185307179586 * tc_rng_unit(r);
            z[0] = 1 + a * cos(t);
            z[1] = a * sin(t);
            if (is_data) {
                z[0] *= 3 * rng_sign(r);
                z[1] *= 3;
            }
        } else {
            z[0] = real_value(r, c->dtype, c->red, specials, is_data);
            z[1] = real_value(r, c->dtype, c->red, specials, is_data);
        }
        if (c->dtype == SGK_COMPLEX64) {
            float f[2] = {(float)z[0], (float)z[1]};
            memcpy(p, f, 8);
        } else {
            memcpy(p, z, 16);
        }
        return;
    }
    double x = real_value(r, c->dtype, c->red, specials, is_data);
    if (c->dtype == SGK_FLOAT16 || c->dtype == SGK_BFLOAT16) {
        uint16_t h = c->dtype == SGK_FLOAT16 ? ref_f32_to_f16((float)x) : ref_f32_to_bf16((float)x);
        memcpy(p, &h, 2);
    } else if (c->dtype == SGK_FLOAT32) {
        float f = (float)x;
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &x, 8);
    }
}

static void *random_buffer(tc_rng *r, const pcase *c, int64_t n, int is_data)
{
    size_t es = tc_dtype_size(c->dtype);
    char *b = xmalloc((size_t)n * es);
    for (int64_t i = 0; i < n; i++)
        random_value(r, c, is_data, b + (size_t)i * es);
    return b;
}

/* ---- running the library and the reference --------------------------------- */

static void tensors(const pcase *c, sgk_dtype dtype, const void *data, const void *updates,
                    const void *indices, sgk_tensor *d, sgk_tensor *i, sgk_tensor *u)
{
    *d = (sgk_tensor){dtype, c->drank, c->dshape, data};
    *i = (sgk_tensor){c->idtype, c->irank, c->ishape, indices};
    *u = (sgk_tensor){dtype, c->urank, c->ushape, updates};
}

/* tol_scatter_fn: the reference on this case's indices and shapes. */
static void reference_scatter(const void *ctx, sgk_dtype dtype, sgk_reduction red,
                              const void *data, const void *updates, void *out)
{
    const pcase *c = ctx;
    sgk_tensor d, i, u;
    tensors(c, dtype, data, updates, c->indices, &d, &i, &u);
    if (c->op == OP_ELEMENTS)
        ref_scatter_elements(&d, &i, &u, c->axis, red, out);
    else
        ref_scatter_nd(&d, &i, &u, red, out);
}

static sgk_status one_shot(const pcase *c, const void *data, void *out)
{
    sgk_tensor d, i, u;
    tensors(c, c->dtype, data, c->updates, c->indices, &d, &i, &u);
    executions++;
    if (c->op == OP_ELEMENTS)
        return sgk_scatter_elements(&d, &i, &u, c->axis, c->red, out);
    return sgk_scatter_nd(&d, &i, &u, c->red, out);
}

/* Plans from a private copy of the indices, destroyed before execution;
   data/updates NULL at plan time when `null_buffers`. */
static sgk_status make_plan(const pcase *c, uint32_t flags, int null_buffers, sgk_plan **plan)
{
    size_t ibytes = (size_t)c->in * (c->idtype == SGK_INT32 ? 4 : 8);
    char *icopy = xmalloc(ibytes);
    memcpy(icopy, c->indices, ibytes);
    sgk_tensor d, i, u;
    tensors(c, c->dtype, null_buffers ? NULL : c->data, null_buffers ? NULL : c->updates, icopy,
            &d, &i, &u);
    sgk_status st = c->op == OP_ELEMENTS
                        ? sgk_plan_scatter_elements(plan, &d, &i, &u, c->axis, c->red, flags)
                        : sgk_plan_scatter_nd(plan, &d, &i, &u, c->red, flags);
    memset(icopy, 0x7F, ibytes);
    free(icopy);
    return st;
}

static char *alloc_out(const pcase *c)
{
    size_t bytes = (size_t)c->dn * tc_dtype_size(c->dtype);
    char *out = xmalloc(bytes + GUARD);
    memset(out, GUARD_BYTE, bytes + GUARD);
    return out;
}

static char *copy_of_data(const pcase *c)
{
    char *out = alloc_out(c);
    memcpy(out, c->data, (size_t)c->dn * tc_dtype_size(c->dtype));
    return out;
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

static void fail_case(const pcase *c, const char *route, const char *desc, const char *fmt, ...)
{
    failures++;
    if (reported++ >= MAX_REPORTS)
        return;
    va_list ap;
    printf("FAIL op=%s dtype=%s reduction=%s structure=%s index=%s route=%s seed=0x%" PRIx64
           " [env SGK_REDUCE_PATH=%s SGK_DETERMINISTIC=%d]: ",
           op_names[c->op], tc_dtype_name(c->dtype), tc_reduction_name(c->red),
           structure_names[c->st], tc_dtype_name(c->idtype), route, c->seed, env_path,
           tol_env_allows_reorder() ? 0 : 1);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (desc)
        printf("    plan: %s\n", desc);
}

/* Compares an output (with its guard zone) with the reference. */
static void check_output(const pcase *c, const char *route, const char *desc, int reordered,
                         const char *got)
{
    size_t es = tc_dtype_size(c->dtype);
    tol_result res;
    if (!tol_compare(c->dtype, c->red, c->stats, reordered, 1, c->dn, c->want, got, &res)) {
        char detail[160] = "";
        if (res.bound >= 0)
            snprintf(detail, sizeof detail, ", bound %.6g over %" PRId64 " terms", res.bound,
                     res.terms);
        fail_case(c, route, desc,
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
    if (tc_first_byte_not(got + (size_t)c->dn * es, GUARD_BYTE, GUARD) < GUARD)
        fail_case(c, route, desc, "wrote past the end of the output");
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
static const char *path_problem(const pcase *c, uint32_t flags, const char *path,
                                const sgk_plan *plan)
{
    static const char *const plan_paths[] = {"owner-blocks", "sorted-segment", "atomic",
                                             "serial", NULL};
    static const char *const one_shot_paths[] = {
        "tiny", "direct", "lines", "sorted-runs", "binned", "serial", "owner-ranges",
        "atomic", "sorted-segment", "owner-blocks", NULL};
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

static void run_one_shots(const pcase *c)
{
    int reordered = tol_reorder_allowed(0);
    char *out = alloc_out(c);
    sgk_status st = one_shot(c, c->data, out);
    const char *problem = path_problem(c, 0, sgk_last_path(), NULL);
    if (st != SGK_OK)
        fail_case(c, "one-shot", NULL, "status %s: %s", sgk_status_name(st), sgk_last_error());
    else if (problem != NULL)
        fail_case(c, "one-shot", NULL, "path %s %s", sgk_last_path(), problem);
    else
        check_output(c, "one-shot", NULL, reordered, out);
    free(out);

    char *inplace = copy_of_data(c);
    st = one_shot(c, inplace, inplace);
    if (st != SGK_OK)
        fail_case(c, "one-shot in place", NULL, "status %s: %s", sgk_status_name(st),
                  sgk_last_error());
    else
        check_output(c, "one-shot in place", NULL, reordered, inplace);
    free(inplace);
}

/* A plan with the given flags: executed `runs` times (identical bytes
   required where the plan must be exact), then once in place. */
static void run_plan(const pcase *c, uint32_t flags, int runs, int null_buffers)
{
    char route[96];
    int reordered = tol_reorder_allowed(flags);
    sgk_plan *plan = NULL;
    sgk_status st = make_plan(c, flags, null_buffers, &plan);
    snprintf(route, sizeof route, "plan flags=%s", flags_name(flags));
    if (st != SGK_OK || plan == NULL) {
        fail_case(c, route, NULL, "plan status %s: %s", sgk_status_name(st), sgk_last_error());
        return;
    }
    const char *desc = sgk_plan_describe(plan);
    const char *problem = path_problem(c, flags, sgk_plan_path(plan), plan);
    if (problem)
        fail_case(c, route, desc, "path %s %s", sgk_plan_path(plan), problem);

    size_t bytes = (size_t)c->dn * tc_dtype_size(c->dtype);
    char *first = alloc_out(c), *out = alloc_out(c);
    for (int run = 1; run <= runs; run++) {
        snprintf(route, sizeof route, "plan flags=%s run %d", flags_name(flags), run);
        char *dst = run == 1 ? first : out;
        memset(dst, GUARD_BYTE, bytes + GUARD);
        executions++;
        st = sgk_execute(plan, c->data, c->updates, dst);
        if (st != SGK_OK) {
            fail_case(c, route, desc, "status %s: %s", sgk_status_name(st), sgk_last_error());
            continue;
        }
        check_output(c, route, desc, reordered, dst);
        if (run > 1 && !(reordered && tol_reorder_relaxes(c->dtype, c->red)) &&
            memcmp(first, dst, bytes) != 0)
            fail_case(c, route, desc, "bytes differ from run 1 of the same plan");
    }
    snprintf(route, sizeof route, "plan flags=%s in place", flags_name(flags));
    char *inplace = copy_of_data(c);
    executions++;
    st = sgk_execute(plan, inplace, c->updates, inplace);
    if (st != SGK_OK)
        fail_case(c, route, desc, "status %s: %s", sgk_status_name(st), sgk_last_error());
    else
        check_output(c, route, desc, reordered, inplace);
    free(inplace);
    free(first);
    free(out);
    sgk_plan_destroy(plan);
}

/* ---- teeth of the reordered comparison ------------------------------------------ */

/* How far one update element is from doing nothing. */
static double effect_of(const pcase *c, const void *p)
{
    double a = tol_component(c->dtype, p, 0);
    double b = c->dtype == SGK_COMPLEX64 || c->dtype == SGK_COMPLEX128
                   ? tol_component(c->dtype, p, 1)
                   : 0;
    if (c->red != SGK_REDUCE_MUL)
        return fabs(a) + fabs(b);
    if (c->dtype == SGK_COMPLEX64 || c->dtype == SGK_COMPLEX128)
        return hypot(a - 1, b);
    return a == 0 ? 0 : fabs(log2(fabs(a))) + (a < 0); /* -1 flips the sign */
}

/* The result of the sequential loop with update slice j replaced: by the
   reduction's identity ("missing"), or by itself combined with itself
   ("applied twice"). */
static char *perturbed_result(const pcase *c, int64_t j, int twice)
{
    size_t es = tc_dtype_size(c->dtype);
    char *upd = xmalloc((size_t)c->un * es);
    memcpy(upd, c->updates, (size_t)c->un * es);
    for (int64_t e = 0; e < c->slice; e++) {
        char *p = upd + (size_t)(j * c->slice + e) * es;
        if (twice) {
            char copy[16];
            memcpy(copy, p, es);
            ref_apply(c->dtype, c->red == SGK_REDUCE_MUL ? SGK_REDUCE_MUL : SGK_REDUCE_ADD, p,
                      copy);
        } else if (c->red == SGK_REDUCE_MUL) {
            static const uint16_t one16 = 0x3C00, one_bf16 = 0x3F80;
            static const float one32[2] = {1, 0};
            static const double one64[2] = {1, 0};
            memcpy(p, c->dtype == SGK_FLOAT16    ? (const void *)&one16
                      : c->dtype == SGK_BFLOAT16 ? (const void *)&one_bf16
                      : c->dtype == SGK_FLOAT32 || c->dtype == SGK_COMPLEX64
                          ? (const void *)one32
                          : (const void *)one64,
                   es);
        } else {
            memset(p, 0, es);
        }
    }
    char *out = alloc_out(c);
    reference_scatter(c, c->dtype, c->red, c->data, upd, out);
    free(upd);
    return out;
}

/* The sequential loop over the same updates in another order: reversed, or
   shuffled (ScatterND: whole index tuples with their slices; ScatterElements:
   positions within each row, which keeps every update's destination). */
static char *result_in_order(const pcase *c, int shuffled)
{
    size_t es = tc_dtype_size(c->dtype), is = c->idtype == SGK_INT32 ? 4 : 8;
    int64_t groups = c->op == OP_ELEMENTS ? c->ishape[0] : 1;
    int64_t n = c->op == OP_ELEMENTS ? c->ishape[1] : c->ishape[0];
    int64_t ilen = c->op == OP_ELEMENTS ? 1 : c->ishape[1], ulen = c->slice;
    pcase p = *c;
    p.indices = xmalloc((size_t)(c->in ? c->in : 1) * is);
    p.updates = xmalloc((size_t)(c->un ? c->un : 1) * es);
    int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    tc_rng r = {c->seed ^ 0x5AFF1Eull};
    for (int64_t g = 0; g < groups; g++) {
        for (int64_t i = 0; i < n; i++)
            perm[i] = shuffled ? i : n - 1 - i;
        for (int64_t i = n - 1; shuffled && i > 0; i--) {
            int64_t j = tc_rng_below(&r, i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t from = g * n + perm[i], to = g * n + i;
            memcpy((char *)p.indices + (size_t)(to * ilen) * is,
                   (const char *)c->indices + (size_t)(from * ilen) * is, (size_t)ilen * is);
            memcpy((char *)p.updates + (size_t)(to * ulen) * es,
                   (const char *)c->updates + (size_t)(from * ulen) * es, (size_t)ulen * es);
        }
    }
    char *out = alloc_out(c);
    reference_scatter(&p, c->dtype, c->red, c->data, p.updates, out);
    free(perm);
    free(p.indices);
    free(p.updates);
    return out;
}

/* The comparison that reordered runs are judged by must accept the same
   updates applied in other orders (bit for bit where the cell is
   order-free; `none` is not, the last update wins), and must reject a result that misses the most effective
   update or applies it twice. */
static void check_teeth(const pcase *c)
{
    /* none is order-dependent by definition (the last update wins) */
    for (int shuffled = 0; c->red != SGK_REDUCE_NONE && shuffled <= 1; shuffled++) {
        char *other = result_in_order(c, shuffled);
        tol_result res;
        if (!tol_compare(c->dtype, c->red, c->stats, 1, 1, c->dn, c->want, other, &res))
            fail_case(c, "self-test", NULL,
                      "the reordered comparison rejects the same updates in %s order: "
                      "element %" PRId64 " got %.17g want %.17g bound %.6g: %s",
                      shuffled ? "shuffled" : "reversed", res.element, res.got, res.want,
                      res.bound, res.why);
        orders_checked++;
        free(other);
    }
    if (!tol_order_sensitive(c->dtype, c->red) || c->st == ST_SPECIALS || c->un == 0)
        return;
    size_t es = tc_dtype_size(c->dtype);
    int64_t best = -1;
    double best_effect = 0;
    for (int64_t i = 0; i < c->un; i++) {
        double ef = effect_of(c, (const char *)c->updates + (size_t)i * es);
        if (ef > best_effect) {
            best_effect = ef;
            best = i / c->slice;
        }
    }
    if (best < 0) {
        teeth_skipped++; /* every update is the identity: nothing to miss */
        return;
    }
    for (int twice = 0; twice <= 1; twice++) {
        char *wrong = perturbed_result(c, best, twice);
        tol_result res;
        teeth_checked++;
        if (tol_compare(c->dtype, c->red, c->stats, 1, 1, c->dn, c->want, wrong, &res))
            fail_case(c, "self-test", NULL,
                      "the reordered comparison accepts a result with update %" PRId64 " %s",
                      best, twice ? "applied twice" : "missing");
        free(wrong);
    }
}

/* ---- one case, all routes --------------------------------------------------------- */

static void run_case(op_kind op, sgk_dtype dtype, sgk_reduction red, structure st)
{
    pcase c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.dtype = dtype;
    c.red = red;
    c.st = st;
    c.seed = 0x9A7E5000ull ^ ((uint64_t)op << 24) ^ ((uint64_t)dtype << 16) ^
             ((uint64_t)red << 8) ^ (uint64_t)st;
    tc_rng r = {c.seed};
    c.idtype = tc_rng_percent(&r, 50) ? SGK_INT32 : SGK_INT64;
    build_indices(&c, &r);
    c.data = random_buffer(&r, &c, c.dn, 1);
    c.updates = random_buffer(&r, &c, c.un, 0);
    c.want = alloc_out(&c);
    reference_scatter(&c, dtype, red, c.data, c.updates, c.want);
    c.stats = tol_prepare(dtype, red, c.dn, c.un, c.data, c.updates, reference_scatter, &c);

    check_teeth(&c);
    run_one_shots(&c);
    int null_buffers = (int)(c.seed & 1);
    run_plan(&c, 0, 2, null_buffers);
    run_plan(&c, SGK_PLAN_DETERMINISTIC, 2, !null_buffers);
    run_plan(&c, SGK_PLAN_ALLOW_REORDER, 1, null_buffers);

    tol_free(c.stats);
    free(c.indices);
    free(c.data);
    free(c.updates);
    free(c.want);
}

static void test_op(void **state)
{
    op_kind op = *(const op_kind *)*state;
    int before = failures;
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++)
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++)
            if (ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                for (int st = 0; st < ST_COUNT; st++)
                    run_case(op, (sgk_dtype)dt, (sgk_reduction)red, (structure)st);
    assert_int_equal(failures - before, 0);
}

/* The reordered comparison must have been exercised with teeth at all. */
static void test_teeth_were_checked(void **state)
{
    (void)state;
    printf("test_paths: %ld executions; reordered comparison accepted %ld other orders, "
           "rejected %ld perturbed results (%ld cases had no update to perturb)\n",
           executions, orders_checked, teeth_checked, teeth_skipped);
    assert_true(teeth_checked > 0);
    assert_true(orders_checked > 0);
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

static void build_digest_case(const digest_case *dc, pcase *c)
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
        put_index(c, i, (int64_t)(x * x * x * x * (double)range));
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
    int before = failures;
    for (size_t k = 0; k < sizeof digest_cases / sizeof *digest_cases; k++) {
        pcase c;
        build_digest_case(&digest_cases[k], &c);
        size_t bytes = (size_t)c.dn * 4;
        char *want = alloc_out(&c), *out = alloc_out(&c);
        reference_scatter(&c, c.dtype, c.red, c.data, c.updates, want);
        uint64_t expected = fnv1a(want, bytes);
        for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
            char route[64];
            snprintf(route, sizeof route, "digest %s threads %d", digest_cases[k].name,
                     thread_counts[t]);
            sgk_set_num_threads(thread_counts[t]);
            sgk_plan *plan = NULL;
            sgk_status st = make_plan(&c, SGK_PLAN_DETERMINISTIC, 1, &plan);
            if (st == SGK_OK)
                st = sgk_execute(plan, c.data, c.updates, out);
            if (st != SGK_OK) {
                fail_case(&c, route, NULL, "status %s: %s", sgk_status_name(st), sgk_last_error());
            } else {
                uint64_t got = fnv1a(out, bytes);
                printf("test_paths digest %s threads=%d %016" PRIx64 "\n", digest_cases[k].name,
                       thread_counts[t], got);
                if (got != expected)
                    fail_case(&c, route, sgk_plan_describe(plan),
                              "digest %016" PRIx64 " differs from the sequential loop's %016" PRIx64,
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
    assert_int_equal(failures - before, 0);
}

/* ---- SGK_PLAN_WIDE_ACCUMULATE ------------------------------------------------ */

/* fp16/bf16 add/sub/mul with the flag: each destination widened once,
   every update applied in float32 in original order, rounded once.  The
   expectation is computed here from that definition with the reference's
   conversions, so any path (forced through the environment) is checked. */
static void test_wide_accumulate(void **state)
{
    (void)state;
    static const sgk_dtype types[] = {SGK_FLOAT16, SGK_BFLOAT16};
    static const sgk_reduction reds[] = {SGK_REDUCE_ADD, SGK_REDUCE_SUB, SGK_REDUCE_MUL};
    static const int64_t slice_lens[] = {1, 9};
    enum { ROWS = 512, UPDATES = 3000 };
    int bad = 0;
    for (size_t t = 0; t < 2; t++)
        for (size_t r = 0; r < 3; r++)
            for (size_t l = 0; l < 2; l++) {
                const int64_t L = slice_lens[l];
                const bool f16 = types[t] == SGK_FLOAT16;
                tc_rng rng = {0x5eedULL + t * 100 + r * 10 + l};
                uint16_t *data = malloc(ROWS * L * 2), *upd = malloc(UPDATES * L * 2);
                uint16_t *out = malloc(ROWS * L * 2), *want = malloc(ROWS * L * 2);
                float *acc = malloc(ROWS * L * sizeof *acc);
                int64_t *idx = malloc(UPDATES * sizeof *idx);
                bool *touched = calloc(ROWS, 1);
                for (int64_t i = 0; i < ROWS * L; i++) {
                    float v = (float)(rng_sign(&rng) * (1.0 + tc_rng_unit(&rng)));
                    data[i] = f16 ? ref_f32_to_f16(v) : ref_f32_to_bf16(v);
                }
                for (int64_t i = 0; i < UPDATES * L; i++) {
                    /* mul near 1 keeps long products finite */
                    float v = reds[r] == SGK_REDUCE_MUL
                                  ? (float)(1.0 + rng_sign(&rng) * tc_rng_unit(&rng) / 64)
                                  : (float)(rng_sign(&rng) * tc_rng_unit(&rng));
                    upd[i] = f16 ? ref_f32_to_f16(v) : ref_f32_to_bf16(v);
                }
                for (int64_t n = 0; n < UPDATES; n++) /* a few hot rows, many duplicates */
                    idx[n] = tc_rng_percent(&rng, 50) ? tc_rng_below(&rng, 4)
                                                      : tc_rng_below(&rng, ROWS);
                for (int64_t i = 0; i < ROWS * L; i++)
                    acc[i] = f16 ? ref_f16_to_f32(data[i]) : ref_bf16_to_f32(data[i]);
                for (int64_t n = 0; n < UPDATES; n++) {
                    touched[idx[n]] = true;
                    for (int64_t e = 0; e < L; e++) {
                        float *a = &acc[idx[n] * L + e];
                        float u = f16 ? ref_f16_to_f32(upd[n * L + e])
                                      : ref_bf16_to_f32(upd[n * L + e]);
                        *a = reds[r] == SGK_REDUCE_ADD ? *a + u
                             : reds[r] == SGK_REDUCE_SUB ? *a - u : *a * u;
                    }
                }
                for (int64_t i = 0; i < ROWS * L; i++)
                    want[i] = !touched[i / L] ? data[i]
                              : f16       ? ref_f32_to_f16(acc[i])
                                          : ref_f32_to_bf16(acc[i]);
                int64_t dshape[2] = {ROWS, L}, ishape[2] = {UPDATES, 1}, ushape[2] = {UPDATES, L};
                sgk_tensor dt = {types[t], L > 1 ? 2 : 1, dshape, data};
                sgk_tensor it = {SGK_INT64, 2, ishape, idx};
                sgk_tensor ut = {types[t], L > 1 ? 2 : 1, ushape, upd};
                sgk_plan *plan = NULL;
                sgk_status st = sgk_plan_scatter_nd(&plan, &dt, &it, &ut, reds[r],
                                                    SGK_PLAN_WIDE_ACCUMULATE);
                if (st == SGK_OK)
                    st = sgk_execute(plan, data, upd, out);
                if (st != SGK_OK) {
                    printf("wide accumulate %s %s L=%lld: status %s: %s\n",
                           tc_dtype_name(types[t]), tc_reduction_name(reds[r]), (long long)L,
                           sgk_status_name(st), sgk_last_error());
                    bad++;
                } else if (memcmp(out, want, ROWS * L * 2) != 0) {
                    int64_t i = 0;
                    while (out[i] == want[i])
                        i++;
                    printf("wide accumulate %s %s L=%lld: element %lld got %04x want %04x "
                           "[%s]\n",
                           tc_dtype_name(types[t]), tc_reduction_name(reds[r]), (long long)L,
                           (long long)i, out[i], want[i], sgk_plan_describe(plan));
                    bad++;
                }
                sgk_plan_destroy(plan);
                free(data), free(upd), free(out), free(want), free(acc), free(idx), free(touched);
            }
    assert_int_equal(bad, 0);
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
        cmocka_unit_test(test_wide_accumulate),
    };
    read_environment();
    int rc = cmocka_run_group_tests_name("test_paths", tests, NULL, NULL);
    printf("test_paths: %d failures\n", failures);
    return rc;
}
