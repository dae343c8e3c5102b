#include <stdarg.h>
#include <stdio.h>

#include "runtime/error.h"

static _Thread_local char last_error[512];

sgk_status sgk_fail(sgk_status status, const char *op, const char *fmt, ...)
{
    int used = snprintf(last_error, sizeof last_error, "%s: ", op);
    if (used < 0 || (size_t)used >= sizeof last_error)
        return status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + used, sizeof last_error - (size_t)used, fmt, ap);
    va_end(ap);
    return status;
}

const char *sgk_last_error(void)
{
    return last_error;
}

