/* fail.h: the example's error message. Every failing function records
 * "what went wrong and where" with lobpcg_fail and returns -1; main prints
 * lobpcg_error() and exits non-zero. */
#ifndef LOBPCG_FAIL_H
#define LOBPCG_FAIL_H

/* Formats the message (printf style), keeps it, returns -1. */
int lobpcg_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The last message ("" if none). */
const char *lobpcg_error(void);

#endif
