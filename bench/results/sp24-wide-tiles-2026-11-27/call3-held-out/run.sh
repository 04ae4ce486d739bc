#!/usr/bin/env bash
# Session 43, call 3: 128 x 256 tiles for 16-bit types, held out: sizes not
# in call 2 (M = K = 6144, 12288; N = 640 .. 6144), TCSPMM_SP24_WIDE 0 (as at
# HEAD) against 2 (wide wherever 256 x 128 tiles ran), alternating
# processes, two rounds; then the call-2 sizes, 0 against the rule (1:
# wide up to M x N = 2^25).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
for round in 1 2; do
  for p in fp16 bf16; do
    for mode in 0 2; do
      [ $(( $(date +%s) - t0 )) -gt 400 ] && break 3
      TCSPMM_SP24_WIDE=$mode timeout 60 /tmp/b/sp24_bench --precision $p --m 6144,12288 --n 640,1024,2048,4096,6144 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/held-r$round-$p-mode$mode.md
      echo "held-out round $round $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
for p in fp16 bf16; do
  for mode in 0 1; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && break 2
    TCSPMM_SP24_WIDE=$mode timeout 60 /tmp/b/sp24_bench --precision $p --m 4096,8192,16384 --n 512,4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/rule-$p-mode$mode.md
    echo "rule $p mode $mode rc $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
