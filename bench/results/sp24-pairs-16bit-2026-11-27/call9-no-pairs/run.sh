#!/usr/bin/env bash
# Session 42, call 9: bf16 and fp16 at N = 4096, 8192 (7.8 to 31 waves of
# 256 x 128 tiles, all in pairs sharing B) against no pairs at all (overlay
# .devdata/v42-nopairs: PAIR_MIN_WAVES 1000). Call 8 found pairs 4-7%
# slower for 16-bit types at 3.9 waves (and faster for tf32). Three rounds
# alternating base and variant, each a separate sp24_bench process.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for v in base:- nopairs:.devdata/v42-nopairs; do
  name=${v%%:*} dir=${v#*:}
  ab_variant_tree /tmp/sp24-v-$name $dir
  (cd /tmp/sp24-v-$name && B=/tmp/sp24-v-$name/build OUT=$OUT/build-$name SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $OUT/build-$name.log 2>&1; echo "build $name: $?") &
done
wait
echo "built at $(( $(date +%s) - t0 )) s"
for round in 1 2 3; do
  for name in base nopairs; do
    [ $(( $(date +%s) - t0 )) -gt 520 ] && break 2
    echo "## round $round, $name"
    b=/tmp/sp24-v-$name/build/sp24_bench
    for p in bf16 fp16; do timeout 90 $b --precision $p --m 4096,8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep "^| [tbf]"; done
  done
done > $OUT/bench.md
cut -c1-180 $OUT/bench.md
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
