#!/usr/bin/env bash
# Session 42, call 7: 74e6001's sp24_bench (its contenders timed by the
# library's gpu_timer_turns) on the GPU: bf16 and fp16 at M = K = 4096 and
# 16384, N = 128, 512, 8192, against call 4's random turns.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
for p in bf16 fp16; do
  timeout 120 /tmp/b/sp24_bench --precision $p --m 4096,16384 --n 128,512,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace
done > $OUT/bench.md
cut -c1-200 $OUT/bench.md | grep "^| [bf]"
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
