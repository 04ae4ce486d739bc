/* test_mtx_fuzz.c: 10,000 random mutations of valid small Matrix Market
 * texts, each parsed from an exactly sized heap copy (so AddressSanitizer
 * sees any overread) at 1 to 4 threads. Every outcome is either a CSR that
 * passes tcspmm_csr_validate or an error whose message names the input and
 * a line ("fuzz:LINE: ..."), the same at every thread count. */
#include "harness.h"

#include "format/mtx.h"
#include "rng.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *seeds[] = {
    "%%MatrixMarket matrix coordinate real general\n% c\n3 4 5\n1 1 1.5\n3 4 -2e-3\n2 2 0\n"
    "1 1 7\n3 1 .5\n",
    "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 4\n2 1\n3 3\n4 1\n4 2\n",
    "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -7\n",
    "%%MatrixMarket matrix array real general\n2 2\n1\n2.5\n-3\n4e1\n",
    "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n",
    "%%MatrixMarket matrix coordinate real symmetric\r\n2 2 2\r\n1 1 1\r\n2 1 2",
};

/* Characters a mutation inserts: the ones the grammar cares about. */
static const char alphabet[] = "0123456789 \t\n\r%.eE+-xnaif#\0\x80";

static size_t mutate(uint64_t *s, const char *seed, char *out, size_t cap)
{
    size_t len = strlen(seed);
    memcpy(out, seed, len);
    int edits = 1 + (int)(rng_next(s) % 4);
    for (int e = 0; e < edits && len > 0; e++) {
        size_t at = (size_t)(rng_next(s) % len);
        switch (rng_next(s) % 7) {
        case 0: /* replace a byte */
            out[at] = alphabet[rng_next(s) % (sizeof alphabet - 1)];
            break;
        case 1: /* insert a byte */
            if (len + 1 < cap) {
                memmove(out + at + 1, out + at, len - at);
                out[at] = alphabet[rng_next(s) % (sizeof alphabet - 1)];
                len++;
            }
            break;
        case 2: /* delete a run */
        {
            size_t n = 1 + (size_t)(rng_next(s) % 4);
            if (at + n > len) n = len - at;
            memmove(out + at, out + at + n, len - at - n);
            len -= n;
            break;
        }
        case 3: /* truncate */
            len = at;
            break;
        case 4: /* duplicate a run (a line, often) */
        {
            size_t n = 1 + (size_t)(rng_next(s) % 12);
            if (at + n > len) n = len - at;
            if (len + n < cap) {
                memmove(out + at + n, out + at, len - at);
                len += n;
            }
            break;
        }
        case 5: /* a huge or negative number */
        {
            const char *big[] = {"99999999999999999999", "-1", "4294967297", "1e39", "2147483648"};
            const char *b = big[rng_next(s) % 5];
            size_t n = strlen(b);
            if (len + n < cap) {
                memmove(out + at + n, out + at, len - at);
                memcpy(out + at, b, n);
                len += n;
            }
            break;
        }
        default: /* flip the case of a byte */
            out[at] = (char)(isupper((unsigned char)out[at]) ? tolower((unsigned char)out[at])
                                                              : toupper((unsigned char)out[at]));
        }
    }
    return len;
}

/* "fuzz:<digits>: <something>" */
static int names_a_line(const char *msg)
{
    if (strncmp(msg, "fuzz:", 5) != 0) return 0;
    const char *p = msg + 5;
    if (!isdigit((unsigned char)*p)) return 0;
    while (isdigit((unsigned char)*p)) p++;
    return p[0] == ':' && p[1] == ' ' && p[2] != '\0';
}

int main(void)
{
    uint64_t s = 2026;
    char buf[1024];
    long ok = 0, refused = 0, bad = 0;
    for (int k = 0; k < 10000; k++) {
        const char *seed = seeds[k % (sizeof seeds / sizeof seeds[0])];
        size_t len = mutate(&s, seed, buf, sizeof buf);
        char *copy = malloc(len ? len : 1);
        memcpy(copy, buf, len);
        tcspmm_csr A;
        tcspmm_status st = mtx_parse_buffer("fuzz", copy, len, 1 + k % 4, &A);
        char first[1024];
        snprintf(first, sizeof first, "%s", tcspmm_last_error());
        int good;
        if (st == TCSPMM_SUCCESS) {
            good = tcspmm_csr_validate(&A) == TCSPMM_SUCCESS;
            ok++;
        } else {
            good = names_a_line(first) && A.row_ptr == NULL;
            refused++;
        }
        /* The same answer with another thread count. */
        tcspmm_csr B;
        tcspmm_status st2 = mtx_parse_buffer("fuzz", copy, len, 1 + (k + 1) % 4, &B);
        good = good && st2 == st &&
               (st != TCSPMM_SUCCESS ? strcmp(first, tcspmm_last_error()) == 0
                                     : tests_csr_equal(&A, &B));
        tcspmm_csr_free(&A);
        tcspmm_csr_free(&B);
        free(copy);
        if (!good && bad++ < 10)
            fprintf(stderr, "  mutation %d (%s): \"%s\"\n  input: %.*s\n", k,
                    tcspmm_status_string(st), first, (int)len, buf);
        CHECK(good);
    }
    printf("mutations: %ld parsed, %ld refused\n", ok, refused);
    CHECK(ok > 100 && refused > 100); /* both outcomes exercised */
    return tests_finish();
}
