/* Where parallel loops run: OpenMP's team (the default), the host's pool
   (sgk_set_parallel_backend), or the calling thread alone in a forked
   child, whose OpenMP workers belong to the parent (GCC bug 60035: libgomp
   waits for them forever), and in a library built without OpenMP. */
#ifndef SGK_BACKEND_H
#define SGK_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "sgk.h"

/* The host's parallel-for, when one is installed and was installed in
   this process (a fork()ed child runs serially until it installs its own). */
bool sgk_backend_host(sgk_parallel_backend *out);

/* Whether this process is a fork() of one that had loaded sgk. */
bool sgk_backend_forked(void);

/* Where loops run, in words, for sgk_runtime_describe. */
const char *sgk_backend_describe(char *text, size_t size);

#endif
