/*
 * Random shapes and index values for the randomized tests
 * (tests/test_random.c, tests/soak.c): one copy of each operator's shape
 * rules, so that both draw their cases the same way and a rule fixed here
 * is fixed for both.  Each generator leaves a valid call: shapes that obey
 * the operator's rules and indices in range (negative aliases included).
 * Nothing here calls the library or cmocka: the soak's worker threads draw
 * from it.
 */
#ifndef SGK_TESTS_RANDOM_SHAPES_H
#define SGK_TESTS_RANDOM_SHAPES_H

#include <stdint.h>

#include "common.h"
#include "sgk.h"

/* Enough for any shape drawn here: GatherND's output of rank
   (indices' rank - 1) + data's rank. */
#define RANDOM_SHAPES_MAX_RANK 8

/* The operands of one call, without their element values. */
typedef struct {
    sgk_dtype idtype; /* the caller's choice: int32 or int64 */
    int32_t drank, irank, urank, orank;
    int64_t dshape[RANDOM_SHAPES_MAX_RANK], ishape[RANDOM_SHAPES_MAX_RANK];
    int64_t ushape[RANDOM_SHAPES_MAX_RANK], oshape[RANDOM_SHAPES_MAX_RANK];
    int64_t axis;                  /* Elements, Gather, TensorScatter */
    int64_t batch_dims;            /* GatherND */
    sgk_tensor_scatter_mode mode;  /* TensorScatter */
    /* Elements of each shape (random_shapes_count).  A scatter's output
       shape is left at rank 0: its output has data's shape. */
    int64_t dn, in, un, on;
    void *indices; /* to free; TensorScatter: NULL for no write indices */
} random_shapes;

/* How large the shapes may be. */
typedef struct {
    int32_t max_rank;       /* data's rank: 1 to this (TensorScatter: 3 or 4) */
    int32_t max_index_rank; /* ScatterND's, GatherND's and Gather's indices: 1 to this */
    int64_t max_dim;        /* each dimension of data */
    int64_t max_index_dim;  /* each batch dimension of the indices; TensorScatter's max_seq */
    int64_t max_axis_len;   /* Elements: the indices along the axis (duplicates) */
    /* ScatterND, GatherND, Elements: a dimension is empty one time in 20
       (only where the call stays valid). */
    int empty_dims;
    /* Elements: the percentage of cases whose indices span data in every
       dimension but the axis (the lines path); 0 draws nothing for it. */
    int lines_percent;
} shape_limits;

/* ScatterND: indices [..., k], updates indices.shape[:-1] ++ data.shape[k:];
   a rank-0 update is given as [1] half the time (OpenVINO's form). */
void random_scatter_nd_shapes(random_shapes *s, tc_rng *r, const shape_limits *l);
/* GatherND with batch_dims b: indices.shape[:b] == data.shape[:b]. */
void random_gather_nd_shapes(random_shapes *s, tc_rng *r, const shape_limits *l);
/* Scatter/GatherElements: indices.shape[d] <= data.shape[d] off the axis,
   any length along it (duplicates).  A third of the cases cover the
   dimensions after the axis fully and broadcast each index along them, so
   that whole rows move (the whole-rows rewrite). */
void random_elements_shapes(random_shapes *s, tc_rng *r, const shape_limits *l);
/* Gather: output data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:].
   No empty dimensions. */
void random_gather_shapes(random_shapes *s, tc_rng *r, const shape_limits *l);
/* TensorScatter: a cache [batch, (heads,) max_seq, head] and an update of
   seq <= max_seq along the axis (decode steps and prefills), linear or
   circular, with write indices [batch] or none.  No empty dimensions. */
void random_tensor_scatter_shapes(random_shapes *s, tc_rng *r, const shape_limits *l);

/* Sets dn, in, un and on from the shapes: for a caller that sets the shapes
   itself (the generators above call it). */
void random_shapes_count(random_shapes *s);

#endif
