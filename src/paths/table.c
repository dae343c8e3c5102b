/* The execution paths, in the order the automatic choice asks them: the
   first fit path that prefers a problem takes it.  Each path's own file
   says what it does and when it prefers a problem; the last path of each
   kind (row gathers, owner-computes blocks) takes whatever is left. */
#include <string.h>

#include "paths/path.h"

const sgk_path *const sgk_paths[] = {
    &sgk_path_direct,         /* one-shot calls with few pairs */
    &sgk_path_lines,          /* one-shot Elements calls, indices spanning data */
    &sgk_path_element_gather, /* gathers of 4- and 8-byte elements */
    &sgk_path_row_gather,     /* every other gather */
    &sgk_path_distinct,       /* scatters whose slots never repeat */
    &sgk_path_sorted_runs,    /* one-shot scatters whose index is sorted */
    &sgk_path_replicas,       /* one-shot scatters into a cache-sized output */
    &sgk_path_binned,         /* one-shot scatters of single elements */
    &sgk_path_serial,         /* scatters too small for threads */
    &sgk_path_owner_ranges,   /* one-shot scatters, few threads */
    &sgk_path_atomic,         /* one-shot scatters, order-independent */
    &sgk_path_sorted,         /* fewer updates than destination blocks */
    &sgk_path_owner_blocks,   /* every other scatter */
    NULL,
};

const sgk_path *sgk_path_named(const char *name)
{
    for (int i = 0; sgk_paths[i] != NULL; i++)
        if (strcmp(sgk_paths[i]->name, name) == 0)
            return sgk_paths[i];
    return NULL;
}
