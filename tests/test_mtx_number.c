/* test_mtx_number.c: the reader's decimal parser against strtof (correctly
 * rounded in glibc) on random and hard decimal strings: every float printed
 * with 9 and 17 digits, random digit strings of 1 to 40 digits with random
 * exponents, exact float midpoints, subnormals, the ends of float's range,
 * exponents too large for int64, million-digit mantissas against large
 * exponents, and the syntax it must refuse. */
#include "harness.h"

#include "format/mtx_number.h"
#include "rng.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long mismatches;

/* Parses text (a complete token) and compares bit for bit with strtof. */
static void check_against_strtof(const char *text)
{
    const char *p = text, *end = text + strlen(text);
    float ours = 0;
    mtx_number_status st = mtx_parse_float(&p, end, 0, &ours);
    float want = strtof(text, NULL);
    int ok = isinf(want) ? st == MTX_NUMBER_OVERFLOW
                         : st == MTX_NUMBER_OK && p == end && memcmp(&ours, &want, 4) == 0;
    if (!ok && mismatches++ < 10)
        fprintf(stderr, "  '%.60s'%s: got %.9g (status %d), strtof %.9g\n", text,
                strlen(text) > 60 ? "..." : "", ours, st, want);
}

static void check_status(const char *text, int integer_only, mtx_number_status want)
{
    const char *p = text;
    float v;
    mtx_number_status st = mtx_parse_float(&p, text + strlen(text), integer_only, &v);
    CHECK(st == want);
    if (st != want) fprintf(stderr, "  '%s': status %d, expected %d\n", text, st, want);
}

int main(void)
{
    uint64_t s = 7;
    char text[128];
    /* Random float bit patterns, printed short and long. */
    for (int k = 0; k < 200000; k++) {
        uint32_t bits = (uint32_t)rng_next(&s);
        float f;
        memcpy(&f, &bits, 4);
        if (!isfinite(f)) continue;
        snprintf(text, sizeof text, "%.9g", f);
        check_against_strtof(text);
        snprintf(text, sizeof text, "%.17e", (double)f);
        check_against_strtof(text);
    }
    /* Random digit strings with random exponents and points. */
    for (int k = 0; k < 200000; k++) {
        int digits = 1 + (int)(rng_next(&s) % 40), n = 0;
        int point = (int)(rng_next(&s) % (uint64_t)(digits + 1));
        if (rng_next(&s) % 2) text[n++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0) text[n++] = '.';
            text[n++] = (char)('0' + rng_next(&s) % 10);
        }
        n += snprintf(text + n, sizeof text - (size_t)n, "e%d", (int)(rng_next(&s) % 100) - 60);
        check_against_strtof(text);
    }
    /* Exact midpoints between adjacent floats, and their neighbours. */
    for (int k = 0; k < 20000; k++) {
        uint32_t bits = (uint32_t)rng_next(&s) & 0x7f7fffffu;
        float f, g;
        memcpy(&f, &bits, 4);
        g = nextafterf(f, INFINITY);
        double mid = ((double)f + (double)g) / 2;
        snprintf(text, sizeof text, "%.60g", mid);
        check_against_strtof(text);
        snprintf(text, sizeof text, "%.25g", nextafter(mid, 0));
        check_against_strtof(text);
        snprintf(text, sizeof text, "%.25g", nextafter(mid, INFINITY));
        check_against_strtof(text);
    }
    const char *hard[] = {"3.4028234664e38", "3.4028235678e38", "3.40282357e38", "1.17549435e-38",
                          "1.4e-45", "7e-46", "7.1e-46", "1e-46", "0.000000000000000000000000000001",
                          "123456789012345678901234567890", "0", "-0", "0e999999", ".5", "5.",
                          "+1.5E+3", "16777217", "33554431", "9007199254740993", "1e38", "1e-38",
                          "0.1", "2.5e-1"};
    for (size_t k = 0; k < sizeof hard / sizeof hard[0]; k++) check_against_strtof(hard[k]);
    /* past the parser's 200 kept digits: halfway cases between two floats,
     * padded with zeros, then a last digit that decides the rounding (1) or
     * not (0), with and without a decimal point and an exponent */
    const char *halfway[] = {"1.000000059604644775390625", "16777217", "3.4028235677973366e38"};
    for (size_t k = 0; k < sizeof halfway / sizeof halfway[0]; k++)
        for (int last = 0; last < 2; last++)
            for (int zeros = 190; zeros <= 230; zeros += 20) {
                char longer[400];
                int len = snprintf(longer, sizeof longer, "%s", halfway[k]);
                const char *e = strchr(longer, 'e');
                char exponent[16] = "";
                if (e) {
                    snprintf(exponent, sizeof exponent, "%s", e);
                    len = (int)(e - longer);
                }
                if (!memchr(longer, '.', (size_t)len)) longer[len++] = '.';
                for (int z = 0; z < zeros; z++) longer[len++] = '0';
                longer[len++] = (char)('0' + last);
                snprintf(longer + len, sizeof longer - (size_t)len, "%s", exponent);
                check_against_strtof(longer);
            }
    CHECK(mismatches == 0);

    check_status("nan", 0, MTX_NUMBER_NONFINITE);
    check_status("-INF", 0, MTX_NUMBER_NONFINITE);
    check_status("Infinity", 0, MTX_NUMBER_NONFINITE);
    check_status("1e39", 0, MTX_NUMBER_OVERFLOW);
    check_status("-4e38", 0, MTX_NUMBER_OVERFLOW);
    check_status("1e999999999", 0, MTX_NUMBER_OVERFLOW);
    check_status("1.5", 1, MTX_NUMBER_SYNTAX);
    check_status("1e3", 1, MTX_NUMBER_SYNTAX);
    check_status("-12", 1, MTX_NUMBER_OK);
    check_status("1e9223372036854775807", 0, MTX_NUMBER_OVERFLOW);
    check_status("1e-99999999999999999999999", 0, MTX_NUMBER_OK);
    /* A mantissa of a million digits against a large exponent: the digits
     * move the exponent by a million, which must not outweigh it. */
    for (int k = 0; k < 4; k++) {
        const int zeros = 1000000;
        char *longer = malloc((size_t)zeros + 64);
        int n = snprintf(longer, 64, "%s", k % 2 == 0 ? "0." : "1");
        memset(longer + n, '0', (size_t)zeros);
        n += zeros;
        const char *tails[4] = {"1e100000000", "e-100000000", "1e1000040", "e-1000046"};
        snprintf(longer + n, 64, "%s", tails[k]);
        check_against_strtof(longer); /* 10^98999999 (overflow), 10^-99000000 (0), 1e39, 1e-46 */
        free(longer);
    }
    CHECK(mismatches == 0);
    const char *refused[] = {"", "-", ".", "e5", "1e", "1e+", "1.5.2", "0x10", "1,5", "1.5f", "--1",
                             "1d5", "nanx", "1 "};
    for (size_t k = 0; k + 1 < sizeof refused / sizeof refused[0]; k++)
        check_status(refused[k], 0, MTX_NUMBER_SYNTAX);
    /* A token ends at a blank: "1 " parses "1" and stops before the blank. */
    const char *p = refused[13];
    float v;
    CHECK(mtx_parse_float(&p, p + 2, 0, &v) == MTX_NUMBER_OK && v == 1.0f && *p == ' ');

    /* Indices: 8 digits at a time and the scalar tail agree. */
    for (int k = 0; k < 100000; k++) {
        uint64_t want = rng_next(&s) >> (1 + rng_next(&s) % 63); /* below 10^19 */
        int n = snprintf(text, sizeof text, "%llu\n.......", (unsigned long long)want);
        const char *q = text;
        uint64_t got = 0;
        int ok = mtx_parse_index(&q, text + n, &got) && got == want && *q == '\n';
        q = text;
        ok = ok && mtx_parse_index(&q, text + strlen(text) - 8, &got) && got == want;
        if (!ok && mismatches++ < 20) fprintf(stderr, "  index %s\n", text);
    }
    CHECK(mismatches == 0);
    uint64_t big;
    const char *q = "123456789012345678901 ";
    CHECK(mtx_parse_index(&q, q + 22, &big) && big == UINT64_MAX);
    q = "12a ";
    CHECK(!mtx_parse_index(&q, q + 4, &big));
    return tests_finish();
}
