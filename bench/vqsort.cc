// Highway's vectorized quicksort behind a C function, for partition-bench.
// Highway 1.0.3 has no hwy::VQSort free function yet: hwy::Sorter is its
// interface (it holds the sort's scratch, so one is kept for the process).
#include <stddef.h>
#include <stdint.h>

#include "hwy/contrib/sort/vqsort.h"

extern "C" void bench_vqsort_u64(uint64_t *keys, size_t n);

void bench_vqsort_u64(uint64_t *keys, size_t n)
{
    static hwy::Sorter sorter;
    sorter(keys, n, hwy::SortAscending());
}
