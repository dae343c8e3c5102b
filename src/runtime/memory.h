/* Planner scratch and plan arrays. */
#ifndef SGK_MEMORY_H
#define SGK_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An array of n elements of `size` bytes (at least one element), released
   with free().  Arrays of a page or more start on a cache line: a
   scatter's scratch block then takes whole lines from the data and gives
   whole lines to the output, where malloc's 16-byte alignment would split
   a line at both ends of every copy (sgk-bench scatter_elements_none);
   smaller ones keep malloc's lower cost.  Large arrays
   ask for transparent huge pages: a plan's arrays are written once right
   after allocation, and 4 KiB page faults would otherwise cost the planner
   more than its own work. */
void *sgk_alloc_array(int64_t n, size_t size);

/* Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte; empty
   ranges share none. */
static inline bool sgk_overlaps(const void *a, int64_t a_bytes, const void *b, int64_t b_bytes)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a_bytes > 0 && b_bytes > 0 && x < y + (uintptr_t)b_bytes &&
           y < x + (uintptr_t)a_bytes;
}

/* The same, zeroed (under 4 MiB from calloc, without the line alignment). */
void *sgk_alloc_zeroed(int64_t n, size_t size);

/* A buffer of at least `bytes` bytes owned by the calling thread, kept for
   its next call and freed when the thread ends: executions reuse it instead
   of faulting in fresh pages every time.  NULL when memory is short (the
   caller then does without). */
void *sgk_thread_scratch(size_t bytes);

/* The same, a second buffer: for the arrays a one-shot call makes on its
   calling thread and reads back in its parallel loops, whose workers
   (the calling thread among them) use sgk_thread_scratch meanwhile.
   Callers keep at most SGK_CALL_SCRATCH_KEEP bytes this way and allocate
   anything larger for the call alone. */
void *sgk_call_scratch(size_t bytes);
#define SGK_CALL_SCRATCH_KEEP ((size_t)256 << 20)

/* Whether the first whole page of [p, p + bytes) is in memory (mincore):
   false for a fresh allocation not yet written, whose pages the first
   store faults in.  True when unknown (no whole page, or mincore fails). */
bool sgk_mapped_in(const void *p, int64_t bytes);

/* Bytes of scratch the calling thread keeps now. */
size_t sgk_scratch_kept(void);

#endif
