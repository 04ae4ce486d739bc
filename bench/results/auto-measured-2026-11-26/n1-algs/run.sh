#!/usr/bin/env bash
# run.sh BUILD_DIR MATRIX...: builds n1_algs.c against the library's build and runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$here/../../../..; build=$1; shift
gcc -O2 -fopenmp -I$root/include -I$root/src -I/usr/local/cuda/include "$here/n1_algs.c" \
  $build/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lz -lstdc++ -lm -o /tmp/n1_algs
for m in "$@"; do echo "== $m"; /tmp/n1_algs "$m"; done
