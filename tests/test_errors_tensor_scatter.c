/*
 * The error contract of TensorScatter (tests/support/error_cases.h states
 * it for the other operators): every bad call returns its exact status,
 * leaves a message that names the operator and the offending value in
 * sgk_last_error(), and writes nothing: the output, or the cache when the
 * call is in place, stays byte for byte as it was.  Each case is a valid
 * call with one thing changed, made one-shot, one-shot in place and as a
 * plan (where the plan sees the fault).
 *
 * Base: cache [2, 3, 6, 4] float32, update [2, 3, 2, 4], write_indices [2]
 * int64 = {1, 4}, axis -2, linear.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

static const int64_t T_CSHAPE[] = {2, 3, 6, 4};
static const int64_t T_USHAPE[] = {2, 3, 2, 4};
static const int64_t T_WSHAPE[] = {2};
#define T_CACHE 144
#define T_UPDATE 48

typedef struct {
    sgk_tensor cache, update, write;
    int64_t ushape[8], cshape[8], wshape[2];
    int64_t w[4];
    int32_t w32[4];
    int64_t axis;
    sgk_tensor_scatter_mode mode;
    int null_cache, null_update, no_write, null_output, null_write_data;
} tcase;

static tcase ts_base(void)
{
    tcase c = {.axis = -2, .mode = SGK_TENSOR_SCATTER_LINEAR, .w = {1, 4}};
    memcpy(c.cshape, T_CSHAPE, sizeof T_CSHAPE);
    memcpy(c.ushape, T_USHAPE, sizeof T_USHAPE);
    memcpy(c.wshape, T_WSHAPE, sizeof T_WSHAPE);
    c.cache = (sgk_tensor){SGK_FLOAT32, 4, c.cshape, DATA_F};
    c.update = (sgk_tensor){SGK_FLOAT32, 4, c.ushape, UPD_F};
    c.write = (sgk_tensor){SGK_INT64, 1, c.wshape, NULL};
    return c;
}

/* The tensors' shape pointers point into c itself: fix them after a copy. */
static void bind(tcase *c)
{
    c->cache.shape = c->cshape;
    c->update.shape = c->ushape;
    c->write.shape = c->wshape;
    if (c->write.data == NULL && !c->null_write_data) {
        for (int i = 0; i < 4; i++)
            c->w32[i] = (int32_t)c->w[i];
        c->write.data = c->write.dtype == SGK_INT32 ? (void *)c->w32 : (void *)c->w;
    }
}

static void run_ts_at(const char *file, int line, const char *label, tcase *c, sgk_status want,
                      const char *needle)
{
    bind(c);
    const char *needles[1] = {needle};
    const int64_t cache_elems = tc_numel(c->cache.rank, c->cache.shape);
    const size_t cache_bytes =
        (size_t)(cache_elems > 0 && cache_elems < 4096 ? cache_elems : T_CACHE) * 4 + GUARD;
    uint8_t *out = malloc(cache_bytes), *cache = malloc(cache_bytes);
    memset(out, 0x5C, cache_bytes);
    memcpy(cache, DATA_F, cache_bytes);
    void *out_before = snapshot(out, cache_bytes), *cache_before = snapshot(cache, cache_bytes);
    const sgk_tensor *w = c->no_write ? NULL : &c->write;
    char what[200];

    for (int in_place = 0; in_place < 2; in_place++) {
        if (in_place && (c->null_cache || c->null_output))
            continue;
        sgk_tensor ct = c->cache;
        if (c->cache.data == DATA_F)
            ct.data = cache;
        void *dest = c->null_output ? NULL : in_place ? (void *)cache : (void *)out;
        prime_last_error("tensor_scatter: ");
        sgk_status st = sgk_tensor_scatter(c->null_cache ? NULL : &ct,
                                           c->null_update ? NULL : &c->update, w, c->axis,
                                           c->mode, dest);
        snprintf(what, sizeof what, "%s (one-shot%s)", label, in_place ? ", in place" : "");
        check_error_at(file, line, what, st, want, "tensor_scatter: ", needles, needle ? 1 : 0);
        check_bytes_at(file, line, what, "output", out, out_before, cache_bytes);
        check_bytes_at(file, line, what, "cache", cache, cache_before, cache_bytes);
    }
    if (!c->null_output) {
        sgk_plan *plan = NULL;
        prime_last_error("tensor_scatter: ");
        sgk_status st = sgk_plan_tensor_scatter(&plan, c->null_cache ? NULL : &c->cache,
                                                c->null_update ? NULL : &c->update, w, c->axis,
                                                c->mode, 0);
        snprintf(what, sizeof what, "%s (plan)", label);
        check_error_at(file, line, what, st, want, "tensor_scatter: ", needles,
                       needle ? 1 : 0);
        if (plan != NULL)
            failf(file, line, "%s: a plan was handed out", what);
    }
    free(out_before);
    free(cache_before);
    free(out);
    free(cache);
}
#define RUN_TS(label, c, want, needle) run_ts_at(__FILE__, __LINE__, label, c, want, needle)

static void test_tensor_scatter_valid(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++)
        for (int ix = 0; ix < 2; ix++) {
            tcase c = ts_base();
            c.mode = (sgk_tensor_scatter_mode)mode;
            c.write.dtype = ix ? SGK_INT64 : SGK_INT32;
            bind(&c);
            float out[T_CACHE];
            CHECK_OK(sgk_tensor_scatter(&c.cache, &c.update, &c.write, c.axis, c.mode, out));
            CHECK_OK(sgk_tensor_scatter(&c.cache, &c.update, NULL, 2, c.mode, out));
            sgk_plan *plan;
            CHECK_OK(sgk_plan_tensor_scatter(&plan, &c.cache, &c.update, &c.write, c.axis,
                                             c.mode, 0));
            sgk_plan_destroy(plan);
        }
    sgk_tensor_scatter_mode m;
    CHECK_OK(sgk_tensor_scatter_mode_from_name("circular", &m));
    assert_int_equal(m, SGK_TENSOR_SCATTER_CIRCULAR);
    CHECK_OK(sgk_tensor_scatter_mode_from_name("linear", &m));
    assert_int_equal(m, SGK_TENSOR_SCATTER_LINEAR);
    assert_int_equal(sgk_tensor_scatter_mode_from_name("ring", &m), SGK_ERR_INVALID_ARGUMENT);
}

/* The last batch's write index out of range (each_bad_index). */
static void ts_bad_write_index(void *ctx, int64_t value, sgk_dtype index_type,
                               const char *label, const char *needle)
{
    (void)ctx;
    tcase c = ts_base();
    c.w[1] = value;
    c.write.dtype = index_type;
    RUN_TS(label, &c, SGK_ERR_INDEX_OUT_OF_RANGE, needle);
}

/* Linear writes that leave the sequence: past its end, before its start,
   at the int32 and int64 limits (where w + sequence_length overflows),
   found in the last batch. */
static void test_tensor_scatter_write_positions(void **state)
{
    (void)state;
    static const int64_t bad[] = {5, 6, 1000, -1, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    static const char *const text[] = {"= 5", "= 6", "= 1000", "= -1", "= 2147483647",
                                       "= -2147483648", "= 9223372036854775807",
                                       "= -9223372036854775808"};
    each_bad_index("write index", bad, text, sizeof bad / sizeof bad[0], ts_bad_write_index,
                   NULL);
    tcase c = ts_base();
    c.w[0] = 7;
    RUN_TS("first batch named", &c, SGK_ERR_INDEX_OUT_OF_RANGE, "write_indices[0] = 7");
    /* nothing written, still checked (ONNX: w + s <= max_sequence_length) */
    c = ts_base();
    c.ushape[2] = 0;
    c.w[1] = 7;
    RUN_TS("empty update, write index past the end", &c, SGK_ERR_INDEX_OUT_OF_RANGE, "= 7");
    /* circular mode takes any value: the positions wrap */
    c = ts_base();
    c.mode = SGK_TENSOR_SCATTER_CIRCULAR;
    c.w[0] = INT64_MIN;
    c.w[1] = 1000;
    bind(&c);
    float out[T_CACHE];
    CHECK_OK(sgk_tensor_scatter(&c.cache, &c.update, &c.write, c.axis, c.mode, out));
}

static void test_tensor_scatter_shapes(void **state)
{
    (void)state;
    tcase c = ts_base();
    c.axis = 0;
    RUN_TS("axis 0", &c, SGK_ERR_SHAPE, "batch dimension");
    c = ts_base();
    c.axis = -4;
    RUN_TS("axis -4 (the batch)", &c, SGK_ERR_SHAPE, "batch dimension");
    c = ts_base();
    c.axis = 4;
    RUN_TS("axis 4 of rank 4", &c, SGK_ERR_SHAPE, "axis 4");
    c = ts_base();
    c.ushape[2] = 7;
    RUN_TS("update longer than the sequence", &c, SGK_ERR_SHAPE, "update shape [2, 3, 7, 4]");
    c = ts_base();
    c.ushape[3] = 5;
    RUN_TS("update's last dimension differs", &c, SGK_ERR_SHAPE, "past_cache shape");
    c = ts_base();
    c.ushape[0] = 1;
    RUN_TS("update's batch differs", &c, SGK_ERR_SHAPE, "update shape");
    c = ts_base();
    c.update.rank = 3;
    RUN_TS("update rank 3", &c, SGK_ERR_SHAPE, "update shape");
    c = ts_base();
    c.wshape[0] = 3;
    RUN_TS("write_indices [3] for batch 2", &c, SGK_ERR_SHAPE, "write_indices shape [3]");
    c = ts_base();
    c.write.rank = 2;
    c.wshape[1] = 1;
    RUN_TS("write_indices [2, 1]", &c, SGK_ERR_SHAPE, "write_indices shape");
    c = ts_base();
    c.write.dtype = SGK_UINT64;
    RUN_TS("uint64 write_indices", &c, SGK_ERR_UNSUPPORTED, "int32 or int64");
    c = ts_base();
    c.cache.rank = 1;
    c.update.rank = 1;
    c.axis = -1;
    RUN_TS("rank 1 cache", &c, SGK_ERR_SHAPE, "rank 1");
}

static void test_tensor_scatter_arguments(void **state)
{
    (void)state;
    tcase c = ts_base();
    c.mode = (sgk_tensor_scatter_mode)2;
    RUN_TS("mode 2", &c, SGK_ERR_INVALID_ARGUMENT, "mode 2");
    c = ts_base();
    c.update.dtype = SGK_FLOAT64;
    RUN_TS("update float64, cache float32", &c, SGK_ERR_INVALID_ARGUMENT, "float64");
    c = ts_base();
    c.null_cache = 1;
    RUN_TS("NULL past_cache", &c, SGK_ERR_INVALID_ARGUMENT, "past_cache");
    c = ts_base();
    c.null_update = 1;
    RUN_TS("NULL update", &c, SGK_ERR_INVALID_ARGUMENT, "update");
    c = ts_base();
    c.null_output = 1;
    RUN_TS("NULL output", &c, SGK_ERR_INVALID_ARGUMENT, "output");
    c = ts_base();
    c.null_write_data = 1;
    RUN_TS("write_indices without a buffer", &c, SGK_ERR_INVALID_ARGUMENT, "write_indices");

    /* buffers that overlap the output: the update, and write indices that
       the write would overwrite */
    tcase b = ts_base();
    bind(&b);
    float out[T_CACHE + T_UPDATE];
    memset(out, 0, sizeof out);
    sgk_tensor upd = b.update;
    upd.data = out + 8;
    void *before = snapshot(out, sizeof out);
    prime_last_error("tensor_scatter: ");
    sgk_status st = sgk_tensor_scatter(&b.cache, &upd, &b.write, b.axis, b.mode, out);
    check_error_at(__FILE__, __LINE__, "update overlapping the output", st,
                   SGK_ERR_INVALID_ARGUMENT, "tensor_scatter: ",
                   (const char *const[]){"overlaps"}, 1);
    check_bytes_at(__FILE__, __LINE__, "update overlapping the output", "output", out, before,
                   sizeof out);
    int64_t *w_in_out = (int64_t *)(void *)(out + 16);
    w_in_out[0] = 1;
    w_in_out[1] = 4;
    sgk_tensor wt = b.write;
    wt.data = w_in_out;
    memcpy(before, out, sizeof out);
    prime_last_error("tensor_scatter: ");
    st = sgk_tensor_scatter(&b.cache, &b.update, &wt, b.axis, b.mode, out);
    check_error_at(__FILE__, __LINE__, "write_indices inside the output", st,
                   SGK_ERR_INVALID_ARGUMENT, "tensor_scatter: ",
                   (const char *const[]){"overlaps"}, 1);
    check_bytes_at(__FILE__, __LINE__, "write_indices inside the output", "output", out, before,
                   sizeof out);
    free(before);

    /* a plan executed on an output overlapping the cache without being it */
    sgk_plan *plan;
    CHECK_OK(sgk_plan_tensor_scatter(&plan, &b.cache, &b.update, &b.write, b.axis, b.mode, 0));
    float cache[T_CACHE + 8];
    memcpy(cache, DATA_F, sizeof cache);
    before = snapshot(cache, sizeof cache);
    prime_last_error("execute: ");
    st = sgk_execute(plan, cache, UPD_F, cache + 4);
    check_error_at(__FILE__, __LINE__, "execute into a shifted cache", st,
                   SGK_ERR_INVALID_ARGUMENT, "execute: ",
                   (const char *const[]){"overlaps"}, 1);
    check_bytes_at(__FILE__, __LINE__, "execute into a shifted cache", "cache", cache, before,
                   sizeof cache);
    free(before);
    sgk_plan_destroy(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensor_scatter_valid),
        cmocka_unit_test(test_tensor_scatter_write_positions),
        cmocka_unit_test(test_tensor_scatter_shapes),
        cmocka_unit_test(test_tensor_scatter_arguments),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
