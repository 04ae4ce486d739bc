#!/usr/bin/env bash
# Session 44, call 3: 128 x 128 tiles with one k-tile a stage (overlay
# .devdata/v44-kt1; TCSPMM_SP24_MID=8: eight stages, 6: six, 0: as at
# 8b0898d, two k-tiles a stage, four stages) wherever the 128 x 128 tiles
# run. gpu_sparse24 with 8 (all) and 6 (--small); then fp16 and bf16 at
# M = K = 4096..16384, N = 128, 256, 512, modes in turn, two rounds.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cp .devdata/v44-kt1/src/kernels/sp24_wgmma.cu src/kernels/sp24_wgmma.cu
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
TCSPMM_SP24_MID=8 TCSPMM_DATA=$PWD/data timeout 150 /tmp/b/tests/gpu_sparse24 > $OUT/gpu_sparse24-mid8.log 2>&1
echo "gpu_sparse24 mid8: rc $? $(tail -1 $OUT/gpu_sparse24-mid8.log) at $(( $(date +%s) - t0 )) s"
TCSPMM_SP24_MID=6 TCSPMM_DATA=$PWD/data timeout 60 /tmp/b/tests/gpu_sparse24 --small > $OUT/gpu_sparse24-mid6-small.log 2>&1
echo "gpu_sparse24 --small mid6: rc $? $(tail -1 $OUT/gpu_sparse24-mid6-small.log) at $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for p in fp16 bf16; do
    for mode in 0 8 6; do
      [ $(( $(date +%s) - t0 )) -gt 500 ] && break 3
      TCSPMM_SP24_MID=$mode timeout 40 /tmp/b/sp24_bench --precision $p --m 4096,8192,16384 --n 128,256,512 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-mode$mode.md
      echo "round $round $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
