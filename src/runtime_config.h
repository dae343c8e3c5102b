/* Configuration from the environment (read once) and sgk_set_num_threads. */
#ifndef SGK_RUNTIME_CONFIG_H
#define SGK_RUNTIME_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    SGK_PATH_CHOICE_AUTO = 0,
    SGK_PATH_CHOICE_SORTED,
    SGK_PATH_CHOICE_ATOMIC,
    SGK_PATH_CHOICE_SERIAL
} sgk_path_choice;

typedef struct {
    int env_threads;            /* SGK_NUM_THREADS, 0 when unset */
    int default_threads;        /* physical cores, capped by OMP_NUM_THREADS */
    bool deterministic;         /* SGK_DETERMINISTIC */
    sgk_path_choice reduce_path;/* SGK_REDUCE_PATH */
    bool simd_forced;           /* SGK_SIMD named a target */
    int64_t parallel_min_bytes; /* SGK_PARALLEL_MIN_BYTES or from caches */
    int64_t stream_min_bytes;   /* SGK_STREAM_MIN_BYTES: outputs at least this
                                   large are written with non-temporal stores;
                                   -1 never */
    bool verbose;               /* SGK_VERBOSE */
    char overrides[256];        /* the SGK_* variables that took effect */
    char ignored[256];          /* the bad values that were ignored */
} sgk_config;

const sgk_config *sgk_config_get(void);

/* Threads for a new plan: sgk_set_num_threads, else SGK_NUM_THREADS, else
   the default. */
int sgk_config_threads(void);

const char *sgk_path_choice_name(sgk_path_choice choice);

#endif
