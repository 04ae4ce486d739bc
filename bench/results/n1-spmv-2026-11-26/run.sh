#!/usr/bin/env bash
# run.sh BUILD_DIR MATRIX...: builds n1_spmv.c (an experiment, not part of the
# library) against the library's build and runs it on each matrix.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$here/../../..; build=$1; shift
gcc -O2 -fopenmp -I$root/include -I$root/src -isystem /usr/local/cuda/include "$here/n1_spmv.c" \
  $build/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lz -lstdc++ -lm -o /tmp/n1_spmv
for m in "$@"; do echo "== $m"; /tmp/n1_spmv "$m" || echo "== exit $? on $m"; done
