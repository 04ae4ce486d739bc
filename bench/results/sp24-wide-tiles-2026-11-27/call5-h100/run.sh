#!/usr/bin/env bash
# Session 43, call 5: d8e1738's 128 x 256 tiles on an H100: gpu_sparse24
# (the rule as committed), then the experiment switch (overlay
# .devdata/v43-switch, TCSPMM_SP24_WIDE 0 = as before d8e1738, 2 = 128 x 256
# wherever 256 x 128 single tiles ran) in alternating processes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built (committed) in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
TCSPMM_DATA=$PWD/data timeout 200 /tmp/b/tests/gpu_sparse24 > $OUT/gpu_sparse24.log 2>&1
echo "gpu_sparse24: rc $? $(tail -1 $OUT/gpu_sparse24.log) at $(( $(date +%s) - t0 )) s"
cp .devdata/v43-switch/sp24_wgmma.cu src/kernels/sp24_wgmma.cu
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build2 bash tools/sp24_device.sh > $OUT/build2.log 2>&1 || { tail -30 $OUT/build2.log; exit 1; }
echo "built (switch) at $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for p in fp16 bf16; do
    for mode in 0 2; do
      [ $(( $(date +%s) - t0 )) -gt 470 ] && break 3
      TCSPMM_SP24_WIDE=$mode timeout 60 /tmp/b/sp24_bench --precision $p --m 4096,8192,16384 --n 512,4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-mode$mode.md
      echo "round $round $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
for p in fp16 bf16; do
  for mode in 0 2; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && break 2
    TCSPMM_SP24_WIDE=$mode timeout 40 /tmp/b/sp24_bench --precision $p --m 6144,12288 --n 1024,2048,4096 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/held-r1-$p-mode$mode.md
    echo "held-out $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
