/*
 * The scatter cases of tests/test_paths.c: for one dtype x reduction cell,
 * ScatterND with slice length 1, ScatterND with slice length 37 or
 * ScatterElements, with one duplicate structure (heavy skew, all to one
 * destination, no duplicates, random duplicates, empty, a single update,
 * random duplicates with NaN/infinity), built from a fixed seed together
 * with the reference's result (tests/support/reference.c) and the rounding
 * statistics a reordered result is judged by (tests/support/tolerance.c).
 */
#ifndef SGK_TESTS_PATH_CASES_H
#define SGK_TESTS_PATH_CASES_H

#include <stdint.h>

#include "common.h"
#include "sgk.h"
#include "tolerance.h"

/* Outputs carry this many bytes of GUARD_BYTE past their end. */
#define PATH_GUARD 32
#define PATH_GUARD_BYTE 0xA5

typedef enum { OP_ND_SLICE1, OP_ND_SLICE37, OP_ELEMENTS, OP_COUNT } op_kind;
extern const char *const path_op_names[OP_COUNT];

typedef enum {
    ST_HEAVY, ST_ALL_ONE, ST_UNIQUE, ST_RANDOM, ST_EMPTY, ST_SINGLE, ST_SPECIALS, ST_COUNT
} structure;
extern const char *const path_structure_names[ST_COUNT];

typedef struct {
    op_kind op;
    sgk_dtype dtype, idtype;
    sgk_reduction red;
    structure st;
    int32_t drank, irank, urank;
    int64_t dshape[2], ishape[2], ushape[2];
    int64_t axis;
    int64_t dn, un, in, slice;
    void *indices, *data, *updates, *want;
    tol_stats *stats;
    uint64_t seed;
} path_case;

/* The case of this cell and structure, with the reference's result. */
void path_case_build(path_case *c, op_kind op, sgk_dtype dtype, sgk_reduction red,
                     structure st);
void path_case_free(path_case *c);

/* Writes index i (int32 or int64, as the case's idtype). */
void path_case_put_index(path_case *c, int64_t i, int64_t v);
/* The case's tensors, of the given dtype, over the given buffers. */
void path_case_tensors(const path_case *c, sgk_dtype dtype, const void *data,
                       const void *updates, const void *indices, sgk_tensor *d, sgk_tensor *i,
                       sgk_tensor *u);
/* tol_scatter_fn: the reference on this case's indices and shapes. */
void path_case_reference(const void *ctx, sgk_dtype dtype, sgk_reduction red, const void *data,
                         const void *updates, void *out);
/* An output buffer of data's size with its guard zone filled, to free. */
char *path_case_output(const path_case *c);
/* The same, holding a copy of the case's data (for in-place runs). */
char *path_case_copy_of_data(const path_case *c);

#endif
