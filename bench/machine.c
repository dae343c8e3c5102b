/* The machine a run measures: its copy bandwidth, the yardstick every
   result is set against, its description and its load. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"

#define MIB (1024.0 * 1024.0)

/* ---- copy bandwidth ---------------------------------------------------- */

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
    size_t bytes;
} copy_chunk;

static void *copy_worker(void *arg)
{
    copy_chunk *c = arg;
    memcpy(c->dst, c->src, c->bytes);
    return NULL;
}

/* One parallel memcpy of src to dst by `threads` threads (team.c), each
   its own page-aligned chunk; returns milliseconds. */
static double parallel_copy(unsigned char *dst, const unsigned char *src, size_t bytes,
                            int threads)
{
    copy_chunk chunk[threads];
    size_t pages = bytes / 4096;
    for (int t = 0; t < threads; t++) {
        size_t begin = pages * (size_t)t / (size_t)threads * 4096;
        size_t end = t + 1 == threads ? bytes : pages * (size_t)(t + 1) / (size_t)threads * 4096;
        chunk[t] = (copy_chunk){dst + begin, src + begin, end - begin};
    }
    double t0 = bench_now_ms();
    bench_team_run(threads, copy_worker, chunk, sizeof chunk[0]);
    return bench_now_ms() - t0;
}

/* An integer that follows `key` in the runtime description, or fallback. */
long long bench_runtime_number(const char *runtime, const char *key, long long fallback)
{
    const char *at = strstr(runtime, key);
    long long v;
    if (at != NULL && sscanf(at + strlen(key), "%lld", &v) == 1)
        return v;
    return fallback;
}

/* The machine's copy bandwidth: a buffer several times the last-level cache
   (at least 256 MiB) copied into another by the workloads' thread count;
   the median over the repetitions, read plus written bytes. */
static double measure_copy_bandwidth(bench_run *run)
{
    long long l3 = bench_runtime_number(run->runtime, "L3 ", 0) * 1024;
    size_t bytes = 256u << 20;
    if (l3 > 0 && (size_t)(4 * l3) > bytes)
        bytes = (size_t)(4 * l3 + (1 << 20) - 1) / (1 << 20) * (1 << 20);
    if (bytes > (size_t)1 << 30)
        bytes = (size_t)1 << 30;
    /* bench_alloc writes every page of the source, so the copy reads real
       memory, not the shared zero page. */
    unsigned char *src = bench_alloc(bytes), *dst = bench_alloc(bytes);
    parallel_copy(dst, src, bytes, run->threads); /* warm-up */
    double *ms = malloc((size_t)run->opt.reps * sizeof *ms);
    if (ms == NULL)
        exit(2);
    for (int r = 0; r < run->opt.reps; r++)
        ms[r] = parallel_copy(dst, src, bytes, run->threads);
    double median = bench_median(ms, run->opt.reps);
    run->copy_buffer_mib = (double)bytes / MIB;
    free(ms);
    free(src);
    free(dst);
    return 2.0 * (double)bytes / (median * 1e6);
}

double bench_copy_bandwidth(bench_run *run, const char *when)
{
    fprintf(stderr, "[copy %s] threads %d ...", when, run->threads);
    double t0 = bench_now_ms();
    double gbps = measure_copy_bandwidth(run);
    fprintf(stderr, " %.2f GB/s, %.1f s\n", gbps, (bench_now_ms() - t0) / 1e3);
    return gbps;
}

/* ---- machine ----------------------------------------------------------- */

void bench_describe_machine(bench_run *run)
{
    char cpu[128] = "unknown cpu";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f != NULL) {
        char line[256];
        while (fgets(line, sizeof line, f) != NULL) {
            const char *colon = strchr(line, ':');
            if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
                snprintf(cpu, sizeof cpu, "%s", colon + 2);
                cpu[strcspn(cpu, "\n")] = '\0';
                break;
            }
        }
        fclose(f);
    }
    struct utsname u;
    char os[160] = "unknown os";
    if (uname(&u) == 0)
        snprintf(os, sizeof os, "%.30s %.60s %.30s", u.sysname, u.release, u.machine);
    snprintf(run->machine, sizeof run->machine, "%.120s; %ld logical cpus; %.100s", cpu,
             sysconf(_SC_NPROCESSORS_ONLN), os);
}

/* The 1-minute load average, or -1 where /proc/loadavg is unreadable. */
double bench_load_average(void)
{
    double load = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f != NULL) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1.0;
        fclose(f);
    }
    return load;
}
