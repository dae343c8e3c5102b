/*
 * Helpers shared by the tests; see tests/support/common.h.  No call into the library
 * or cmocka here (the reference and the fuzz targets link this file too).
 */
#include "common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- allocation ----------------------------------------------------------- */

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory allocating %zu bytes\n", n);
        abort();
    }
    return p;
}

/* ---- element types and shapes --------------------------------------------- */

size_t tc_dtype_size(sgk_dtype dtype)
{
    switch (dtype) {
    case SGK_BOOL: case SGK_INT8: case SGK_UINT8: return 1;
    case SGK_INT16: case SGK_UINT16: case SGK_FLOAT16: case SGK_BFLOAT16: return 2;
    case SGK_INT32: case SGK_UINT32: case SGK_FLOAT32: return 4;
    case SGK_INT64: case SGK_UINT64: case SGK_FLOAT64: case SGK_COMPLEX64: return 8;
    case SGK_COMPLEX128: return 16;
    case SGK_STRING: return sizeof(const char *);
    }
    return 0;
}

const char *tc_dtype_name(sgk_dtype dtype)
{
    static const char *const names[] = {
        "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
        "uint64", "float16", "bfloat16", "float32", "float64", "complex64",
        "complex128", "string"};
    return (unsigned)dtype < sizeof names / sizeof *names ? names[dtype] : "?";
}

const char *tc_reduction_name(sgk_reduction reduction)
{
    static const char *const names[] = {"none", "add", "sub", "mul", "max", "min"};
    return (unsigned)reduction < sizeof names / sizeof *names ? names[reduction] : "?";
}

const char *tc_status_name(sgk_status status)
{
    static const char *const names[] = {
        "SGK_OK", "SGK_ERR_INVALID_ARGUMENT", "SGK_ERR_SHAPE",
        "SGK_ERR_INDEX_OUT_OF_RANGE", "SGK_ERR_UNSUPPORTED",
        "SGK_ERR_OUT_OF_MEMORY", "SGK_ERR_OVERFLOW"};
    return (unsigned)status < sizeof names / sizeof *names ? names[status]
                                                           : "(unknown status)";
}

int64_t tc_numel(int32_t rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int32_t d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

/* ---- deterministic random numbers (splitmix64) ----------------------------- */

uint64_t tc_rng_next(tc_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t tc_rng_below(tc_rng *r, int64_t n)
{
    return (int64_t)(tc_rng_next(r) % (uint64_t)n);
}

int64_t tc_rng_range(tc_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(tc_rng_next(r) % (uint64_t)(hi - lo + 1));
}

int tc_rng_percent(tc_rng *r, int percent)
{
    return tc_rng_below(r, 100) < percent;
}

double tc_rng_unit(tc_rng *r)
{
    return (double)(tc_rng_next(r) >> 11) * 0x1p-53;
}

double tc_rng_uniform(tc_rng *r, double lo, double hi)
{
    return lo + tc_rng_unit(r) * (hi - lo);
}

void tc_fill_uniform_f32(tc_rng *r, float *p, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)tc_rng_uniform(r, lo, hi);
}

/* ---- bytes ----------------------------------------------------------------- */

void tc_fill_pattern(void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(0xA5u ^ (uint8_t)(i * 29u));
}

size_t tc_first_difference(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    size_t i = 0;
    while (i < n && x[i] == y[i])
        i++;
    return i;
}

size_t tc_first_byte_not(const void *p, uint8_t byte, size_t n)
{
    const uint8_t *b = p;
    size_t i = 0;
    while (i < n && b[i] == byte)
        i++;
    return i;
}

void tc_print_hex(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t j = n; j-- > 0;)
        printf("%02x", b[j]);
}

int tc_thread_count(void)
{
    /* Under qemu-user (scripts/check-arm sets SGK_TEST_EMULATED),
       /proc/self/task lists the emulator's threads, which come and go
       on their own: the count is unknown. */
    if (getenv("SGK_TEST_EMULATED") != NULL)
        return -1;
    DIR *dir = opendir("/proc/self/task");
    int n = 0;
    if (dir == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(dir);
    return n;
}
