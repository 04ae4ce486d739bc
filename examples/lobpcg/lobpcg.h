/* lobpcg.h: Knyazev's block LOBPCG for the extreme eigenpairs of a symmetric
 * matrix, written once against the dense.h operations. */
#ifndef LOBPCG_H
#define LOBPCG_H

#include <stdint.h>

#include "dense.h"

typedef struct lobpcg_options {
    int k;           /* eigenpairs wanted */
    int guard;       /* extra block columns, which need not converge */
    int maxit;       /* Rayleigh-Ritz updates at most */
    int stall;       /* stop when the largest residual has not halved in this many
                        iterations (the products' precision limits it); 0: never */
    double tol;      /* on the relative residual of each of the k columns */
    int largest;     /* 1: the k largest; 0: the k smallest */
    uint64_t seed;   /* of the random start */
} lobpcg_options;

typedef struct lobpcg_result {
    double *lambda;   /* k eigenvalues: ascending (smallest) or descending (largest) */
    double *residual; /* their ||A x - lambda x|| / (norm_a ||x||), from a fresh A*X */
    int iterations;   /* Rayleigh-Ritz updates done */
    int converged;    /* all k residuals at or below tol */
    int stalled;      /* stopped by opt.stall */
    int64_t dropped;  /* basis columns dropped as (nearly) dependent, all iterations */
    double seconds;   /* wall time of the solve */
} lobpcg_result;

/* Solves for the eigenpairs of the n x n matrix behind d's plan. norm_a
 * scales the residuals (the example passes the Gershgorin bound). Prints one
 * line per iteration to stdout. */
int lobpcg_solve(dense *d, int64_t n, double norm_a, const lobpcg_options *opt,
                 lobpcg_result *result);

void lobpcg_result_free(lobpcg_result *result);

#endif
