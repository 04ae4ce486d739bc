#!/usr/bin/env bash
# Session 43, call 7: tf32 in clusters of two 128 x 256 tiles sharing B
# (overlay .devdata/v43-tf32wide; TCSPMM_SP24_TF32WIDE=1 where 256 x 128
# pairs ran). gpu_sparse24 with it, then tf32 at N = 4096, 8192, modes 0
# and 1 in alternating processes, two rounds.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cp .devdata/v43-tf32wide/sp24_wgmma.cu src/kernels/sp24_wgmma.cu
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
TCSPMM_SP24_TF32WIDE=1 TCSPMM_DATA=$PWD/data timeout 150 /tmp/b/tests/gpu_sparse24 > $OUT/gpu_sparse24-tf32wide.log 2>&1
echo "gpu_sparse24 (tf32 wide pairs): rc $? $(tail -1 $OUT/gpu_sparse24-tf32wide.log) at $(( $(date +%s) - t0 )) s"
grep -iE "fail" $OUT/gpu_sparse24-tf32wide.log | head -3
for round in 1 2; do
  for mode in 0 1; do
    [ $(( $(date +%s) - t0 )) -gt 330 ] && break 2
    TCSPMM_SP24_TF32WIDE=$mode timeout 60 /tmp/b/sp24_bench --precision tf32 --m 4096,8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-tf32-mode$mode.md
    echo "round $round tf32 mode $mode rc $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
