/* Configuration from the environment (read once) and sgk_set_num_threads. */
#ifndef SGK_RUNTIME_CONFIG_H
#define SGK_RUNTIME_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

struct sgk_path;

typedef struct {
    int env_threads;            /* SGK_NUM_THREADS, 0 when unset */
    int default_threads;        /* physical cores, capped by OMP_NUM_THREADS */
    bool deterministic;         /* SGK_DETERMINISTIC */
    /* The path SGK_PATH names (or SGK_REDUCE_PATH's, when SGK_PATH is
       unset or auto), forced wherever it can serve; NULL: the automatic
       choice. */
    const struct sgk_path *forced_path;
    const char *forced_by;      /* "SGK_PATH" or "SGK_REDUCE_PATH" */
    bool simd_forced;           /* SGK_SIMD named a target */
    int64_t parallel_min_bytes; /* SGK_PARALLEL_MIN_BYTES or from caches */
    int64_t stream_min_bytes;   /* SGK_STREAM_MIN_BYTES: outputs at least this
                                   large are written with non-temporal stores,
                                   and updates at least this large count as
                                   past the caches; -1 never */
    bool verbose;               /* SGK_VERBOSE */
    char overrides[256];        /* the SGK_* variables that took effect */
    char ignored[256];          /* the bad values that were ignored */
} sgk_config;

const sgk_config *sgk_config_get(void);

/* Threads for a new plan: sgk_set_num_threads, else SGK_NUM_THREADS, else
   the default. */
int sgk_config_threads(void);

#endif
