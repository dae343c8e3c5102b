/*
 * The process's memory (tests/support/process_memory.h).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "process_memory.h"

long process_peak_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

long process_resident_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size, resident;
    if (f == NULL)
        return -1;
    int got = fscanf(f, "%ld %ld", &size, &resident);
    fclose(f);
    return got == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

void process_trim(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
