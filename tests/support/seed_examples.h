/*
 * The worked examples of the operator specifications (the seed files), as
 * committed test data: tests/seeds/examples.def, written once by
 * tests/seeds/extract-examples.py from the seeds.  A row holds what the
 * seed prints, typos included; the tests that find a printed output
 * wrong say so and correct it explicitly (DESIGN.md section 2,
 * docs/semantics.md "Seed errata").
 */
#ifndef SGK_TESTS_SEED_EXAMPLES_H
#define SGK_TESTS_SEED_EXAMPLES_H

#include <stdint.h>

#include "seed_values.h"

#define SEED_EXAMPLE(name, ...) SEED_##name,
enum {
#include "../seeds/examples.def"
    SEED_EXAMPLE_COUNT
};
#undef SEED_EXAMPLE

/* A tensor of an example: dims = {rank, dims...}, values = {count,
   values...} (count 0 where the seed gives the shape only). */
enum { SEED_DATA, SEED_INDICES, SEED_UPDATES, SEED_OUTPUT, SEED_TENSORS };

typedef struct {
    const char *name;
    const char *where;     /* the seed file and the example's heading */
    const char *types;     /* the types the seed states, or "untyped" */
    const char *attribute; /* the reduction, batch_dims or axis it is printed with */
    const int64_t *dims[SEED_TENSORS];
    const double *values[SEED_TENSORS];
    const int64_t *index_values;
} seed_example;

extern const seed_example seed_examples[SEED_EXAMPLE_COUNT];

/* An example's tensor t as values, its indices as index values. */
num_t seed_num(int example, int t);
idx_t seed_idx(int example);
/* Tensor t's shape with other values (the seed's shape, the test's values). */
num_t seed_shaped(int example, int t, const double *values);
/* The example's output with a seed typo corrected: fails unless the seed
   prints something other than `corrected`, so that a correction stands
   only while the seed still needs it. */
num_t seed_corrected_output(int example, const double *corrected);
/* Whether every tensor of every row has as many values as its shape holds
   (or none, for a shapes-only row). */
int seed_examples_fill_their_shapes(void);

#endif
