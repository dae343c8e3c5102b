/* sgk-bench: the benchmark harness (docs/performance.md).  Every figure is a ratio
   taken in one run: a workload's minimal traffic over its median time, set
   against this machine's copy bandwidth measured by the same process with
   the same number of threads.  Only the public API (sgk.h) is used.

   bench.c      options, copy bandwidth, the timing loop
   floor.c      the traffic floor: the workload's bytes moved with no index work
   team.c       the threads the copy and the floor run on
   workloads.c  the workload suite and its traffic formulas; the workloads,
                their inputs and result checks in the files workloads.h lists
   report.c     the table on stdout and the JSON file
   provenance.c the commit and date a run records
   callers.c    --callers: throughput of concurrent one-shot callers */
#ifndef SGK_BENCH_H
#define SGK_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    BENCH_MODE_PLAN,    /* plan once outside the timing, time sgk_execute */
    BENCH_MODE_ONESHOT  /* time the whole one-shot call */
} bench_mode;

typedef struct {
    double scale;           /* size factor applied to each workload's shapes */
    int reps;               /* timed repetitions per variant */
    int threads;            /* sgk_set_num_threads; 0 = the library's default */
    bench_mode mode;
    bool quick;
    const char *json_path;  /* NULL: no JSON */
    const char *selection;  /* comma-separated workload names; NULL: all */
    int callers;            /* > 0: the concurrent-callers run (callers.c) */
} bench_options;

typedef struct {
    char workload[32];
    char variant[48];
    /* Per call.  Each repetition times calls_per_rep back-to-back calls
       (more than one only for calls far shorter than a millisecond). */
    double median_ms, min_ms, max_ms;
    long calls_per_rep;
    double traffic_bytes;   /* the workload's minimal traffic per call */
    double gbps;            /* traffic_bytes / median */
    double of_copy;         /* gbps / copy bandwidth */
    double floor_ms;        /* the traffic floor (floor.c) of its minimal
                               traffic, measured right after; 0 when none */
    double speedup;         /* one-shot runs on more than one thread: the
                               median time at 1 thread over that at the
                               run's count, timed in alternation; 0 when
                               not measured */
    char plan[320];         /* sgk_plan_describe, "" for plain C loops */
    char note[96];          /* ratios against sibling variants */
    const char *summary;    /* what the workload is (static); NULL: not known */
} bench_result;

typedef struct {
    bench_options opt;
    char machine[256];
    /* When and from what the run was made, so that a figure quoted from the
       JSON can be traced: the start in UTC (bench_utc_date) and the
       source's commit (bench_commit). */
    char date[32];
    const char *commit;
    const char *runtime;    /* sgk_runtime_describe() */
    int threads;            /* the library's worker count, used for the copy too */
    /* Read + written bytes per second / 1e9, measured before the workloads
       and again after them; copy_gbps, the yardstick of of_copy, is the
       higher of the two (what the machine attained in this run). */
    double copy_gbps, copy_gbps_start, copy_gbps_end;
    double copy_buffer_mib;
    /* 1-minute load average before and after: other processes on the
       machine take bandwidth and cores from every figure. */
    double load_start, load_end;
    bench_result *results;
    size_t count, capacity;
    int failures;           /* wrong results and failed calls */
} bench_run;

/* One variant to time.  op performs one call and returns 0 on success;
   check, when not NULL, inspects the result of the first call and returns 0
   when it is right, else writes why into the buffer. */
typedef struct {
    const char *workload;
    const char *variant;
    double traffic_bytes;
    const char *plan;
    int (*op)(void *ctx);
    int (*check)(void *ctx, char *why, size_t why_size);
    void *ctx;
    /* Of traffic_bytes, those written (the output); 0 when the variant has
       no traffic floor (in place, plain C loops). */
    double written_bytes;
} bench_case;

/* Warm-up, check, then opt.reps timed repetitions.  Returns the stored
   result, or NULL (and counts a failure) when the call fails or the check
   rejects its result: no time is ever reported for a wrong answer. */
bench_result *bench_measure(bench_run *run, const bench_case *c);

/* The traffic floor (floor.c): the median time, over opt.reps, of moving
   read_bytes in and written_bytes out with no index work; the buffers stay
   allocated until bench_floor_release. */
double bench_traffic_floor_ms(const bench_run *run, double read_bytes, double written_bytes);
void bench_floor_release(void);

/* Counts a failure and prints it on stderr. */
void bench_fail(bench_run *run, const char *workload, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 64-byte aligned, pages touched; exits on failure (the harness cannot
   report anything meaningful without its buffers). */
void *bench_alloc(size_t bytes);
double bench_now_ms(void);
/* Sorts v[0..n) (n >= 1) and returns its median. */
double bench_median(double *v, int n);

/* The suite (workloads.c). */
typedef struct {
    const char *name;
    const char *summary;
    void (*run)(bench_run *run);
} bench_workload;

extern const bench_workload bench_workloads[];
extern const size_t bench_workload_count;

/* Runs work(pieces + t * piece_size) for t in [0, threads), one piece per
   thread: on OpenMP's team where built with OpenMP, else on plain threads
   (team.c). */
void bench_team_run(int threads, void *(*work)(void *piece), void *pieces, size_t piece_size);

/* The machine (machine.c).  The copy bandwidth, in GB/s read plus written,
   said on stderr as measured `when`; sets run->copy_buffer_mib. */
double bench_copy_bandwidth(bench_run *run, const char *when);
/* Fills run->machine: the CPU, the logical CPUs and the OS. */
void bench_describe_machine(bench_run *run);
/* The 1-minute load average, or -1 where /proc/loadavg is unreadable. */
double bench_load_average(void);
/* An integer that follows `key` in the runtime description, or fallback. */
long long bench_runtime_number(const char *runtime, const char *key, long long fallback);

/* --callers (callers.c): results for 1, 2, 4 ... opt.callers callers. */
void bench_callers(bench_run *run);

/* The commit the run measures: SGK_BENCH_COMMIT from the environment
   when set (a harness that builds elsewhere knows better), else the one
   the build recorded from git (bench/commit.h), else "unknown". */
const char *bench_commit(void);
/* Now in UTC, ISO 8601 ("2026-11-24T03:02:52Z"); "" if the clock fails. */
void bench_utc_date(char *buf, size_t size);

/* Output (report.c). */
void bench_report_table(FILE *out, const bench_run *run);
int bench_report_json(const char *path, const bench_run *run);

#endif
