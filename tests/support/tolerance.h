/*
 * Judging a scatter's result when the caller allowed reordering
 * (docs/semantics.md, Order: SGK_DETERMINISTIC=0 or
 * SGK_PLAN_ALLOW_REORDER).
 *
 * Float add/sub/mul may then apply duplicate updates in any order, so the
 * result may differ from the sequential loop by rounding; float max/min may
 * differ in the sign of a zero result and in which NaN survives.  Everything
 * else stays bit for bit.  The bounds here are derived per output element
 * from the terms that element combines (its data value and every update that
 * lands on it); the element-to-update mapping comes from the independent
 * reference, run on substitute tensors through a caller-supplied function, so
 * this file knows no operator's index rules.
 */
#ifndef SGK_TESTS_TOLERANCE_H
#define SGK_TESTS_TOLERANCE_H

#include <stdint.h>

#include "sgk.h"

/* Runs the reference scatter of the case under test, with the case's shapes
   and indices but the given element type, reduction and buffers. */
typedef void (*tol_scatter_fn)(const void *ctx, sgk_dtype dtype, sgk_reduction reduction,
                               const void *data, const void *updates, void *output);

/* 1 for float add/sub/mul: reordering changes rounding. */
int tol_order_sensitive(sgk_dtype dtype, sgk_reduction reduction);
/* 1 when reordering may change the result at all: the above, and float
   max/min (sign of a zero, NaN payload). */
int tol_reorder_relaxes(sgk_dtype dtype, sgk_reduction reduction);

/* What the environment allows (read like the library does: only "0" turns
   determinism off). */
int tol_env_allows_reorder(void);
/* Whether an execution may reorder: a plan's flags win over the
   environment; one-shot calls pass flags 0. */
int tol_reorder_allowed(uint32_t plan_flags);

typedef struct tol_stats tol_stats;

/* Per-element statistics of the terms of one case; NULL when the cell needs
   none (everything but float add/sub/mul). */
tol_stats *tol_prepare(sgk_dtype dtype, sgk_reduction reduction, int64_t data_elems,
                       int64_t updates_elems, const void *data, const void *updates,
                       tol_scatter_fn scatter, const void *ctx);
void tol_free(tol_stats *stats);

typedef struct {
    int64_t failures;   /* elements that failed */
    int64_t element;    /* the first of them, -1 when none */
    int component;      /* 0, or 1 for the imaginary part */
    double got, want;   /* that element (component) as doubles */
    double bound;       /* the allowed |got - want|, -1 when not a bound check */
    int64_t terms;      /* data value + updates combined there */
    const char *why;    /* what failed */
    int64_t unjudged;   /* lenient mode: elements with no order-free answer */
} tol_result;

/* Compares `elems` elements of got against want (the reference).
   reordered == 0: bit for bit (ref_same_result).  reordered == 1: the bounds
   above.  strict: an element whose terms admit no order-independent answer
   (a finite partial sum or product could overflow in some order) is a
   failure, because the test meant to build only judgeable cases; otherwise
   it is counted in `unjudged` and accepted.  Returns 1 when all pass. */
int tol_compare(sgk_dtype dtype, sgk_reduction reduction, const tol_stats *stats,
                int reordered, int strict, int64_t elems, const void *want, const void *got,
                tol_result *result);

/* One component of one element as a double (float types only). */
double tol_component(sgk_dtype dtype, const void *element, int component);

#endif /* SGK_TESTS_TOLERANCE_H */
