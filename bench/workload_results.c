/* Naming, finding and annotating the results the workloads store
   (workloads.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

/* Where a result sits in run->results (-1 for none): timing more variants
   may move the array, so sibling results are compared by position. */
long result_index(const bench_run *run, const bench_result *r)
{
    return r != NULL ? (long)(r - run->results) : -1;
}

const char *mode_name(bench_mode mode)
{
    return mode == BENCH_MODE_PLAN ? "plan" : "oneshot";
}

/* The planner's cost beside the execution it plans: a plan made and freed
   up to 11 times, the median written into the note of the reused plan's
   result as "planning X ms = Y executions". */
void note_planning(bench_run *run, bench_result *res, sgk_status (*build)(void *),
                   void *ctx)
{
    enum { MAX_PLANS = 11 };
    double ms[MAX_PLANS];
    int n = run->opt.reps < MAX_PLANS ? run->opt.reps : MAX_PLANS;
    for (int r = 0; r < n; r++) {
        double t0 = bench_now_ms();
        if (build(ctx) != SGK_OK)
            return;
        ms[r] = bench_now_ms() - t0;
    }
    double median = bench_median(ms, n);
    snprintf(res->note, sizeof res->note, "planning %.3g ms = %.2g executions", median,
             median / res->median_ms);
}
