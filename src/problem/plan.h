/* What every plan holds, whatever its path: read-only once built.  Each
   path's own plan struct (src/paths/) begins with this one. */
#ifndef SGK_PLAN_H
#define SGK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "problem/problem.h"
#include "kernels/reduce.h"

typedef struct sgk_path sgk_path;

struct sgk_plan {
    const sgk_path *path; /* what runs it (src/paths/path.h) */
    const char *op;
    bool scatter;
    bool one_shot;        /* serves one execution inside a one-shot call,
                             rather than a caller who reuses it */
    sgk_dtype dtype;
    size_t elem_size;
    sgk_reduction reduction;
    int64_t data_elems, updates_elems, output_elems;
    int64_t slice_len;
    int64_t slots;
    int64_t count;        /* pairs kept */
    bool whole_rows;      /* an Elements operator moving whole rows
                             (whole_rows.h) */
    int threads;
    int64_t parallel_min_bytes;
    bool stream_output;   /* write output that is not revisited with
                             non-temporal stores */
    sgk_apply_fn apply;               /* NULL for `none`, whose updates move */
    sgk_widen_reduce_fn widen_reduce; /* set when accumulating fp16/bf16 in float32 */
    const char *why;      /* the reason for the path, in words */
    const char *unfit_forced; /* why the path SGK_PATH (or SGK_REDUCE_PATH)
                                 forced could not serve, or NULL */
    char *description;    /* plans a caller can ask about, or that are
                             logged; NULL for one-shot plans */
};

/* Builds a plan for p: chooses the path, which maps and validates every
   index its own way.  A one-shot plan serves one execution inside the
   call: it may keep p's indices pointer (the lines path), and gets no
   description unless SGK_VERBOSE asks for one.  On failure *out is left
   untouched. */
sgk_status sgk_plan_build(const sgk_problem *p, bool one_shot, sgk_plan **out);

/* Records the path (or lane) a one-shot call took, as this thread's
   sgk_last_path: a static string. */
void sgk_note_last_path(const char *name);

/* sgk_execute with `caller` naming the failing call in messages (the
   operator's name for one-shot calls). */
sgk_status sgk_execute_for(const char *caller, const sgk_plan *plan, const void *data,
                           const void *updates, void *output);

#endif
