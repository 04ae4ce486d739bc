#!/usr/bin/env bash
# Session 39, call 2: the staged C epilogue in FP32 mode (and its row lookup
# by shuffle in both modes), same-call A/B against 6f832ef's kernel at odd N
# (row-major, ldc = N, so C rows are unaligned) and N = 128 (aligned: the
# staged path is not taken), TF32 and FP32; then gpu_fp32 on the new tree.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base:.devdata/v39-base new:- base32:.devdata/v39-base:--precision+fp32 new32:-:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 31,97,257,128 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
(cd /tmp/v-_ && cmake --build build -j16 --target gpu_fp32 > $OUT/build-gpu_fp32.log 2>&1 &&
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=/tmp/v-_/data build/tests/gpu_fp32 > $OUT/gpu_fp32.log 2>&1)
echo "gpu_fp32: exit $? $(tail -1 $OUT/gpu_fp32.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
