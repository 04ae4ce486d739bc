#!/usr/bin/env bash
# Call 3: as call 1 (base = 9ae6d5d, new = the tree), at the sizes between: M = K = 8192,
# 12288, 16384, N = 1024, 2048. tf32 pairs from three waves of 256 x 128 tiles (396 on 132
# SMs): 8192 x 1024 and 12288 x 1024 (256 and 384 tiles) launch the same kernel in both trees,
# the other four pairs. No gpu_sparse24 (call 2 ran the GPU tests on the commit). Logs into
# $OUT/call3.tgz.
set -uo pipefail
L=/tmp/logs3; rm -rf $L; mkdir -p $L
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
for r in 1 2 3 4 5; do
  for v in base new; do
    [ $(( $(date +%s) - t0 )) -gt 380 ] && break 2
    timeout 100 /tmp/sp24-v-$v/build/sp24_bench --precision tf32 --m 8192,12288,16384 --n 1024,2048 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-tf32-$v.md
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call3.tgz -C $L .
