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
            body(ctx, 0, n);
        return;
    }
#pragma omp parallel num_threads(team)
    {
        int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t begin = n / nt * t + (t < n % nt ? t : n % nt);
        int64_t end = begin + n / nt + (t < n % nt ? 1 : 0);
        if (begin < end)
            body(ctx, begin, end);
    }
}
