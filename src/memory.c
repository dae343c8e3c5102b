#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory.h"

#define HUGE_PAGE (2u << 20)

void *sgk_alloc_array(int64_t n, size_t size)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * size;
    if (bytes < 2 * HUGE_PAGE)
        return malloc(bytes);
    void *p;
    size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    return p;
}

void *sgk_alloc_zeroed(int64_t n, size_t size)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * size;
    if (bytes < 2 * HUGE_PAGE)
        return calloc(bytes, 1);
    void *p = sgk_alloc_array(n, size);
    if (p != NULL)
        memset(p, 0, bytes);
    return p;
}
