/*
 * Helpers of the plan tests (tests/test_plans_*.c); see tests/support/plan_checks.c.
 * Include after cmocka.h.
 */
#ifndef SGK_TESTS_PLAN_CHECKS_H
#define SGK_TESTS_PLAN_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "sgk.h"

/* Random inputs, from one fixed seed; the expected values are computed
   from them. */
extern tc_rng plans_rng;

static inline double absd(double x) { return x < 0 ? -x : x; }
static inline int64_t norm(int64_t v, int64_t s) { return v < 0 ? v + s : v; }

/* Uniform in [-5, 5) with a full mantissa, so that any reordering of float
   sums shows up in the low bits. */
float *random_floats(size_t n);

void check_floats_at(const char *file, int line, const char *what, const float *got,
                     const float *want, size_t n);
#define CHECK_FLOATS(what, got, want, n) check_floats_at(__FILE__, __LINE__, what, got, want, n)

/* What sgk_plan_describe must say (sgk.h): the path the plan took, by the
   name sgk_plan_path gives, the threads it runs on and the SIMD target. */
void check_describe(const sgk_plan *plan);

/* The sequential definition on float32.  ScatterND: indices [n, k]. */
void seq_scatter_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
                    int64_t n, int k, const float *upd, sgk_reduction red, float *out);
void seq_gather_nd(const float *data, const int64_t *ds, int r, const int64_t *idx,
                   const int64_t *is, int q, int b, float *out);
void seq_scatter_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
                          const int64_t *is, int axis, const float *upd, sgk_reduction red,
                          float *out);
void seq_gather_elements(const float *data, const int64_t *ds, int r, const int64_t *idx,
                         const int64_t *is, int axis, float *out);

static inline sgk_tensor f32(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_FLOAT32, r, shape, p};
}

static inline sgk_tensor i64(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_INT64, r, shape, p};
}

static inline sgk_tensor i32(int r, const int64_t *shape, const void *p)
{
    return (sgk_tensor){SGK_INT32, r, shape, p};
}

#endif
