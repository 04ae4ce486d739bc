#!/usr/bin/env bash
# Session 44, call 5: on an H100, bf16 and fp16 above 2^37 multiply-adds in
# clusters of two 256 x 128 tiles sharing B (overlay .devdata/v44-pairs16,
# TCSPMM_SP24_PAIRS16=1) against single tiles (0, as at 4c019cb), in
# alternating processes, two rounds; M = K = 8192, 16384, N = 4096, 8192.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cp .devdata/v44-pairs16/src/kernels/sp24_wgmma.cu src/kernels/sp24_wgmma.cu
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for p in bf16 fp16; do
    for mode in 0 1; do
      [ $(( $(date +%s) - t0 )) -gt 230 ] && break 3
      TCSPMM_SP24_PAIRS16=$mode timeout 30 /tmp/b/sp24_bench --precision $p --m 8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-mode$mode.md
      echo "round $round $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
