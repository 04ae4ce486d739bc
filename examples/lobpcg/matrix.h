/* matrix.h: what the example checks and measures on A before solving. */
#ifndef LOBPCG_MATRIX_H
#define LOBPCG_MATRIX_H

#include <tcspmm.h>

/* 0 when A is square and symmetric (a_ij == a_ji for every stored entry, up
 * to float rounding), else -1 with a message naming the first offending
 * entry. */
int matrix_check_symmetric(const tcspmm_csr *A);

/* The Gershgorin bound on ||A||_2: max over rows of sum_j |a_ij|. */
double matrix_gershgorin_norm(const tcspmm_csr *A);

#endif
