/* The workloads' deterministic inputs (workloads.h): a seeded generator,
   exact float fills, and the sizes --scale gives. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t rng_next(rng *r)
{
    r->state += 0x9e3779b97f4a7c15ull;
    return mix64(r->state);
}

/* Uniform in [0, n); the modulo bias is below 2^-40 for these sizes. */
int64_t rng_below(rng *r, int64_t n)
{
    return (int64_t)(rng_next(r) % (uint64_t)n);
}

double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* A coordinate in [0, dim), written as its negative alias one time in
   `negative_every` (0: never) to exercise normalization. */
int64_t rng_coordinate(rng *r, int64_t dim, int negative_every)
{
    int64_t i = rng_below(r, dim);
    return negative_every > 0 && rng_below(r, negative_every) == 0 ? i - dim : i;
}

void zipf_ids(rng *r, int64_t *ids, int64_t count, int64_t slots, double s)
{
    double *cdf = malloc((size_t)slots * sizeof *cdf), total = 0.0;
    int64_t *of_rank = malloc((size_t)slots * sizeof *of_rank);
    if (cdf == NULL || of_rank == NULL) {
        fprintf(stderr, "zipf_ids: out of memory\n");
        exit(2);
    }
    for (int64_t k = 0; k < slots; k++) {
        total += pow((double)(k + 1), -s);
        cdf[k] = total;
        of_rank[k] = k;
    }
    for (int64_t k = slots - 1; k > 0; k--) {
        int64_t j = rng_below(r, k + 1), t = of_rank[k];
        of_rank[k] = of_rank[j], of_rank[j] = t;
    }
    for (int64_t n = 0; n < count; n++) {
        double u = rng_unit(r) * total;
        int64_t lo = 0, hi = slots - 1;
        while (lo < hi) { /* the first rank whose cumulative weight reaches u */
            int64_t mid = (lo + hi) / 2;
            if (cdf[mid] < u)
                lo = mid + 1;
            else
                hi = mid;
        }
        ids[n] = of_rank[lo];
    }
    free(cdf), free(of_rank);
}

int64_t normalized(int64_t i, int64_t dim)
{
    return i < 0 ? i + dim : i;
}

void fill_f32(float *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((int32_t)(mix64(seed ^ (i * 0x2545f4914f6cdd1dull)) & 0xffff) - 32768) /
               256.0f;
}

static void fill_f16(uint16_t *p, size_t n, uint64_t seed)
{
    /* Bit 14 clear keeps the exponent below 31: finite. */
    for (size_t i = 0; i < n; i++)
        p[i] = (uint16_t)(mix64(seed ^ (i * 0x2545f4914f6cdd1dull)) & 0xbfff);
}

void fill(void *p, sgk_dtype dtype, size_t n, uint64_t seed)
{
    if (dtype == SGK_FLOAT16)
        fill_f16(p, n, seed);
    else
        fill_f32(p, n, seed);
}

/* All-ones bytes are NaN in float32 and float16: a call that writes nothing
   fails its check. */
void poison(void *p, size_t bytes)
{
    memset(p, 0xff, bytes);
}

int64_t scaled(int64_t n, double scale)
{
    long long v = llround((double)n * scale);
    return v < 1 ? 1 : (int64_t)v;
}

static int64_t elems_of(const sgk_tensor *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->rank; d++)
        n *= t->shape[d];
    return n;
}

double bytes_of(const sgk_tensor *t)
{
    return (double)elems_of(t) * (double)sgk_dtype_size(t->dtype);
}
