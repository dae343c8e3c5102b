/*
 * libFuzzer target: ScatterElements and GatherElements (one-shot and plan +
 * execute), every dtype and reduction, checked against the serial reference.
 * See fuzz_common.h for the contract checked.
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

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    fz_in in;
    fz_init(&in, bytes, size);
    fz_case c;
    memset(&c, 0, sizeof c);
    uint8_t ob = fz_byte(&in);
    c.op = ob & 1 ? FZ_GATHER_ELEMENTS : FZ_SCATTER_ELEMENTS;
    const int scatter = c.op == FZ_SCATTER_ELEMENTS;
    c.dtype = fz_dtype(&in);
    uint8_t tb = fz_byte(&in);
    c.udtype = scatter && tb >= 248 && fz_dtype_valid(c.dtype)
                   ? (sgk_dtype)((c.dtype + 1 + tb % 7) % 16) : c.dtype;
    c.idtype = fz_index_dtype(&in);
    c.red = scatter ? fz_reduction(&in) : SGK_REDUCE_NONE;
    int high;
    c.r = fz_rank(&in, &high);
    fz_dims(&in, c.r, high, c.ddims);
    uint8_t qb = fz_byte(&in);
    int qhigh = high;
    c.q = qb < 224 ? c.r : fz_rank(&in, &qhigh);

    const int rank_ok = c.r >= 1 && c.r <= SGK_MAX_RANK;
    uint8_t ab = fz_byte(&in);
    if (ab < 216) {
        c.param = rank_ok ? (int64_t)(ab % (2 * c.r)) - c.r : 0;
    } else {
        const int64_t odd[8] = {c.r, -(int64_t)c.r - 1, INT64_MIN, INT64_MAX,
                                INT64_C(1) << 40, -(INT64_C(1) << 40), INT32_MIN,
                                INT64_C(1) << 32};
        c.param = odd[ab % 8];
    }
    const int axis_ok = rank_ok && c.param >= -c.r && c.param < c.r;
    c.axis = axis_ok ? (int)(c.param < 0 ? c.param + c.r : c.param) : 0;

    /* Indices dims: within data's off the axis (mostly), anything on it. */
    for (int d = 0; d < FZ_DIMS; d++) {
        if (d >= c.q) {
            c.idims[d] = 0;
            continue;
        }
        uint8_t db = fz_byte(&in);
        int64_t dd = d < c.r ? c.ddims[d] : -1;
        if ((axis_ok && d == c.axis) || dd < 0 || db >= 232 || qhigh)
            c.idims[d] = qhigh && db < 236 ? 1 : db < 232 ? fz_small_dims[db % 8]
                                                            : fz_odd_dims[db % 16];
        else if (db < 224)
            c.idims[d] = (int64_t)((uint64_t)db % ((uint64_t)dd + 1));
        else if (__builtin_add_overflow(dd, 1, &c.idims[d]))
            c.idims[d] = dd;
    }
    if (scatter)
        fz_updates_shape(&in, c.idims, c.q >= 0 && c.q <= FZ_DIMS ? c.q : 0, &c.ur, c.udims);

    fz_expect *e = &c.e;
    c.dn = fz_tensor_elems(e, c.dtype, c.r, c.ddims);
    c.n_idx = fz_tensor_elems(e, c.idtype, c.q, c.idims);
    c.un = scatter ? fz_tensor_elems(e, c.udtype, c.ur, c.udims) : 0;
    if (scatter) {
        c.on = c.dn;
        if (fz_dtype_valid(c.dtype) && fz_dtype_valid(c.udtype) && c.dtype != c.udtype)
            fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
        if (!fz_reduction_valid(c.red))
            fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
        else if (fz_dtype_valid(c.dtype) && !ref_reduction_supported(c.dtype, c.red))
            fz_allow(e, SGK_ERR_UNSUPPORTED);
    }
    if (fz_dtype_valid(c.idtype) && c.idtype != SGK_INT32 && c.idtype != SGK_INT64)
        fz_allow(e, SGK_ERR_UNSUPPORTED);
    const int q_ok = c.q >= 0 && c.q <= SGK_MAX_RANK;
    if (c.r == 0 || (rank_ok && q_ok && c.q != c.r)) {
        fz_allow(e, SGK_ERR_SHAPE);
    } else if (rank_ok && !axis_ok) {
        fz_allow(e, SGK_ERR_SHAPE); /* axis outside [-r, r-1] */
        fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
    } else if (rank_ok && q_ok) {
        for (int d = 0; d < c.r; d++)
            if (d != c.axis && c.idims[d] > c.ddims[d])
                fz_allow(e, SGK_ERR_SHAPE);
        if (scatter && (c.ur != c.q || !fz_same_dims(c.udims, c.idims, c.q)))
            fz_allow(e, SGK_ERR_SHAPE);
    }
    if (!scatter) {
        c.on = -1;
        if (c.n_idx >= 0 && fz_dtype_valid(c.dtype))
            c.on = fz_output_elems(e, tc_dtype_size(c.dtype), c.q, c.idims);
    }
    fz_run(&in, &c);
    return 0;
}
