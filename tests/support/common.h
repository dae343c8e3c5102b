/*
 * Helpers shared by the test programs (tests/test_*.c) and by the
 * independent reference (tests/support/reference.c, tests/support/tolerance.c): allocation,
 * facts about the element types, one deterministic random number generator,
 * and byte comparisons and dumps for failure reports.  Names start with tc_
 * ("tests/common"), except xmalloc and CHECK_OK, which are what readers
 * expect them to be.
 *
 * tests/support/common.c calls neither the library nor cmocka: the reference must
 * not depend on the code it checks, test_partition links only the library's
 * internal sources, and the fuzz targets (tests/fuzz/run-fuzzers) link
 * common.c without cmocka.  What needs the library (tc_last_error,
 * CHECK_OK) is inline here and costs nothing where it is not used.
 */
#ifndef SGK_TESTS_COMMON_H
#define SGK_TESTS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

/* ---- allocation ----------------------------------------------------------- */

/* malloc that never returns NULL (n = 0 allocates a byte, so that the result
   can always be freed and compared).  On failure it prints the size and
   aborts: a test cannot go on without its buffers, and aborting is safe from
   any thread, where cmocka's failure path is not. */
void *xmalloc(size_t n);

/* ---- element types and shapes --------------------------------------------- */

/* Bytes per element, from the dtype list of include/sgk.h (never asked of the
   library, whose sgk_dtype_size is under test); 0 for an invalid dtype. */
size_t tc_dtype_size(sgk_dtype dtype);
/* "float32", ...; "?" for an invalid value.  For failure reports. */
const char *tc_dtype_name(sgk_dtype dtype);
const char *tc_reduction_name(sgk_reduction reduction);
/* "SGK_ERR_SHAPE", ...; "(unknown status)" for an invalid value.  Written
   out here so that a report does not depend on sgk_status_name. */
const char *tc_status_name(sgk_status status);

/* Product of the dimensions (1 for rank 0). */
int64_t tc_numel(int32_t rank, const int64_t *shape);

/* ---- deterministic random numbers (splitmix64) ----------------------------- */

/* Every test draws from a fixed seed, so a failure reproduces; the state may
   be initialized with any value, {0} included. */
typedef struct {
    uint64_t state;
} tc_rng;

uint64_t tc_rng_next(tc_rng *r);
/* Uniform in [0, n); n > 0. */
int64_t tc_rng_below(tc_rng *r, int64_t n);
/* Uniform in [lo, hi]; lo <= hi. */
int64_t tc_rng_range(tc_rng *r, int64_t lo, int64_t hi);
/* 1 with probability percent / 100. */
int tc_rng_percent(tc_rng *r, int percent);
/* Uniform in [0, 1), with all 53 bits random. */
double tc_rng_unit(tc_rng *r);
/* Uniform in [lo, hi) with a full mantissa, so that any change in the order
   of a float sum shows in the low bits. */
double tc_rng_uniform(tc_rng *r, double lo, double hi);
/* n float32 values from tc_rng_uniform(r, lo, hi). */
void tc_fill_uniform_f32(tc_rng *r, float *p, size_t n, double lo, double hi);

/* Threads of this process, from /proc; -1 where that cannot be read or
   means nothing (under emulation: SGK_TEST_EMULATED). */
int tc_thread_count(void);

/* ---- bytes ----------------------------------------------------------------- */

/* Fills n bytes with a pattern that changes with the position, so that a
   buffer which must come out untouched is not satisfied by a shifted copy of
   itself or by a memset. */
void tc_fill_pattern(void *p, size_t n);
/* The index of the first byte where a and b differ, or n when they are equal. */
size_t tc_first_difference(const void *a, const void *b, size_t n);
/* The index of the first of n bytes at p that is not `byte`, or n when all
   are (a guard zone, or an output that must not have been written). */
size_t tc_first_byte_not(const void *p, uint8_t byte, size_t n);
/* Prints n bytes to stdout as hex, most significant first: one element as
   the number it holds (the tests run on little-endian machines). */
void tc_print_hex(const void *p, size_t n);

/* ---- the library's error text ---------------------------------------------- */

/* sgk_last_error(), never NULL, for messages. */
static inline const char *tc_last_error(void)
{
    const char *m = sgk_last_error();
    return m ? m : "(null)";
}

/* Fails the current cmocka test, naming the call, unless it returns SGK_OK.
   Only from the thread that runs the test (cmocka's failure path). */
#define CHECK_OK(call)                                                                    \
    do {                                                                                  \
        sgk_status st_ = (call);                                                          \
        if (st_ != SGK_OK) {                                                              \
            print_error("%s returned %d (%s): %s\n", #call, (int)st_,                     \
                        tc_status_name(st_), tc_last_error());                            \
            fail();                                                                       \
        }                                                                                 \
    } while (0)

#endif /* SGK_TESTS_COMMON_H */
