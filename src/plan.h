/* What a plan holds: the planner's decisions, read-only once built. */
#ifndef SGK_PLAN_H
#define SGK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "problem.h"
#include "reduce.h"

/* Outputs per prefetch window of an element gather. */
#define GATHER_CHUNK 1024

typedef enum {
    /* Gathers: output row n is source slot slot[n]; rows in parallel. */
    SGK_PATH_GATHER,
    /* Scatters, owner-computes: the destination is cut into blocks of
       block_slots slots, each owned by one thread at a time.  A block is
       copied from data (unless in place) and then takes its own updates in
       their original order while it is still in cache, so every output byte
       is written once, duplicates reduce exactly as the sequential loop does,
       and blocks run in parallel; or, when the updates crowd into a few
       blocks and slices are long, every thread takes a column range of every
       slice through all blocks. */
    SGK_PATH_OWNER,
    /* Scatters, sorted-segment: as OWNER, with each block's pairs sorted
       stably by slot, so that a slot's updates form one segment applied in
       original order and the block is visited front to back. */
    SGK_PATH_SORTED,
    /* Scatters whose updates may land in any order (integer and bool
       reductions, float ones when reordering is allowed, `none` once only the
       last update of each slot is kept): the output is copied, then the
       pairs, in original order and never grouped, are shared evenly between
       threads and applied with atomic read-modify-writes. */
    SGK_PATH_ATOMIC,
    /* Scatters, owner-computes without grouping (one-shot calls, few
       threads): thread t owns the t-th range of slots, copies it, then reads
       every pair in order and applies those it owns.  No planning beyond the
       index map, at the price of every thread reading every pair. */
    SGK_PATH_OWNER_RANGES,
    /* Scatters on the calling thread: one block, pairs in original order;
       the sequential definition itself. */
    SGK_PATH_SERIAL,
    /* One-shot Elements calls whose indices span data in every dimension
       but the axis: each line along the axis takes its updates (or gives
       its outputs) from the indices' line at the same place, so threads
       take lines (or columns of them) and, for scatters, copy them and
       apply their updates in order, reading the index values as they go.
       No slots are mapped or stored: the indices are only checked first. */
    SGK_PATH_LINES
} sgk_path;

struct sgk_plan {
    const char *op;
    bool scatter;
    sgk_dtype dtype;
    size_t elem_size;
    sgk_reduction reduction;
    int64_t data_elems, updates_elems, output_elems;
    int64_t slice_len;
    bool whole_rows;      /* an Elements operator moving whole rows
                             (whole_rows.h) */
    int64_t slots;
    int64_t count;        /* pairs kept */
    int64_t *slot;        /* count entries; blocked scatters: grouped by block
                             and counted from the block's first slot; NULL
                             when slot16 holds them */
    uint16_t *slot16;     /* owner-computes scatters of single elements, blocks
                             of at most SGK_SLOT16_BLOCK slots: those slots in
                             16 bits, in place of slot, for apply16 */
    int32_t *window;      /* slot32 gathers whose chunks of GATHER_CHUNK outputs
                             each read a narrow range of source slots: that
                             range, [window[2c], window[2c + 1]] for chunk c,
                             prefetched while the chunk before is gathered */
    int32_t *slot32;      /* gathers of 4-byte elements with at most 2^31 - 1
                             source slots: the slots in 32 bits, in place
                             of slot, for 32-bit vector gathers */
    int64_t *position;    /* scatters: the update slice of each pair; NULL
                             means pair i takes update slice i */
    /* Gathers of long rows of whole cache lines from a source out of cache:
       the output rows listed in ascending order of their source slots (NULL
       when not worth it).  Executions into a line-aligned output read the
       source front to back and stream each row to its place: random reads
       of long rows wait on memory, random streamed writes do not. */
    int32_t *source_order;
    int64_t distinct;     /* scatters: distinct destination slots */
    int64_t block_slots;  /* scatters: a power of two, 1 << block_shift */
    int block_shift;
    int64_t blocks;       /* scatters */
    int64_t *block_start; /* scatters: blocks + 1 offsets into slot/position */
    int64_t column_parts; /* scatters: > 1 when threads split every slice by
                             columns instead of taking whole blocks */
    /* SGK_PATH_LINES: the caller's index values (read during the one call
       the plan serves), and outer x inner lines, data_axis elements long in
       data and index_axis in indices; a unit of work is one outer position
       and inner_chunk inner ones. */
    const void *indices;
    bool index64;
    bool lines32;         /* gathers: slots in 32 bits for vector gathers */
    int64_t outer, inner, data_axis, index_axis, inner_chunk;
    sgk_path path;
    int threads;
    int64_t parallel_min_bytes;
    bool stream_output;   /* write output that is not revisited with
                             non-temporal stores */
    sgk_apply_fn apply;               /* NULL for `none`; atomic kernels on the
                                         atomic path */
    sgk_widen_reduce_fn widen_reduce; /* set when accumulating fp16/bf16 in float32 */
    sgk_apply16_fn apply16;           /* the kernel for slot16 (NONE included) */
    const char *why;      /* scatters and lines: the reason for the path, in words */
    char fallback[128];    /* a forced path that could not serve, and why */
    char description[640];
};

/* Builds a plan for p: maps and validates every index, analyses duplicates,
   groups the updates by destination block, chooses threads.  for_caller:
   the plan goes to the caller (and gets its description); one-shot calls
   pass false, and their plan may then keep p's indices pointer (the lines
   path), so it must be executed and destroyed within the call.  On failure
   *out is left untouched. */
sgk_status sgk_plan_build(const sgk_problem *p, bool for_caller, sgk_plan **out);

/* sgk_execute with `caller` naming the failing call in messages (the
   operator's name for one-shot calls). */
sgk_status sgk_execute_for(const char *caller, const sgk_plan *plan, const void *data,
                           const void *updates, void *output);

#endif
