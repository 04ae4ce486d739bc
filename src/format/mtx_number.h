/* mtx_number.h: decimal text to float32, correctly rounded and fast, and
 * decimal indices, for the Matrix Market parser.
 *
 * Fast path: up to 19 significant digits go into a uint64 m and the value is
 * m * 10^e computed in double. That double is within ~2 ulps (of double) of
 * the exact value, so rounding it to float gives the correctly rounded float
 * unless it lies within a few ulps of a float rounding midpoint, or near the
 * ends of float's normal range; those rare cases go to mtx_float_slow, which
 * rebuilds the token as "<digits>e<exp>" (no locale-dependent decimal point)
 * and uses strtof. Syntax: [+-] digits [. digits] [(e|E) [+-] digits], or
 * ". digits" for the mantissa; a token ends at a blank, '\r' or '\n'. */
#ifndef TCSPMM_MTX_NUMBER_H
#define TCSPMM_MTX_NUMBER_H

#include <stdint.h>
#include <string.h>

typedef enum mtx_number_status {
    MTX_NUMBER_OK = 0,
    MTX_NUMBER_SYNTAX,    /* not a number (or not an integer where one is needed) */
    MTX_NUMBER_NONFINITE, /* nan, inf, infinity */
    MTX_NUMBER_OVERFLOW   /* finite in the text, beyond float32's range */
} mtx_number_status;

/* An exponent's digits stop counting once it passes this: far beyond any
 * count of digits a file can hold, which the exponent is added to, so the sum
 * fits int64 and a long mantissa cannot outweigh a saturated exponent. */
#define MTX_EXPONENT_CAP (INT64_MAX / 100)

/* Correctly rounded float of the well-formed token [begin, end). */
mtx_number_status mtx_float_slow(const char *begin, const char *end, float *out);

/* Is c a character that ends a token? */
static inline int mtx_token_end(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static inline int mtx_is_digit(char c) { return (unsigned)(c - '0') < 10u; }

/* True when [p, ...) starts with nan, inf or infinity (any case) and a token end. */
static inline int mtx_is_nonfinite_word(const char *p, const char *end)
{
    static const char *const words[3] = {"nan", "inf", "infinity"};
    if (p < end && (*p == '+' || *p == '-')) p++;
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]), i = 0;
        while (i < n && p + i < end && (p[i] | 0x20) == words[w][i]) i++;
        if (i == n && (p + n == end || mtx_token_end(p[n]))) return 1;
    }
    return 0;
}

/* Parses the number at *pp (not past end); integer_only refuses a fraction
 * or an exponent. On MTX_NUMBER_OK, *pp points at the character after it. */
static inline mtx_number_status mtx_parse_float(const char **pp, const char *end, int integer_only,
                                                float *out)
{
    static const double pow10[40] = {
        1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
        1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27,
        1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39};
    const char *p = *pp, *start = p;
    int negative = 0;
    if (p < end && (*p == '-' || *p == '+')) negative = *p++ == '-';
    uint64_t m = 0;
    int significant = 0, digits = 0;
    int64_t e10 = 0;
    for (; p < end && mtx_is_digit(*p); p++, digits++) {
        if (significant < 19) {
            m = m * 10 + (uint64_t)(*p - '0');
            significant += m != 0;
        } else {
            e10++; /* a dropped integer digit */
        }
    }
    if (!integer_only && p < end && *p == '.') {
        for (p++; p < end && mtx_is_digit(*p); p++, digits++) {
            if (significant < 19) {
                m = m * 10 + (uint64_t)(*p - '0');
                significant += m != 0;
                e10--;
            }
        }
    }
    if (digits == 0) return mtx_is_nonfinite_word(start, end) ? MTX_NUMBER_NONFINITE
                                                              : MTX_NUMBER_SYNTAX;
    if (!integer_only && p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int exp_negative = 0;
        if (p < end && (*p == '-' || *p == '+')) exp_negative = *p++ == '-';
        if (p == end || !mtx_is_digit(*p)) return MTX_NUMBER_SYNTAX;
        int64_t exponent = 0;
        for (; p < end && mtx_is_digit(*p); p++)
            if (exponent < MTX_EXPONENT_CAP) exponent = exponent * 10 + (*p - '0');
        e10 += exp_negative ? -exponent : exponent;
    }
    if (p < end && !mtx_token_end(*p)) return MTX_NUMBER_SYNTAX;
    *pp = p;
    float f;
    if (m == 0) {
        f = 0.0f;
    } else if (e10 < -65) {
        f = 0.0f; /* below 10^(19-65): under half the smallest subnormal */
    } else if (e10 > 39) {
        return MTX_NUMBER_OVERFLOW; /* at least 10^40 */
    } else {
        double d = (double)m;
        if (e10 >= 0)
            d *= pow10[e10];
        else if (e10 >= -39)
            d /= pow10[-e10];
        else
            d = d / 1e39 / pow10[-e10 - 39];
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        int64_t below_midpoint = (int64_t)(bits & 0x1FFFFFFFu) - 0x10000000;
        if (below_midpoint > -16 && below_midpoint < 16) return mtx_float_slow(start, p, out);
        if (d < 0x1p-125 || d >= 0x1.fffffep127) return mtx_float_slow(start, p, out);
        f = (float)d;
    }
    *out = negative ? -f : f;
    return MTX_NUMBER_OK;
}

/* Eight characters at a time (SWAR, little-endian): how many of the 8
 * bytes of w, first byte first, are leading decimal digits. A carry out of a
 * non-digit byte only disturbs later bytes, which do not count. */
static inline int mtx_leading_digits8(uint64_t w)
{
    const uint64_t high = 0xF0F0F0F0F0F0F0F0ull, threes = 0x3030303030303030ull;
    uint64_t nondigit = ((w & high) ^ threes) | (((w + 0x0606060606060606ull) & high) ^ threes);
    return nondigit ? __builtin_ctzll(nondigit) >> 3 : 8;
}

/* The value of the first n (1..8) digit characters held in w. */
static inline uint64_t mtx_digits8_value(uint64_t w, int n)
{
    uint64_t v = (w - 0x3030303030303030ull) << (8 * (8 - n)); /* "000ddddd" */
    v = v * 10 + (v >> 8);
    const uint64_t mask = 0x000000FF000000FFull;
    return ((v & mask) * (100 + (1000000ull << 32)) +
            ((v >> 16) & mask) * (1 + (10000ull << 32))) >> 32;
}

/* Parses an unsigned decimal index at *pp; values of 20 digits or more
 * saturate to UINT64_MAX. Reads whole 8-byte words while they end before
 * limit (which may lie past end of line). Returns 0 when there is no digit
 * or the token does not end after them. */
static inline int mtx_parse_index(const char **pp, const char *limit, uint64_t *out)
{
    const char *p = *pp, *first = p;
    if (limit - p >= 8) {
        uint64_t w;
        memcpy(&w, p, sizeof w);
        int n = mtx_leading_digits8(w);
        if (n < 8) {
            if (n == 0 || !mtx_token_end(p[n])) return 0;
            *pp = p + n;
            *out = mtx_digits8_value(w, n);
            return 1;
        }
    }
    uint64_t v = 0;
    for (; p < limit && mtx_is_digit(*p); p++) v = v * 10 + (uint64_t)(*p - '0');
    if (p == first || (p < limit && !mtx_token_end(*p))) return 0;
    if (p - first > 19) {
        while (first < p && *first == '0') first++;
        if (p - first > 19) v = UINT64_MAX;
    }
    *pp = p;
    *out = v;
    return 1;
}

#endif
