/* fail.c: the example's single error message (the solver runs on one host
 * thread; OpenMP regions never fail). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

static char message[1024];

int lobpcg_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return -1;
}

const char *lobpcg_error(void) { return message; }
