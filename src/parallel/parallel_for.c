/* The one place that opens a parallel region: OpenMP's, or the host's
   pool (parallel/backend.h).  Built without OpenMP (configure
   --without-openmp), the host's pool is the only team: without one, every
   loop stays on the calling thread. */
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stddef.h>

#include "parallel/backend.h"
#include "parallel/parallel_for.h"

/* Set while this thread runs one of sgk's ranges: a loop inside it stays
   on the thread, whichever pool the thread belongs to. */
static _Thread_local int in_range;

/* Where a loop runs, read once per loop: the host's pool when one is
   installed, else OpenMP's team.  Sizing the team and running it on two
   different reads could hand a pool work its in_worker was never asked
   about. */
typedef struct {
    bool on_host;
    sgk_parallel_backend host;
} loop_place;

static loop_place place_loop(void)
{
    loop_place where;
    where.on_host = sgk_backend_host(&where.host);
    return where;
}

/* Whether a loop started here must stay on the calling thread: inside
   another parallel loop, on one of the host pool's workers, or in a forked
   child without a pool of its own. */
static bool stay_on_caller(const loop_place *where)
{
    if (in_range)
        return true;
    if (where->on_host)
        return where->host.in_worker != NULL && where->host.in_worker(where->host.pool);
#ifdef _OPENMP
    return sgk_backend_forked() || omp_in_parallel();
#else
    return true;
#endif
}

static bool small(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes)
{
    return threads <= 1 || n <= 1 || work_bytes < min_bytes;
}

static int team_for(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes,
                    const loop_place *where)
{
    if (small(n, threads, work_bytes, min_bytes) || stay_on_caller(where))
        return 1;
    /* Each thread gets at least min_bytes of work, so a loop just above the
       threshold does not wake the whole team. */
    int64_t by_work = min_bytes > 0 ? work_bytes / min_bytes : threads;
    int64_t team = threads;
    if (by_work < team)
        team = by_work;
    if (n < team)
        team = n;
    return team < 1 ? 1 : (int)team;
}

int sgk_parallel_threads(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes)
{
    if (small(n, threads, work_bytes, min_bytes))
        return 1;
    const loop_place where = place_loop();
    return team_for(n, threads, work_bytes, min_bytes, &where);
}

/* Where range t of `team` ranges over [0, n) begins; t == team gives n. */
typedef int64_t (*range_start)(const void *cut, int64_t n, int64_t t, int64_t team);

typedef struct {
    int64_t n;
    int team;
    range_start start;
    const void *cut;
    sgk_range_body body;
    void *ctx;
} ranges;

/* Range t of the team, on whichever thread runs it: the worker index is
   the range's, so per-worker scratch stays per range on any pool. */
static void run_range(void *r_, size_t t)
{
    const ranges *r = r_;
    int64_t begin = r->start(r->cut, r->n, (int64_t)t, r->team);
    int64_t end = r->start(r->cut, r->n, (int64_t)t + 1, r->team);
    if (begin < end) {
        in_range++;
        r->body(r->ctx, (int)t, begin, end);
        in_range--;
    }
}

static void run_ranges(int64_t n, int team, range_start start, const void *cut,
                       sgk_range_body body, void *ctx, const loop_place *where)
{
    ranges r = {n, team, start, cut, body, ctx};
    if (team == 1) {
        if (n > 0)
            body(ctx, 0, 0, n);
    } else if (where->on_host) {
        where->host.parallel_for(where->host.pool, (size_t)team, run_range, &r);
    } else {
#ifdef _OPENMP
#pragma omp parallel num_threads(team)
        {
            /* OpenMP may give fewer threads than asked: the team is theirs */
            ranges mine = r;
            mine.team = omp_get_num_threads();
            run_range(&mine, (size_t)omp_get_thread_num());
        }
#else
        /* Not reached (stay_on_caller): without OpenMP or a pool the team
           is 1.  Should that change, the ranges in turn are still right. */
        for (int t = 0; t < team; t++)
            run_range(&r, (size_t)t);
#endif
    }
}

int64_t sgk_even_start(int64_t n, int64_t t, int64_t team)
{
    return n / team * t + (t < n % team ? t : n % team);
}

static int64_t even_start(const void *cut, int64_t n, int64_t t, int64_t team)
{
    (void)cut;
    return sgk_even_start(n, t, team);
}

void sgk_parallel_for(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes,
                      sgk_range_body body, void *ctx)
{
    if (small(n, threads, work_bytes, min_bytes)) {
        if (n > 0)
            body(ctx, 0, 0, n);
        return;
    }
    const loop_place where = place_loop();
    run_ranges(n, team_for(n, threads, work_bytes, min_bytes, &where), even_start, NULL, body,
               ctx, &where);
}

typedef struct {
    sgk_prefix_cost prefix_cost;
    void *ctx;
    int64_t total;
} cost_cut;

/* The first item whose prefix cost reaches t/team of the total. */
static int64_t balanced_start(const void *cut_, int64_t n, int64_t t, int64_t team)
{
    const cost_cut *cut = cut_;
    if (t == 0 || t == team)
        return t == 0 ? 0 : n;
    /* total / team * t avoids overflowing total * t */
    int64_t target = cut->total / team * t + (cut->total % team) * t / team;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cut->prefix_cost(cut->ctx, mid) >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void sgk_parallel_for_balanced(int64_t n, int threads, sgk_prefix_cost prefix_cost,
                               int64_t min_bytes, sgk_range_body body, void *ctx)
{
    cost_cut cut = {prefix_cost, ctx, n > 0 ? prefix_cost(ctx, n) : 0};
    const loop_place where = place_loop();
    run_ranges(n, team_for(n, threads, cut.total, min_bytes, &where), balanced_start, &cut,
               body, ctx, &where);
}
