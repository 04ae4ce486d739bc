/* record.c: storing and printing spmm_run's key/value results. */
#include "record.h"

#include <math.h>
#include <string.h>

static record_item *add(record *r, const char *key)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->items[i].key, key) == 0) return &r->items[i]; /* overwrite */
    if (r->count == RECORD_MAX) return NULL;
    record_item *it = &r->items[r->count++];
    snprintf(it->key, sizeof it->key, "%s", key);
    return it;
}

void record_str(record *r, const char *key, const char *value)
{
    record_item *it = add(r, key);
    if (!it) return;
    snprintf(it->value, sizeof it->value, "%s", value ? value : "");
    it->quoted = 1;
}

void record_int(record *r, const char *key, int64_t value)
{
    record_item *it = add(r, key);
    if (!it) return;
    snprintf(it->value, sizeof it->value, "%lld", (long long)value);
    it->quoted = 0;
}

void record_num(record *r, const char *key, double value)
{
    record_item *it = add(r, key);
    if (!it) return;
    if (isfinite(value)) snprintf(it->value, sizeof it->value, "%.6g", value);
    else snprintf(it->value, sizeof it->value, "null");
    it->quoted = 0;
}

void record_print_info(const record *r, FILE *f)
{
    for (int i = 0; i < r->count; i++) fprintf(f, "info: %s=%s\n", r->items[i].key, r->items[i].value);
}

/* The bytes of the well-formed UTF-8 character at s (RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF), 0 if none. */
static int utf8_length(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    const int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                  : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

/* s as a JSON string: valid UTF-8 (a file name need not be: a byte that
 * does not begin a well-formed character becomes U+FFFD). */
static void print_json_string(const char *s, FILE *f)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int n = utf8_length(p);
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else if (n == 0) fputs("\\ufffd", f);
        else fwrite(p, 1, (size_t)n, f);
        p += n > 0 ? n : 1;
    }
    fputc('"', f);
}

void record_print_json(const record *r, FILE *f)
{
    fputc('{', f);
    for (int i = 0; i < r->count; i++) {
        if (i) fputs(", ", f);
        print_json_string(r->items[i].key, f);
        fputs(": ", f);
        if (r->items[i].quoted) print_json_string(r->items[i].value, f);
        else fputs(r->items[i].value, f);
    }
    fputs("}\n", f);
}
