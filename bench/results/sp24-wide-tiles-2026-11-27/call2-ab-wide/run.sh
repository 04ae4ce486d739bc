#!/usr/bin/env bash
# Session 43, call 2: 128 x 256 tiles (m64n256, one k-tile a stage, five
# stages) in the structured kernel. TCSPMM_SP24_WIDE (experiment switch):
# 0 = the launcher as at HEAD, 1 = wide where 256 x 128 single blocks ran,
# 2 = also where tf32 ran pairs, a = every n > 128 (the tests).
# gpu_sparse24 with every n > 128 product on the wide tiles, memcheck of its
# --small cases likewise; then sp24_bench in alternating processes 0 / 2.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
TCSPMM_SP24_WIDE=a TCSPMM_DATA=$PWD/data timeout 200 /tmp/b/tests/gpu_sparse24 > $OUT/gpu_sparse24-wide-all.log 2>&1
echo "gpu_sparse24 (wide for all n > 128): rc $? $(tail -1 $OUT/gpu_sparse24-wide-all.log) at $(( $(date +%s) - t0 )) s"
grep -iE "fail|error" $OUT/gpu_sparse24-wide-all.log | head -5
TCSPMM_SP24_WIDE=a timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/gpu_sparse24 --small > $OUT/memcheck-wide-all.log 2>&1
echo "memcheck --small (wide): rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-wide-all.log | tail -1) at $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for p in fp16 bf16 tf32; do
    for mode in 0 2; do
      [ $(( $(date +%s) - t0 )) -gt 540 ] && break 3
      TCSPMM_SP24_WIDE=$mode timeout 60 /tmp/b/sp24_bench --precision $p --m 4096,8192,16384 --n 512,4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-mode$mode.md
      echo "round $round $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
