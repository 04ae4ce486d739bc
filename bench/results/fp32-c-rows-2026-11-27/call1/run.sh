#!/usr/bin/env bash
# Session 40, call 1: the staged C epilogue reading each tile row's C index
# from shared memory (written there from c_row) instead of the row map;
# same-call A/B against HEAD (d19a3d1), TF32 and FP32, N = 97 (staged) and
# N = 128 (aligned); then gpu_fp32 and gpu_hrpb on the new tree.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base:- smem:.devdata/v40-smemrow base32:-:--precision+fp32 smem32:.devdata/v40-smemrow:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 97,128 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
V=/tmp/v-_devdata_v40_smemrow
(cd $V && cmake --build build -j16 --target gpu_fp32 > $OUT/build-gpu_fp32.log 2>&1 &&
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$V/data build/tests/gpu_fp32 > $OUT/gpu_fp32.log 2>&1)
echo "gpu_fp32 (smem): exit $? $(tail -1 $OUT/gpu_fp32.log) at $(( $(date +%s) - t0 )) s"
(cd $V && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$V/data build/tests/gpu_hrpb > $OUT/gpu_hrpb.log 2>&1)
echo "gpu_hrpb (smem): exit $? $(tail -1 $OUT/gpu_hrpb.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
