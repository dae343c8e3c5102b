/*
 * What the seed tests (tests/test_seeds_*.c) share below their checks: an
 * example's values as doubles with a shape (all exact in every type they
 * run in), stored in a given type; its indices in four variants; and the
 * expectations of a result, each failing the cmocka test with the
 * operator and the route named.
 */
#ifndef SGK_TESTS_SEED_VALUES_H
#define SGK_TESTS_SEED_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))
#define GUARD 64            /* bytes past the output that must stay untouched */
#define SENTINEL 0xA5
#define SNAPSHOT_LIMIT ((size_t)1 << 20)

typedef struct {
    int32_t rank;
    const int64_t *shape;
    const double *v;
} num_t;

typedef struct {
    int32_t rank;
    const int64_t *shape;
    const int64_t *v;
} idx_t;

#define NUM(shp, vals) ((num_t){(int32_t)LEN(shp), (shp), (vals)})
#define IDX(shp, vals) ((idx_t){(int32_t)LEN(shp), (shp), (vals)})

/* n's values in type dt, in a buffer to free. */
void *make_values(sgk_dtype dt, const num_t *n);
sgk_tensor tensor_of(sgk_dtype dt, const num_t *n, const void *buf);

/* Every example runs with int64 and int32 indices, as printed and with
   each in-range v >= 0 rewritten as v - size. */
enum { IDX_I64, IDX_I32, IDX_I64_NEG, IDX_I32_NEG, IDX_VARIANTS };
extern const char *const idx_variant_name[IDX_VARIANTS];
/* The i-th index value addresses an axis of size dims[i % ndims]. */
void *make_indices(const idx_t *idx, int variant, const int64_t *dims, int64_t ndims,
                   sgk_tensor *out);
/* Axis sizes addressed by the k coordinates of an ND index tuple. */
int64_t nd_dims(const sgk_tensor *data, const idx_t *idx, int64_t batch_dims, int64_t *dims);
int64_t axis_dim(const sgk_tensor *data, int64_t axis);

void expect_values(sgk_dtype dt, const void *got, const void *want, int64_t n, const char *op,
                   const char *ctx);
void expect_bytes(const unsigned char *got, const unsigned char *want, size_t n, const char *op,
                  const char *ctx, const char *what);
void expect_fill(const unsigned char *got, unsigned char byte, size_t n, const char *op,
                 const char *ctx, const char *what);
void expect_ok(sgk_status st, const char *op, const char *ctx);
/* Leaves a last error that does not name op, so that a stale message
   cannot satisfy the check after the failing call under test. */
void prime_last_error(const char *op);
/* got is one of want[0..nwant), and sgk_last_error() names op. */
void expect_failure(sgk_status got, const sgk_status *want, size_t nwant, const char *op,
                    const char *ctx);

#endif
