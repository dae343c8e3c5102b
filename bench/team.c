/* sgk-bench: one piece of work per thread, for the measures of the machine
   (machine.c's copy bandwidth, floor.c's traffic floor).  Built with
   OpenMP, the pieces run on OpenMP's team: the threads sgk's own calls
   run on.  Plain threads beside that team competed with its workers,
   which spin for a while after each call of sgk's: on the 2-core Xeon the
   floor of elementwise_max came out 0.56–0.63 of copy right after other
   workloads and 1.29 alone, the same bytes.  Without OpenMP, plain threads,
   the calling thread taking piece 0. */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#ifdef _OPENMP
#include <omp.h>

void bench_team_run(int threads, void *(*work)(void *piece), void *pieces, size_t piece_size)
{
    unsigned char *at = pieces;
#pragma omp parallel num_threads(threads)
    {
        /* a smaller team than asked for still does every piece */
        for (int t = omp_get_thread_num(); t < threads; t += omp_get_num_threads())
            work(at + (size_t)t * piece_size);
    }
}

#else
#include <pthread.h>
#include <stdbool.h>

void bench_team_run(int threads, void *(*work)(void *piece), void *pieces, size_t piece_size)
{
    unsigned char *at = pieces;
    pthread_t tid[threads];
    bool started[threads];
    for (int t = 1; t < threads; t++) {
        started[t] = pthread_create(&tid[t], NULL, work, at + (size_t)t * piece_size) == 0;
        if (!started[t])
            work(at + (size_t)t * piece_size); /* no thread to spare: do it here */
    }
    work(at);
    for (int t = 1; t < threads; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
}

#endif
