#include <stdlib.h>
#include <string.h>

#include "paths/path.h"

/* One-shot plans live and die inside one call on one thread: a block per
   thread serves them all.  It is busy for the length of the call (or of a
   reused plan's execution that took the thread's buffers); a call nested
   in another on the same thread (a host pool's task calling sgk while
   this thread waits in sgk) finds it busy and allocates, and so knows it
   must not touch the thread's other one-shot buffers either. */
static _Thread_local union {
    max_align_t align;
    unsigned char bytes[SGK_PLAN_BLOCK_BYTES];
} plan_block;
static _Thread_local int plan_block_busy;

void *sgk_path_alloc(const sgk_plan *base, size_t size)
{
    sgk_plan *plan;
    if (base->one_shot && size <= sizeof plan_block && !plan_block_busy) {
        plan_block_busy = 1;
        plan = memset(plan_block.bytes, 0, size);
    } else {
        plan = calloc(1, size);
    }
    if (plan != NULL)
        memcpy(plan, base, sizeof *base);
    return plan;
}

bool sgk_path_owns_thread_buffers(const sgk_plan *plan)
{
    return (const unsigned char *)plan == plan_block.bytes;
}

bool sgk_path_take_thread_buffers(void)
{
    if (plan_block_busy)
        return false;
    plan_block_busy = 1;
    return true;
}

void sgk_path_give_thread_buffers(void)
{
    plan_block_busy = 0;
}

void sgk_path_free(sgk_plan *plan)
{
    if (sgk_path_owns_thread_buffers(plan))
        plan_block_busy = 0;
    else
        free(plan);
}
