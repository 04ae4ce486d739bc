/* test_families.c: the spmm_gen families (tools/families.c): determinism over
 * runs and thread counts, exact stencils (entry counts, symmetry, analytic
 * eigenpairs), the 2:4 / 1:2 property of pruned outputs, block-diagonal
 * structure, the shape of each random family, and bad specs. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "harness.h"

static const double pi = 3.14159265358979323846;

static const char *deterministic_specs[] = {
    "stencil2d:37:23:5",
    "stencil2d:19:1:9",
    "stencil3d:13:7:11:7",
    "stencil3d:9:10:3:27",
    "rmat:13:8:0.57:0.19:0.19:7",
    "geometric:20000:8:3",
    "geometric:3001:0.05:4",
    "banded:4999:40:13:5",
    "uniform:777:5000:21:6",
    "uniform:300:41:30:8",
    "blockdiag:3:rmat:8:4:0.45:0.15:0.15:2",
    "prune24:301:303:9",
    "prune12:257:99:10",
    "prune24file:uniform:200:64:40:11",
    "gen:prune12file:banded:500:7:6:12",
};

/* A(i, j), or NAN when absent. */
static float entry(const tcspmm_csr *A, int64_t i, int64_t j)
{
    int64_t lo = A->row_ptr[i], hi = A->row_ptr[i + 1];
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (A->col_idx[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->row_ptr[i + 1] && A->col_idx[lo] == j ? A->values[lo] : NAN;
}

static int is_symmetric(const tcspmm_csr *A)
{
    if (A->rows != A->cols) return 0;
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (entry(A, A->col_idx[k], i) != A->values[k]) return 0;
    return 1;
}

/* Random values: in [-1, 1], both signs, not all equal. */
static int random_values_ok(const tcspmm_csr *A)
{
    int negative = 0, positive = 0;
    for (int64_t k = 0; k < A->nnz; k++) {
        if (!(fabsf(A->values[k]) <= 1.0f)) return 0;
        negative |= A->values[k] < 0;
        positive |= A->values[k] > 0;
    }
    return negative && positive;
}

static void test_determinism(void)
{
    int n = (int)(sizeof deterministic_specs / sizeof deterministic_specs[0]);
    for (int s = 0; s < n; s++) {
        tcspmm_csr a, b, c;
        omp_set_num_threads(1);
        CHECK_OK(family_generate(deterministic_specs[s], &a));
        omp_set_num_threads(3);
        CHECK_OK(family_generate(deterministic_specs[s], &b));
        omp_set_num_threads(8);
        CHECK_OK(family_generate(deterministic_specs[s], &c));
        CHECK_OK(tcspmm_csr_validate(&a));
        CHECK(a.nnz > 0);
        int same = tests_csr_equal(&a, &b) && tests_csr_equal(&a, &c);
        CHECK(same);
        if (!same) fprintf(stderr, "  -> %s differs between thread counts\n", deterministic_specs[s]);
        tcspmm_csr_free(&a);
        tcspmm_csr_free(&b);
        tcspmm_csr_free(&c);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* Entry counts of the stencils, their symmetry and values. */
static void test_stencil_counts(void)
{
    static const int64_t grids[][3] = {{7, 5, 1}, {1, 9, 1}, {1, 1, 1}, {16, 16, 1}, {4, 3, 5},
                                       {1, 1, 6}, {2, 3, 1}, {11, 1, 13}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int64_t nx = grids[g][0], ny = grids[g][1], nz = grids[g][2], n = nx * ny * nz;
        int points[2];
        int64_t expected[2];
        tcspmm_csr A[2];
        if (nz == 1) {
            points[0] = 5, expected[0] = 5 * n - 2 * nx - 2 * ny;
            points[1] = 9, expected[1] = (3 * nx - 2) * (3 * ny - 2);
            CHECK_OK(family_stencil2d(nx, ny, 5, &A[0]));
            CHECK_OK(family_stencil2d(nx, ny, 9, &A[1]));
        } else {
            points[0] = 7, expected[0] = 7 * n - 2 * (nx * ny + ny * nz + nx * nz);
            points[1] = 27, expected[1] = (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2);
            CHECK_OK(family_stencil3d(nx, ny, nz, 7, &A[0]));
            CHECK_OK(family_stencil3d(nx, ny, nz, 27, &A[1]));
        }
        for (int v = 0; v < 2; v++) {
            CHECK_OK(tcspmm_csr_validate(&A[v]));
            CHECK(A[v].rows == n && A[v].cols == n);
            CHECK(A[v].nnz == expected[v]);
            CHECK(is_symmetric(&A[v]));
            int values_ok = 1;
            for (int64_t i = 0; i < n; i++)
                for (int64_t k = A[v].row_ptr[i]; k < A[v].row_ptr[i + 1]; k++)
                    values_ok &= A[v].values[k] ==
                                 (A[v].col_idx[k] == i ? (float)(points[v] - 1) : -1.0f);
            CHECK(values_ok);
            tcspmm_csr_free(&A[v]);
        }
    }
    /* Row ordering x fastest: interior point (x, y, z) of the 7-point
     * stencil on 5 x 4 x 3 has neighbours at +-1, +-5, +-20. */
    tcspmm_csr A;
    CHECK_OK(family_stencil3d(5, 4, 3, 7, &A));
    int64_t row = 2 + 5 * (1 + 4 * 1);
    static const int64_t offsets[7] = {-20, -5, -1, 0, 1, 5, 20};
    CHECK(A.row_ptr[row + 1] - A.row_ptr[row] == 7);
    for (int o = 0; o < 7; o++) CHECK(A.col_idx[A.row_ptr[row] + o] == row + offsets[o]);
    tcspmm_csr_free(&A);
}

/* ||A v - lambda v|| / ||v|| for the Laplacian eigenvector sin(pi*(x+1)*jx/(nx+1)) ... */
static double eigen_residual(const tcspmm_csr *A, const int64_t *dims, const int *modes, int d)
{
    int64_t n = A->rows;
    double *v = malloc((size_t)n * sizeof *v), lambda = 0, num = 0, den = 0;
    for (int a = 0; a < d; a++) {
        double s = sin(pi * modes[a] / (2.0 * (double)(dims[a] + 1)));
        lambda += 4 * s * s;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t rest = i;
        v[i] = 1;
        for (int a = 0; a < d; a++) {
            int64_t coord = rest % dims[a];
            rest /= dims[a];
            v[i] *= sin(pi * modes[a] * (double)(coord + 1) / (double)(dims[a] + 1));
        }
    }
    for (int64_t i = 0; i < n; i++) {
        double av = 0;
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            av += A->values[k] * v[A->col_idx[k]];
        num += (av - lambda * v[i]) * (av - lambda * v[i]);
        den += v[i] * v[i];
    }
    free(v);
    return sqrt(num / den);
}

static void test_stencil_eigenpairs(void)
{
    tcspmm_csr A;
    int64_t dims2[2] = {23, 17};
    int modes2[3][2] = {{1, 1}, {2, 5}, {23, 17}};
    CHECK_OK(family_stencil2d(dims2[0], dims2[1], 5, &A));
    for (int m = 0; m < 3; m++) CHECK(eigen_residual(&A, dims2, modes2[m], 2) < 1e-10);
    tcspmm_csr_free(&A);
    int64_t dims3[3] = {9, 6, 7};
    int modes3[3][3] = {{1, 1, 1}, {3, 2, 7}, {9, 6, 7}};
    CHECK_OK(family_stencil3d(dims3[0], dims3[1], dims3[2], 7, &A));
    for (int m = 0; m < 3; m++) CHECK(eigen_residual(&A, dims3, modes3[m], 3) < 1e-10);
    tcspmm_csr_free(&A);
}

static void test_rmat(void)
{
    tcspmm_csr A;
    CHECK_OK(family_generate("rmat:12:8:0.57:0.19:0.19:1", &A));
    CHECK_OK(tcspmm_csr_validate(&A));
    CHECK(A.rows == 4096 && A.cols == 4096);
    CHECK(A.nnz > 4096 * 4 && A.nnz <= 4096 * 8); /* merged duplicates, not most edges */
    CHECK(random_values_ok(&A));
    /* Skew: with a = 0.57 row 0 gets a share of about 0.76^12 = 3.7% of edges. */
    CHECK(A.row_ptr[1] - A.row_ptr[0] > 20 * 8);
    tcspmm_csr B;
    CHECK_OK(family_generate("rmat:12:8:0.57:0.19:0.19:2", &B));
    CHECK(!(A.nnz == B.nnz && memcmp(A.col_idx, B.col_idx, (size_t)A.nnz * 4) == 0));
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&B);
    /* a = 1: every edge is (0, 0). */
    CHECK_OK(family_generate("rmat:5:3:1:0:0:4", &A));
    CHECK(A.nnz == 1 && A.row_ptr[1] == 1 && A.col_idx[0] == 0);
    tcspmm_csr_free(&A);
}

static void test_geometric(void)
{
    tcspmm_csr A;
    int64_t n = 20000;
    CHECK_OK(family_generate("geometric:20000:10:5", &A));
    CHECK_OK(tcspmm_csr_validate(&A));
    CHECK(is_symmetric(&A));
    CHECK(random_values_ok(&A));
    double degree = (double)A.nnz / (double)n;
    CHECK(degree > 8.5 && degree < 10.5); /* boundary effects lower it slightly */
    double distance = 0;
    int diagonal = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
            distance += fabs((double)(A.col_idx[k] - i));
            diagonal |= A.col_idx[k] == i;
        }
    CHECK(!diagonal);
    CHECK(distance / (double)A.nnz < n / 20.0); /* spatially local row order */
    tcspmm_csr_free(&A);
    /* A radius of 0.9 with few points: nearly complete. */
    CHECK_OK(family_generate("geometric:30:0.9:1", &A));
    CHECK(A.nnz > 30 * 25);
    tcspmm_csr_free(&A);
}

static void test_banded_uniform(void)
{
    tcspmm_csr A;
    CHECK_OK(family_generate("banded:1000:6:9:3", &A));
    CHECK_OK(tcspmm_csr_validate(&A));
    CHECK(random_values_ok(&A));
    int ok = 1;
    for (int64_t i = 0; i < A.rows; i++) {
        int64_t window = (i + 6 < 999 ? i + 6 : 999) - (i > 6 ? i - 6 : 0) + 1;
        ok &= A.row_ptr[i + 1] - A.row_ptr[i] == (window < 9 ? window : 9);
        for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) ok &= llabs(A.col_idx[k] - i) <= 6;
    }
    CHECK(ok);
    tcspmm_csr_free(&A);
    /* Both sampling methods: few of many columns, most of few. */
    static const char *specs[] = {"uniform:500:100000:17:2", "uniform:500:40:33:2",
                                  "uniform:50:10:99:2"};
    static const int64_t per_row[] = {17, 33, 10};
    for (int s = 0; s < 3; s++) {
        CHECK_OK(family_generate(specs[s], &A));
        CHECK_OK(tcspmm_csr_validate(&A));
        CHECK(random_values_ok(&A));
        ok = 1;
        for (int64_t i = 0; i < A.rows; i++) ok &= A.row_ptr[i + 1] - A.row_ptr[i] == per_row[s];
        CHECK(ok);
        tcspmm_csr_free(&A);
    }
    /* Columns spread over the whole row, not a corner of it. */
    CHECK_OK(family_generate("uniform:2000:1000:4:9", &A));
    int64_t high = 0;
    for (int64_t k = 0; k < A.nnz; k++) high += A.col_idx[k] >= 500;
    CHECK(high > A.nnz * 45 / 100 && high < A.nnz * 55 / 100);
    tcspmm_csr_free(&A);
}

static void test_blockdiag(void)
{
    tcspmm_csr A, D;
    CHECK_OK(family_generate("uniform:37:21:5:3", &A));
    CHECK_OK(family_generate("blockdiag:4:uniform:37:21:5:3", &D));
    CHECK_OK(tcspmm_csr_validate(&D));
    CHECK(D.rows == 4 * 37 && D.cols == 4 * 21 && D.nnz == 4 * A.nnz);
    int ok = 1;
    for (int64_t i = 0; i < D.rows; i++) {
        int64_t b = i / 37;
        ok &= D.row_ptr[i + 1] - D.row_ptr[i] == A.row_ptr[i % 37 + 1] - A.row_ptr[i % 37];
        for (int64_t k = D.row_ptr[i]; k < D.row_ptr[i + 1]; k++)
            ok &= D.col_idx[k] / 21 == b && D.values[k] == entry(&A, i % 37, D.col_idx[k] % 21);
    }
    CHECK(ok);
    tcspmm_csr_free(&D);
    CHECK_OK(family_blockdiag(1, &A, &D));
    CHECK(tests_csr_equal(&A, &D));
    tcspmm_csr_free(&D);
    tcspmm_csr_free(&A);
}

/* Every aligned group of a row holds at most keep entries. */
static int groups_ok(const tcspmm_csr *A, int group_size, int keep)
{
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t k = A->row_ptr[i];
        while (k < A->row_ptr[i + 1]) {
            int64_t g = A->col_idx[k] / group_size, count = 0;
            while (k < A->row_ptr[i + 1] && A->col_idx[k] / group_size == g) k++, count++;
            if (count > keep) return 0;
        }
    }
    return 1;
}

/* P is A pruned: in each group of each row, P keeps exactly the min(keep,
 * present) entries of A with the largest |value| (ties: lower column). */
static int pruned_from(const tcspmm_csr *A, const tcspmm_csr *P, int group_size, int keep)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int64_t j = A->col_idx[k], g0 = j / group_size * group_size;
            int beaten = 0; /* entries of the group that rank above (i, j) */
            for (int64_t t = g0; t < g0 + group_size && t < A->cols; t++) {
                float v = entry(A, i, t);
                if (t != j && !isnan(v) &&
                    (fabsf(v) > fabsf(A->values[k]) || (fabsf(v) == fabsf(A->values[k]) && t < j)))
                    beaten++;
            }
            float p = entry(P, i, j);
            if ((beaten < keep) != (p == A->values[k])) return 0;
            if (beaten >= keep && !isnan(p)) return 0;
            kept += beaten < keep;
        }
    /* and nothing else: no entry of P that A does not have */
    return A->rows == P->rows && A->cols == P->cols && P->nnz == kept;
}

static void test_prune(void)
{
    static const int shapes[][2] = {{301, 303}, {16, 16}, {7, 1}, {9, 2}, {5, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t rows = shapes[s][0], cols = shapes[s][1];
        tcspmm_csr A;
        CHECK_OK(family_prune_random(rows, cols, 4, 2, 21, &A));
        CHECK_OK(tcspmm_csr_validate(&A));
        CHECK(groups_ok(&A, 4, 2));
        CHECK(A.nnz == rows * (cols / 4 * 2 + (cols % 4 < 2 ? cols % 4 : 2)));
        if (cols > 2) CHECK(random_values_ok(&A));
        tcspmm_csr_free(&A);
        CHECK_OK(family_prune_random(rows, cols, 2, 1, 21, &A));
        CHECK_OK(tcspmm_csr_validate(&A));
        CHECK(groups_ok(&A, 2, 1));
        CHECK(A.nnz == rows * ((cols + 1) / 2));
        tcspmm_csr_free(&A);
    }
    /* Pruning real entries keeps the largest of each group. */
    static const char *sources[] = {"uniform:120:77:50:4", "uniform:64:64:64:5",
                                    "banded:300:9:7:6", "stencil2d:9:8:9"};
    for (int s = 0; s < 4; s++) {
        tcspmm_csr A, P24, P12;
        CHECK_OK(family_generate(sources[s], &A));
        CHECK_OK(family_prune(&A, 4, 2, &P24));
        CHECK_OK(family_prune(&A, 2, 1, &P12));
        CHECK_OK(tcspmm_csr_validate(&P24));
        CHECK_OK(tcspmm_csr_validate(&P12));
        CHECK(groups_ok(&P24, 4, 2) && groups_ok(&P12, 2, 1));
        CHECK(pruned_from(&A, &P24, 4, 2));
        CHECK(pruned_from(&A, &P12, 2, 1));
        tcspmm_csr_free(&A);
        tcspmm_csr_free(&P24);
        tcspmm_csr_free(&P12);
    }
    /* Ties go to the lower column; a 2:4 matrix prunes to itself. */
    int64_t row_ptr[3] = {0, 4, 8};
    int32_t col_idx[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    float values[8] = {0.5f, -0.5f, 0.75f, 0.25f, 0.125f, -0.875f, 0.25f, -0.25f};
    tcspmm_csr T = {2, 4, 8, row_ptr, col_idx, values}, P;
    static const int32_t kept24[4] = {0, 2, 1, 2}, kept12[4] = {0, 2, 1, 2};
    CHECK_OK(family_prune(&T, 4, 2, &P));
    CHECK(P.nnz == 4 && P.row_ptr[1] == 2 && memcmp(P.col_idx, kept24, sizeof kept24) == 0);
    tcspmm_csr_free(&P);
    CHECK_OK(family_prune(&T, 2, 1, &P));
    CHECK(P.nnz == 4 && P.row_ptr[1] == 2 && memcmp(P.col_idx, kept12, sizeof kept12) == 0);
    tcspmm_csr_free(&P);
    tcspmm_csr A, B;
    CHECK_OK(family_generate("prune24:50:61:3", &A));
    CHECK_OK(family_generate("prune24file:prune24:50:61:3", &B));
    CHECK(tests_csr_equal(&A, &B));
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&B);
}

/* Each bad spec fails with its status and a message naming the bad part. */
static void test_bad_specs(void)
{
    static const struct {
        const char *spec;
        tcspmm_status status;
        const char *names;
    } cases[] = {
        {"", TCSPMM_ERROR_INVALID_ARGUMENT, "unknown family ''"},
        {"nosuch:1:2", TCSPMM_ERROR_INVALID_ARGUMENT, "unknown family 'nosuch'"},
        {"stencil2d:10:x:5", TCSPMM_ERROR_INVALID_ARGUMENT, "NY='x'"},
        {"stencil2d:10:10:6", TCSPMM_ERROR_INVALID_ARGUMENT, "P='6' must be 5 or 9"},
        {"stencil2d:10:10", TCSPMM_ERROR_INVALID_ARGUMENT, "takes 3 parameters"},
        {"stencil2d:10:10:5:", TCSPMM_ERROR_INVALID_ARGUMENT, "takes 3 parameters"},
        {"stencil2d:0:10:5", TCSPMM_ERROR_INVALID_ARGUMENT, "NX='0'"},
        {"stencil2d:10::5", TCSPMM_ERROR_INVALID_ARGUMENT, "NY=''"},
        {"stencil3d:4:4:4:9", TCSPMM_ERROR_INVALID_ARGUMENT, "P='9' must be 7 or 27"},
        {"stencil3d:65536:65536:2:7", TCSPMM_ERROR_OVERFLOW, "exceed 2^31-1"},
        {"rmat:31:16:0.57:0.19:0.19:1", TCSPMM_ERROR_INVALID_ARGUMENT, "SCALE='31'"},
        {"rmat:10:16:0.6:0.3:0.3:1", TCSPMM_ERROR_INVALID_ARGUMENT, "A + B + C"},
        {"rmat:10:16:0.5:-0.1:0.3:1", TCSPMM_ERROR_INVALID_ARGUMENT, "B='-0.1'"},
        {"rmat:10:16:0.5:0.1:nan:1", TCSPMM_ERROR_INVALID_ARGUMENT, "C='nan'"},
        {"geometric:100:0:1", TCSPMM_ERROR_INVALID_ARGUMENT, "R='0'"},
        {"geometric:100:500:1", TCSPMM_ERROR_INVALID_ARGUMENT, "R='500'"},
        {"banded:10:2:3:-1", TCSPMM_ERROR_INVALID_ARGUMENT, "SEED='-1'"},
        {"uniform:-5:10:2:1", TCSPMM_ERROR_INVALID_ARGUMENT, "ROWS='-5'"},
        {"uniform:10:10:2:18446744073709551616", TCSPMM_ERROR_INVALID_ARGUMENT, "SEED="},
        {"uniform:10:3000000000:2:1", TCSPMM_ERROR_INVALID_ARGUMENT, "COLS='3000000000'"},
        {"uniform:2000000000:2000000000:2000000000:1", TCSPMM_ERROR_OVERFLOW, "overflow"},
        {"blockdiag:0:stencil2d:4:4:5", TCSPMM_ERROR_INVALID_ARGUMENT, "K='0'"},
        {"blockdiag:2:stencil2d:4:y:5", TCSPMM_ERROR_INVALID_ARGUMENT,
         "'stencil2d:4:y:5': NY='y'"},
        {"blockdiag:300000:stencil2d:100:100:5", TCSPMM_ERROR_OVERFLOW, "blockdiag:300000"},
        {"prune24:10:10:1x", TCSPMM_ERROR_INVALID_ARGUMENT, "SEED='1x'"},
        {"prune12:10: 10:1", TCSPMM_ERROR_INVALID_ARGUMENT, "COLS=' 10'"},
        {"prune24file:", TCSPMM_ERROR_INVALID_ARGUMENT, "prune24file"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tcspmm_csr A;
        tcspmm_status st = family_generate(cases[c].spec, &A);
        int ok = st == cases[c].status && strstr(tcspmm_last_error(), cases[c].names) &&
                 A.row_ptr == NULL;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  -> '%s' gave %s: %s\n", cases[c].spec, tcspmm_status_string(st),
                    tcspmm_last_error());
        tcspmm_csr_free(&A);
    }
    /* A file that does not exist: the reader's error, with the spec. */
    tcspmm_csr A;
    CHECK(family_generate("blockdiag:2:/nonexistent/m.mtx", &A) != TCSPMM_SUCCESS);
    CHECK(strstr(tcspmm_last_error(), "blockdiag:2:/nonexistent/m.mtx") != NULL);
}

int main(void)
{
    test_determinism();
    test_stencil_counts();
    test_stencil_eigenpairs();
    test_rmat();
    test_geometric();
    test_banded_uniform();
    test_blockdiag();
    test_prune();
    test_bad_specs();
    return tests_finish();
}
