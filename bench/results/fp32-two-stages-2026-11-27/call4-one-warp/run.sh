#!/usr/bin/env bash
# Session 41, call 4: FP32 one-warp blocks (N <= 32) with two copy stages
# where the launch has two waves (overlay .devdata/v41-w1: has_shallow for
# SPLIT with one warp, __launch_bounds__ minimum 24 blocks: 80 registers,
# 6 warps per SM sub-partition, a 24-byte spill stored at the kernel's start
# and reloaded in the epilogue, none in the block loop) against the tree
# (9744334's kernel). FP32 at N = 8, 16, 32, 12 matrices, median of 30;
# gpu_fp32 on the variant.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base32:-:--precision+fp32 w1:.devdata/v41-w1:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 8,16,32 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
V=/tmp/v-_devdata_v41_w1
(cd $V && cmake --build build -j16 --target gpu_fp32 > $OUT/build-gpu_fp32.log 2>&1 &&
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$V/data timeout 200 build/tests/gpu_fp32 > $OUT/gpu_fp32.log 2>&1)
echo "gpu_fp32 (w1): exit $? $(tail -1 $OUT/gpu_fp32.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
