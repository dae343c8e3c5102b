/*
 * Decoding the fuzzer's bytes into a call's parts (included by
 * fuzz_common.h): dtypes, plan flags, ranks and dimensions, the updates
 * shape, indices in and out of range, and element values.
 */
#ifndef SGK_FUZZ_DECODE_H
#define SGK_FUZZ_DECODE_H

/* ---- input decoding ----------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
    tc_rng rng; /* bulk values (data, updates) come from here */
} fz_in;

static uint8_t fz_byte(fz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static uint64_t fz_rand(fz_in *in)
{
    return tc_rng_next(&in->rng);
}

static void fz_init(fz_in *in, const uint8_t *data, size_t size)
{
    in->p = data;
    in->n = size;
    in->rng.state = 0;
    for (int i = 0; i < 4; i++)
        in->rng.state = in->rng.state << 8 | fz_byte(in);
}

/* The registry's types, or one past them, or codes far outside. */
static sgk_dtype fz_dtype(fz_in *in)
{
    const int count = sgk_dtype_count();
    const int bad[] = {count, count + 1, -1, 1000, INT32_MIN, 255};
    uint8_t b = fz_byte(in);
    return b < 250 ? (sgk_dtype)(b % count) : (sgk_dtype)bad[b - 250];
}

static int fz_dtype_valid(sgk_dtype t) { return (int)t >= 0 && (int)t < sgk_dtype_count(); }

static sgk_dtype fz_index_dtype(fz_in *in)
{
    static const int other[] = {SGK_INT16, SGK_UINT64, SGK_FLOAT32, SGK_UINT32, SGK_BOOL,
                                99, -3, SGK_INT8};
    uint8_t b = fz_byte(in);
    if (b < 240)
        return b & 1 ? SGK_INT64 : SGK_INT32;
    return (sgk_dtype)other[b % 8];
}

FZ_MAYBE_UNUSED static sgk_reduction fz_reduction(fz_in *in)
{
    const int count = sgk_reduction_count();
    const int bad[] = {count, -1, 100, INT32_MAX};
    uint8_t b = fz_byte(in);
    return b < 252 ? (sgk_reduction)(b % count) : (sgk_reduction)bad[b - 252];
}

FZ_MAYBE_UNUSED static int fz_reduction_valid(sgk_reduction r)
{
    return (int)r >= 0 && (int)r < sgk_reduction_count();
}

/* Plan flags: mostly valid combinations, sometimes contradictory or unknown. */
static uint32_t fz_flags(fz_in *in)
{
    static const uint32_t choice[] = {
        0, SGK_PLAN_DETERMINISTIC, SGK_PLAN_ALLOW_REORDER, SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_ALLOW_REORDER | SGK_PLAN_WIDE_ACCUMULATE,
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER, /* contradictory */
        1u << 5, 0x80000000u, 0, 0, SGK_PLAN_WIDE_ACCUMULATE, 0, 0, 0, 0};
    return choice[fz_byte(in) % 16];
}

static int fz_flags_valid(uint32_t f)
{
    const uint32_t known =
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER | SGK_PLAN_WIDE_ACCUMULATE;
    return (f & ~known) == 0 &&
           !((f & SGK_PLAN_DETERMINISTIC) && (f & SGK_PLAN_ALLOW_REORDER));
}

/* Ranks 0-5 mostly; sometimes near SGK_MAX_RANK (dims then mostly 1), past
   it, or negative.  *high says "mostly ones". */
static int32_t fz_rank(fz_in *in, int *high)
{
    static const int32_t bad[] = {SGK_MAX_RANK + 1, 70, -1, INT32_MIN};
    uint8_t b = fz_byte(in);
    *high = 0;
    if (b < 232)
        return b % 6;
    if (b < 244) {
        *high = 1;
        return SGK_MAX_RANK - 4 + (b - 232) % 5;
    }
    if (b < 248)
        return bad[b - 244];
    return 1 + b % 3;
}

static const int64_t fz_small_dims[8] = {1, 2, 3, 4, 0, 1, 2, 5};
static const int64_t fz_odd_dims[16] = {
    INT64_C(1) << 40, INT64_C(1) << 62, INT64_MAX, -1, INT64_MIN, INT64_C(1) << 31,
    (INT64_C(1) << 32) + 1, INT64_C(3037000500), INT64_C(1) << 20, -(INT64_C(1) << 40),
    4096, 65, INT64_C(1) << 33, 7, 3, INT32_MAX};

static int64_t fz_dim(fz_in *in, int high)
{
    uint8_t b = fz_byte(in);
    if (high)
        return b < 236 ? 1 : b < 246 ? fz_small_dims[b % 8] : fz_odd_dims[b % 16];
    return b < 228 ? fz_small_dims[b % 8] : fz_odd_dims[b % 16];
}

/* Fills dims[0..min(rank, FZ_DIMS)) and zeroes the rest. */
static void fz_dims(fz_in *in, int32_t rank, int high, int64_t *dims)
{
    for (int d = 0; d < FZ_DIMS; d++)
        dims[d] = d < rank ? fz_dim(in, high) : 0;
}

/* The updates shape: mostly the one the rules want, sometimes OpenVINO's [1]
   for [], one dimension off, a dimension more or less, or anything. */
FZ_MAYBE_UNUSED static void fz_updates_shape(fz_in *in, const int64_t *want, int32_t want_rank, int32_t *rank,
                             int64_t *dims /* 2 * FZ_DIMS */)
{
    uint8_t b = fz_byte(in);
    *rank = want_rank;
    memcpy(dims, want, (size_t)want_rank * sizeof *dims);
    if (b < 200)
        return;
    if (b < 216) {
        if (want_rank == 0) {
            *rank = 1;
            dims[0] = 1;
        }
    } else if (b < 228) {
        if (want_rank > 0) {
            int64_t *dim = &dims[b % want_rank];
            if (__builtin_add_overflow(*dim, 1 + b % 2, dim))
                *dim = INT64_MAX - 1; /* still differs */
        } else {
            *rank = 1;
            dims[0] = 2;
        }
    } else if (b < 236) {
        if (want_rank < 2 * FZ_DIMS)
            dims[(*rank)++] = 1;
    } else if (b < 244) {
        if (want_rank > 0)
            (*rank)--;
    } else {
        int high;
        *rank = fz_rank(in, &high);
        fz_dims(in, *rank, high, dims);
    }
}

/* An index for a dimension of size dim: in range when in_range, otherwise
   from everything (in range, just outside, extreme). */
static int64_t fz_index(fz_in *in, int64_t dim, int in_range)
{
    static const int64_t extreme[] = {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX,
                                      (int64_t)INT32_MIN - 1, (int64_t)INT32_MAX + 1,
                                      INT64_MIN + 1, -(INT64_C(1) << 40)};
    uint8_t b = in_range ? 0 : fz_byte(in);
    if (b < 200 && dim > 0) {
        int64_t v = (int64_t)(fz_rand(in) % (uint64_t)dim);
        return fz_rand(in) & 1 ? v - dim : v;
    }
    if (b < 232) { /* just outside [-dim, dim-1] */
        int64_t v, off = b % 3;
        if (b & 1)
            return __builtin_add_overflow(dim, off, &v) ? INT64_MAX : v;
        return __builtin_sub_overflow(-dim - 1, off, &v) ? INT64_MIN : v;
    }
    return extreme[b % 8];
}

/* Stores v into an int32 or int64 index buffer; returns the stored value. */
static int64_t fz_store_index(sgk_dtype t, void *buf, int64_t i, int64_t v)
{
    if (t == SGK_INT32) {
        int32_t w = (int32_t)(uint32_t)(uint64_t)v;
        memcpy((char *)buf + i * 4, &w, 4);
        return w;
    }
    memcpy((char *)buf + i * 8, &v, 8);
    return v;
}

static int64_t fz_load_index(sgk_dtype t, const void *buf, int64_t i)
{
    if (t == SGK_INT32) {
        int32_t w;
        memcpy(&w, (const char *)buf + i * 4, 4);
        return w;
    }
    int64_t v;
    memcpy(&v, (const char *)buf + i * 8, 8);
    return v;
}

static const char *const fz_strings[] = {"", "a", "bb", "ccc", "sgk", "\xff\xfe",
                                         "a longer string", "x"};

/* One element of random content: special values (NaN with payloads, signed
   zeros, infinities, extremes, subnormals) one time in four. */
static void fz_value(fz_in *in, sgk_dtype t, unsigned char *dst)
{
    static const uint16_t f16[] = {0x7E00, 0x7C01, 0xFE01, 0x7C00, 0xFC00, 0x8000, 0x0000,
                                   0x7BFF, 0x0001, 0x3C00, 0xBC00, 0x03FF};
    static const uint16_t bf16[] = {0x7FC0, 0x7F81, 0xFFC1, 0x7F80, 0xFF80, 0x8000, 0x0000,
                                    0x7F7F, 0x0001, 0x3F80, 0xBF80, 0x007F};
    static const uint32_t f32[] = {0x7FC00000, 0x7F800001, 0xFFC00123, 0x7F800000, 0xFF800000,
                                   0x80000000, 0x00000000, 0x7F7FFFFF, 0x00000001, 0x3F800000,
                                   0xBF800000, 0x4B800000};
    static const uint64_t f64[] = {0x7FF8000000000000ull, 0x7FF0000000000001ull,
                                   0xFFF8000000000123ull, 0x7FF0000000000000ull,
                                   0xFFF0000000000000ull, 0x8000000000000000ull, 0,
                                   0x7FEFFFFFFFFFFFFFull, 1, 0x3FF0000000000000ull,
                                   0xBFF0000000000000ull, 0x4340000000000000ull};
    static const uint64_t ints[] = {0, 1, ~0ull, 0x7F, 0x80, 0x7FFF, 0x8000, 0x7FFFFFFF,
                                    0x80000000ull, 0x7FFFFFFFFFFFFFFFull,
                                    0x8000000000000000ull, 2};
    uint64_t r = fz_rand(in);
    int special = (r & 3) == 0;
    unsigned pick = (unsigned)(r >> 2) % 12;
    uint64_t bits = fz_rand(in);
    switch (t) {
    case SGK_STRING: {
        const char *s = fz_strings[bits % 8];
        memcpy(dst, &s, sizeof s);
        return;
    }
    case SGK_BOOL: {
        uint8_t v = special ? (uint8_t)bits : (uint8_t)(bits & 1);
        memcpy(dst, &v, 1);
        return;
    }
    case SGK_FLOAT16: case SGK_BFLOAT16: {
        uint16_t v = special ? (t == SGK_FLOAT16 ? f16 : bf16)[pick] : (uint16_t)bits;
        memcpy(dst, &v, 2);
        return;
    }
    case SGK_FLOAT32: case SGK_COMPLEX64:
        for (int c = 0; c < (t == SGK_COMPLEX64 ? 2 : 1); c++) {
            uint32_t v = special ? f32[(pick + (unsigned)c * 5) % 12] : (uint32_t)(bits >> (c * 32));
            memcpy(dst + 4 * c, &v, 4);
        }
        return;
    case SGK_FLOAT64: case SGK_COMPLEX128:
        for (int c = 0; c < (t == SGK_COMPLEX128 ? 2 : 1); c++) {
            uint64_t v = special ? f64[(pick + (unsigned)c * 5) % 12] : (c ? fz_rand(in) : bits);
            memcpy(dst + 8 * c, &v, 8);
        }
        return;
    default: {
        uint64_t v = special ? ints[pick] : bits;
        memcpy(dst, &v, tc_dtype_size(t));
        return;
    }
    }
}

static void fz_fill(fz_in *in, sgk_dtype t, void *buf, int64_t n)
{
    size_t es = tc_dtype_size(t);
    for (int64_t i = 0; i < n; i++)
        fz_value(in, t, (unsigned char *)buf + (size_t)i * es);
}

#endif /* SGK_FUZZ_DECODE_H */
