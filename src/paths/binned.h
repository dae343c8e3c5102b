/* The one-shot binned path's state, shared by its plan and run
   (binned.c) and its binning pass (binned_bins.c). */
#ifndef SGK_PATHS_BINNED_H
#define SGK_PATHS_BINNED_H

#include <stdbool.h>
#include <stdint.h>

#include "registry/registry.h"
#include "paths/path.h"
#include "problem/problem.h"
#include "kernels/reduce.h"
#include "simd/simd.h"

/* Pairs mapped at a time in step 1: their check fails as one range. */
#define BIN_BATCH 1024

/* Chunk capacities, in pairs: large enough that following a chain costs
   nothing beside the pairs, small enough that the chunks left part-filled
   (at most one per thread and block) stay a fraction of the pairs.
   Powers of two, and multiples of every staging buffer's pairs, so that
   staged lines land on a chunk's lines. */
#define CHUNK_MIN 64
#define CHUNK_MAX 4096

#define NO_CHUNK UINT32_MAX

/* One thread's bin of one block. */
typedef struct {
    uint8_t *tail;   /* the last chunk: its slots, then its values (or
                        positions) */
    uint32_t fill;   /* pairs in the last chunk */
    uint32_t head;   /* the first chunk, or NO_CHUNK */
    uint32_t last;   /* the last chunk's number */
    uint32_t chunks; /* chunks in the chain */
} bin;

/* One thread's bins, chunks and staging buffers, a cache line each
   (padded; the scratch is aligned to a line by hand). */
typedef struct {
    bin *bins;          /* one per block */
    uint8_t *pool;      /* its chunks */
    uint32_t *next;     /* the chunk after each in its chain */
    uint8_t *stage;     /* the staging buffers: per block the lines of
                           the narrower of slots and values, then per
                           block the wider ones' lines */
    uint8_t **cursor;   /* per block, where its next narrow entry goes */
    int64_t first_bad;  /* the first pair of the first bad batch, or count */
    uint32_t used;      /* chunks taken */
    char pad[12];
} part;

_Static_assert(sizeof(part) == 64, "a part per cache line");

typedef struct {
    sgk_plan base;
    bool slices;          /* bins hold (slot, position), 64 bits each */
    bool stream;          /* flush staged lines with non-temporal stores */
    sgk_problem p;        /* a copy: the planner's goes before the run;
                             a one-shot plan runs within the call */
    sgk_apply16_fn apply16;
    sgk_simd_stream_fn stream_lines;
    int shift;            /* a block is 1 << shift slots */
    int64_t blocks;
    int parts;            /* shares of the pairs, one per thread */
    uint32_t chunk;       /* pairs per chunk */
    uint32_t lane;        /* pairs per staging buffer */
    size_t slot_bytes;    /* 2 (values) or 8 (positions) */
    size_t value_bytes;   /* the element, or 8 (positions) */
    size_t chunk_bytes;
    size_t narrow_line;   /* a block's staging buffer: its narrower
                             entries' bytes */
    size_t wider_line;    /* and its wider entries' bytes */
    part *part;           /* parts */
    int64_t *before;      /* blocks + 1: pairs binned to the blocks before */
    void *owned;          /* the scratch, when too large to keep or nested */
} binned_plan;

/* Lines of the narrower entries in a staging buffer: one for values,
   four for positions (8 bytes each: one line would flush every 8 pairs,
   a flush's cost on too few). */
#define STAGE_LINES(narrow) ((narrow) >= 8 ? 4 : 1)

/* The staging buffers' alignment: their narrow lines' bytes at most, so
   that a cursor's reaching the end of its buffer is an address test. */
#define STAGE_ALIGN 256

/* Pairs a staging buffer holds: whole lines of slots and of values. */
static inline uint32_t binned_lane(size_t slot_bytes, size_t value_bytes)
{
    const size_t narrow = slot_bytes < value_bytes ? slot_bytes : value_bytes;
    return (uint32_t)(64 * STAGE_LINES(narrow) / narrow);
}

typedef struct {
    binned_plan *bp;
    const uint8_t *updates;
} bin_job;

/* Step 1 for parts [first, last): a parallel_for body over bin_job. */
void sgk_binned_bin_pairs(void *ctx, int worker, int64_t first, int64_t last);

/* After step 1: the first bad pair's message, or the pairs binned before
   each block. */
sgk_status sgk_binned_settle(binned_plan *bp);

#endif
