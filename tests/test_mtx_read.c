/* test_mtx_read.c: the Matrix Market reader on every banner variant
 * (tests/mtx_cases/good_*.mtx), on a corpus of malformed files (one per
 * error, with the expected status, line and message), on gzip, standard
 * input and missing files, and on large generated inputs: the CSR matches a
 * naive reference and the result and the first error are the same at every
 * thread count. */
#include "harness.h"

#include "format/mtx.h"
#include "rng.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define CASES "tests/mtx_cases/"

typedef struct good_case {
    const char *file;
    int64_t rows, cols;
    const char *entries; /* "row col value" triplets, 0-based, in CSR order */
} good_case;

static const good_case good[] = {
    {"good_coordinate_real_general.mtx", 3, 4, "0 0 0.5 0 1 1.25 1 2 0 2 0 7 2 3 -2.4"},
    {"good_coordinate_integer_general.mtx", 2, 3, "0 2 -7 1 0 12 1 1 0"},
    {"good_coordinate_pattern_general.mtx", 3, 3, "0 0 1 0 1 1 1 0 1 2 2 1"},
    {"good_coordinate_real_symmetric.mtx", 3, 3, "0 0 2 0 1 -1 1 0 -1 1 2 4 2 1 4 2 2 5"},
    {"good_coordinate_pattern_symmetric.mtx", 3, 3, "0 1 1 0 2 1 1 0 1 1 1 1 2 0 1"},
    {"good_coordinate_real_skew.mtx", 3, 3, "0 1 -3 1 0 3 1 2 1.5 2 1 -1.5"},
    {"good_coordinate_integer_skew.mtx", 2, 2, "0 1 -4 1 0 4"},
    {"good_array_real_general.mtx", 2, 3, "0 0 1 0 1 2 0 2 3 1 0 4 1 1 0 1 2 6"},
    {"good_array_integer_general.mtx", 2, 2, "0 0 1 0 1 2 1 0 3 1 1 4"},
    {"good_array_real_symmetric.mtx", 3, 3, "0 0 1 0 1 2 0 2 3 1 0 2 1 1 4 1 2 5 2 0 3 2 1 5 2 2 6"},
    {"good_array_real_skew.mtx", 3, 3, "0 0 0 0 1 -1 0 2 -2 1 0 1 1 1 0 1 2 -3 2 0 2 2 1 3 2 2 0"},
    {"good_crlf_no_final_newline.mtx", 2, 2, "0 0 1.5 1 1 -3"},
    {"good_empty.mtx", 4, 5, ""},
    /* fewer entries than rows (another way through coo_to_csr): the
     * diagonal entry is not mirrored */
    {"good_coordinate_real_symmetric_sparse.mtx", 8, 8, "1 4 1 2 2 2.5 4 1 1"},
    /* a long unsorted row: duplicates are summed in file order */
    {"good_duplicates_in_file_order.mtx", 1, 64,
     "0 4 1 0 24 0.5 0 25 0.5 0 26 0.5 0 27 0.5 0 28 0.5 0 29 0.5 0 30 0.5 0 31 0.5 0 32 0.5 0 33 0.5 0 34 0.5 0 35 0.5 0 36 0.5 0 37 0.5 0 38 0.5 0 39 0.5 0 40 0.5 0 41 0.5 0 42 0.5 0 43 0.5 0 44 0.5 0 45 0.5 0 46 0.5 0 47 0.5 0 48 0.5 0 49 0.5 0 50 0.5 0 51 0.5 0 52 0.5 0 53 0.5 0 54 0.5 0 55 0.5 0 56 0.5 0 57 0.5 0 58 0.5 0 59 0.5 0 60 0.5 0 61 0.5 0 62 0.5 0 63 0.5"},
};

typedef struct bad_case {
    const char *file;
    tcspmm_status status;
    int line;
    const char *says; /* a part of the message after "FILE:LINE: " */
} bad_case;

static const bad_case bad[] = {
    {"bad_empty_file.mtx", TCSPMM_ERROR_PARSE, 1, "expected the banner"},
    {"bad_banner_missing.mtx", TCSPMM_ERROR_PARSE, 1, "expected the banner"},
    {"bad_banner_short.mtx", TCSPMM_ERROR_PARSE, 1, "expected the banner"},
    {"bad_banner_format.mtx", TCSPMM_ERROR_PARSE, 1, "expected the format 'coordinate' or 'array'"},
    {"bad_banner_field.mtx", TCSPMM_ERROR_PARSE, 1, "expected the field"},
    {"bad_banner_symmetry.mtx", TCSPMM_ERROR_PARSE, 1, "expected the symmetry"},
    {"bad_complex.mtx", TCSPMM_ERROR_UNSUPPORTED, 1, "complex matrices are not supported"},
    {"bad_hermitian.mtx", TCSPMM_ERROR_UNSUPPORTED, 1, "hermitian matrices are not supported"},
    {"bad_array_pattern.mtx", TCSPMM_ERROR_PARSE, 1, "'array pattern' is not a valid"},
    {"bad_size_line.mtx", TCSPMM_ERROR_PARSE, 3, "expected the size line 'rows columns entries'"},
    {"bad_size_missing.mtx", TCSPMM_ERROR_PARSE, 4, "found end of file"},
    {"bad_size_not_number.mtx", TCSPMM_ERROR_PARSE, 2, "found '3 x 1'"},
    {"bad_size_overflow.mtx", TCSPMM_ERROR_OVERFLOW, 2, "size '99999999999999999999' overflows int64"},
    {"bad_size_entries_overflow.mtx", TCSPMM_ERROR_OVERFLOW, 2,
     "size '123456789012345678901234567890' overflows int64"},
    {"bad_rows_memory.mtx", TCSPMM_ERROR_OVERFLOW, 2, "4611686018427387904 rows overflow the memory"},
    {"bad_array_rows_memory.mtx", TCSPMM_ERROR_OVERFLOW, 3, "4611686018427387904 rows overflow the memory"},
    /* 2^60 rows: 9.2 EB of row pointers, more than any machine's memory */
    {"bad_rows_beyond_memory.mtx", TCSPMM_ERROR_HOST_OUT_OF_MEMORY, 2,
     "a CSR of 1152921504606846976 rows and 1 entries needs 9223372036.9 GB or more"},
    {"bad_size_int64_overflow.mtx", TCSPMM_ERROR_OVERFLOW, 2, "size '9223372036854775808' overflows int64"},
    {"bad_cols_overflow.mtx", TCSPMM_ERROR_OVERFLOW, 2, "at most 2^31-1"},
    {"bad_cols_2_31.mtx", TCSPMM_ERROR_OVERFLOW, 2, "at most 2^31-1"},
    {"bad_nnz_memory.mtx", TCSPMM_ERROR_OVERFLOW, 2, "overflow the memory"},
    {"bad_array_overflow.mtx", TCSPMM_ERROR_OVERFLOW, 2, "overflows int64"},
    {"bad_not_square.mtx", TCSPMM_ERROR_PARSE, 2, "must be square"},
    {"bad_too_few.mtx", TCSPMM_ERROR_PARSE, 5, "too few entries: found 2"},
    {"bad_too_many.mtx", TCSPMM_ERROR_PARSE, 7, "too many entries"},
    {"bad_array_too_few.mtx", TCSPMM_ERROR_PARSE, 6, "too few entries: found 3"},
    {"bad_row_range.mtx", TCSPMM_ERROR_PARSE, 4, "row index '4' is out of range 1..3"},
    {"bad_column_zero.mtx", TCSPMM_ERROR_PARSE, 4, "column index '0' is out of range"},
    {"bad_index_huge.mtx", TCSPMM_ERROR_PARSE, 3, "row index '123456789012345678901234"},
    {"bad_index_not_integer.mtx", TCSPMM_ERROR_PARSE, 3, "expected a row index"},
    {"bad_index_negative.mtx", TCSPMM_ERROR_PARSE, 3, "expected a row index"},
    {"bad_missing_column.mtx", TCSPMM_ERROR_PARSE, 3, "expected a column index (a positive integer), found end of line"},
    {"bad_missing_value.mtx", TCSPMM_ERROR_PARSE, 3, "expected a real value, found end of line"},
    {"bad_value_not_number.mtx", TCSPMM_ERROR_PARSE, 4, "expected a real value, found 'abc'"},
    {"bad_value_suffix.mtx", TCSPMM_ERROR_PARSE, 3, "found '1.5f'"},
    {"bad_value_exponent.mtx", TCSPMM_ERROR_PARSE, 3, "found '1e'"},
    {"bad_trailing_garbage.mtx", TCSPMM_ERROR_PARSE, 3, "unexpected 'extra' after the entry"},
    {"bad_stray_cr.mtx", TCSPMM_ERROR_PARSE, 3, "unexpected carriage return after the entry"},
    {"bad_crlf_value.mtx", TCSPMM_ERROR_PARSE, 3, "expected a real value, found 'x'"},
    {"bad_nan.mtx", TCSPMM_ERROR_PARSE, 3, "'nan' is NaN or Inf"},
    {"bad_inf.mtx", TCSPMM_ERROR_PARSE, 3, "'-Infinity' is NaN or Inf"},
    {"bad_float_overflow.mtx", TCSPMM_ERROR_PARSE, 3, "'3.5e38' overflows float32"},
    {"bad_skew_diagonal.mtx", TCSPMM_ERROR_PARSE, 4, "diagonal entry (2, 2)"},
    {"bad_skew_diagonal_integer.mtx", TCSPMM_ERROR_PARSE, 4, "diagonal entry (2, 2)"},
    {"bad_integer_fraction.mtx", TCSPMM_ERROR_PARSE, 3, "expected an integer value, found '1.5'"},
    {"bad_pattern_value.mtx", TCSPMM_ERROR_PARSE, 3, "unexpected '2.0'"},
    {"bad_array_two_values.mtx", TCSPMM_ERROR_PARSE, 3, "unexpected '2'"},
};

static int matches_entries(const tcspmm_csr *A, const char *entries)
{
    const char *p = entries;
    int64_t k = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        for (; k < A->row_ptr[i + 1]; k++) {
            char *next;
            long r = strtol(p, &next, 10);
            if (next == p) return 0;
            long c = strtol(next, &next, 10);
            float v = (float)strtod(next, &next);
            p = next;
            if (r != i || c != A->col_idx[k] || v != A->values[k]) return 0;
        }
    }
    while (*p == ' ') p++;
    return *p == '\0';
}

static void test_good_files(void)
{
    for (size_t t = 0; t < sizeof good / sizeof good[0]; t++) {
        char path[256];
        snprintf(path, sizeof path, CASES "%s", good[t].file);
        tcspmm_csr A;
        tcspmm_status st = tcspmm_read_mtx(path, &A);
        CHECK(st == TCSPMM_SUCCESS);
        if (st != TCSPMM_SUCCESS) {
            fprintf(stderr, "  %s: %s\n", path, tcspmm_last_error());
            continue;
        }
        CHECK(A.rows == good[t].rows && A.cols == good[t].cols);
        CHECK(matches_entries(&A, good[t].entries));
        CHECK(tcspmm_csr_validate(&A) == TCSPMM_SUCCESS);
        if (!matches_entries(&A, good[t].entries)) fprintf(stderr, "  %s: wrong entries\n", path);
        tcspmm_csr_free(&A);
    }
}

static void test_bad_files(void)
{
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        char path[256], where[300];
        snprintf(path, sizeof path, CASES "%s", bad[t].file);
        snprintf(where, sizeof where, "%s:%d: ", path, bad[t].line);
        tcspmm_csr A;
        tcspmm_status st = tcspmm_read_mtx(path, &A);
        const char *msg = tcspmm_last_error();
        int ok = st == bad[t].status && strncmp(msg, where, strlen(where)) == 0 &&
                 strstr(msg, bad[t].says) != NULL && A.row_ptr == NULL;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s: got %s \"%s\"; expected %s \"%s...%s\"\n", path,
                    tcspmm_status_string(st), msg, tcspmm_status_string(bad[t].status), where,
                    bad[t].says);
    }
}

/* Writes text gzip-compressed to path. */
static int write_gz(const char *path, const char *text, size_t len)
{
    gzFile gz = gzopen(path, "wb");
    if (!gz) return 0;
    int ok = gzwrite(gz, text, (unsigned)len) == (int)len;
    return gzclose(gz) == Z_OK && ok;
}

/* Duplicates are summed; a sum that overflows float32 is an error naming
 * the entry (1-based), in a general and in a symmetric file. */
static void test_duplicate_overflow(void)
{
    const char *texts[3] = {
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 3e38\n1 1 3e38\n",
        "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 -3e38\n2 1 -3e38\n",
        "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 3e38\n2 2 3e38\n"};
    const char *says[3] = {"mem: the duplicate entries at (1, 1) sum to inf",
                           "mem: the duplicate entries at (1, 2) sum to -inf",
                           "mem: the duplicate entries at (2, 2) sum to inf"};
    for (int t = 0; t < 3; t++) {
        tcspmm_csr A;
        CHECK(mtx_parse_buffer("mem", texts[t], strlen(texts[t]), 2, &A) == TCSPMM_ERROR_PARSE);
        CHECK(strstr(tcspmm_last_error(), says[t]) != NULL && A.row_ptr == NULL);
        if (!strstr(tcspmm_last_error(), says[t])) fprintf(stderr, "  got '%s'\n", tcspmm_last_error());
    }
}

static void test_gzip_stdin_and_io(void)
{
    const char *text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n2 1 3.5\n1 2 -1\n";
    char gz[4096], plain[4096];
    tests_temp_path(gz, sizeof gz, "read.mtx.gz");
    tests_temp_path(plain, sizeof plain, "read_stdin.mtx");
    CHECK(write_gz(gz, text, strlen(text)));
    tcspmm_csr A, B;
    CHECK_OK(tcspmm_read_mtx(gz, &A));
    CHECK_OK(mtx_parse_buffer("mem", text, strlen(text), 1, &B));
    CHECK(tests_csr_equal(&A, &B));
    tcspmm_csr_free(&A);

    /* Zero bytes after the gzip data are padding, as gzip -d takes them. */
    FILE *f = fopen(gz, "rb");
    char bytes[4096];
    size_t n = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f) fclose(f);
    f = fopen(gz, "ab");
    if (f) fwrite("\0\0\0\0\0\0\0\0\0\0", 1, 10, f), fclose(f);
    CHECK_OK(tcspmm_read_mtx(gz, &A));
    CHECK(tests_csr_equal(&A, &B));
    tcspmm_csr_free(&A);

    /* A truncated gzip file is an IO error naming the file. */
    f = fopen(gz, "wb");
    if (f) fwrite(bytes, 1, n - 12, f), fclose(f);
    CHECK(tcspmm_read_mtx(gz, &A) == TCSPMM_ERROR_IO);
    CHECK(strstr(tcspmm_last_error(), gz) != NULL);
    remove(gz);

    /* "-" reads standard input. */
    f = fopen(plain, "wb");
    if (f) fputs(text, f), fclose(f);
    CHECK(freopen(plain, "rb", stdin) != NULL);
    CHECK_OK(tcspmm_read_mtx("-", &A));
    CHECK(tests_csr_equal(&A, &B));
    tcspmm_csr_free(&A);
    remove(plain);
    tcspmm_csr_free(&B);

    CHECK(tcspmm_read_mtx("/nonexistent/dir/x.mtx", &A) == TCSPMM_ERROR_IO);
    CHECK(strstr(tcspmm_last_error(), "/nonexistent/dir/x.mtx: cannot open") != NULL);
    CHECK(tcspmm_read_mtx(NULL, &A) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_read_mtx(CASES "good_empty.mtx", NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    /* A success clears the previous message. */
    CHECK_OK(tcspmm_read_mtx(CASES "good_empty.mtx", &A));
    CHECK(tcspmm_last_error()[0] == '\0');
    tcspmm_csr_free(&A);
}

/* ---- large generated inputs ---------------------------------------- */

typedef struct triplet {
    int64_t r, c, order;
    float v;
} triplet;

static int by_row_col_order(const void *a, const void *b)
{
    const triplet *x = a, *y = b;
    if (x->r != y->r) return x->r < y->r ? -1 : 1;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The naive reader result: expand, stable-sort, sum in file order in double. */
static void reference_csr(int64_t rows, int64_t cols, triplet *t, int64_t n, tcspmm_csr *out)
{
    qsort(t, (size_t)n, sizeof *t, by_row_col_order);
    out->rows = rows, out->cols = cols, out->nnz = 0;
    out->row_ptr = calloc((size_t)rows + 1, sizeof(int64_t));
    out->col_idx = malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    out->values = malloc((size_t)(n ? n : 1) * sizeof(float));
    for (int64_t k = 0; k < n;) {
        int64_t m = k + 1;
        double sum = t[k].v;
        for (; m < n && t[m].r == t[k].r && t[m].c == t[k].c; m++) sum += t[m].v;
        out->col_idx[out->nnz] = (int32_t)t[k].c;
        out->values[out->nnz++] = m - k > 1 ? (float)sum : t[k].v;
        out->row_ptr[t[k].r + 1]++;
        k = m;
    }
    for (int64_t i = 0; i < rows; i++) out->row_ptr[i + 1] += out->row_ptr[i];
}

/* A random coordinate file: duplicates, explicit zeros, blank and comment
 * lines, long rows, values of many magnitudes; its expanded triplets in t. */
static char *generate(uint64_t seed, int symmetry, int64_t n, int64_t entries, triplet *t,
                      int64_t *nt, size_t *len)
{
    static const char *names[3] = {"general", "symmetric", "skew-symmetric"};
    size_t cap = (size_t)entries * 64 + 256;
    char *text = malloc(cap);
    size_t at = (size_t)sprintf(text, "%%%%MatrixMarket matrix coordinate real %s\n%% generated\n"
                                      "%lld %lld %lld\n",
                                names[symmetry], (long long)n, (long long)n, (long long)entries);
    uint64_t s = seed;
    *nt = 0;
    for (int64_t e = 0; e < entries; e++) {
        int64_t r = (int64_t)(rng_next(&s) % (uint64_t)n), c;
        uint64_t kind = rng_next(&s) % 16;
        if (kind == 0) r = n / 2; /* a long row */
        c = (int64_t)(rng_next(&s) % (uint64_t)n);
        if (symmetry == 2 && r == c) c = (c + 1) % n;
        if (symmetry != 0 && c > r) {
            int64_t x = r;
            r = c, c = x;
        }
        double magnitude = pow(10.0, (double)(rng_next(&s) % 13) - 6);
        float v = kind == 1 ? 0.0f : (float)((rng_uniform(&s) * 2 - 1) * magnitude);
        if (kind == 2 && e > 0) r = t[*nt - 1].r, c = t[*nt - 1].c; /* a duplicate */
        if (kind == 3) at += (size_t)sprintf(text + at, "\n%% comment\n");
        at += (size_t)sprintf(text + at, kind == 4 ? "  %lld\t%lld   %.9e \n" : "%lld %lld %.9g\n",
                              (long long)r + 1, (long long)c + 1, (double)v);
        t[(*nt)++] = (triplet){r, c, e * 2, v};
        if (symmetry != 0 && r != c) t[(*nt)++] = (triplet){c, r, e * 2 + 1, symmetry == 2 ? -v : v};
    }
    *len = at;
    return text;
}

/* Few rows per entry (one counting sort by row) and many (row buckets). */
static void test_large_deterministic(void)
{
    const int thread_counts[] = {1, 2, 3, 5, 8};
    for (int config = 0; config < 5; config++) {
        int symmetry = config % 3;
        int64_t n = config < 3 ? 1000 + 37 * symmetry : 400000 + 37 * symmetry, entries = 200000;
        triplet *t = malloc((size_t)entries * 2 * sizeof *t);
        int64_t nt;
        size_t len;
        char *text = generate(42 + (uint64_t)symmetry, symmetry, n, entries, t, &nt, &len);
        tcspmm_csr ref, A;
        reference_csr(n, n, t, nt, &ref);
        for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
            CHECK_OK(mtx_parse_buffer("gen", text, len, thread_counts[k], &A));
            CHECK(tests_csr_equal(&A, &ref));
            tcspmm_csr_free(&A);
        }
        tcspmm_csr_free(&ref);

        /* Two errors far apart and too many entries after them: the first
         * error by line is reported at every thread count. */
        char *copy = malloc(len + 64);
        memcpy(copy, text, len);
        char *late = copy + len * 3 / 4, *early = copy + len / 3;
        while (*late != '\n') late++;
        while (*early != '\n') early++;
        late[1] = 'x';  /* "x..." is not a row index */
        early[1] = 'y'; /* not a row index either */
        int64_t early_line = 1;
        for (const char *p = copy; p <= early; p++) early_line += *p == '\n';
        char expect[64];
        snprintf(expect, sizeof expect, "gen:%lld: ", (long long)early_line);
        for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
            tcspmm_status st = mtx_parse_buffer("gen", copy, len, thread_counts[k], &A);
            CHECK(st == TCSPMM_ERROR_PARSE);
            CHECK(strncmp(tcspmm_last_error(), expect, strlen(expect)) == 0);
        }
        free(copy);
        free(text);
        free(t);
    }
}

/* Gzip files read while they inflate: the same CSR and the same first error
 * at every thread count, also when the gzip trailer's size is too small for
 * the text (two members) and when the data is cut short. */
static void test_gzip_threads(void)
{
    const int thread_counts[] = {1, 2, 3, 5};
    char gz[4096];
    tests_temp_path(gz, sizeof gz, "read_threads.mtx.gz");
    int64_t n = 5003, entries = 300000, nt;
    size_t len;
    triplet *t = malloc((size_t)entries * 2 * sizeof *t);
    char *text = generate(7, 1, n, entries, t, &nt, &len);
    tcspmm_csr ref, A;
    reference_csr(n, n, t, nt, &ref);
    for (int members = 1; members <= 2; members++) {
        /* Two members: the trailer gives the second one's size only. */
        size_t half = members == 1 ? len : len / 2;
        CHECK(write_gz(gz, text, half));
        gzFile more = members == 2 ? gzopen(gz, "ab") : NULL;
        if (more) {
            CHECK(gzwrite(more, text + half, (unsigned)(len - half)) == (int)(len - half));
            CHECK(gzclose(more) == Z_OK);
        }
        for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
            omp_set_num_threads(thread_counts[k]);
            CHECK_OK(tcspmm_read_mtx(gz, &A));
            CHECK(tests_csr_equal(&A, &ref));
            CHECK(tcspmm_last_error()[0] == '\0');
            tcspmm_csr_free(&A);
        }
    }
    /* An error late in the text: the line is the same at every thread count. */
    char *late = text + len * 9 / 10;
    while (*late != '\n') late++;
    late[1] = 'z';
    int64_t line = 1;
    for (const char *p = text; p <= late; p++) line += *p == '\n';
    char expect[sizeof gz + 64];
    snprintf(expect, sizeof expect, "%s:%lld: expected a row index", gz, (long long)line);
    CHECK(write_gz(gz, text, len));
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        omp_set_num_threads(thread_counts[k]);
        CHECK(tcspmm_read_mtx(gz, &A) == TCSPMM_ERROR_PARSE);
        CHECK(strncmp(tcspmm_last_error(), expect, strlen(expect)) == 0);
    }
    /* Cut short: the gzip error wins over the parse errors it causes. */
    FILE *f = fopen(gz, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    CHECK(truncate(gz, size / 2) == 0);
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        omp_set_num_threads(thread_counts[k]);
        CHECK(tcspmm_read_mtx(gz, &A) == TCSPMM_ERROR_IO);
        CHECK(strstr(tcspmm_last_error(), "the gzip data is truncated") != NULL);
    }
    remove(gz);
    tcspmm_csr_free(&ref);
    free(text);
    free(t);
}

/* A gzip file whose comments outrun the first 64 KiB the threaded reader
 * tries the header on, and which is inflated whole before the header is:
 * read at every thread count, with no message left from the tries. */
static void test_gzip_long_header(void)
{
    char gz[4096];
    tests_temp_path(gz, sizeof gz, "long_header.mtx.gz");
    size_t cap = 200000, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "%%%%MatrixMarket matrix coordinate real general\n");
    for (int k = 0; k < 1500; k++)
        n += (size_t)snprintf(text + n, cap - n, "%% comment line %04d, long enough to fill the "
                                                 "first inflated bytes\n", k);
    CHECK(n > (size_t)1 << 16);
    n += (size_t)snprintf(text + n, cap - n, "3 3 2\n1 1 1.5\n3 2 -2\n");
    CHECK(write_gz(gz, text, n));
    const int thread_counts[] = {1, 2, 3};
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        omp_set_num_threads(thread_counts[k]);
        tcspmm_csr A;
        CHECK_OK(tcspmm_read_mtx(gz, &A));
        CHECK(A.nnz == 2 && A.values[0] == 1.5f && A.values[1] == -2.0f);
        CHECK(tcspmm_last_error()[0] == '\0');
        tcspmm_csr_free(&A);
    }
    remove(gz);
    free(text);
}

/* Long lines first, then short ones: the parts outgrow the room the first
 * lines' density suggested, and the result is still the same. */
static void test_denser_lines_later(void)
{
    const int64_t n = 997, long_lines = 20000, short_lines = 400000;
    const int64_t entries = long_lines + short_lines;
    size_t cap = (size_t)long_lines * 120 + (size_t)short_lines * 16 + 128, at = 0;
    char *text = malloc(cap);
    triplet *t = malloc((size_t)entries * sizeof *t);
    at += (size_t)sprintf(text, "%%%%MatrixMarket matrix coordinate integer general\n"
                                "%lld %lld %lld\n",
                          (long long)n, (long long)n, (long long)entries);
    uint64_t s = 99;
    for (int64_t e = 0; e < entries; e++) {
        int64_t r = (int64_t)(rng_next(&s) % (uint64_t)n), c = (int64_t)(rng_next(&s) % 9);
        int v = (int)(rng_next(&s) % 19) - 9;
        at += (size_t)sprintf(text + at, e < long_lines ? "%80s%lld %lld %d\n" : "%s%lld %lld %d\n",
                              "", (long long)r + 1, (long long)c + 1, v);
        t[e] = (triplet){r, c, e, (float)v};
    }
    tcspmm_csr ref, A;
    reference_csr(n, n, t, entries, &ref);
    for (int threads = 1; threads <= 4; threads++) {
        CHECK_OK(mtx_parse_buffer("dense", text, at, threads, &A));
        CHECK(tests_csr_equal(&A, &ref));
        tcspmm_csr_free(&A);
    }
    tcspmm_csr_free(&ref);
    free(text);
    free(t);
}

static void test_too_many_in_a_later_chunk(void)
{
    /* 50,000 lines promised 40,000: the error names line 3 + 40,001. */
    size_t cap = 50000 * 16 + 100, at = 0;
    char *text = malloc(cap);
    at += (size_t)sprintf(text, "%%%%MatrixMarket matrix coordinate pattern general\n9 9 40000\n");
    for (int e = 0; e < 50000; e++) at += (size_t)sprintf(text + at, "%d %d\n", e % 9 + 1, e % 7 + 1);
    tcspmm_csr A;
    for (int threads = 1; threads <= 4; threads++) {
        CHECK(mtx_parse_buffer("many", text, at, threads, &A) == TCSPMM_ERROR_PARSE);
        CHECK(strncmp(tcspmm_last_error(), "many:40003: too many entries", 28) == 0);
    }
    free(text);
}

int main(void)
{
    test_good_files();
    test_bad_files();
    test_duplicate_overflow();
    test_gzip_stdin_and_io();
    test_large_deterministic();
    test_too_many_in_a_later_chunk();
    test_gzip_threads();
    test_gzip_long_header();
    test_denser_lines_later();
    return tests_finish();
}
