#!/usr/bin/env bash
# Session 42, call 8: at M = K = 4096, N = 4096 the 256 x 128 tiles make
# 3.88 waves and run in clusters of two sharing B (PAIR_MIN_WAVES 3). Does
# tf32 (1.27x dense cuBLAS, 1.3x asked) gain without pairs? Overlay
# .devdata/v42-pairs4: PAIR_MIN_WAVES 4 (changes 512-tile launches only:
# 4096 x 4096, 8192 x 2048, 16384 x 1024). Three rounds alternating base and
# variant, each a separate sp24_bench process (contenders in random turns).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for v in base:- pairs4:.devdata/v42-pairs4; do
  name=${v%%:*} dir=${v#*:}
  ab_variant_tree /tmp/sp24-v-$name $dir
  (cd /tmp/sp24-v-$name && B=/tmp/sp24-v-$name/build OUT=$OUT/build-$name SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $OUT/build-$name.log 2>&1; echo "build $name: $?") &
done
wait
echo "built at $(( $(date +%s) - t0 )) s"
for round in 1 2 3; do
  for name in base pairs4; do
    [ $(( $(date +%s) - t0 )) -gt 520 ] && break 2
    echo "## round $round, $name"
    b=/tmp/sp24-v-$name/build/sp24_bench
    for p in tf32 bf16 fp16; do timeout 60 $b --precision $p --m 4096 --n 4096 --reps 20 --no-hrpb 2>&1 | grep "^| [tbf]"; done
    timeout 60 $b --precision bf16 --m 8192 --n 2048 --reps 20 --no-hrpb 2>&1 | grep "^| [tbf]"
    timeout 60 $b --precision tf32 --m 16384 --n 1024 --reps 20 --no-hrpb 2>&1 | grep "^| [tbf]"
  done
done > $OUT/bench.md
cut -c1-180 $OUT/bench.md
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
