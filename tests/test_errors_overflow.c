/*
 * SGK_ERR_OVERFLOW: tensors whose element or byte counts do not fit in 64
 * bits (data, indices, updates, and GatherND's output from inputs that
 * fit), refused before any buffer is read: the buffers are small stand-ins.
 * Harness and contract: tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>


#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

/* ---- SGK_ERR_OVERFLOW -------------------------------------------------- */

/* A case whose buffers are dummies that must never be dereferenced (except
   the small real indices given). */
static opcase overflow_base(int op)
{
    opcase c = base(op);
    c.data.data = DUMMY_D;
    c.updates.data = DUMMY_U;
    c.data_elems = c.out_elems = sizeof DUMMY_D / 4;
    return c;
}

static void test_overflow(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_OVERFLOW;
    opcase c;
    switch (op) {
    case OP_SND:
        /* index [0, 0] is valid; only the size of data is wrong */
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 2};
        c.updates.shape = (const int64_t[]){1};
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 8};
        RUN("data [2^61, 8]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2}; /* 2^62 elements, 2^64 bytes */
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        c.data.dtype = c.updates.dtype = SGK_COMPLEX128;
        c.data_elems = c.out_elems = sizeof DUMMY_D / 16;
        c.data.shape = (const int64_t[]){P(30), P(30)}; /* 2^60 elements, 2^64 bytes */
        RUN("data [2^30, 2^30] complex128 (byte size)", &c, E);
        c = overflow_base(op);
        c.data.rank = 5;
        c.data.shape = (const int64_t[]){P(13), P(13), P(13), P(13), P(13)};
        c.indices.shape = (const int64_t[]){1, 5};
        c.updates.shape = (const int64_t[]){1};
        RUN("data [2^13] * 5", &c, E);
        /* indices and updates too large; data [4, 8] fine */
        c = overflow_base(op);
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(62), 2};
        c.updates.shape = (const int64_t[]){P(62)};
        RUN("indices [2^62, 2], updates [2^62]", &c, E);
        c.indices.rank = 3;
        c.indices.shape = (const int64_t[]){P(40), P(40), 2};
        c.updates.rank = 2;
        c.updates.shape = (const int64_t[]){P(40), P(40)};
        RUN("indices [2^40, 2^40, 2]", &c, E);
        break;
    case OP_GND:
        c = overflow_base(op);
        c.data.rank = 2;
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 2};
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2};
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        /* inputs fit (2^35 bytes each), the output [2^32, 2^32] does not */
        c = overflow_base(op);
        c.data.rank = 2;
        c.data.shape = (const int64_t[]){2, P(32)};
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(32), 1};
        RUN("output [2^32, 2^32]", &c, E);
        break;
    default:
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){P(40), P(40)};
        c.indices.shape = (const int64_t[]){1, 1};
        c.updates.shape = (const int64_t[]){1, 1};
        c.attr = 0;
        RUN("data [2^40, 2^40]", &c, E);
        c.data.shape = (const int64_t[]){P(61), 2};
        RUN("data [2^61, 2] float32 (byte size)", &c, E);
        /* data [1, 2^40] fits; indices (and updates / output) [2^40, 2^40] do not */
        c = overflow_base(op);
        c.data.shape = (const int64_t[]){1, P(40)};
        c.indices.data = DUMMY_I;
        c.indices.shape = (const int64_t[]){P(40), P(40)};
        c.updates.shape = (const int64_t[]){P(40), P(40)};
        c.attr = 0;
        RUN("indices [2^40, 2^40]", &c, E);
        break;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("overflow", test_overflow),
    };
    return cmocka_run_group_tests_name("sgk errors: overflow", tests, group_setup, NULL);
}
