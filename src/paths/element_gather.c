/* Gathers of single 4- and 8-byte elements, through vector gathers: the
   slots in 32 bits where they fit (Highway gathers with indices as wide as
   the elements), and, where each chunk of outputs reads a narrow range of
   the source (an Elements gather along its last axis), that range fetched
   while the chunk before it is gathered: a sequential stream in place of
   random misses. */
#include <stdio.h>
#include <stdlib.h>

#include "registry/registry.h"
#include "runtime/error.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Outputs per prefetch window. */
#define GATHER_CHUNK 1024

/* Prefetch windows pay while they fit in L1 beside the chunk's indices and
   output. */
#define WINDOW_MAX_BYTES (32 * 1024)

typedef struct {
    sgk_plan base;
    int64_t *slot;   /* 8-byte elements */
    int32_t *slot32; /* 4-byte elements */
    int32_t *window; /* source slots [window[2c], window[2c + 1]] of chunk c,
                        or NULL when the ranges are too wide to fetch */
} element_plan;

static const char *element_unfit(const sgk_choice *c)
{
    const sgk_problem *p = c->problem;
    if (p->scatter)
        return "scatters take no vector gathers";
    if (p->slice_len != 1)
        return "slices are rows";
    return sgk_elem_size(p->dtype) == 8 || sgk_gather_slots_fit_32(p)
               ? NULL
               : "no vector gather for this element size";
}

static bool element_preferred(const sgk_choice *c, const char **why)
{
    (void)c;
    *why = "vector gathers";
    return true;
}

/* Chunks [first, last) of GATHER_CHUNK outputs: each chunk's range of
   source slots recorded. */
static void chunk_windows(void *ctx, int worker, int64_t first, int64_t last)
{
    element_plan *ep = ctx;
    (void)worker;
    const int32_t *slot = ep->slot32;
    const int64_t count = ep->base.count;
    for (int64_t c = first; c < last; c++) {
        int32_t lo = INT32_MAX, hi = 0;
        /* one bound, read once: the loop vectorizes */
        const int64_t end = (c + 1) * GATHER_CHUNK < count ? (c + 1) * GATHER_CHUNK : count;
        for (int64_t n = c * GATHER_CHUNK; n < end; n++) {
            lo = slot[n] < lo ? slot[n] : lo;
            hi = slot[n] > hi ? slot[n] : hi;
        }
        ep->window[2 * c] = lo;
        ep->window[2 * c + 1] = hi;
    }
}

/* Chunks sampled before the whole pass: random indices make every window
   too wide, and the pass would then cost a read of every slot for
   nothing. */
#define WINDOW_SAMPLES 8

/* Whether the chunks' windows are narrow enough to fetch, on average. */
static bool windows_narrow(const int32_t *window, int64_t chunks, int64_t step)
{
    int64_t span = 0, counted = 0;
    for (int64_t c = 0; c < chunks; c += step, counted++)
        span += window[2 * c + 1] - window[2 * c] + 1;
    return counted > 0 && span / counted * 4 <= WINDOW_MAX_BYTES;
}

/* Records the chunks' source ranges when they are narrow enough: first
   those of a few chunks spread over the outputs, then, when those are,
   every chunk's. */
static sgk_status find_windows(element_plan *ep)
{
    const sgk_plan *plan = &ep->base;
    int64_t chunks = (plan->count + GATHER_CHUNK - 1) / GATHER_CHUNK;
    ep->window = sgk_alloc_array(2 * chunks, sizeof *ep->window);
    if (ep->window == NULL)
        return SGK_ERR_OUT_OF_MEMORY;
    const int64_t step = chunks > WINDOW_SAMPLES ? chunks / WINDOW_SAMPLES : 1;
    for (int64_t c = 0; c < chunks; c += step)
        chunk_windows(ep, 0, c, c + 1);
    bool narrow = windows_narrow(ep->window, chunks, step);
    if (narrow && step > 1) {
        sgk_parallel_for(chunks, plan->threads, plan->count * 4, plan->parallel_min_bytes,
                         chunk_windows, ep);
        narrow = windows_narrow(ep->window, chunks, 1);
    }
    if (!narrow) {
        free(ep->window);
        ep->window = NULL;
    }
    return SGK_OK;
}

static void element_destroy(sgk_plan *plan)
{
    element_plan *ep = (element_plan *)plan;
    free(ep->slot);
    free(ep->slot32);
    free(ep->window);
    sgk_path_free(&ep->base);
}

static sgk_status element_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    element_plan *ep = sgk_path_alloc(base, sizeof *ep);
    if (ep == NULL)
        return sgk_plan_out_of_memory(base);
    if (!sgk_gather_slots_fit_32(p)) {
        sgk_status status = sgk_pairs_map(&ep->base, p, &ep->slot);
        if (status != SGK_OK) {
            sgk_path_free(&ep->base);
            return status;
        }
        *out = &ep->base;
        return SGK_OK;
    }
    ep->slot32 = sgk_alloc_array(p->count, sizeof *ep->slot32);
    if (ep->slot32 == NULL) {
        sgk_path_free(&ep->base);
        return sgk_fail(SGK_ERR_OUT_OF_MEMORY, p->op, "no memory for %lld index tuples",
                        (long long)p->count);
    }
    sgk_status status =
        sgk_map_indices(p, NULL, ep->slot32, base->threads, base->parallel_min_bytes);
    if (status == SGK_OK && find_windows(ep) != SGK_OK)
        status = sgk_plan_out_of_memory(base);
    if (status != SGK_OK) {
        element_destroy(&ep->base);
        return status;
    }
    *out = &ep->base;
    return SGK_OK;
}

typedef struct {
    const element_plan *ep;
    const sgk_buffers *b;
} job;

/* Chunk by chunk, each chunk's source range (a line-aligned cover of its
   window) fetched while the chunk before it is gathered. */
static void gather_windows(const job *j, int64_t begin, int64_t end)
{
    const element_plan *ep = j->ep;
    const int64_t chunks = (ep->base.count + GATHER_CHUNK - 1) / GATHER_CHUNK;
    for (int64_t n = begin, next; n < end; n = next) {
        int64_t c = n / GATHER_CHUNK;
        next = (c + 1) * GATHER_CHUNK < end ? (c + 1) * GATHER_CHUNK : end;
        const uint8_t *lo = NULL;
        size_t span = 0;
        if (c + 1 < chunks) {
            const uintptr_t first = (uintptr_t)(j->b->data + (size_t)ep->window[2 * c + 2] * 4);
            const uintptr_t last = (uintptr_t)(j->b->data + (size_t)ep->window[2 * c + 3] * 4);
            lo = (const uint8_t *)(first & ~(uintptr_t)63);
            span = (size_t)(last - (uintptr_t)lo) + 4;
        }
        sgk_simd_gather_elements32(j->b->out, j->b->data, ep->slot32, n, next,
                                   j->b->stream, lo, span);
    }
}

static void gather_elements(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const element_plan *ep = j->ep;
    (void)worker;
    if (ep->window != NULL)
        gather_windows(j, begin, end);
    else if (ep->slot32 != NULL)
        sgk_simd_gather_elements32(j->b->out, j->b->data, ep->slot32, begin, end,
                                   j->b->stream, NULL, 0);
    else
        sgk_simd_gather_elements64(j->b->out, j->b->data, ep->slot, begin, end,
                                   j->b->stream);
}

static sgk_status element_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const element_plan *)plan, b};
    sgk_gather_for(plan, gather_elements, &j);
    return SGK_OK;
}

static void element_describe(const sgk_plan *plan, char *text, size_t size)
{
    snprintf(text, size, "path gather-elements (vector gathers%s); %lld rows from %lld slots",
             ((const element_plan *)plan)->window != NULL ? ", each chunk's source fetched ahead"
                                                          : "",
             (long long)plan->count, (long long)plan->slots);
}

const sgk_path sgk_path_element_gather = {
    .name = "gather-elements",
    .unfit = element_unfit,
    .preferred = element_preferred,
    .make = element_make,
    .run = element_run,
    .describe = element_describe,
    .destroy = element_destroy,
};
