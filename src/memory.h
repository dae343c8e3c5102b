/* Planner scratch and plan arrays. */
#ifndef SGK_MEMORY_H
#define SGK_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* An array of n elements of `size` bytes (at least one element), released
   with free().  Large arrays ask for transparent huge pages: a plan's arrays
   are written once right after allocation, and 4 KiB page faults would
   otherwise cost the planner more than its own work. */
void *sgk_alloc_array(int64_t n, size_t size);

/* The same, zeroed. */
void *sgk_alloc_zeroed(int64_t n, size_t size);

/* A buffer of at least `bytes` bytes owned by the calling thread, kept for
   its next call and freed when the thread ends: executions reuse it instead
   of faulting in fresh pages every time.  NULL when memory is short (the
   caller then does without). */
void *sgk_thread_scratch(size_t bytes);

#endif
