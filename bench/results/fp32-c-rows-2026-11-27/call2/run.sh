#!/usr/bin/env bash
# Session 40, call 2: the C row indices from shared memory (the tree: "new",
# a rolled loop; "u4": the loop unrolled by 4 with no early exit) against
# d19a3d1's kernel (base), TF32 and FP32, N = 97 (staged C) and 128.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base:.devdata/v40-base new:- u4:.devdata/v40-smemu4 base32:.devdata/v40-base:--precision+fp32 new32:-:--precision+fp32 u432:.devdata/v40-smemu4:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 97,128 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
