/* spmm_gen.c: writes a matrix of one of the seeded families (families.h) as
 * Matrix Market: spmm_gen SPEC OUT.mtx[.gz]. */
#include <stdio.h>
#include <string.h>

#include "families.h"

/* Prints text indented by 6 columns, wrapped at word boundaries. */
static void print_wrapped(FILE *f, const char *text)
{
    int column = 0;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (column > 0 && column + 1 + word > 84) column = 0, fputc('\n', f);
        fprintf(f, "%s%.*s", column ? " " : "      ", word, text);
        column += word + (column ? 1 : 6);
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: spmm_gen SPEC OUT.mtx[.gz]   (OUT '-' writes to standard output)\n"
            "Writes the matrix of SPEC = FAMILY:PARAM:... as 'coordinate real general'.\n"
            "The same spec gives the same file on any machine and thread count; random\n"
            "values are uniform in [-1, 1]. Families:\n");
    for (int i = 0; i < family_count(); i++) {
        const char *name, *params, *description;
        family_describe(i, &name, &params, &description);
        fprintf(f, "  %s:%s\n", name, params);
        print_wrapped(f, description);
    }
    fprintf(f, "Examples: stencil3d:128:128:128:7  rmat:20:16:0.57:0.19:0.19:1\n"
               "          blockdiag:8:data/some.mtx  prune24:4096:4096:1\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "spmm_gen: expected SPEC and OUT (got %d arguments)\n", argc - 1);
        usage(stderr);
        return 2;
    }
    tcspmm_csr A;
    if (family_generate(argv[1], &A) != TCSPMM_SUCCESS) {
        fprintf(stderr, "spmm_gen: %s\n", tcspmm_last_error());
        return 2;
    }
    tcspmm_status st = tcspmm_write_mtx(argv[2], &A);
    if (st != TCSPMM_SUCCESS) {
        fprintf(stderr, "spmm_gen: %s\n", tcspmm_last_error());
        tcspmm_csr_free(&A);
        return 2;
    }
    fprintf(stderr, "spmm_gen: %s: %lld x %lld, %lld entries -> %s\n", argv[1],
            (long long)A.rows, (long long)A.cols, (long long)A.nnz, argv[2]);
    tcspmm_csr_free(&A);
    return 0;
}
