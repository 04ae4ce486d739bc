#include "format/sparse24.h"
#include "sparse24_gen.h"
#include <stdio.h>
#include <stdlib.h>
/* writes the compressed bytes of several generated matrices to argv[1] */
int main(int argc, char **argv){
  FILE *f = fopen(argv[1], "wb");
  const long dims[][2] = {{1,1},{17,5},{203,141},{130,99},{1000,4000},{4100,2100},{37,45},{300,129}};
  const tcspmm_precision ps[] = {TCSPMM_PRECISION_TF32, TCSPMM_PRECISION_BF16, TCSPMM_PRECISION_FP16};
  int count = 0;
  for (int d = 0; d < 8; d++) for (int p = 0; p < 3; p++) for (int every = 0; every < 2; every++) for (int drop = 0; drop < 2; drop++) {
    tcspmm_csr A; sp24 s; size_t vb, mb;
    if (sp24_gen(dims[d][0], dims[d][1], p == 0 ? SP24_1TO2 : SP24_2TO4, drop ? 0.3 : 0.0, 11 + d, &A)) return 1;
    if (every) for (long k = 0; k < A.nnz; k += 7) A.values[k] = 0.0f; /* explicit zeros */
    tcspmm_status st = sp24_compress(&A, ps[p], 0, every, &s);
    fprintf(f, "case %d %d %d %d status %d\n", d, p, every, drop, (int)st);
    if (!st) { sp24_sizes(&s, &vb, &mb); fwrite(s.values, 1, vb, f); fwrite(s.meta, 1, mb, f); sp24_free(&s); count++; }
    tcspmm_csr_free(&A);
  }
  fclose(f); printf("%d compressed\n", count); return 0; }
