/* Thread-local error detail and the status every failing call returns. */
#ifndef SGK_ERROR_H
#define SGK_ERROR_H

#include "sgk.h"

/* Records "<op>: <formatted detail>" as this thread's last error and returns
   status, so that a failing path reads `return sgk_fail(...)`. */
sgk_status sgk_fail(sgk_status status, const char *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
