/* Scatters in destination blocks: the plan and run that owner-computes
   blocks and serial share (serial is one block on one thread). */
#ifndef SGK_OWNER_BLOCKS_H
#define SGK_OWNER_BLOCKS_H

#include "paths/path.h"
#include "kernels/reduce.h"

/* The plan both paths make (owner_blocks.c) and run (owner_blocks_run.c). */
typedef struct {
    sgk_plan base;
    int64_t *slot;        /* count entries, grouped by block and counted from
                             the block's first slot; NULL when slot16 holds
                             them */
    uint16_t *slot16;     /* single elements in blocks of at most
                             SGK_SLOT16_BLOCK slots: the slots in 16 bits,
                             for apply16 */
    int64_t *position;    /* the update slice of each pair; NULL means pair i
                             takes update slice i */
    uint32_t *rank;       /* set in place of position where the updates are
                             larger than the caches: update n is moved to
                             place rank[n] of a scratch array first, which
                             the pairs then read in order */
    int64_t distinct;     /* distinct destination slots */
    int64_t block_slots;  /* a power of two, 1 << block_shift */
    int block_shift;
    int64_t blocks;
    int64_t *block_start; /* blocks + 1 offsets into slot/position */
    int64_t column_parts; /* > 1 when threads split every slice by columns
                             instead of taking whole blocks */
    sgk_apply16_fn apply16;
} blocked_plan;

/* Maps the indices, counts the distinct slots (dropping overwritten `none`
   updates where that pays) and groups the pairs by destination block:
   L2-sized blocks, or one block on one thread when `serial`. */
sgk_status sgk_blocks_make(const sgk_plan *base, const sgk_problem *p, bool serial,
                           sgk_plan **out);
sgk_status sgk_blocks_run(const sgk_plan *plan, const sgk_buffers *b);
void sgk_blocks_describe(const sgk_plan *plan, char *text, size_t size);
void sgk_blocks_destroy(sgk_plan *plan);

#endif
