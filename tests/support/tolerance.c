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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reference.h"
#include "tolerance_stats.h"

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
    type_info t = tol_type_info(dtype);
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
