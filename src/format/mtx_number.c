/* mtx_number.c: the rare hard cases of decimal to float (near a rounding
 * midpoint or the ends of float's range), through strtof on a rebuilt,
 * locale-independent token. */
#include "mtx_number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Digits kept before the rest is folded into one sticky digit: far more
 * than the ~112 a float rounding midpoint can need. */
#define KEPT_DIGITS 200

mtx_number_status mtx_float_slow(const char *begin, const char *end, float *out)
{
    char text[KEPT_DIGITS + 40];
    size_t n = 0;
    const char *p = begin;
    if (p < end && (*p == '-' || *p == '+')) text[n++] = *p++;
    int64_t e10 = 0;
    int kept = 0, sticky = 0, seen_point = 0;
    for (; p < end && (mtx_is_digit(*p) || *p == '.'); p++) {
        if (*p == '.') {
            seen_point = 1;
            continue;
        }
        if (kept == 0 && *p == '0') {
            e10 -= seen_point; /* a leading zero after the point */
            continue;
        }
        if (kept < KEPT_DIGITS) {
            text[n++] = *p;
            kept++;
            e10 -= seen_point;
        } else {
            sticky |= *p != '0';
            e10 += !seen_point;
        }
    }
    if (kept == 0) {
        *out = text[0] == '-' ? -0.0f : 0.0f;
        return MTX_NUMBER_OK;
    }
    if (sticky) {
        text[n++] = '1';
        e10--;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        int64_t exponent = 0;
        int negative = *++p == '-';
        if (*p == '-' || *p == '+') p++;
        for (; p < end && mtx_is_digit(*p); p++)
            if (exponent < MTX_EXPONENT_CAP) exponent = exponent * 10 + (*p - '0');
        e10 += negative ? -exponent : exponent;
    }
    snprintf(text + n, sizeof text - n, "e%lld", (long long)e10);
    float f = strtof(text, NULL);
    if (isinf(f)) return MTX_NUMBER_OVERFLOW;
    *out = f;
    return MTX_NUMBER_OK;
}
