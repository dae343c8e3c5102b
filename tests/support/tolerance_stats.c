/* The per-element statistics that tolerance.c judges a reordered result by
   (tolerance.h, tol_prepare), gathered through the reference, and the
   constants of each float type. */
#include "tolerance_stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reference.h"

/* ---- per-type constants ------------------------------------------------ */

type_info tol_type_info(sgk_dtype dtype)
{
    const double u32 = ldexp(1, -24);
    switch (dtype) {
    case SGK_FLOAT16:
        return (type_info){11, ldexp(1, -11) + u32 + ldexp(1, -11) * u32, 65504.0,
                           ldexp(1, -14), ldexp(1, -24), 1};
    case SGK_BFLOAT16:
        return (type_info){8, ldexp(1, -8) + u32 + ldexp(1, -8) * u32,
                           ldexp(255, 120), ldexp(1, -126), ldexp(1, -133), 1};
    case SGK_FLOAT32:
        return (type_info){24, u32, FLT_MAX, FLT_MIN, ldexp(1, -149), 1};
    case SGK_COMPLEX64:
        return (type_info){24, u32, FLT_MAX, FLT_MIN, ldexp(1, -149), 2};
    case SGK_COMPLEX128:
        return (type_info){53, ldexp(1, -53), DBL_MAX, DBL_MIN, ldexp(1, -1074), 2};
    default:
        return (type_info){53, ldexp(1, -53), DBL_MAX, DBL_MIN, ldexp(1, -1074), 1};
    }
}

double tol_component(sgk_dtype dtype, const void *element, int component)
{
    const char *p = element;
    switch (dtype) {
    case SGK_FLOAT16: case SGK_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return dtype == SGK_FLOAT16 ? ref_f16_to_f32(h) : ref_bf16_to_f32(h);
    }
    case SGK_FLOAT32: case SGK_COMPLEX64: {
        float f;
        memcpy(&f, p + 4 * component, 4);
        return f;
    }
    default: {
        double d;
        memcpy(&d, p + 8 * component, 8);
        return d;
    }
    }
}

/* x = odd * lowbit with odd an odd integer (x finite, nonzero). */
static void split_significand(double x, double *odd, double *lowbit)
{
    int e;
    double m = frexp(fabs(x), &e);              /* m in [0.5, 1) */
    uint64_t sig = (uint64_t)ldexp(m, 53);      /* exact: 53 bits */
    int tz = 0;
    while (!(sig & 1u)) {
        sig >>= 1;
        tz++;
    }
    *odd = (double)sig;
    *lowbit = ldexp(1, e - 53 + tz);
}

/* ---- statistics through the reference ---------------------------------- */

typedef enum {
    F_ONE, F_ABS, F_LOWBIT, F_LOG_HI, F_LOG_LO, F_ODD, F_NONFINITE, F_MAGNITUDE
} feature;

/* The feature of one term: component c, or the complex magnitude when
   components == 2 for the magnitude-based features of mul. */
static double feature_of(feature f, sgk_dtype dtype, const void *element, int c, int magnitude)
{
    double x = tol_component(dtype, element, c);
    if (magnitude)
        x = hypot(x, tol_component(dtype, element, 1));
    int usable = isfinite(x) && x != 0;
    double odd, low;
    switch (f) {
    case F_ONE: return 1;
    case F_ABS: return isfinite(x) ? fabs(x) : 0;
    case F_LOWBIT:
        if (!usable)
            return INFINITY;
        split_significand(x, &odd, &low);
        return low;
    case F_LOG_HI: return usable ? fmax(log2(fabs(x)), 0) : 0;
    case F_LOG_LO: return usable ? fmin(log2(fabs(x)), 0) : 0;
    case F_ODD:
        if (!usable)
            return 1;
        split_significand(x, &odd, &low);
        return odd;
    case F_NONFINITE: return isfinite(x) ? 0 : 1;
    case F_MAGNITUDE: return isfinite(x) ? fabs(x) : 1;
    }
    return 0;
}

typedef struct {
    sgk_dtype dtype;
    int64_t data_elems, updates_elems;
    const void *data, *updates;
    tol_scatter_fn scatter;
    const void *ctx;
} source;

/* Runs the reference in float64 on the feature of every term, combined with
   `how`; returns one double per output element. */
static double *reduce_feature(const source *s, feature f, int c, int magnitude,
                              sgk_reduction how, int data_counts)
{
    size_t es = tc_dtype_size(s->dtype);
    double *d = xmalloc(sizeof(double) * (size_t)s->data_elems);
    double *u = xmalloc(sizeof(double) * (size_t)s->updates_elems);
    double *out = xmalloc(sizeof(double) * (size_t)s->data_elems);
    for (int64_t i = 0; i < s->data_elems; i++)
        d[i] = data_counts ? feature_of(f, s->dtype, (const char *)s->data + (size_t)i * es, c,
                                        magnitude)
                           : 0;
    for (int64_t i = 0; i < s->updates_elems; i++)
        u[i] = feature_of(f, s->dtype, (const char *)s->updates + (size_t)i * es, c, magnitude);
    s->scatter(s->ctx, SGK_FLOAT64, how, d, u, out);
    free(d);
    free(u);
    return out;
}

tol_stats *tol_prepare(sgk_dtype dtype, sgk_reduction reduction, int64_t data_elems,
                       int64_t updates_elems, const void *data, const void *updates,
                       tol_scatter_fn scatter, const void *ctx)
{
    if (!tol_order_sensitive(dtype, reduction))
        return NULL;
    tol_stats *st = calloc(1, sizeof *st);
    if (!st)
        abort();
    source s = {dtype, data_elems, updates_elems, data, updates, scatter, ctx};
    int complex_type = tol_type_info(dtype).components == 2;
    st->elems = data_elems;
    st->count = reduce_feature(&s, F_ONE, 0, 0, SGK_REDUCE_ADD, 0);
    if (reduction == SGK_REDUCE_MUL) {
        st->log_hi = reduce_feature(&s, F_LOG_HI, 0, complex_type, SGK_REDUCE_ADD, 1);
        st->log_lo = reduce_feature(&s, F_LOG_LO, 0, complex_type, SGK_REDUCE_ADD, 1);
        st->nonfinite = reduce_feature(&s, F_NONFINITE, 0, complex_type, SGK_REDUCE_ADD, 1);
        if (complex_type)
            st->abs_prod = reduce_feature(&s, F_MAGNITUDE, 0, 1, SGK_REDUCE_MUL, 1);
        else
            st->odd = reduce_feature(&s, F_ODD, 0, 0, SGK_REDUCE_MUL, 1);
    } else {
        for (int c = 0; c < tol_type_info(dtype).components; c++) {
            st->abs_sum[c] = reduce_feature(&s, F_ABS, c, 0, SGK_REDUCE_ADD, 1);
            st->lowbit[c] = reduce_feature(&s, F_LOWBIT, c, 0, SGK_REDUCE_MIN, 1);
        }
    }
    return st;
}

void tol_free(tol_stats *st)
{
    if (!st)
        return;
    free(st->count);
    for (int c = 0; c < 2; c++) {
        free(st->abs_sum[c]);
        free(st->lowbit[c]);
    }
    free(st->log_hi);
    free(st->log_lo);
    free(st->odd);
    free(st->nonfinite);
    free(st->abs_prod);
    free(st);
}
