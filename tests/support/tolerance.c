/*
 * Rounding bounds for reordered scatter reductions (see tolerance.h).
 *
 * Notation: for one output element, the terms are its data value x_0 and the
 * n updates x_1..x_n that land on it (negated for sub); u is the unit
 * roundoff of the type (2^-p for p significand bits) and gamma(n) =
 * n*u / (1 - n*u).
 *
 * add/sub, per component.  Summing n+1 terms in ANY order or grouping,
 * rounding after every addition, errs by at most gamma(n) * S with
 * S = sum |x_i| (Higham, Accuracy and Stability, §4.2), provided no partial
 * sum overflows, which S <= max finite guarantees.  The library's result and
 * the sequential reference each obey it, so |got - want| <= 2 gamma(n) S,
 * which is about (n+1) * eps * S for the small n*eps of the tests.  fp16 and
 * bf16 are computed in float32 and rounded to 16 bits after each update, so
 * their u is u16 + u32 + u16*u32.  When every term is a multiple of g (the
 * smallest lowest-set-bit among the terms) and S <= 2^p g, every partial sum
 * in every order is exactly representable: the bound is then 0.  NaN and
 * infinite results do not depend on the order once no finite partial sum can
 * overflow (NaN iff a NaN or both infinities are present), so they must
 * match exactly.
 *
 * mul, real.  Every multiplication rounds by a factor (1 + d), |d| <= u, so
 * in any order got = exact * prod(1 + d_k): |got - want| <= 2 gamma /
 * (1 - gamma) |want|.  This needs every partial product (any subset of the
 * terms) to stay in the normal range: the largest subset product is 2^hi
 * with hi = sum of max(log2|x|, 0), the smallest 2^lo likewise.  hi must keep
 * clear of overflow (else no order-free answer); below the normal range each
 * rounding may lose up to the smallest subnormal, amplified later by at most
 * 2^hi: an allowance of (n+1) * denorm_min * 2^hi.  When the product of the
 * terms' odd significand parts is below 2^p and lo is in the normal range,
 * every partial product is exact: bound 0.
 *
 * mul, complex.  The conventional product errs normwise by at most
 * mu |a||b| with mu = sqrt(2) gamma(2) (Higham, Lemma 3.5), so n products in
 * any order err by at most ((1 + mu)^n - 1) * prod|z_i|, twice that between
 * two orders, plus the same underflow allowance (four per product).
 * Non-finite terms make a complex product's NaN pattern order-dependent:
 * such elements have no order-free answer.
 */
#include "tolerance.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reference.h"

int tol_order_sensitive(sgk_dtype dtype, sgk_reduction reduction)
{
    int float_type = dtype == SGK_FLOAT16 || dtype == SGK_BFLOAT16 || dtype == SGK_FLOAT32 ||
                     dtype == SGK_FLOAT64 || dtype == SGK_COMPLEX64 || dtype == SGK_COMPLEX128;
    return float_type && (reduction == SGK_REDUCE_ADD || reduction == SGK_REDUCE_SUB ||
                          reduction == SGK_REDUCE_MUL);
}

int tol_reorder_relaxes(sgk_dtype dtype, sgk_reduction reduction)
{
    int real = dtype == SGK_FLOAT16 || dtype == SGK_BFLOAT16 || dtype == SGK_FLOAT32 ||
               dtype == SGK_FLOAT64;
    return tol_order_sensitive(dtype, reduction) ||
           (real && (reduction == SGK_REDUCE_MAX || reduction == SGK_REDUCE_MIN));
}

int tol_env_allows_reorder(void)
{
    const char *v = getenv("SGK_DETERMINISTIC");
    return v != NULL && strcmp(v, "0") == 0;
}

int tol_reorder_allowed(uint32_t plan_flags)
{
    if (plan_flags & SGK_PLAN_ALLOW_REORDER)
        return 1;
    if (plan_flags & SGK_PLAN_DETERMINISTIC)
        return 0;
    return tol_env_allows_reorder();
}

/* ---- per-type constants ------------------------------------------------ */

typedef struct {
    int p;             /* significand bits */
    double u;          /* rounding error per operation, relative */
    double max_finite, min_normal, denorm_min;
    int components;
} type_info;

static type_info info_of(sgk_dtype dtype)
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

struct tol_stats {
    int64_t elems;
    double *count;       /* updates landing on the element */
    double *abs_sum[2];  /* add/sub: sum |x| of finite terms, per component */
    double *lowbit[2];   /* add/sub: smallest lowest-set-bit of finite nonzero terms */
    double *log_hi;      /* mul: sum max(log2|x|, 0) over finite nonzero terms */
    double *log_lo;      /* mul: sum min(log2|x|, 0) over finite nonzero terms */
    double *odd;         /* real mul: product of odd significand parts */
    double *nonfinite;   /* mul: number of infinite or NaN terms */
    double *abs_prod;    /* complex mul: prod |z| */
};

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
    int complex_type = info_of(dtype).components == 2;
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
        for (int c = 0; c < info_of(dtype).components; c++) {
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

/* ---- judging one element ------------------------------------------------ */

typedef enum { PASS, FAIL, NO_ANSWER } verdict;

static double gamma_n(double n, double u)
{
    return n * u < 0.5 ? n * u / (1 - n * u) : INFINITY;
}

/* log2 sums carry rounding: claims of safety keep this margin. */
#define LOG_MARGIN 1e-6
/* |got - want| is itself rounded in double. */
#define SLACK (1 + 0x1p-20)

static verdict judge_add(const type_info *t, const tol_stats *st, int64_t e, int c, double w,
                         double g, double *bound, const char **why)
{
    double n = st->count[e], s = st->abs_sum[c][e], low = st->lowbit[c][e];
    if (!(s <= t->max_finite)) {
        *why = "a finite partial sum may overflow in some order";
        return NO_ANSWER;
    }
    if (isnan(w) || isinf(w)) {
        *why = "NaN/infinity differs from the reference";
        return (isnan(w) && isnan(g)) || g == w ? PASS : FAIL;
    }
    if (!isfinite(g)) {
        *why = "not finite where the reference is";
        return FAIL;
    }
    if (isfinite(low) && s <= ldexp(low, t->p)) {
        *bound = 0;
        *why = "differs where every order is exact";
    } else {
        *bound = 2 * gamma_n(n, t->u) * s * SLACK;
        *why = "outside the rounding bound 2*gamma(n)*sum|x|";
        if (isinf(*bound)) {
            *why = "too many terms for a rounding bound";
            return NO_ANSWER;
        }
    }
    return fabs(g - w) <= *bound ? PASS : FAIL;
}

static verdict judge_mul_real(const type_info *t, const tol_stats *st, int64_t e, double w,
                              double g, double *bound, const char **why)
{
    double n = st->count[e], hi = st->log_hi[e], lo = st->log_lo[e];
    int normal_range = lo >= log2(t->min_normal) + LOG_MARGIN;
    if (!(hi <= log2(t->max_finite) - 1)) {
        *why = "a finite partial product may overflow in some order";
        return NO_ANSWER;
    }
    if (st->nonfinite[e] > 0 && !normal_range) {
        *why = "a partial product may underflow to zero before meeting an infinity";
        return NO_ANSWER;
    }
    if (isnan(w) || isinf(w)) {
        *why = "NaN/infinity differs from the reference";
        return (isnan(w) && isnan(g)) || g == w ? PASS : FAIL;
    }
    if (!isfinite(g)) {
        *why = "not finite where the reference is";
        return FAIL;
    }
    if (st->odd[e] < ldexp(1, t->p) && normal_range) {
        *bound = 0;
        *why = "differs where every order is exact";
    } else {
        double gm = gamma_n(n, t->u);
        *bound = (2 * gm / (1 - gm) * fabs(w) + (n + 1) * t->denorm_min * exp2(hi)) * SLACK;
        *why = "outside the rounding bound 2*gamma/(1-gamma)*|want| + underflow allowance";
        if (isinf(*bound) || gm >= 1) {
            *why = "too many terms for a rounding bound";
            return NO_ANSWER;
        }
    }
    return fabs(g - w) <= *bound ? PASS : FAIL;
}

static verdict judge_mul_complex(const type_info *t, const tol_stats *st, int64_t e,
                                 const double w[2], const double g[2], double *bound,
                                 const char **why)
{
    double n = st->count[e], hi = st->log_hi[e];
    if (st->nonfinite[e] > 0 || !(hi <= log2(t->max_finite) - 2)) {
        *why = "non-finite terms or possible overflow: no order-free complex product";
        return NO_ANSWER;
    }
    double g2 = gamma_n(2, t->u);
    double mu = sqrt(2) * g2;
    double grow = expm1(n * log1p(mu));
    *bound = (2 * grow * st->abs_prod[e] + 4 * (n + 1) * t->denorm_min * exp2(hi)) * SLACK;
    *why = "outside the normwise bound 2*((1+mu)^n-1)*prod|z| + underflow allowance";
    double diff = hypot(g[0] - w[0], g[1] - w[1]);
    return diff <= *bound ? PASS : FAIL;
}

static verdict judge_max_min(double w, double g, const char **why)
{
    *why = "differs beyond the sign of a zero or a NaN payload";
    if (isnan(w))
        return isnan(g) ? PASS : FAIL;
    return g == w ? PASS : FAIL; /* +0 == -0 */
}

int tol_compare(sgk_dtype dtype, sgk_reduction reduction, const tol_stats *st, int reordered,
                int strict, int64_t elems, const void *want, const void *got,
                tol_result *res)
{
    size_t es = tc_dtype_size(dtype);
    type_info t = info_of(dtype);
    memset(res, 0, sizeof *res);
    res->element = -1;
    res->bound = -1;
    int relaxed = reordered && tol_reorder_relaxes(dtype, reduction);
    for (int64_t e = 0; e < elems; e++) {
        const char *pw = (const char *)want + (size_t)e * es;
        const char *pg = (const char *)got + (size_t)e * es;
        if (!relaxed || memcmp(pw, pg, es) == 0) {
            if (ref_same_result(dtype, reduction, pw, pg))
                continue;
            if (!relaxed) {
                if (res->failures++ == 0) {
                    res->element = e;
                    res->why = "differs from the reference bit for bit";
                    if (dtype >= SGK_FLOAT16 && dtype <= SGK_COMPLEX128) {
                        res->want = tol_component(dtype, pw, 0);
                        res->got = tol_component(dtype, pg, 0);
                    }
                }
                continue;
            }
        }
        for (int c = 0; c < t.components; c++) {
            double w[2] = {tol_component(dtype, pw, 0), 0}, g[2] = {tol_component(dtype, pg, 0), 0};
            if (t.components == 2) {
                w[1] = tol_component(dtype, pw, 1);
                g[1] = tol_component(dtype, pg, 1);
            }
            double bound = -1;
            const char *why = "";
            verdict v;
            if (reduction == SGK_REDUCE_MAX || reduction == SGK_REDUCE_MIN)
                v = judge_max_min(w[c], g[c], &why);
            else if (reduction == SGK_REDUCE_MUL && t.components == 2)
                v = judge_mul_complex(&t, st, e, w, g, &bound, &why);
            else if (reduction == SGK_REDUCE_MUL)
                v = judge_mul_real(&t, st, e, w[c], g[c], &bound, &why);
            else
                v = judge_add(&t, st, e, c, w[c], g[c], &bound, &why);
            if (v == NO_ANSWER && !strict) {
                res->unjudged++;
                break;
            }
            if (v != PASS) {
                if (res->failures++ == 0) {
                    res->element = e;
                    res->component = c;
                    res->want = w[c];
                    res->got = g[c];
                    res->bound = bound;
                    res->terms = st != NULL ? (int64_t)st->count[e] + 1 : 0;
                    res->why = why;
                }
                break;
            }
            if (reduction == SGK_REDUCE_MUL && t.components == 2)
                break; /* judged both components at once */
        }
    }
    return res->failures == 0;
}
