/*
 * The seed examples' table (tests/support/seed_examples.h), its rows from
 * tests/seeds/examples.def.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "common.h"
#include "seed_examples.h"

#define SEED_DIMS_(...) (const int64_t[]){__VA_ARGS__}
#define SEED_REALS_(...) (const double[]){__VA_ARGS__}
#define SEED_EXAMPLE(name, where, types, attribute, dd, dv, id, iv, ud, uv, od, ov)           \
    [SEED_##name] = {#name,                                                                 \
                     where,                                                                 \
                     types,                                                                 \
                     attribute,                                                             \
                     {SEED_DIMS_ dd, SEED_DIMS_ id, SEED_DIMS_ ud, SEED_DIMS_ od},          \
                     {SEED_REALS_ dv, SEED_REALS_ iv, SEED_REALS_ uv, SEED_REALS_ ov},      \
                     SEED_DIMS_ iv},
const seed_example seed_examples[SEED_EXAMPLE_COUNT] = {
#include "../seeds/examples.def"
};
#undef SEED_EXAMPLE

num_t seed_num(int example, int t)
{
    const seed_example *e = &seed_examples[example];
    assert_true(e->dims[t][0] > 0 && e->values[t][0] > 0);
    return (num_t){(int32_t)e->dims[t][0], e->dims[t] + 1, e->values[t] + 1};
}

idx_t seed_idx(int example)
{
    const seed_example *e = &seed_examples[example];
    assert_true(e->dims[SEED_INDICES][0] > 0 && e->index_values[0] > 0);
    return (idx_t){(int32_t)e->dims[SEED_INDICES][0], e->dims[SEED_INDICES] + 1,
                   e->index_values + 1};
}

num_t seed_shaped(int example, int t, const double *values)
{
    const seed_example *e = &seed_examples[example];
    return (num_t){(int32_t)e->dims[t][0], e->dims[t] + 1, values};
}

num_t seed_corrected_output(int example, const double *corrected)
{
    num_t printed = seed_num(example, SEED_OUTPUT);
    int64_t n = tc_numel(printed.rank, printed.shape);
    int64_t differ = 0;
    for (int64_t i = 0; i < n; i++)
        differ += printed.v[i] != corrected[i];
    if (differ == 0)
        fail_msg("%s (%s): the correction equals what the seed prints", seed_examples[example].name,
                 seed_examples[example].where);
    return seed_shaped(example, SEED_OUTPUT, corrected);
}

int seed_examples_fill_their_shapes(void)
{
    int ok = 1;
    for (int x = 0; x < SEED_EXAMPLE_COUNT; x++) {
        const seed_example *e = &seed_examples[x];
        for (int t = 0; t < SEED_TENSORS; t++) {
            int64_t count = (int64_t)e->values[t][0];
            int64_t want = tc_numel((int32_t)e->dims[t][0], e->dims[t] + 1);
            if (count != 0 && count != want) {
                print_error("%s (%s): tensor %d has %lld values for %lld elements\n", e->name,
                            e->where, t, (long long)count, (long long)want);
                ok = 0;
            }
        }
    }
    return ok;
}
