#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <config.h>

#include "runtime/memory.h"
#include "parallel/backend.h"
#include "paths/path.h"
#include "runtime/runtime_config.h"
#include "runtime/error.h"
#include "simd/simd.h"
#include "runtime/topology.h"

#define SGK_THREADS_LIMIT 1024

static sgk_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static atomic_int thread_override; /* sgk_set_num_threads; 0 = none */

static void append(char *list, size_t size, const char *name, const char *value)
{
    size_t used = strlen(list);
    if (used < size)
        snprintf(list + used, size - used, "%s%s=%s", used ? " " : "", name, value);
}

static bool parse_int(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* The variable's value, or NULL when it is unset or empty. */
static const char *read_env(const char *name)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : NULL;
}

static void note(const char *name, const char *value, bool ok)
{
    if (ok)
        append(config.overrides, sizeof config.overrides, name, value);
    else
        append(config.ignored, sizeof config.ignored, name, value);
}

/* Below this much traffic a second thread costs more than it saves.  It
   is a cost in time, not a cache size: one core copies 512 KiB in about
   16 us, and a team wakes in a few.  Measured on the 2-core Xeon: on
   OpenMP a 1 MiB Gather took 49 us on one thread and 17 on two, a 256 KiB
   one gained nothing; in OpenVINO, on its oneTBB pool, a 1 MiB Gather
   node went from 112 us to 60-76.  The L2 size used before (2 MiB here)
   kept calls of up to 4 MiB on one thread, each thread of a team taking
   at least that much. */
#define DEFAULT_PARALLEL_MIN_BYTES (512 * 1024)

static int64_t default_stream_min_bytes(const sgk_topology *topo)
{
    /* An output twice the size of the cores' private caches cannot stay near
       the cores anyway: from there on, not reading each destination line
       before overwriting it saves more than keeping the output in a shared
       L3 would, even an L3 large enough to hold it. */
    int64_t l2 = topo->l2_bytes > 0 ? topo->l2_bytes : 1024 * 1024;
    return 2 * l2 * topo->physical_cores;
}

static void load_config(void)
{
    const sgk_topology *topo = sgk_topology_get();
    const char *v;
    long long n;

    config.default_threads = topo->physical_cores;
    if ((v = read_env("OMP_NUM_THREADS")) != NULL && parse_int(v, 1, SGK_THREADS_LIMIT, &n) &&
        n < config.default_threads)
        config.default_threads = (int)n;

    if ((v = read_env("SGK_NUM_THREADS")) != NULL) {
        bool ok = parse_int(v, 1, SGK_THREADS_LIMIT, &n);
        if (ok)
            config.env_threads = (int)n;
        note("SGK_NUM_THREADS", v, ok);
    }

    config.deterministic = true;
    if ((v = read_env("SGK_DETERMINISTIC")) != NULL) {
        bool ok = strcmp(v, "0") == 0 || strcmp(v, "1") == 0;
        if (ok)
            config.deterministic = v[0] == '1';
        note("SGK_DETERMINISTIC", v, ok);
    }

    /* SGK_REDUCE_PATH names the three reduction paths it always forced */
    static const char *const reduce_paths[][2] = {
        {"sorted", "sorted-segment"}, {"atomic", "atomic"}, {"serial", "serial"}};
    if ((v = read_env("SGK_REDUCE_PATH")) != NULL) {
        bool ok = strcmp(v, "auto") == 0;
        for (size_t i = 0; i < sizeof reduce_paths / sizeof *reduce_paths; i++) {
            if (strcmp(v, reduce_paths[i][0]) == 0) {
                config.forced_path = sgk_path_named(reduce_paths[i][1]);
                config.forced_by = "SGK_REDUCE_PATH";
                ok = true;
            }
        }
        note("SGK_REDUCE_PATH", v, ok);
    }

    if ((v = read_env("SGK_PATH")) != NULL) {
        const sgk_path *path = sgk_path_named(v);
        bool ok = path != NULL || strcmp(v, "auto") == 0;
        if (path != NULL) {
            config.forced_path = path;
            config.forced_by = "SGK_PATH";
        }
        note("SGK_PATH", v, ok);
    }

    /* Before any kernel can run: see sgk_simd_force_target.  A target this
       build lacks or this CPU cannot run is ignored like any bad value. */
    if ((v = read_env("SGK_SIMD")) != NULL) {
        bool ok = sgk_simd_force_target(v) == 0;
        config.simd_forced = ok && strcmp(v, "auto") != 0;
        note("SGK_SIMD", v, ok);
    }

    config.parallel_min_bytes = DEFAULT_PARALLEL_MIN_BYTES;
    if ((v = read_env("SGK_PARALLEL_MIN_BYTES")) != NULL) {
        bool ok = parse_int(v, 0, INT64_MAX, &n);
        if (ok)
            config.parallel_min_bytes = n;
        note("SGK_PARALLEL_MIN_BYTES", v, ok);
    }

    config.stream_min_bytes = default_stream_min_bytes(topo);
    if ((v = read_env("SGK_STREAM_MIN_BYTES")) != NULL) {
        bool ok = parse_int(v, -1, INT64_MAX, &n);
        if (ok)
            config.stream_min_bytes = n;
        note("SGK_STREAM_MIN_BYTES", v, ok);
    }

    if ((v = read_env("SGK_VERBOSE")) != NULL) {
        bool ok = strcmp(v, "0") == 0 || strcmp(v, "1") == 0;
        config.verbose = strcmp(v, "1") == 0;
        note("SGK_VERBOSE", v, ok);
    }

    if (config.verbose && config.ignored[0] != '\0')
        fprintf(stderr, "sgk: ignoring bad environment values: %s\n", config.ignored);
}

/* Every call reads the configuration several times: a flag first, so the
   common case is one load rather than a call into pthread_once. */
static atomic_bool config_loaded;

static void load_config_once(void)
{
    load_config();
    atomic_store_explicit(&config_loaded, true, memory_order_release);
}

const sgk_config *sgk_config_get(void)
{
    if (!atomic_load_explicit(&config_loaded, memory_order_acquire))
        pthread_once(&config_once, load_config_once);
    return &config;
}

/* A forked child without a pool of its own runs every loop on the calling
   thread (parallel/backend.h): its plans are made for one thread too, and
   SGK_VERBOSE says so once. */
static int forked_child_threads(void)
{
    static atomic_int told;
    if (sgk_config_get()->verbose && atomic_exchange(&told, 1) == 0)
        fprintf(stderr, "sgk: in a forked child: running on the calling thread only "
                        "(OpenMP's workers are the parent's)\n");
    return 1;
}

int sgk_config_threads(void)
{
    const sgk_config *c = sgk_config_get();
    sgk_parallel_backend host;
    const bool has_host = sgk_backend_host(&host);
    const int workers = has_host ? host.workers : 0;
#ifndef _OPENMP
    /* Built without OpenMP: no team to plan for but the host's. */
    if (!has_host)
        return 1;
#endif
    if (!has_host && sgk_backend_forked())
        return forked_child_threads();
    int override = atomic_load_explicit(&thread_override, memory_order_relaxed);
    if (override > 0)
        return override;
    if (c->env_threads > 0)
        return c->env_threads;
    return workers > 0 ? workers : c->default_threads;
}

sgk_status sgk_set_num_threads(int n)
{
    if (n < 0 || n > SGK_THREADS_LIMIT)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "set_num_threads",
                        "thread count %d outside [0, %d]", n, SGK_THREADS_LIMIT);
    atomic_store_explicit(&thread_override, n, memory_order_relaxed);
    return SGK_OK;
}

const char *sgk_version(void)
{
    return PACKAGE_VERSION;
}

const char *sgk_simd_targets(void)
{
    return sgk_simd_runnable_targets();
}

const char *sgk_runtime_describe(void)
{
    static _Thread_local char text[2048];
    char parallel[160];
    const sgk_config *c = sgk_config_get();
    const sgk_topology *t = sgk_topology_get();
    snprintf(text, sizeof text,
             "sgk %s; simd %s (%sthis CPU runs %s); threads %d (default %d, physical cores %d, logical %d); "
             "parallel loops on %s; "
             "numa nodes %d; caches L1d %lld KiB, L2 %lld KiB, L3 %lld KiB%s; "
             "parallel above %lld bytes; streaming stores from %lld bytes; "
             "one-shot scratch kept per calling thread up to %zu MiB (this thread: %zu KiB), "
             "released when the thread ends; deterministic %s; forced path %s%s%s; "
             "env overrides: %s; ignored: %s",
             PACKAGE_VERSION, sgk_simd_target_name(), c->simd_forced ? "forced by SGK_SIMD; " : "",
             sgk_simd_runnable_targets(),
             sgk_config_threads(), c->default_threads, t->physical_cores, t->logical_cpus,
             sgk_backend_describe(parallel, sizeof parallel),
             t->numa_nodes, (long long)(t->l1d_bytes >> 10), (long long)(t->l2_bytes >> 10),
             (long long)(t->l3_bytes >> 10), t->from_hwloc ? "" : " (hwloc unavailable)",
             (long long)c->parallel_min_bytes, (long long)c->stream_min_bytes,
             SGK_CALL_SCRATCH_KEEP >> 20, sgk_scratch_kept() >> 10, c->deterministic ? "yes" : "no",
             c->forced_path != NULL ? c->forced_path->name : "none",
             c->forced_path != NULL ? " by " : "", c->forced_path != NULL ? c->forced_by : "",
             c->overrides[0] ? c->overrides : "none",
             c->ignored[0] ? c->ignored : "none");
    return text;
}
