#!/usr/bin/env bash
# Call 1: tf32 pairs of 128 x 256 tiles on cards that are not lean (the H200), against
# base = 9ae6d5d (.devdata/sp24base = its git archive without bench/results), which pairs
# 256 x 128 tiles. Both trees built at once; gpu_sparse24 on the new tree (which forces each
# tf32 pair shape in turn); then tools/sp24_bench --precision tf32 at the large sizes,
# base and new in alternating processes, rounds until about 500 s. Logs into $OUT/call1.tgz.
set -uo pipefail
L=/tmp/logs1; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
for v in base new; do
  src=/tmp/sp24-v-$v; dir=.devdata/sp24base; [ $v = new ] && dir=-
  ab_variant_tree $src $dir
  (cd $src && B=$src/build OUT=$L/build-$v SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $L/build-$v.log 2>&1; echo "build $v rc $? at $(( $(date +%s) - t0 )) s") &
done
wait
grep -ho "cuSPARSELt: .*" $L/build-*.log | head -2
timeout 240 /tmp/sp24-v-new/build/tests/gpu_sparse24 > $L/gpu_sparse24-new.log 2>&1
echo "gpu_sparse24 new: rc $? $(tail -1 $L/gpu_sparse24-new.log) at $(( $(date +%s) - t0 )) s"
grep -E "pairs|DRAM" $L/gpu_sparse24-new.log | head -8
for r in 1 2 3 4; do
  for v in base new; do
    [ $(( $(date +%s) - t0 )) -gt 470 ] && break 2
    timeout 100 /tmp/sp24-v-$v/build/sp24_bench --precision tf32 --m 4096,8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-tf32-$v.md
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call1.tgz -C $L .
