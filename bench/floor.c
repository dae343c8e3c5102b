/* sgk-bench: the traffic floor.  of_copy sets a workload against a copy,
   which reads and writes equal amounts; most workloads read more than they
   write (updates, indices), and on some machines reading alone is slower
   than copying.  The floor is what this machine takes to move a workload's
   minimal traffic with no index work at all: its read bytes read front to
   back from one buffer while its written bytes are written front to back,
   with streaming stores, into another, in proportion, each written step
   copied from the bytes being read (re-read from cache where the workload
   writes more than it reads), by the same number of threads as the
   workloads (team.c).  An implementation can beat it only by reading
   fewer bytes than the minimal traffic counts (a plan that no longer reads
   the index). */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench.h"

/* Bytes written per step. */
#define FLOOR_STEP 16384

typedef struct {
    unsigned char *dst;
    size_t written;          /* a multiple of FLOOR_STEP */
    const unsigned char *src;
    size_t read;             /* a multiple of 64; src has FLOOR_STEP more */
    uint64_t sum;            /* of what was read, so that the reads stay */
} floor_chunk;

/* FLOOR_STEP bytes from src to dst, both 64-byte aligned, past the caches
   where the target has streaming stores.  The step's four quarters are
   copied a line of each at a time, as glibc's memcpy does for large copies:
   four streams keep more reads in flight than one. */
static void stream_copy(unsigned char *dst, const unsigned char *src)
{
    const size_t quarter = FLOOR_STEP / 4;
#if defined(__SSE2__)
    for (size_t k = 0; k < quarter; k += 64)
        for (size_t q = 0; q < 4 * quarter; q += quarter)
            for (size_t v = 0; v < 64; v += 16)
                _mm_stream_si128((__m128i *)(dst + q + k + v),
                                 _mm_load_si128((const __m128i *)(src + q + k + v)));
#else
    (void)quarter;
    memcpy(dst, src, FLOOR_STEP);
#endif
}

/* Reads bytes (a multiple of 64) at p, 64-byte aligned. */
static uint64_t read_all(const unsigned char *p, size_t bytes)
{
#if defined(__SSE2__)
    __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
    for (size_t k = 0; k < bytes; k += 64) {
        a = _mm_xor_si128(a, _mm_load_si128((const __m128i *)(p + k)));
        b = _mm_xor_si128(b, _mm_load_si128((const __m128i *)(p + k + 16)));
        c = _mm_xor_si128(c, _mm_load_si128((const __m128i *)(p + k + 32)));
        d = _mm_xor_si128(d, _mm_load_si128((const __m128i *)(p + k + 48)));
    }
    a = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
    return (uint64_t)_mm_cvtsi128_si64(a);
#else
    uint64_t a = 0;
    for (size_t k = 0; k < bytes; k += 8) {
        uint64_t x;
        memcpy(&x, p + k, 8);
        a ^= x;
    }
    return a;
#endif
}

static void *floor_worker(void *arg)
{
    floor_chunk *c = arg;
    size_t steps = c->written / FLOOR_STEP, done = 0;
    uint64_t sum = 0;
    for (size_t s = 0; s < steps; s++) {
        /* this step reads [done, upto): FLOOR_STEP bytes of it (or from it
           on, when fewer) are copied, the rest only read */
        size_t upto = c->read * (s + 1) / steps / 64 * 64;
        stream_copy(c->dst + s * FLOOR_STEP, c->src + done);
        if (upto > done + FLOOR_STEP)
            sum += read_all(c->src + done + FLOOR_STEP, upto - done - FLOOR_STEP);
        done = upto;
    }
#if defined(__SSE2__)
    _mm_sfence();
#endif
    c->sum = sum;
    return NULL;
}

/* The two buffers, kept for the next workload and grown when too small. */
static unsigned char *buffer;
static size_t buffer_bytes;

double bench_traffic_floor_ms(const bench_run *run, double read_bytes, double written_bytes)
{
    const int threads = run->threads;
    size_t steps = (size_t)written_bytes / FLOOR_STEP;
    size_t written = steps * FLOOR_STEP, read = (size_t)read_bytes / 64 * 64;
    if (steps < (size_t)threads)
        return 0.0;
    if (buffer_bytes < written + read + FLOOR_STEP) {
        free(buffer);
        buffer_bytes = written + read + FLOOR_STEP;
        buffer = bench_alloc(buffer_bytes);
    }
    floor_chunk chunk[threads];
    for (int t = 0; t < threads; t++) {
        size_t w0 = steps * (size_t)t / (size_t)threads * FLOOR_STEP;
        size_t w1 = steps * (size_t)(t + 1) / (size_t)threads * FLOOR_STEP;
        size_t r0 = read / 64 * (size_t)t / (size_t)threads * 64;
        size_t r1 = read / 64 * (size_t)(t + 1) / (size_t)threads * 64;
        chunk[t] = (floor_chunk){buffer + w0, w1 - w0, buffer + written + r0, r1 - r0, 0};
    }
    double *ms = malloc((size_t)(run->opt.reps + 1) * sizeof *ms);
    if (ms == NULL)
        exit(2);
    for (int r = 0; r <= run->opt.reps; r++) { /* the first is a warm-up */
        double t0 = bench_now_ms();
        bench_team_run(threads, floor_worker, chunk, sizeof chunk[0]);
        ms[r] = bench_now_ms() - t0;
    }
    double median = bench_median(ms + 1, run->opt.reps);
    free(ms);
    return median;
}

void bench_floor_release(void)
{
    free(buffer);
    buffer = NULL;
    buffer_bytes = 0;
}
