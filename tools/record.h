/* record.h: an ordered list of key/value results that spmm_run prints either
 * as "info: key=value" lines or as one flat JSON object. */
#ifndef TCSPMM_RECORD_H
#define TCSPMM_RECORD_H

#include <stdint.h>
#include <stdio.h>

#define RECORD_MAX 96

typedef struct record_item {
    char key[40];
    char value[320];
    int quoted; /* a JSON string */
} record_item;

typedef struct record {
    record_item items[RECORD_MAX];
    int count;
} record;

void record_str(record *r, const char *key, const char *value);
void record_int(record *r, const char *key, int64_t value);
void record_num(record *r, const char *key, double value);
void record_print_info(const record *r, FILE *f);
void record_print_json(const record *r, FILE *f);

#endif
