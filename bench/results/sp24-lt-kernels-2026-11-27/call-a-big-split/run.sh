#!/usr/bin/env bash
# Session 46, call A: experiment, 256 x 128 tiles with split K (clusters of
# the parts, DSMEM adds) where they split (SP24_EXP_BIGSPLIT=1) against the
# launch rule as is (=0), same binary, alternating processes; gpu_sparse24
# with the experiment on.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || { tail -20 $OUT/sp24build.log; exit 1; }
echo "built at $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/sp24build.log | head -1)"
SP24_EXP_BIGSPLIT=1 timeout 200 build/tests/gpu_sparse24 > $OUT/gpu_sparse24-exp.log 2>&1
echo "gpu_sparse24 exp rc $? $(tail -2 $OUT/gpu_sparse24-exp.log | tr '\n' ' ') at $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for p in fp16 bf16; do
    for v in 0 1; do
      [ $(( $(date +%s) - t0 )) -gt 540 ] && break 3
      SP24_EXP_BIGSPLIT=$v timeout 60 build/sp24_bench --precision $p --m 4096,8192,16384 --n 128,256,512 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-e$v.md
      echo "round $round $p exp=$v rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
