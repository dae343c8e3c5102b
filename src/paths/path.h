/* The interface every execution path implements, and the table the planner
   picks from.  A path keeps its fitness test, its plan-making, its run and
   its description in one file under src/paths/, with its own plan struct
   (FFTW's solvers keep theirs so), and one entry in table.c.  Its name is
   what SGK_PATH takes and sgk_plan_path/sgk_last_path return; adding a path
   also means listing it in the tests that force every path by name
   (tests/test_forced_paths.c) and in docs/architecture.md's path table. */
#ifndef SGK_PATH_H
#define SGK_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "problem/plan.h"
#include "problem/problem.h"
#include "runtime/runtime_config.h"

/* What the choice of a path depends on. */
typedef struct {
    const sgk_problem *problem; /* after the whole-rows rewrite */
    const sgk_plan *base;       /* the fields every plan has (plan.h) */
    bool reorder;               /* float add/sub/mul may be reordered */
} sgk_choice;

/* One execution's buffers. */
typedef struct {
    const uint8_t *data;
    const uint8_t *updates; /* NULL for gathers */
    uint8_t *out;
    bool in_place;          /* out == data */
    size_t slice_bytes;
    /* Non-temporal stores for the output: the plan's choice
       (stream_output), unless the output's pages are not mapped in yet
       (sgk_mapped_in).  A fresh allocation's first touch of a page has
       the kernel zero it through the cache, and streaming over those
       lines then costs more than plain stores (index_select of 500k rows
       of 64 floats into a new tensor, 2-core Xeon: 80 ms streamed, 65 ms
       plain). */
    bool stream;
} sgk_buffers;

struct sgk_path {
    /* Unique: SGK_PATH=<name> forces the path, sgk_plan_path and
       sgk_last_path return it, descriptions say "path <name>". */
    const char *name;
    /* NULL when the path can serve the problem exactly (the semantics'
       result, whatever the automatic choice would think of its speed),
       else why not, in words.  A forced path is asked this alone. */
    const char *(*unfit)(const sgk_choice *c);
    /* Whether the automatic choice takes the path, with *why the reason in
       words; asked only of fit paths, in table order, until one says yes. */
    bool (*preferred)(const sgk_choice *c, const char **why);
    /* Builds the path's plan (a struct beginning with the base plan, copied
       from *base) from the problem: reads and checks the indices its own
       way.  On failure returns the status, with the error detail set when
       the indices are at fault, and stores nothing.  A path whose fitness
       depends on the index values may decline once it has read them:
       SGK_OK with *out NULL, nothing kept; the planner then chooses again
       without it. */
    sgk_status (*make)(const sgk_plan *base, const sgk_problem *p, sgk_plan **out);
    /* Why make may decline, in words (a forced path's fallback says it);
       NULL for the paths that never do. */
    const char *declines;
    /* Runs the plan on buffers the executor checked.  Fails, before the
       first write, with SGK_ERR_OUT_OF_MEMORY (the executor reports it), or
       on a path that checks the indices as it runs (binned: a one-shot
       call reads them once) with the index's status and the error detail
       set by the path. */
    sgk_status (*run)(const sgk_plan *plan, const sgk_buffers *b);
    /* What the path does with this plan, for sgk_plan_describe. */
    void (*describe)(const sgk_plan *plan, char *text, size_t size);
    /* Frees the plan and everything it owns. */
    void (*destroy)(sgk_plan *plan);
};

/* The paths in the order the automatic choice asks them; NULL-terminated. */
extern const sgk_path *const sgk_paths[];

/* The path of that name in the table, or NULL. */
const sgk_path *sgk_path_named(const char *name);

extern const sgk_path sgk_path_direct;
extern const sgk_path sgk_path_lines;
extern const sgk_path sgk_path_element_gather;
extern const sgk_path sgk_path_row_gather;
extern const sgk_path sgk_path_distinct;
extern const sgk_path sgk_path_sorted_runs;
extern const sgk_path sgk_path_replicas;
extern const sgk_path sgk_path_binned;
extern const sgk_path sgk_path_serial;
extern const sgk_path sgk_path_owner_ranges;
extern const sgk_path sgk_path_atomic;
extern const sgk_path sgk_path_sorted;
extern const sgk_path sgk_path_owner_blocks;

/* The largest plan struct a one-shot call keeps in its thread's block. */
#define SGK_PLAN_BLOCK_BYTES 512

/* The path's plan struct, zeroed, with the base copied in, or NULL.  A
   one-shot plan takes the calling thread's plan block when it fits and is
   free: a one-shot call allocates nothing it does not need for its
   pairs. */
void *sgk_path_alloc(const sgk_plan *base, size_t size);
/* Frees a plan struct from sgk_path_alloc (its arrays are the path's to
   free first). */
void sgk_path_free(sgk_plan *plan);

/* Whether the plan took the calling thread's plan block: then it is the
   thread's outermost one-shot call, and may also use the thread's other
   one-shot buffers (kept slots, call scratch) for its lifetime.  A call
   nested in another on the same thread (a host pool's task calling sgk
   while this thread waits inside sgk) gets false and allocates. */
bool sgk_path_owns_thread_buffers(const sgk_plan *plan);

/* For a reused plan's execution that wants the thread's one-shot buffers
   (its call scratch): takes them, as a one-shot call's plan block does,
   when no call on this thread holds them, and says so; false for a call
   nested in another, which must allocate.  Given back when it ends. */
bool sgk_path_take_thread_buffers(void);
void sgk_path_give_thread_buffers(void);

#endif
