/*
 * The part of the fuzz harness every operator shares (included by
 * fuzz_common.h): given a decoded call and the statuses its shapes and types
 * allow, allocate, fill, call (one-shot or plan + execute, in place or not,
 * with deliberately bad buffers sometimes), and check the result or the
 * failure contract.
 */
#ifndef SGK_FUZZ_RUN_H
#define SGK_FUZZ_RUN_H

#include "fuzz_case.h"

static sgk_status fz_call_once(const fz_case *c, const sgk_tensor *d, const sgk_tensor *i,
                               const sgk_tensor *u, void *out)
{
    switch (c->op) {
    case FZ_SCATTER_ND: return sgk_scatter_nd(d, i, u, c->red, out);
    case FZ_GATHER_ND: return sgk_gather_nd(d, i, c->param, out);
    case FZ_SCATTER_ELEMENTS: return sgk_scatter_elements(d, i, u, c->param, c->red, out);
    default: return sgk_gather_elements(d, i, c->param, out);
    }
}

static sgk_status fz_call_plan(const fz_case *c, sgk_plan **plan, const sgk_tensor *d,
                               const sgk_tensor *i, const sgk_tensor *u, uint32_t flags)
{
    switch (c->op) {
    case FZ_SCATTER_ND: return sgk_plan_scatter_nd(plan, d, i, u, c->red, flags);
    case FZ_GATHER_ND: return sgk_plan_gather_nd(plan, d, i, c->param, flags);
    case FZ_SCATTER_ELEMENTS:
        return sgk_plan_scatter_elements(plan, d, i, u, c->param, c->red, flags);
    default: return sgk_plan_gather_elements(plan, d, i, c->param, flags);
    }
}

/* The expected output of a successful call on (data, updates). */
static void fz_expected(const fz_case *c, const sgk_tensor *dt, const sgk_tensor *it,
                        const sgk_tensor *ut, uint32_t flags, void *want, uint8_t *touched,
                        int *loose)
{
    *loose = 0;
    switch (c->op) {
    case FZ_GATHER_ND: ref_gather_nd(dt, it, c->param, want); return;
    case FZ_GATHER_ELEMENTS: ref_gather_elements(dt, it, c->param, want); return;
    default: break;
    }
    int64_t *target = malloc((size_t)(c->un > 0 ? c->un : 1) * sizeof *target);
    if (target == NULL)
        abort();
    fz_targets(c, it->data, target);
    memset(touched, 0, (size_t)(c->dn > 0 ? c->dn : 1));
    for (int64_t u = 0; u < c->un; u++)
        touched[target[u]] = 1;
    int arith = fz_is_float_arith(c->dtype, c->red);
    if (arith && (flags & SGK_PLAN_ALLOW_REORDER))
        *loose = 1; /* rounding may differ: only untouched elements are fixed */
    if (arith && !*loose && (flags & SGK_PLAN_WIDE_ACCUMULATE) &&
        (c->dtype == SGK_FLOAT16 || c->dtype == SGK_BFLOAT16))
        fz_wide_reference(c->dtype, c->red, dt->data, ut->data, target, c->un, c->dn, want);
    else if (c->op == FZ_SCATTER_ND)
        ref_scatter_nd(dt, it, ut, c->red, want);
    else
        ref_scatter_elements(dt, it, ut, c->param, c->red, want);
    free(target);
}

/* Bad buffers handed to a call whose shapes are fine. */
enum { FZ_ABUSE_NONE, FZ_ABUSE_NULL_DATA, FZ_ABUSE_NULL_UPDATES, FZ_ABUSE_NULL_OUTPUT,
       FZ_ABUSE_OUT_IS_UPDATES, FZ_ABUSE_OUT_OVERLAPS_DATA, FZ_ABUSE_OUT_IS_DATA };

static int fz_pick_abuse(const fz_case *c, uint8_t b, size_t es)
{
    if (b < 224)
        return FZ_ABUSE_NONE;
    int kind = 1 + b % 6;
    int scatter = fz_is_scatter(c);
    switch (kind) {
    case FZ_ABUSE_NULL_DATA: return c->dn > 0 ? kind : FZ_ABUSE_NONE;
    case FZ_ABUSE_NULL_UPDATES: return scatter && c->un > 0 ? kind : FZ_ABUSE_NONE;
    case FZ_ABUSE_NULL_OUTPUT: return c->on > 0 ? kind : FZ_ABUSE_NONE;
    case FZ_ABUSE_OUT_IS_UPDATES: return scatter && c->un > 0 && c->on > 0 ? kind : FZ_ABUSE_NONE;
    case FZ_ABUSE_OUT_OVERLAPS_DATA:
        return (size_t)c->dn * es > es && c->on > 0 ? kind : FZ_ABUSE_NONE;
    default: return !scatter && c->dn > 0 && c->on > 0 ? kind : FZ_ABUSE_NONE;
    }
}

typedef struct {
    fz_buf data, idx, upd, out;
    void *data0, *upd0, *out0; /* copies taken before the call */
} fz_bufs;

static void fz_snapshot(fz_bufs *B)
{
    free(B->data0);
    free(B->upd0);
    free(B->out0);
    B->data0 = fz_dup(B->data.p, B->data.bytes);
    B->upd0 = fz_dup(B->upd.p, B->upd.bytes);
    B->out0 = fz_dup(B->out.p, B->out.bytes);
}

static void fz_check_all_untouched(const fz_bufs *B)
{
    fz_check_untouched(B->data.p, B->data0, B->data.bytes, "data");
    fz_check_untouched(B->upd.p, B->upd0, B->upd.bytes, "updates");
    fz_check_untouched(B->out.p, B->out0, B->out.bytes, "output");
}

static void fz_free_bufs(fz_bufs *B)
{
    free(B->data.p);
    free(B->idx.p);
    free(B->upd.p);
    free(B->out.p);
    free(B->data0);
    free(B->upd0);
    free(B->out0);
}

/* Checks a successful run: output against the reference, inputs intact. */
static void fz_check_result(const fz_case *c, const fz_bufs *B, int in_place, uint32_t flags,
                            const char *what)
{
    size_t es = tc_dtype_size(c->dtype);
    if (!in_place)
        fz_check_untouched(B->data.p, B->data0, B->data.bytes, "data (read-only)");
    fz_check_untouched(B->upd.p, B->upd0, B->upd.bytes, "updates (read-only)");
    if (c->on == 0) /* nothing to compare; the reference could loop over empty batches */
        return;
    sgk_tensor dt = {c->dtype, c->r, c->ddims, B->data0};
    sgk_tensor it = {c->idtype, c->q, c->idims, B->idx.p};
    sgk_tensor ut = {c->udtype, c->ur, c->udims, B->upd0};
    void *want = malloc((size_t)(c->on > 0 ? c->on : 1) * es);
    uint8_t *touched = malloc((size_t)(c->dn > 0 ? c->dn : 1));
    if (want == NULL || touched == NULL)
        abort();
    int loose;
    fz_expected(c, &dt, &it, &ut, flags, want, touched, &loose);
    const void *got = in_place ? B->data.p : B->out.p;
    fz_compare(c->dtype, c->red, want, got, c->on, touched, loose, what);
    free(want);
    free(touched);
}

/* Runs one decoded call; c->e holds the statuses its shapes and types allow
   and the counts are set wherever computable. */
static void fz_run(fz_in *in, fz_case *c)
{
    const uint8_t mode = fz_byte(in), abuse_byte = fz_byte(in), range_byte = fz_byte(in);
    const uint32_t flags = fz_flags(in);
    const int use_plan = mode & 1, want_in_place = (mode >> 1) & 1;
    const int null_at_plan = (mode >> 2) & 1, null_if_empty = (mode >> 5) & 1;
    const int twice = (mode >> 6) & 1, in_range = range_byte < 208;
    fz_threads((uint8_t)(mode >> 3));
    fz_trace(c);

    if (getenv("SGK_FUZZ_TRACE") != NULL)
        fprintf(stderr, "  mode 0x%02x abuse 0x%02x range 0x%02x flags 0x%x\n", mode,
                abuse_byte, range_byte, flags);
    const size_t es = fz_dtype_valid(c->dtype) ? tc_dtype_size(c->dtype) : 0;
    const size_t ies = fz_dtype_valid(c->idtype) ? tc_dtype_size(c->idtype) : 0;
    const int scatter = fz_is_scatter(c);
    const int shapes_ok = fz_must_succeed(&c->e);
    const int64_t out_cap = scatter ? FZ_MAX_DATA_ELEMS : FZ_MAX_ELEMS;
    const int small = shapes_ok && c->dn <= FZ_MAX_DATA_ELEMS && c->n_idx <= FZ_MAX_ELEMS &&
                      c->un <= FZ_MAX_ELEMS && c->on <= out_cap;
    /* A scatter plan's cost grows with the declared data size (its block
       table), so plan-only runs stop at 64 GiB of declared data: beyond that
       a plan takes seconds and the fuzzer crawls. */
    if (shapes_ok && !small &&
        (c->n_idx > FZ_MAX_ELEMS || (uint64_t)c->dn * es > (UINT64_C(1) << 36))) {
        fz_count_outcome(c->op, FZ_N_TOO_LARGE);
        return; /* valid, and too large even to plan */
    }

    fz_bufs B = {0};
    fz_alloc(&B.data, c->dn, es, FZ_MAX_DATA_ELEMS);
    fz_alloc(&B.idx, c->n_idx, ies, FZ_MAX_ELEMS);
    fz_alloc(&B.upd, scatter ? c->un : 0, es, FZ_MAX_ELEMS);
    fz_alloc(&B.out, scatter ? c->dn : c->on, es, out_cap);
    if (B.data.real)
        fz_fill(in, c->dtype, B.data.p, c->dn);
    if (B.upd.real && scatter)
        fz_fill(in, c->dtype, B.upd.p, c->un);

    /* Index values; with valid shapes, their range decides the outcome. */
    fz_expect e = c->e;
    if (B.idx.real && ies > 0 && (c->idtype == SGK_INT32 || c->idtype == SGK_INT64)) {
        int oor = 0;
        for (int64_t i = 0; i < c->n_idx; i++) {
            int64_t dim = shapes_ok ? fz_index_dim(c, i) : 4;
            int64_t v = fz_store_index(c->idtype, B.idx.p, i, fz_index(in, dim, in_range));
            oor |= v < -dim || v >= dim;
        }
        if (shapes_ok && oor)
            fz_allow(&e, SGK_ERR_INDEX_OUT_OF_RANGE);
    }

    sgk_tensor dt = {c->dtype, c->r, c->ddims, B.data.p};
    sgk_tensor it = {c->idtype, c->q, c->idims, B.idx.p};
    sgk_tensor ut = {c->udtype, c->ur, c->udims, B.upd.p};
    const char *op = fz_op_name(c);

    if (shapes_ok && !small) {
        /* Valid but too large to execute: plan only, without buffers. */
        fz_expect pe = e;
        if (!fz_flags_valid(flags))
            fz_allow(&pe, SGK_ERR_INVALID_ARGUMENT);
        dt.data = NULL;
        ut.data = NULL;
        sgk_plan *plan = NULL;
        fz_count_outcome(c->op, FZ_N_PLAN_ONLY);
        if (fz_check_status(&pe, fz_call_plan(c, &plan, &dt, &it, &ut, flags), op)) {
            const char *desc = sgk_plan_describe(plan);
            if (desc == NULL || desc[0] == '\0')
                FZ_BREACH("%s: empty plan description", op);
            sgk_plan_destroy(plan);
        }
        fz_free_bufs(&B);
        return;
    }

    /* Where the output goes, and buffers the contract forbids. */
    int abuse = small ? fz_pick_abuse(c, abuse_byte, es) : FZ_ABUSE_NONE;
    const int in_place = scatter && want_in_place && abuse == FZ_ABUSE_NONE;
    void *data_p = B.data.p, *upd_p = B.upd.p, *out_p = in_place ? B.data.p : B.out.p;
    if (small && null_if_empty) {
        if (c->dn == 0)
            data_p = NULL;
        if (c->un == 0)
            upd_p = NULL;
        if (c->on == 0)
            out_p = NULL;
    }
    fz_expect xe = {0}; /* what execution adds */
    switch (abuse) {
    case FZ_ABUSE_NULL_DATA: data_p = NULL; break;
    case FZ_ABUSE_NULL_UPDATES: upd_p = NULL; break;
    case FZ_ABUSE_NULL_OUTPUT: out_p = NULL; break;
    case FZ_ABUSE_OUT_IS_UPDATES: out_p = B.upd.p; break;
    case FZ_ABUSE_OUT_OVERLAPS_DATA: out_p = (char *)B.data.p + es; break;
    case FZ_ABUSE_OUT_IS_DATA: out_p = B.data.p; break;
    default: break;
    }
    if (abuse != FZ_ABUSE_NONE)
        fz_allow(&xe, SGK_ERR_INVALID_ARGUMENT);
    dt.data = data_p;
    ut.data = upd_p;
    fz_snapshot(&B);

    if (!use_plan) {
        fz_expect all = e;
        all.allowed |= xe.allowed;
        if (fz_check_status(&all, fz_call_once(c, &dt, &it, scatter ? &ut : NULL, out_p), op)) {
            fz_check_result(c, &B, in_place, 0, op);
            fz_count_outcome(c->op, FZ_N_COMPARED);
        } else {
            fz_check_all_untouched(&B);
            fz_count_outcome(c->op, FZ_N_FAILED_AS_EXPECTED);
        }
        fz_free_bufs(&B);
        return;
    }

    /* Plan: the indices are a private copy, freed right after planning. */
    fz_expect pe = e;
    if (!fz_flags_valid(flags))
        fz_allow(&pe, SGK_ERR_INVALID_ARGUMENT);
    sgk_tensor pdt = dt, pit = it, put = ut;
    pit.data = fz_dup(B.idx.p, B.idx.bytes);
    if (null_at_plan) {
        pdt.data = NULL;
        put.data = NULL;
    }
    sgk_plan *plan = NULL;
    sgk_status s = fz_call_plan(c, &plan, &pdt, &pit, scatter ? &put : NULL, flags);
    free((void *)pit.data);
    if (!fz_check_status(&pe, s, "plan")) {
        fz_check_all_untouched(&B);
        fz_count_outcome(c->op, FZ_N_FAILED_AS_EXPECTED);
        fz_free_bufs(&B);
        return;
    }
    const char *desc = sgk_plan_describe(plan);
    if (desc == NULL || desc[0] == '\0')
        FZ_BREACH("%s: empty plan description", op);
    for (int round = 0; round < 1 + twice; round++) {
        if (round > 0) { /* new values, same plan */
            if (B.data.real)
                fz_fill(in, c->dtype, B.data.p, c->dn);
            if (B.upd.real && scatter)
                fz_fill(in, c->dtype, B.upd.p, c->un);
            fz_snapshot(&B);
        }
        s = sgk_execute(plan, data_p, scatter ? upd_p : NULL, out_p);
        if (fz_check_status(&xe, s, "execute")) {
            fz_check_result(c, &B, in_place, flags, "execute");
            fz_count_outcome(c->op, FZ_N_COMPARED);
        } else {
            fz_check_all_untouched(&B);
            fz_count_outcome(c->op, FZ_N_FAILED_AS_EXPECTED);
        }
    }
    sgk_plan_destroy(plan);
    fz_free_bufs(&B);
}

#endif /* SGK_FUZZ_RUN_H */
