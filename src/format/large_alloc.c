/* large_alloc.c: malloc for arrays of megabytes. The reader touches every
 * byte of its big arrays once, soon after allocating them, so the cost that
 * matters is the page faults: these blocks are 2 MiB aligned and advised to
 * use transparent huge pages, one fault per 2 MiB instead of per 4 KiB.
 * free() releases them. */
#include "csr.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *large_alloc(size_t bytes)
{
    if (bytes < 2 * HUGE_PAGE) return malloc(bytes ? bytes : 1);
    if (bytes > SIZE_MAX - HUGE_PAGE) return NULL;
    size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}
