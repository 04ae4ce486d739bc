#include "format/sparse24.h"
#include "sparse24_gen.h"
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv){
  long n = atol(argv[1]); int tf = argv[2][0]=='t';
  tcspmm_csr A; sp24 s;
  if(sp24_gen(n,n,tf?SP24_1TO2:SP24_2TO4,0.0,5,&A)) return 1;
  double best=1e9, t0;
  for (int r=0;r<5;r++){
    t0=omp_get_wtime();
    if(sp24_compress(&A,tf?TCSPMM_PRECISION_TF32:TCSPMM_PRECISION_FP16,0,0,&s)) return 2;
    double t=(omp_get_wtime()-t0)*1e3; if(t<best) best=t;
    sp24_free(&s);}
  printf("%s %ld: best of 5 %.1f ms (%d threads)\n", tf?"tf32":"fp16", n, best, omp_get_max_threads());
  return 0;}
