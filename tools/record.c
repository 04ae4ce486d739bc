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

static void print_json_string(const char *s, FILE *f)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
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
