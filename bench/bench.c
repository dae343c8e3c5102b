/* sgk-bench: options and the timing loop (the copy-bandwidth yardstick in
   machine.c).  See bench.h for what the figures mean. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgk.h"

#include "bench.h"

#define MIB (1024.0 * 1024.0)

/* Calls shorter than this are batched so that one repetition lasts about
   BATCH_TARGET_MS: the clock's resolution and the call of clock_gettime
   itself stay below a percent of what is measured. */
#define BATCH_BELOW_MS 1.0
#define BATCH_TARGET_MS 5.0
#define BATCH_MAX_CALLS (1L << 22)

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void *bench_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded > 0 ? rounded : 64);
    if (p == NULL) {
        fprintf(stderr, "sgk-bench: out of memory allocating %.1f MiB\n",
                (double)bytes / MIB);
        exit(2);
    }
    /* Fault the pages in now, outside every timed region. */
    memset(p, 0x5a, rounded > 0 ? rounded : 64);
    return p;
}

void bench_fail(bench_run *run, const char *workload, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nsgk-bench: FAILED %s: ", workload);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    run->failures++;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Wall time of `calls` back-to-back calls, or a negative value when one
   fails. */
static double time_calls(const bench_case *c, long calls, int *status)
{
    double t0 = bench_now_ms();
    for (long i = 0; i < calls; i++) {
        *status = c->op(c->ctx);
        if (*status != 0)
            return -1.0;
    }
    return bench_now_ms() - t0;
}

/* From one thread to the run's count, for a one-shot call that copies or
   gathers (it has a traffic floor): rounds of one batch at 1 thread and
   one at the run's count, in an order swapped every round, so that the
   machine's drift falls on both alike; the ratio of the two medians.  Two
   runs made one after the other, as this figure once came from, took
   minutes of drift into it.  Returns 0 (and leaves *status) when a call
   fails. */
static double speedup_from_one_thread(const bench_run *run, const bench_case *c, long calls,
                                      int *status)
{
    const int n = run->opt.reps;
    double *one = malloc(2 * (size_t)n * sizeof *one);
    if (one == NULL) {
        fprintf(stderr, "sgk-bench: out of memory\n");
        exit(2);
    }
    double *many = one + n, t = 0.0;
    for (int r = 0; r < n && t >= 0.0; r++) {
        for (int k = 0; k < 2 && t >= 0.0; k++) {
            const bool single = (k == 0) == (r % 2 == 0);
            sgk_set_num_threads(single ? 1 : run->opt.threads);
            t = time_calls(c, calls, status);
            (single ? one : many)[r] = t;
        }
    }
    sgk_set_num_threads(run->opt.threads);
    const double speedup = t >= 0.0 ? bench_median(one, n) / bench_median(many, n) : 0.0;
    free(one);
    return speedup;
}

static bench_result *append_result(bench_run *run)
{
    if (run->count == run->capacity) {
        size_t capacity = run->capacity ? 2 * run->capacity : 64;
        bench_result *grown = realloc(run->results, capacity * sizeof *grown);
        if (grown == NULL) {
            fprintf(stderr, "sgk-bench: out of memory for results\n");
            exit(2);
        }
        run->results = grown;
        run->capacity = capacity;
    }
    bench_result *r = &run->results[run->count++];
    memset(r, 0, sizeof *r);
    return r;
}

bench_result *bench_measure(bench_run *run, const bench_case *c)
{
    int status = c->op(c->ctx);
    if (status != 0) {
        bench_fail(run, c->workload, "%s: %s: %s", c->variant,
                   sgk_status_name((sgk_status)status), sgk_last_error());
        return NULL;
    }
    if (c->check != NULL) {
        char why[256] = "";
        if (c->check(c->ctx, why, sizeof why) != 0) {
            bench_fail(run, c->workload, "%s: wrong result: %s", c->variant, why);
            return NULL;
        }
    }

    /* Calibrate the batch; this doubles as further warm-up. */
    long calls = 1;
    double t = time_calls(c, calls, &status);
    while (t >= 0.0 && t < BATCH_BELOW_MS && calls < BATCH_MAX_CALLS) {
        calls *= 2;
        t = time_calls(c, calls, &status);
    }
    if (t >= 0.0 && calls > 1 && t < BATCH_TARGET_MS) {
        double grown = (double)calls * BATCH_TARGET_MS / (t > 1e-6 ? t : 1e-6);
        calls = grown < (double)BATCH_MAX_CALLS ? (long)grown : BATCH_MAX_CALLS;
    }

    double *per_call = malloc((size_t)run->opt.reps * sizeof *per_call);
    if (per_call == NULL) {
        fprintf(stderr, "sgk-bench: out of memory\n");
        exit(2);
    }
    for (int r = 0; r < run->opt.reps && t >= 0.0; r++) {
        t = time_calls(c, calls, &status);
        per_call[r] = t / (double)calls;
    }
    double speedup = 0.0;
    if (t >= 0.0 && run->opt.mode == BENCH_MODE_ONESHOT && run->threads > 1 &&
        c->written_bytes > 0.0) {
        speedup = speedup_from_one_thread(run, c, calls, &status);
        t = speedup > 0.0 ? t : -1.0;
    }
    if (t < 0.0) {
        bench_fail(run, c->workload, "%s: %s: %s", c->variant,
                   sgk_status_name((sgk_status)status), sgk_last_error());
        free(per_call);
        return NULL;
    }
    bench_result *res = append_result(run);
    snprintf(res->workload, sizeof res->workload, "%s", c->workload);
    snprintf(res->variant, sizeof res->variant, "%s", c->variant);
    snprintf(res->plan, sizeof res->plan, "%s", c->plan != NULL ? c->plan : "");
    int n = run->opt.reps;
    res->median_ms = bench_median(per_call, n); /* sorts: min and max follow */
    res->min_ms = per_call[0];
    res->max_ms = per_call[n - 1];
    res->calls_per_rep = calls;
    res->speedup = speedup;
    res->traffic_bytes = c->traffic_bytes;
    res->gbps = res->median_ms > 0.0 ? c->traffic_bytes / (res->median_ms * 1e6) : 0.0;
    if (c->written_bytes > 0.0)
        res->floor_ms = bench_traffic_floor_ms(run, c->traffic_bytes - c->written_bytes,
                                               c->written_bytes);
    free(per_call);
    return res;
}

/* ---- options ----------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sgk-bench [options]\n"
            "  --workloads a,b,c  run only these workloads (see --list)\n"
            "  --threads N        worker threads (sgk_set_num_threads; 0 = default)\n"
            "  --reps N           timed repetitions per variant (default 11, quick 5)\n"
            "  --scale F          multiply the workload sizes by F (default 1)\n"
            "  --quick            --scale 0.25 --reps 5 unless given explicitly\n"
            "  --mode plan|oneshot  time sgk_execute of a plan made beforehand (default)\n"
            "                     or the whole one-shot call\n"
            "  --callers N        instead of the suite: the throughput of 1, 2, 4 ... N\n"
            "                     threads making one-shot calls at once, on OpenMP and\n"
            "                     on a host pool, over one caller's\n"
            "  --json FILE        also write the results as JSON\n"
            "  --list             list the workloads and exit\n"
            "  --help             this text\n"
            "Times are medians; GB/s is the workload's minimal traffic over the median;\n"
            "of_copy divides that by the copy bandwidth measured in the run; floor is\n"
            "the of_copy of moving the same bytes with no index work (the read bytes\n"
            "read and the written bytes streamed, front to back), measured right after\n"
            "the variant: the most this machine's memory allows it.  With --mode\n"
            "oneshot and more than one thread, each call that copies or gathers is\n"
            "also timed at 1 thread, in rounds alternating with the run's count:\n"
            "from_1t is the 1-thread median over the other.\n");
}

static int parse_number(const char *text, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* Returns -1 on a bad command line, 1 when the program should stop with
   success (--help, --list), 0 to run. */
static int parse_options(int argc, char **argv, bench_options *opt)
{
    int reps_given = 0, scale_given = 0;
    *opt = (bench_options){.scale = 1.0, .reps = 11, .mode = BENCH_MODE_PLAN};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(a, "--list") == 0) {
            for (size_t w = 0; w < bench_workload_count; w++)
                printf("%-22s %s\n", bench_workloads[w].name, bench_workloads[w].summary);
            return 1;
        } else if (strcmp(a, "--quick") == 0) {
            opt->quick = true;
        } else if (v == NULL) {
            fprintf(stderr, "sgk-bench: unknown option or missing value: %s\n", a);
            return -1;
        } else if (strcmp(a, "--workloads") == 0) {
            opt->selection = v, i++;
        } else if (strcmp(a, "--json") == 0) {
            opt->json_path = v, i++;
        } else if (strcmp(a, "--mode") == 0) {
            if (strcmp(v, "plan") == 0)
                opt->mode = BENCH_MODE_PLAN;
            else if (strcmp(v, "oneshot") == 0)
                opt->mode = BENCH_MODE_ONESHOT;
            else {
                fprintf(stderr, "sgk-bench: --mode takes plan or oneshot, not %s\n", v);
                return -1;
            }
            i++;
        } else if (strcmp(a, "--callers") == 0) {
            double n;
            if (v == NULL || parse_number(v, 1, 64, &n) != 0 || n != (int)n) {
                fprintf(stderr, "sgk-bench: --callers takes a whole number from 1 to 64\n");
                return -1;
            }
            opt->callers = (int)n;
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_number(v, 0, 1024, &x) != 0 || x != (int)x) {
                fprintf(stderr, "sgk-bench: --threads takes an integer in [0, 1024]\n");
                return -1;
            }
            opt->threads = (int)x, i++;
        } else if (strcmp(a, "--reps") == 0) {
            if (parse_number(v, 1, 100000, &x) != 0 || x != (int)x) {
                fprintf(stderr, "sgk-bench: --reps takes an integer >= 1\n");
                return -1;
            }
            opt->reps = (int)x, reps_given = 1, i++;
        } else if (strcmp(a, "--scale") == 0) {
            if (parse_number(v, 1e-4, 4.0, &x) != 0) {
                fprintf(stderr, "sgk-bench: --scale takes a factor in [0.0001, 4]\n");
                return -1;
            }
            opt->scale = x, scale_given = 1, i++;
        } else {
            fprintf(stderr, "sgk-bench: unknown option %s (try --help)\n", a);
            return -1;
        }
    }
    if (opt->quick) {
        if (!reps_given)
            opt->reps = 5;
        if (!scale_given)
            opt->scale = 0.25;
    }
    return 0;
}

/* Marks the selected workloads; -1 names an unknown one. */
static int select_workloads(const char *selection, bool *selected)
{
    for (size_t w = 0; w < bench_workload_count; w++)
        selected[w] = selection == NULL;
    if (selection == NULL)
        return 0;
    const char *p = selection;
    while (*p != '\0') {
        size_t len = strcspn(p, ",");
        bool found = false;
        for (size_t w = 0; w < bench_workload_count; w++) {
            if (strlen(bench_workloads[w].name) == len &&
                strncmp(bench_workloads[w].name, p, len) == 0) {
                selected[w] = found = true;
            }
        }
        if (!found && len > 0) {
            fprintf(stderr, "sgk-bench: unknown workload '%.*s' (see --list)\n", (int)len, p);
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_run run = {0};
    int parsed = parse_options(argc, argv, &run.opt);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    bool selected[bench_workload_count];
    if (select_workloads(run.opt.selection, selected) != 0)
        return 2;

    if (sgk_set_num_threads(run.opt.threads) != SGK_OK) {
        fprintf(stderr, "sgk-bench: %s\n", sgk_last_error());
        return 2;
    }
    run.runtime = sgk_runtime_describe();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    run.threads = (int)bench_runtime_number(run.runtime, "; threads ", online > 0 ? online : 1);
    if (run.threads < 1)
        run.threads = 1;
    bench_describe_machine(&run);
    bench_utc_date(run.date, sizeof run.date);
    run.commit = bench_commit();
    run.load_start = bench_load_average();

    run.copy_gbps_start = bench_copy_bandwidth(&run, "start");

    size_t total = 0, done = 0;
    for (size_t w = 0; w < bench_workload_count; w++)
        total += selected[w] && run.opt.callers == 0;
    if (run.opt.callers > 0)
        bench_callers(&run);
    for (size_t w = 0; w < bench_workload_count && run.opt.callers == 0; w++) {
        if (!selected[w])
            continue;
        fprintf(stderr, "[%zu/%zu] %s ...", ++done, total, bench_workloads[w].name);
        int failures_before = run.failures;
        double t0 = bench_now_ms();
        size_t first = run.count;
        bench_workloads[w].run(&run);
        for (size_t i = first; i < run.count; i++)
            run.results[i].summary = bench_workloads[w].summary;
        fprintf(stderr, " %s %.1f s\n", run.failures > failures_before ? "FAILED" : "done",
                (bench_now_ms() - t0) / 1e3);
    }

    run.copy_gbps_end = bench_copy_bandwidth(&run, "end");
    run.copy_gbps = run.copy_gbps_start > run.copy_gbps_end ? run.copy_gbps_start
                                                            : run.copy_gbps_end;
    for (size_t i = 0; i < run.count; i++)
        run.results[i].of_copy = run.results[i].gbps / run.copy_gbps;
    run.load_end = bench_load_average();
    bench_report_table(stdout, &run);
    if (run.opt.json_path != NULL && bench_report_json(run.opt.json_path, &run) != 0) {
        fprintf(stderr, "sgk-bench: cannot write %s: %s\n", run.opt.json_path,
                strerror(errno));
        run.failures++;
    }
    free(run.results);
    bench_floor_release();
    if (run.failures > 0)
        fprintf(stderr, "sgk-bench: %d failure(s)\n", run.failures);
    return run.failures > 0 ? 1 : 0;
}
