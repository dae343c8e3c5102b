/*
 * Soak: many threads run all six operators (ScatterND with every
 * reduction, GatherND, ScatterElements, GatherElements, Gather,
 * TensorScatter) for a bounded time, one-shot, planned and through plans
 * shared by every thread, on random shapes, types, reductions and index
 * types, each result checked bit for bit against the independent reference
 * (tests/support/reference.c).  It reports the calls, the wrong results and the
 * errors (both must be 0), and the process's resident memory sampled over
 * the run, and judges that the library's scratch stays bounded and is
 * released:
 *
 *   - bounded: the peak resident set (getrusage's ru_maxrss) at the end is
 *     no more than MARGIN above its value at the end of the warm-up (the
 *     first WARMUP_PERCENT of the run), MARGIN being the larger of
 *     MARGIN_MIB and MARGIN_PERCENT of that value (4 times that under
 *     ThreadSanitizer, whose shadow memory and history grow with the
 *     addresses touched).  The cases' sizes are bounded, so once every
 *     thread has met the large ones the peak stops rising; a leak, or
 *     scratch kept past its bound, keeps it rising.
 *   - released: once the workers have ended (a thread's call scratch is
 *     freed when the thread ends) and the shared plans are destroyed, the
 *     resident set (after malloc_trim) is back within MARGIN of what it
 *     was before they started.
 *
 * glibc's malloc raises its mmap threshold to the largest block freed (up
 * to 32 MiB) and then keeps such blocks in its per-thread arenas, where
 * they fragment: the resident set then creeps up over minutes and stays
 * up after the threads end, whatever the library does.  The soak fixes the
 * threshold at 128 KiB (mallopt; unless MALLOC_MMAP_THRESHOLD_ is set), so
 * that a large block freed goes back to the system and what stays resident
 * is what is still allocated: sgk's scratch among it.
 *
 * Under AddressSanitizer, whose quarantine holds freed memory back (256 MiB
 * by default), both are reported but not judged: LeakSanitizer judges
 * leaks at exit instead.
 *
 * Not a timing test: it passes under any load, only taking fewer calls.
 *
 *   tests/soak [seconds] [threads]
 *   SGK_SOAK_SECONDS (default 10), SGK_SOAK_THREADS (default 8),
 *   SGK_SOAK_SEED (default fixed), SGK_TEST_HOST_POOL (tests/support/host_pool.h);
 *   SGK_PARALLEL_MIN_BYTES defaults to 16384 here, so that the large cases
 *   run their loops on several threads.
 *
 * tests/test_soak.sh runs it for a few seconds in make check; docs/testing.md
 * quotes a long run.
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "support/common.h"
#include "support/host_pool.h"
#include "support/process_memory.h"
#include "support/reference.h"
#include "support/sanitizers.h"
#include "support/soak_cases.h"
#include "sgk.h"

#define WARMUP_PERCENT 25
#define MARGIN_MIB 16
#define MARGIN_PERCENT 25
#define SHARED_PLANS 8
#define MAX_THREADS 256

/* ---- the counts ------------------------------------------------------------ */

enum { ONE_SHOT, PLANNED, SHARED, ROUTES };
static const char *const route_names[ROUTES] = {"one-shot", "planned", "shared plan"};

typedef struct {
    long calls[ROUTES][OPS];
    long in_place, wrong, errors, bytes_out;
} counts;

/* Names of the paths taken (sgk_last_path / sgk_plan_path: static strings)
   and how often; a fixed table, filled under a lock. */
#define MAX_PATHS 32
static struct {
    const char *name;
    atomic_long n;
} paths[MAX_PATHS];
static pthread_mutex_t paths_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_path(const char *name)
{
    if (name == NULL)
        return;
    for (int p = 0; p < MAX_PATHS; p++) {
        const char *have = __atomic_load_n(&paths[p].name, __ATOMIC_ACQUIRE);
        if (have == NULL) {
            pthread_mutex_lock(&paths_lock);
            have = paths[p].name;
            if (have == NULL)
                __atomic_store_n(&paths[p].name, name, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&paths_lock);
            if (have != NULL && strcmp(have, name) != 0)
                continue;
        } else if (strcmp(have, name) != 0) {
            continue;
        }
        atomic_fetch_add_explicit(&paths[p].n, 1, memory_order_relaxed);
        return;
    }
}

/* ---- the workers ------------------------------------------------------------ */

static atomic_int stop;
static soak_case shared_case[SHARED_PLANS];
static sgk_plan *shared_plan[SHARED_PLANS];

typedef struct {
    int id;
    uint64_t seed;
    counts n;
    char first_failure[512];
} worker;

static void failure(worker *w, const soak_case *c, const char *route, const char *what)
{
    if (w->first_failure[0] != '\0')
        return;
    snprintf(w->first_failure, sizeof w->first_failure,
             "%s %s %s reduction %s, data rank %d (%lld elements), indices %s rank %d: %s",
             route, soak_op_names[c->op], tc_dtype_name(c->dtype), tc_reduction_name(c->red),
             (int)c->shapes.drank, (long long)c->shapes.dn, tc_dtype_name(c->shapes.idtype),
             (int)c->shapes.irank, what);
}

/* Compares out with the case's expected output; counts the result. */
static void judge(worker *w, const soak_case *c, int route, sgk_status st, const void *out)
{
    w->n.calls[route][c->op]++;
    if (st != SGK_OK) {
        w->n.errors++;
        char what[300];
        snprintf(what, sizeof what, "%s: %s", tc_status_name(st), tc_last_error());
        failure(w, c, route_names[route], what);
        return;
    }
    const size_t es = tc_dtype_size(c->dtype);
    const char *got = out, *want = c->expected;
    sgk_reduction red = soak_op_is_scatter(c->op) ? c->red : SGK_REDUCE_NONE;
    for (int64_t e = 0; e < c->shapes.on; e++)
        if (!ref_same_result(c->dtype, red, want + (size_t)e * es, got + (size_t)e * es)) {
            w->n.wrong++;
            char what[100];
            snprintf(what, sizeof what, "element %lld of %lld differs from the reference",
                     (long long)e, (long long)c->shapes.on);
            failure(w, c, route_names[route], what);
            return;
        }
    w->n.bytes_out += (long)((size_t)c->shapes.on * es);
}

/* Runs c by route into a fresh output (in place for a quarter of the
   scatters) and judges it. */
static void run(worker *w, tc_rng *r, const soak_case *c, int route, const sgk_plan *plan)
{
    const size_t bytes = (size_t)c->shapes.on * tc_dtype_size(c->dtype);
    char *out = xmalloc(bytes + 1);
    int in_place = soak_op_is_scatter(c->op) && tc_rng_percent(r, 25);
    const void *data = c->data;
    if (in_place) {
        memcpy(out, c->data, bytes);
        data = out;
        w->n.in_place++;
    } else {
        memset(out, 0xA5, bytes);
    }
    sgk_status st = route == ONE_SHOT ? soak_case_call(c, data, out)
                                      : sgk_execute(plan, data, c->updates, out);
    if (route == ONE_SHOT && st == SGK_OK)
        count_path(sgk_last_path());
    judge(w, c, route, st, out);
    free(out);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    tc_rng r = {w->seed};
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        int pick = (int)tc_rng_below(&r, 100);
        if (pick < 15) { /* a plan every thread shares, executed at once by several */
            int s = (int)tc_rng_below(&r, SHARED_PLANS);
            run(w, &r, &shared_case[s], SHARED, shared_plan[s]);
            continue;
        }
        soak_case c;
        soak_case_generate(&c, &r);
        if (pick < 60) {
            run(w, &r, &c, ONE_SHOT, NULL);
        } else {
            sgk_plan *plan = NULL;
            sgk_status st = soak_case_plan(&c, &plan);
            if (st != SGK_OK) {
                judge(w, &c, PLANNED, st, NULL);
            } else {
                count_path(sgk_plan_path(plan));
                for (int k = (int)tc_rng_range(&r, 1, 3); k > 0; k--)
                    run(w, &r, &c, PLANNED, plan);
                sgk_plan_destroy(plan);
            }
        }
        soak_case_free(&c);
    }
    return NULL;
}

/* ---- the run ---------------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long env_long(const char *name, const char *arg, long fallback, long lo, long hi)
{
    const char *text = arg != NULL ? arg : getenv(name);
    if (text == NULL || *text == '\0')
        return fallback;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "soak: %s=%s: want a number from %ld to %ld\n", name, text, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    const long seconds = env_long("SGK_SOAK_SECONDS", argc > 1 ? argv[1] : NULL, 10, 1, 86400);
    const int threads = (int)env_long("SGK_SOAK_THREADS", argc > 2 ? argv[2] : NULL, 8, 1,
                                      MAX_THREADS);
    const uint64_t seed = (uint64_t)env_long("SGK_SOAK_SEED", NULL, 20240611, 0, 0x7fffffff);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* Parallel loops from 16 KiB (the default is MiBs): the large cases
       then take the parallel paths, several threads per call. */
    setenv("SGK_PARALLEL_MIN_BYTES", "16384", 0);
#ifdef __GLIBC__
    if (getenv("MALLOC_MMAP_THRESHOLD_") == NULL) /* see the top */
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif

    host_pool *pool = host_pool_install_from_env();
    printf("soak: %ld s, %d threads, seed %llu; %s\n", seconds, threads,
           (unsigned long long)seed, sgk_runtime_describe());

    process_trim();
    const long rss_before = process_resident_kib();

    /* The shared plans: one of each operator (and two more scatters), large. */
    tc_rng r = {seed ^ 0x5DEECE66Dull};
    for (int s = 0; s < SHARED_PLANS; s++) {
        soak_case *c = &shared_case[s];
        const int want = s < OPS ? s : s % 2 ? SCATTER_ND : SCATTER_ELEMENTS;
        do {
            if (c->data != NULL)
                soak_case_free(c);
            soak_case_generate(c, &r);
        } while (c->op != want || c->shapes.dn + c->shapes.un + c->shapes.on < 4096);
        if (soak_case_plan(c, &shared_plan[s]) != SGK_OK) {
            fprintf(stderr, "soak: shared plan %d (%s): %s\n", s, soak_op_names[c->op],
                    tc_last_error());
            return 1;
        }
    }

    worker *w = calloc((size_t)threads, sizeof *w);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    if (w == NULL || th == NULL) {
        fprintf(stderr, "soak: no memory\n");
        return 1;
    }
    const double start = now();
    for (int t = 0; t < threads; t++) {
        w[t].id = t;
        w[t].seed = seed * 0x9E3779B97F4A7C15ull + (uint64_t)t + 1;
        if (pthread_create(&th[t], NULL, worker_main, &w[t]) != 0) {
            fprintf(stderr, "soak: cannot start thread %d\n", t);
            return 1;
        }
    }

    /* Sample the memory about every second, print about 10 samples. */
    const double warmup = (double)seconds * WARMUP_PERCENT / 100.0;
    const long print_every = seconds / 10 > 0 ? seconds / 10 : 1;
    long peak_after_warmup = -1, rss_min = -1, rss_max = -1;
    for (long tick = 1; tick <= seconds; tick++) {
        const double until = start + (double)tick;
        for (double t = now(); t < until; t = now()) {
            struct timespec nap = {0, (long)((until - t) * 1e9)};
            nanosleep(&nap, NULL);
        }
        long peak = process_peak_kib(), rss = process_resident_kib();
        if (peak_after_warmup < 0 && (double)tick >= warmup)
            peak_after_warmup = peak;
        if (peak_after_warmup >= 0) {
            rss_min = rss_min < 0 || rss < rss_min ? rss : rss_min;
            rss_max = rss > rss_max ? rss : rss_max;
        }
        if (tick % print_every == 0 || tick == seconds)
            printf("  %5ld s: resident %7.1f MiB, peak %7.1f MiB%s\n", tick, rss / 1024.0,
                   peak / 1024.0, (double)tick < warmup ? " (warm-up)" : "");
    }
    atomic_store(&stop, 1);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    const double elapsed = now() - start;
    const long peak_end = process_peak_kib();

    counts total = {0};
    int failures = 0;
    for (int t = 0; t < threads; t++) {
        for (int ro = 0; ro < ROUTES; ro++)
            for (int op = 0; op < OPS; op++)
                total.calls[ro][op] += w[t].n.calls[ro][op];
        total.in_place += w[t].n.in_place;
        total.wrong += w[t].n.wrong;
        total.errors += w[t].n.errors;
        total.bytes_out += w[t].n.bytes_out;
        if (w[t].first_failure[0] != '\0' && failures++ < 5)
            printf("  thread %d: %s\n", t, w[t].first_failure);
    }

    for (int s = 0; s < SHARED_PLANS; s++) {
        sgk_plan_destroy(shared_plan[s]);
        soak_case_free(&shared_case[s]);
    }
    host_pool_uninstall(pool);
    free(w);
    free(th);
    process_trim();
    const long rss_after = process_resident_kib();

    long calls = 0;
    printf("calls by operator (one-shot / planned / shared plan):\n");
    for (int op = 0; op < OPS; op++) {
        printf("  %-17s %8ld %8ld %8ld\n", soak_op_names[op], total.calls[ONE_SHOT][op],
               total.calls[PLANNED][op], total.calls[SHARED][op]);
        for (int ro = 0; ro < ROUTES; ro++)
            calls += total.calls[ro][op];
    }
    printf("paths taken (one-shot calls, and plans when made):");
    for (int p = 0; p < MAX_PATHS && paths[p].name != NULL; p++)
        printf(" %s %ld%s", paths[p].name, atomic_load(&paths[p].n),
               p + 1 < MAX_PATHS && paths[p + 1].name != NULL ? "," : "\n");

    const long base = peak_after_warmup > 0 ? peak_after_warmup : peak_end;
    long margin = base * MARGIN_PERCENT / 100;
    margin = margin > MARGIN_MIB * 1024L ? margin : MARGIN_MIB * 1024L;
    if (UNDER_TSAN)
        margin *= 4;
    const int grew = !UNDER_ASAN && peak_end > base + margin;
    const int kept = !UNDER_ASAN && rss_before >= 0 && rss_after > rss_before + margin;
    printf("soak: %ld calls in %.1f s (%.0f/s, %ld in place, %.1f MiB written), %ld wrong, "
           "%ld errors\n",
           calls, elapsed, (double)calls / elapsed, total.in_place,
           (double)total.bytes_out / (1 << 20), total.wrong, total.errors);
    printf("soak: peak resident %.1f MiB after the warm-up (%.0f s), %.1f MiB at the end "
           "(margin %.1f MiB): %s\n",
           base / 1024.0, warmup, peak_end / 1024.0, margin / 1024.0,
           UNDER_ASAN ? "not judged under ASan" : grew ? "GREW" : "bounded");
    printf("soak: resident after the warm-up %.1f to %.1f MiB; before the workers %.1f MiB, "
           "after they ended %.1f MiB: %s\n",
           rss_min / 1024.0, rss_max / 1024.0, rss_before / 1024.0, rss_after / 1024.0,
           UNDER_ASAN ? "not judged under ASan" : kept ? "NOT RELEASED" : "released");
    const int ok = calls > 0 && total.wrong == 0 && total.errors == 0 && !grew && !kept;
    printf("soak: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
