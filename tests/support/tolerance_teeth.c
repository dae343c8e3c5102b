/*
 * The teeth of the reordered comparison (tests/support/tolerance_teeth.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "path_cases.h"
#include "path_checks.h"
#include "reference.h"
#include "tolerance.h"
#include "tolerance_teeth.h"

static teeth_counts counts;

teeth_counts tolerance_teeth_so_far(void)
{
    return counts;
}

/* How far one update element is from doing nothing. */
static double effect_of(const path_case *c, const void *p)
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
static char *perturbed_result(const path_case *c, int64_t j, int twice)
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
    char *out = path_case_output(c);
    path_case_reference(c, c->dtype, c->red, c->data, upd, out);
    free(upd);
    return out;
}

/* The sequential loop over the same updates in another order: reversed, or
   shuffled (ScatterND: whole index tuples with their slices; ScatterElements:
   positions within each row, which keeps every update's destination). */
static char *result_in_order(const path_case *c, int shuffled)
{
    size_t es = tc_dtype_size(c->dtype), is = c->idtype == SGK_INT32 ? 4 : 8;
    int64_t groups = c->op == OP_ELEMENTS ? c->ishape[0] : 1;
    int64_t n = c->op == OP_ELEMENTS ? c->ishape[1] : c->ishape[0];
    int64_t ilen = c->op == OP_ELEMENTS ? 1 : c->ishape[1], ulen = c->slice;
    path_case p = *c;
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
    char *out = path_case_output(c);
    path_case_reference(&p, c->dtype, c->red, c->data, p.updates, out);
    free(perm);
    free(p.indices);
    free(p.updates);
    return out;
}

void check_tolerance_teeth(const path_case *c)
{
    /* none is order-dependent by definition (the last update wins) */
    for (int shuffled = 0; c->red != SGK_REDUCE_NONE && shuffled <= 1; shuffled++) {
        char *other = result_in_order(c, shuffled);
        tol_result res;
        if (!tol_compare(c->dtype, c->red, c->stats, 1, 1, c->dn, c->want, other, &res))
            path_case_fail(c, "self-test", NULL,
                           "the reordered comparison rejects the same updates in %s order: "
                           "element %" PRId64 " got %.17g want %.17g bound %.6g: %s",
                           shuffled ? "shuffled" : "reversed", res.element, res.got, res.want,
                           res.bound, res.why);
        counts.other_orders++;
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
        counts.nothing_to_perturb++; /* every update is the identity: nothing to miss */
        return;
    }
    for (int twice = 0; twice <= 1; twice++) {
        char *wrong = perturbed_result(c, best, twice);
        tol_result res;
        counts.perturbed++;
        if (tol_compare(c->dtype, c->red, c->stats, 1, 1, c->dn, c->want, wrong, &res))
            path_case_fail(c, "self-test", NULL,
                           "the reordered comparison accepts a result with update %" PRId64 " %s",
                           best, twice ? "applied twice" : "missing");
        free(wrong);
    }
}
