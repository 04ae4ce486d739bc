#!/usr/bin/env bash
# Session 47, call A: 64 x 128 tiles whose two consumer warpgroups take
# alternate stages (TCSPMM_SP24_HALF=1 sends n in 65..128 there): gpu_sparse24
# and sanitizers on that path, then sp24_bench half=0/1 in alternating processes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || { tail -30 $OUT/sp24build.log; tail -30 $OUT/sp24build/build.log; }
ls build/sp24_bench build/tests/gpu_sparse24 || exit 1
echo "built at $(( $(date +%s) - t0 )) s"
TCSPMM_SP24_HALF=1 timeout 200 build/tests/gpu_sparse24 > $OUT/test-half.log 2>&1
echo "gpu_sparse24 half: rc $? $(tail -1 $OUT/test-half.log) at $(( $(date +%s) - t0 )) s"
timeout 200 build/tests/gpu_sparse24 > $OUT/test-default.log 2>&1
echo "gpu_sparse24 default: rc $? $(tail -1 $OUT/test-default.log) at $(( $(date +%s) - t0 )) s"
TCSPMM_SP24_HALF=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/memcheck-half.log 2>&1
echo "memcheck half: rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-half.log | tail -1)"
TCSPMM_SP24_HALF=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/racecheck-half.log 2>&1
echo "racecheck half: rc $? $(grep -E 'SUMMARY' $OUT/racecheck-half.log | tail -2 | tr '\n' ' ') at $(( $(date +%s) - t0 )) s"
for round in 1 2 3; do
  for p in fp16 bf16 tf32; do
    for h in 0 1; do
      [ $(( $(date +%s) - t0 )) -gt 540 ] && break 3
      echo "## round $round half=$h $p"
      TCSPMM_SP24_HALF=$h timeout 60 build/sp24_bench --precision $p --m 4096,8192,16384 --n 128 --reps 20 --no-hrpb 2>&1 | grep -v workspace | grep -E "^\| (fp16|bf16|tf32)"
    done
  done
done > $OUT/bench.md
echo "bench done at $(( $(date +%s) - t0 )) s"; cat $OUT/bench.md
