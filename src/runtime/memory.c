#define _DEFAULT_SOURCE /* madvise */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdbool.h>

#include "runtime/memory.h"

#define HUGE_PAGE (2u << 20)
#define CACHE_LINE 64
#define PAGE 4096

void *sgk_alloc_array(int64_t n, size_t size)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * size;
    void *p;
    if (bytes < PAGE)
        return malloc(bytes);
    if (bytes < 2 * HUGE_PAGE)
        return posix_memalign(&p, CACHE_LINE, bytes) == 0 ? p : NULL;
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

bool sgk_mapped_in(const void *p, int64_t bytes)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t first = ((uintptr_t)p + page - 1) / page * page;
    unsigned char resident;
    if (bytes <= 0 || page == 0 || first + page > (uintptr_t)p + (uintptr_t)bytes)
        return true;
    return mincore((void *)first, page, &resident) != 0 || (resident & 1);
}

/* Two buffers a thread keeps: one for the blocks it works on as a worker,
   one for the arrays of the one-shot calls it makes. */
enum { WORKER_SCRATCH, CALL_SCRATCH, SCRATCH_KINDS };

typedef struct {
    void *buffer[SCRATCH_KINDS];
    size_t bytes[SCRATCH_KINDS];
} thread_scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_key_ok;

static void free_scratch(void *s_)
{
    thread_scratch *s = s_;
    for (int k = 0; k < SCRATCH_KINDS; k++)
        free(s->buffer[k]);
    free(s);
}

static void make_scratch_key(void)
{
    scratch_key_ok = pthread_key_create(&scratch_key, free_scratch) == 0;
}

static void *scratch_of(int kind, size_t bytes)
{
    pthread_once(&scratch_once, make_scratch_key);
    if (!scratch_key_ok)
        return NULL;
    thread_scratch *s = pthread_getspecific(scratch_key);
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s == NULL || pthread_setspecific(scratch_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    if (s->bytes[kind] < bytes) {
        free(s->buffer[kind]);
        s->buffer[kind] = sgk_alloc_array((int64_t)bytes, 1);
        s->bytes[kind] = s->buffer[kind] != NULL ? bytes : 0;
    }
    return s->buffer[kind];
}

void *sgk_thread_scratch(size_t bytes)
{
    return scratch_of(WORKER_SCRATCH, bytes);
}

void *sgk_call_scratch(size_t bytes)
{
    return scratch_of(CALL_SCRATCH, bytes);
}

size_t sgk_scratch_kept(void)
{
    pthread_once(&scratch_once, make_scratch_key);
    const thread_scratch *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
    return s != NULL ? s->bytes[WORKER_SCRATCH] + s->bytes[CALL_SCRATCH] : 0;
}
