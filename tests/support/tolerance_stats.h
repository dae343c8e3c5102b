/* What tolerance.c (the judging) and tolerance_stats.c (the per-element
   statistics it judges by) share: the constants of each float type and
   the statistics' layout.  Private to those two files; tolerance.h is the
   interface. */
#ifndef SGK_TESTS_TOLERANCE_STATS_H
#define SGK_TESTS_TOLERANCE_STATS_H

#include <stdint.h>

#include "tolerance.h"

typedef struct {
    int p;             /* significand bits */
    double u;          /* rounding error per operation, relative */
    double max_finite, min_normal, denorm_min;
    int components;
} type_info;

/* The constants of a float or complex type (any other: float64's). */
type_info tol_type_info(sgk_dtype dtype);

/* Per data element, what the reference's updates tell about its terms. */
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

#endif
