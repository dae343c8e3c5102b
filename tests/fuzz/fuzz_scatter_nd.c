/*
 * libFuzzer target: ScatterND / ScatterNDUpdate (sgk_scatter_nd and
 * sgk_plan_scatter_nd + sgk_execute), every dtype and reduction, checked
 * against the serial reference.  See fuzz_common.h for the contract checked.
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
    c.op = FZ_SCATTER_ND;
    c.dtype = fz_dtype(&in);
    uint8_t tb = fz_byte(&in);
    c.udtype = tb >= 248 && fz_dtype_valid(c.dtype)
                   ? (sgk_dtype)((c.dtype + 1 + tb % 7) % 16) : c.dtype;
    c.idtype = fz_index_dtype(&in);
    c.red = fz_reduction(&in);
    int high;
    c.r = fz_rank(&in, &high);
    fz_dims(&in, c.r, high, c.ddims);
    c.q = fz_rank(&in, &high);
    fz_dims(&in, c.q, high, c.idims);
    uint8_t kb = fz_byte(&in);
    if (kb < 224 && c.q >= 1 && c.q <= FZ_DIMS && c.r >= 1 && c.r <= SGK_MAX_RANK)
        c.idims[c.q - 1] = 1 + kb % c.r;

    /* updates.shape == indices.shape[:-1] ++ data.shape[k:] */
    const int ranks_ok = c.r >= 1 && c.r <= SGK_MAX_RANK && c.q >= 1 && c.q <= SGK_MAX_RANK;
    const int64_t k = ranks_ok ? c.idims[c.q - 1] : 0;
    const int rules = ranks_ok && k >= 1 && k <= c.r;
    int64_t want[2 * FZ_DIMS];
    int32_t want_rank = 0;
    if (rules) {
        for (int d = 0; d < c.q - 1; d++)
            want[want_rank++] = c.idims[d];
        for (int d = (int)k; d < c.r; d++)
            want[want_rank++] = c.ddims[d];
    }
    fz_updates_shape(&in, want, want_rank, &c.ur, c.udims);

    fz_expect *e = &c.e;
    c.dn = fz_tensor_elems(e, c.dtype, c.r, c.ddims);
    c.n_idx = fz_tensor_elems(e, c.idtype, c.q, c.idims);
    c.un = fz_tensor_elems(e, c.udtype, c.ur, c.udims);
    c.on = c.dn;
    if (fz_dtype_valid(c.dtype) && fz_dtype_valid(c.udtype) && c.dtype != c.udtype)
        fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
    if (!fz_reduction_valid(c.red))
        fz_allow(e, SGK_ERR_INVALID_ARGUMENT);
    else if (fz_dtype_valid(c.dtype) && !ref_reduction_supported(c.dtype, c.red))
        fz_allow(e, SGK_ERR_UNSUPPORTED);
    if (fz_dtype_valid(c.idtype) && c.idtype != SGK_INT32 && c.idtype != SGK_INT64)
        fz_allow(e, SGK_ERR_UNSUPPORTED);
    if (c.r == 0 || c.q == 0 || (ranks_ok && !rules)) {
        fz_allow(e, SGK_ERR_SHAPE);
    } else if (rules) {
        int match = c.ur == want_rank && fz_same_dims(c.udims, want, want_rank);
        int scalar_as_one = want_rank == 0 && c.ur == 1 && c.udims[0] == 1;
        if (!match && !scalar_as_one)
            fz_allow(e, SGK_ERR_SHAPE);
    }
    c.k = (int)k;
    c.b = 0;
    fz_run(&in, &c);
    return 0;
}
