#include <omp.h>

#include "parallel/parallel_for.h"

int sgk_parallel_threads(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes)
{
    if (threads <= 1 || n <= 1 || work_bytes < min_bytes || omp_in_parallel())
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

void sgk_parallel_for(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes,
                      sgk_range_body body, void *ctx)
{
    int team = sgk_parallel_threads(n, threads, work_bytes, min_bytes);
    if (team == 1) {
        if (n > 0)
            body(ctx, 0, 0, n);
        return;
    }
#pragma omp parallel num_threads(team)
    {
        int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t begin = n / nt * t + (t < n % nt ? t : n % nt);
        int64_t end = begin + n / nt + (t < n % nt ? 1 : 0);
        if (begin < end)
            body(ctx, (int)t, begin, end);
    }
}

/* The first item i in [lo, hi] with prefix_cost(i) >= target. */
static int64_t first_reaching(sgk_prefix_cost prefix_cost, void *ctx, int64_t lo, int64_t hi,
                              int64_t target)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (prefix_cost(ctx, mid) >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void sgk_parallel_for_balanced(int64_t n, int threads, sgk_prefix_cost prefix_cost,
                               int64_t min_bytes, sgk_range_body body, void *ctx)
{
    int64_t total = n > 0 ? prefix_cost(ctx, n) : 0;
    int team = sgk_parallel_threads(n, threads, total, min_bytes);
    if (team == 1) {
        if (n > 0)
            body(ctx, 0, 0, n);
        return;
    }
#pragma omp parallel num_threads(team)
    {
        int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        /* total / nt * t avoids overflowing total * t */
        int64_t share = total / nt, extra = total % nt;
        int64_t begin = t == 0 ? 0
                               : first_reaching(prefix_cost, ctx, 0, n,
                                                share * t + (t < extra ? t : extra));
        int64_t end = t == nt - 1 ? n
                                  : first_reaching(prefix_cost, ctx, 0, n,
                                                   share * (t + 1) +
                                                       (t + 1 < extra ? t + 1 : extra));
        if (begin < end)
            body(ctx, (int)t, begin, end);
    }
}
