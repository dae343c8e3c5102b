/*
 * The harness of the error tests (tests/test_errors_*.c, one program per
 * error class), which check the error contract of every public entry point
 * (docs/semantics.md: validate before write; docs/integration.md, "The C
 * API": the statuses and sgk_last_error): each failing call
 * returns the exact status, leaves a message in sgk_last_error() that names
 * the operator (and, for index errors, the offending value), and writes
 * nothing: the output buffer, or the data when output == data, stays
 * byte-for-byte as it was.
 *
 * A case is a valid call of one operator (base) with exactly one thing
 * changed; RUN makes that call in every form (one-shot, one-shot in place,
 * planned) and checks the contract each time.  test_base_cases_valid, the
 * positive control, runs first in every program that uses the bases: a base
 * that failed by itself would make every expected failure meaningless.
 *
 * Include after <cmocka.h>.
 */
#ifndef SGK_TESTS_ERROR_CASES_H
#define SGK_TESTS_ERROR_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

/* Slack after every checked buffer, to catch writes past the end too. */
#define GUARD 1024
#define P(n) ((int64_t)1 << (n))

enum { OP_SND, OP_GND, OP_SEL, OP_GEL, OP_COUNT };
/* How each operator's messages begin ("scatter_nd: ", ...). */
extern const char *const op_prefix[OP_COUNT];
/* The operators as cmocka states (PER_OP). */
extern const int op_ids[OP_COUNT];

static inline int is_scatter(int op) { return op == OP_SND || op == OP_SEL; }

/* Backing storage shared by the cases (filled by group_setup); large enough
   that a buggy library reading a little too far does not crash the whole
   program. */
extern float DATA_F[8192];
extern float UPD_F[8192];
extern int64_t IDX_ZERO[8192];
extern uint8_t BOOLS[256];
extern const char *STRS[128];
extern int64_t ONES[SGK_MAX_RANK + 8];
/* Stand-ins for tensors whose sizes overflow: never to be dereferenced. */
extern uint8_t DUMMY_D[4096], DUMMY_I[4096], DUMMY_U[4096];

/* cmocka group setup: fills the storage above. */
int group_setup(void **state);

/* ---- small helpers ---------------------------------------------------- */

/* Bytes of n elements; an invalid dtype counts as 4 bytes per element. */
size_t bytes_of(sgk_dtype t, size_t n);
/* Fails the current test at file:line with a formatted message. */
void failf(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A copy of n bytes (NULL for none), to compare with after a call. */
void *snapshot(const void *p, size_t n);
/* Fails unless got equals want: `what` was modified. */
void check_bytes_at(const char *file, int line, const char *label, const char *what,
                    const void *got, const void *want, size_t n);
/* Leaves a known, unrelated message behind, so that a call which fails
   without setting its own message is caught. */
void prime_last_error(const char *expected_prefix);
/* Fails unless the status is `want` and sgk_last_error() is non-empty,
   starts with `prefix` (unless NULL) and mentions every needle. */
void check_error_at(const char *file, int line, const char *label, sgk_status got,
                    sgk_status want, const char *prefix, const char *const *needles,
                    size_t n_needles);

/* ---- one case: an operator call with exactly one thing wrong ------------ */

enum { M_ONESHOT = 1, M_INPLACE = 2, M_PLAN = 4, M_ALL = 7 };

typedef struct {
    int op;
    sgk_tensor data, indices, updates;
    int null_tensor; /* 0, or which tensor pointer is NULL: 1 data, 2 indices, 3 updates */
    int64_t attr;    /* batch_dims or axis */
    sgk_reduction red;
    uint32_t flags;
    size_t data_elems; /* elements readable at data.data */
    size_t out_elems;  /* elements the output would have */
    int null_output;
    int modes;
    const char *needles[4];
} opcase;

/* A valid call of each operator; every case changes one thing:
     OP_SND  data [4,8], indices [4,2], updates [4]
     OP_GND  data [2,3,4], indices [2,2], output [2,4]
     OP_SEL  data [3,4], indices/updates [3,2], axis 1
     OP_GEL  data [3,4], indices [3,2], axis 1, output [3,2]
   all float32 from DATA_F and UPD_F, int64 indices. */
opcase base(int op);
/* The one-shot call of the case, on `data` (the case's own, or a copy for
   in place) into out. */
sgk_status call_oneshot(const opcase *c, const sgk_tensor *data, void *out);
/* The plan call of the case. */
sgk_status call_plan(const opcase *c, sgk_plan **plan);

/* Makes the call in every form c->modes asks for and checks the contract:
   status `want`, the message, the output (and the data) untouched, and no
   plan handed out. */
void run_case_at(const char *file, int line, const char *label, const opcase *c,
                 sgk_status want);
#define RUN(label, c, want) run_case_at(__FILE__, __LINE__, label, c, want)

/* The positive control: every base succeeds, one-shot and planned with every
   flag set, and so do the supported reductions and updates shapes that the
   error cases sit next to. */
void test_base_cases_valid(void **state);

/* ---- out-of-range index values ------------------------------------------ */

/* One out-of-range index value to try: label names the value and its index
   type for a failure, needle is how sgk's message must show the value. */
typedef void (*bad_index_case)(void *ctx, int64_t value, sgk_dtype index_type,
                               const char *label, const char *needle);

/* Calls try_one for each of the n values bad[k] (needles[k]: as the message
   shows it) as an int32 index where it fits in one, then as an int64 index,
   labelled "<what> <value> (<type>)". */
void each_bad_index(const char *what, const int64_t *bad, const char *const *needles, size_t n,
                    bad_index_case try_one, void *ctx);

/* Four cmocka tests, one per operator, of a test that reads its operator
   from *state. */
#define PER_OP(name, fn)                                                        \
    {"scatter_nd/" name, fn, NULL, NULL, (void *)&op_ids[OP_SND]},              \
    {"gather_nd/" name, fn, NULL, NULL, (void *)&op_ids[OP_GND]},               \
    {"scatter_elements/" name, fn, NULL, NULL, (void *)&op_ids[OP_SEL]},        \
    {"gather_elements/" name, fn, NULL, NULL, (void *)&op_ids[OP_GEL]}

#endif /* SGK_TESTS_ERROR_CASES_H */
