/*
 * sgk-info: what a user needs to know when something is off.  Prints the
 * library's version and where it was loaded from, the SIMD target chosen
 * and the ones this CPU runs, the threads and their backend, the caches
 * hwloc saw, and the environment overrides taken and ignored (all from
 * sgk_runtime_describe).  `sgk-info --simd-targets` prints only the
 * targets SGK_SIMD takes, one a line, best first (tests/matrix.sh runs
 * the suite on each).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "sgk.h"

static void print_targets(void)
{
    char list[256];
    snprintf(list, sizeof list, "%s", sgk_simd_targets());
    for (char *save = NULL, *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save))
        puts(t);
}

/* The runtime description is one line of "; "-separated facts: one a line. */
static void print_runtime(void)
{
    const char *d = sgk_runtime_describe();
    while (*d != '\0') {
        const char *end = strstr(d, "; ");
        int len = end != NULL ? (int)(end - d) : (int)strlen(d);
        printf("  %.*s\n", len, d);
        d += len + (end != NULL ? 2 : 0);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--simd-targets") == 0) {
        print_targets();
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: sgk-info [--simd-targets]\n");
        return 2;
    }
    Dl_info where;
    const char *library = dladdr((void *)sgk_version, &where) && where.dli_fname
                              ? where.dli_fname
                              : "(unknown)";
    printf("sgk %s (header %d.%d), %s\n", sgk_version(), SGK_VERSION_MAJOR, SGK_VERSION_MINOR,
           library);
    printf("simd targets this CPU runs: %s\n", sgk_simd_targets());
    printf("runtime:\n");
    print_runtime();
    return 0;
}
