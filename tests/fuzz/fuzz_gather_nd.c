/*
 * libFuzzer target: GatherND with batch_dims (sgk_gather_nd,
 * sgk_gather_nd_shape, sgk_plan_gather_nd + sgk_execute), checked against the
 * serial reference.  See fuzz_common.h for the contract checked.
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

/* sgk_gather_nd_shape needs no buffers: give it pointers it must not read. */
static const int64_t no_buffer[1];

static void check_shape_call(const fz_case *c, const fz_expect *shape_errors,
                             int out_overflow_only, int32_t orank, const int64_t *odims,
                             int with_shape)
{
    sgk_tensor dt = {c->dtype, c->r, c->ddims, no_buffer};
    sgk_tensor it = {c->idtype, c->q, c->idims, no_buffer};
    int64_t shape[2 * FZ_DIMS + 2];
    int32_t rank = -12345;
    for (int d = 0; d < 2 * FZ_DIMS + 2; d++)
        shape[d] = -777;
    sgk_status s = sgk_gather_nd_shape(&dt, &it, c->param, with_shape ? shape : NULL, &rank);
    if (s != SGK_OK) {
        /* Type errors may or may not be checked here; shape errors must. */
        fz_check_failure(&c->e, s, "gather_nd_shape");
        return;
    }
    if (!fz_must_succeed(shape_errors) && !out_overflow_only)
        FZ_BREACH("gather_nd_shape succeeded on a shape error (allowed 0x%x)",
                  shape_errors->allowed);
    if (rank != orank)
        FZ_BREACH("gather_nd_shape: rank %d, expected %d", rank, orank);
    if (with_shape && !fz_same_dims(shape, odims, orank))
        FZ_BREACH("gather_nd_shape: wrong dimensions");
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    fz_in in;
    fz_init(&in, bytes, size);
    fz_case c;
    memset(&c, 0, sizeof c);
    c.op = FZ_GATHER_ND;
    c.dtype = fz_dtype(&in);
    c.udtype = c.dtype;
    c.idtype = fz_index_dtype(&in);
    c.red = SGK_REDUCE_NONE;
    int high;
    c.r = fz_rank(&in, &high);
    fz_dims(&in, c.r, high, c.ddims);
    c.q = fz_rank(&in, &high);
    fz_dims(&in, c.q, high, c.idims);

    const int ranks_ok = c.r >= 1 && c.r <= SGK_MAX_RANK && c.q >= 1 && c.q <= SGK_MAX_RANK;
    const int32_t minqr = c.q < c.r ? c.q : c.r;
    uint8_t bb = fz_byte(&in);
    if (bb < 216) {
        c.param = ranks_ok ? bb % minqr : 0;
    } else {
        const int64_t odd[8] = {-1, c.q, c.r, INT64_MIN, INT64_MAX, INT64_C(1) << 40, minqr,
                                (int64_t)INT32_MIN - 1};
        c.param = odd[bb % 8];
    }
    const int b_ok = ranks_ok && c.param >= 0 && c.param < minqr;
    if (b_ok) {
        int b = (int)c.param;
        uint8_t kb = fz_byte(&in), pb = fz_byte(&in);
        if (kb < 224)
            c.idims[c.q - 1] = 1 + kb % (c.r - b);
        if (pb < 240) /* equal batch dimensions, mostly */
            for (int d = 0; d < b && d < c.q - 1; d++)
                c.idims[d] = c.ddims[d];
    }

    fz_expect *e = &c.e, shape_errors = {0};
    c.dn = fz_tensor_elems(e, c.dtype, c.r, c.ddims);
    c.n_idx = fz_tensor_elems(e, c.idtype, c.q, c.idims);
    c.un = 0;
    c.on = -1;
    /* The same rules with valid types: what sgk_gather_nd_shape must catch. */
    fz_tensor_elems(&shape_errors, fz_dtype_valid(c.dtype) ? c.dtype : SGK_UINT8, c.r, c.ddims);
    fz_tensor_elems(&shape_errors, fz_dtype_valid(c.idtype) ? c.idtype : SGK_UINT8, c.q, c.idims);
    if (fz_dtype_valid(c.idtype) && c.idtype != SGK_INT32 && c.idtype != SGK_INT64)
        fz_allow(e, SGK_ERR_UNSUPPORTED);

    int64_t odims[2 * FZ_DIMS];
    int32_t orank = 0;
    int out_overflow_only = 0;
    fz_expect rule = {0};
    if (c.r == 0 || c.q == 0) {
        fz_allow(&rule, SGK_ERR_SHAPE);
    } else if (ranks_ok && !b_ok) {
        fz_allow(&rule, SGK_ERR_SHAPE); /* batch_dims outside [0, min(q, r)) */
        fz_allow(&rule, SGK_ERR_INVALID_ARGUMENT);
    } else if (ranks_ok) {
        const int b = (int)c.param;
        const int64_t k = c.idims[c.q - 1];
        if (k < 1 || k > c.r - b) {
            fz_allow(&rule, SGK_ERR_SHAPE);
        } else {
            if (!fz_same_dims(c.idims, c.ddims, b))
                fz_allow(&rule, SGK_ERR_SHAPE);
            for (int d = 0; d < c.q - 1; d++)
                odims[orank++] = c.idims[d];
            for (int d = b + (int)k; d < c.r; d++)
                odims[orank++] = c.ddims[d];
            c.k = (int)k;
            c.b = b;
            if (fz_must_succeed(&shape_errors) && fz_must_succeed(&rule)) {
                fz_expect out = {0};
                c.on = fz_output_elems(&out, fz_dtype_valid(c.dtype) ? tc_dtype_size(c.dtype) : 1,
                                       orank, odims);
                out_overflow_only = !fz_must_succeed(&out);
                e->allowed |= out.allowed;
            }
        }
    }
    e->allowed |= rule.allowed;
    shape_errors.allowed |= rule.allowed;

    fz_trace(&c);
    check_shape_call(&c, &shape_errors, out_overflow_only, orank, odims, (bb & 1) == 0);
    if (!fz_dtype_valid(c.dtype))
        c.on = -1;
    fz_run(&in, &c);
    return 0;
}
