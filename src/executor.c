/* Runs a plan on the caller's buffers: the data -> output copy (skipped in
   place), then the plan's path. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "half.h"
#include "parallel/parallel_for.h"
#include "plan.h"
#include "simd/simd.h"

/* Bytes per task of the data -> output copy: large enough to stream, small
   enough to balance. */
#define COPY_BLOCK (256 * 1024)

typedef struct {
    const sgk_plan *plan;
    const uint8_t *src;
    uint8_t *dst;
    int64_t bytes;
} job;

static void copy_blocks(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    int64_t from = begin * COPY_BLOCK;
    int64_t to = end * COPY_BLOCK < j->bytes ? end * COPY_BLOCK : j->bytes;
    sgk_simd_copy_bytes(j->dst + from, j->src + from, (size_t)(to - from));
}

static void copy_buffer(const sgk_plan *plan, void *dst, const void *src, int64_t bytes)
{
    job j = {plan, src, dst, bytes};
    sgk_parallel_for((bytes + COPY_BLOCK - 1) / COPY_BLOCK, plan->threads, bytes,
                     plan->parallel_min_bytes, copy_blocks, &j);
}

static void move_pairs(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    size_t slice_bytes = (size_t)p->slice_len * p->elem_size;
    if (p->scatter)
        sgk_simd_move_slices(j->dst, p->slot, j->src, p->position, begin, end, slice_bytes);
    else
        sgk_simd_move_slices(j->dst, NULL, j->src, p->slot, begin, end, slice_bytes);
}

static void reduce_pairs(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    size_t slice_bytes = (size_t)p->slice_len * p->elem_size;
    for (int64_t n = begin; n < end; n++) {
        int64_t from = p->position != NULL ? p->position[n] : n;
        p->reduce(j->dst + (size_t)p->slot[n] * slice_bytes, j->src + (size_t)from * slice_bytes,
                  p->slice_len);
    }
}

/* fp16/bf16 add/sub/mul accumulated in float32: each touched slot is widened
   once, takes all its updates in order, and is rounded once at the end. */
static void serial_wide(const sgk_plan *p, uint8_t *out, const uint8_t *updates, float *acc,
                        uint8_t *touched)
{
    float (*widen)(uint16_t) = p->dtype == SGK_FLOAT16 ? sgk_f16_to_f32 : sgk_bf16_to_f32;
    uint16_t (*narrow)(float) = p->dtype == SGK_FLOAT16 ? sgk_f32_to_f16 : sgk_f32_to_bf16;
    uint16_t *dst = (uint16_t *)out;
    const int64_t L = p->slice_len;
    for (int64_t n = 0; n < p->count; n++) {
        int64_t s = p->slot[n];
        if (!touched[s]) {
            touched[s] = 1;
            for (int64_t i = 0; i < L; i++)
                acc[s * L + i] = widen(dst[s * L + i]);
        }
        p->widen_reduce(acc + s * L, updates + (size_t)n * L * 2, L);
    }
    for (int64_t n = 0; n < p->count; n++) {
        int64_t s = p->slot[n];
        if (touched[s]) {
            touched[s] = 0;
            for (int64_t i = 0; i < L; i++)
                dst[s * L + i] = narrow(acc[s * L + i]);
        }
    }
}

static bool overlaps(const void *a, int64_t a_bytes, const void *b, int64_t b_bytes)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a_bytes > 0 && b_bytes > 0 && x < y + (uintptr_t)b_bytes &&
           y < x + (uintptr_t)a_bytes;
}

/* caller prefixes the messages: the operator for one-shot calls, "execute"
   (followed by the plan's operator) for sgk_execute. */
static sgk_status check_buffers(const char *caller, const sgk_plan *p, const void *data,
                                const void *updates, void *output)
{
    const char *of = caller == p->op ? "" : p->op;
    const char *sep = caller == p->op ? "" : " plan: ";
    const int64_t es = (int64_t)p->elem_size;
    const int64_t data_bytes = p->data_elems * es, out_bytes = p->output_elems * es;
    const int64_t upd_bytes = p->updates_elems * es;
    if (data == NULL && data_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%sdata buffer is NULL", of, sep);
    if (output == NULL && out_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%soutput buffer is NULL", of, sep);
    if (p->scatter && updates == NULL && upd_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%supdates buffer is NULL", of,
                        sep);
    if (p->scatter && overlaps(updates, upd_bytes, output, out_bytes))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller,
                        "%s%supdates buffer overlaps the output", of, sep);
    if ((!p->scatter || data != output) && overlaps(data, data_bytes, output, out_bytes))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller,
                        "%s%sdata buffer overlaps the output%s", of, sep,
                        p->scatter ? " without being it" : "");
    return SGK_OK;
}

sgk_status sgk_execute(const sgk_plan *plan, const void *data, const void *updates,
                       void *output)
{
    if (plan == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "execute", "plan is NULL");
    return sgk_execute_for("execute", plan, data, updates,
                           output);
}

sgk_status sgk_execute_for(const char *caller, const sgk_plan *plan, const void *data,
                           const void *updates, void *output)
{
    sgk_status status = check_buffers(caller, plan, data, updates, output);
    if (status != SGK_OK)
        return status;
    /* Bytes read plus bytes written by the pairs: twice the moved slices, a
       product the front ends checked to fit once, so halve before doubling. */
    const int64_t moved = plan->count * plan->slice_len * (int64_t)plan->elem_size;
    const int64_t traffic = moved > INT64_MAX / 2 ? INT64_MAX : 2 * moved;

    if (!plan->scatter) {
        job j = {plan, data, output, 0};
        sgk_parallel_for(plan->count, plan->threads, traffic, plan->parallel_min_bytes,
                         move_pairs, &j);
        return SGK_OK;
    }

    /* Scratch first: after the copy below nothing may fail. */
    float *acc = NULL;
    uint8_t *touched = NULL;
    if (plan->path == SGK_PATH_SERIAL_WIDE) {
        acc = malloc((size_t)plan->output_elems * sizeof *acc);
        touched = calloc((size_t)plan->slots, 1);
        if (acc == NULL || touched == NULL) {
            free(acc);
            free(touched);
            return sgk_fail(SGK_ERR_OUT_OF_MEMORY, caller,
                            "no memory for the float32 accumulator");
        }
    }
    if (output != data)
        copy_buffer(plan, output, data, plan->data_elems * (int64_t)plan->elem_size);

    job j = {plan, updates, output, 0};
    switch (plan->path) {
    case SGK_PATH_DISTINCT:
        sgk_parallel_for(plan->count, plan->threads, traffic, plan->parallel_min_bytes,
                         plan->reduce != NULL ? reduce_pairs : move_pairs, &j);
        break;
    case SGK_PATH_SERIAL:
        reduce_pairs(&j, 0, plan->count);
        break;
    case SGK_PATH_SERIAL_WIDE:
        serial_wide(plan, output, updates, acc, touched);
        break;
    case SGK_PATH_GATHER:
        break;
    }
    free(acc);
    free(touched);
    return SGK_OK;
}
