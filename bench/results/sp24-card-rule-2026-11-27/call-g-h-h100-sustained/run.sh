#!/usr/bin/env bash
# Session 45, calls G and H (H100): the SM clock and power under sustained load,
# fp16 16384 x 8192, our kernel alone (sp24_bench --ours-only), single
# 256 x 128 tiles (old: a9492c2's kernel, overlay .devdata/v45-old) against
# pairs (new: the tree), nvidia-smi sampled every 20 ms (call H adds the
# memory clock and temperature and the clock event reasons); two rounds.
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 || { nvidia-smi --query-gpu=name --format=csv,noheader; echo "not an H100: stop"; exit 3; }
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
F=timestamp,clocks.sm,power.draw,temperature.gpu
for f in clocks.mem temperature.memory clocks_event_reasons.active; do
  nvidia-smi --query-gpu=$F,$f --format=csv,noheader > /dev/null 2>&1 && F=$F,$f
done
echo "sampled: $F"
ab_variant_tree $PWD/build_oldtree .devdata/v45-old
cp tools/sp24_bench.c build_oldtree/tools/sp24_bench.c
(cd build_oldtree && B=$PWD/../build_old SP24_BUILD_ONLY=1 OUT=$OUT/oldbuild bash tools/sp24_device.sh > $OUT/oldbuild.log 2>&1; echo "old rc $? at $(( $(date +%s) - t0 )) s") &
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/newbuild bash tools/sp24_device.sh > $OUT/newbuild.log 2>&1; echo "new rc $? at $(( $(date +%s) - t0 )) s"
wait
for round in 1 2; do
  for v in old new; do
    bin=build/sp24_bench; [ $v = old ] && bin=build_old/sp24_bench
    nvidia-smi --query-gpu=$F --format=csv,noheader,nounits -lms 20 > $OUT/smi-r$round-$v.csv &
    smi=$!
    timeout 60 $bin --precision fp16 --m 16384 --n 8192 --reps 100 --no-hrpb --ours-only > $OUT/bench-r$round-fp16-$v.md 2>&1
    rc=$?
    kill $smi; wait $smi 2>/dev/null
    echo "round $round $v rc $rc at $(( $(date +%s) - t0 )) s: $(grep '^| fp16' $OUT/bench-r$round-fp16-$v.md | cut -d'|' -f5-7)"
    sleep 5
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
