/* Scatters on the calling thread: one block, pairs in original order; the
   sequential definition itself. */
#include "paths/owner_blocks.h"

static const char *serial_unfit(const sgk_choice *c)
{
    return c->problem->scatter ? NULL : "gathers run as gathers";
}

/* One thread either way: one block, pairs in order, nothing to group. */
static bool serial_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    /* output and updates each fit in memory; their sum may still not fit
       in 63 bits, which only means "large" here */
    int64_t moved;
    if (__builtin_add_overflow(plan->slots * slice_bytes, plan->count * slice_bytes, &moved) ||
        __builtin_add_overflow(moved, plan->count * slice_bytes, &moved))
        moved = INT64_MAX;
    *why = plan->threads <= 1 ? "one thread" : "below SGK_PARALLEL_MIN_BYTES";
    return moved < plan->parallel_min_bytes || plan->threads <= 1;
}

static sgk_status serial_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    return sgk_blocks_make(base, p, true, out);
}

const sgk_path sgk_path_serial = {
    .name = "serial",
    .unfit = serial_unfit,
    .preferred = serial_preferred,
    .make = serial_make,
    .run = sgk_blocks_run,
    .describe = sgk_blocks_describe,
    .destroy = sgk_blocks_destroy,
};
