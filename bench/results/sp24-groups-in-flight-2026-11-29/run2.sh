#!/usr/bin/env bash
# Call 2: one wgmma group in flight only in the tiles that do not split K (256 x 128, 128 x 256
# and their pairs; call 1 had them everywhere, and the 128 x 128 and 128 x 64 tiles lost 2-5%),
# against base = 77ca230 (.devdata/sp24base). Both trees built at once; gpu_sparse24 on the new
# tree; then tools/sp24_bench at the large sizes (bf16, fp16, tf32) and at N = 512 (bf16,
# fp16), base and new in alternating processes, rounds until about 500 s. Logs into
# $OUT/call2.tgz.
set -uo pipefail
L=/tmp/logs2; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
for v in base new; do
  src=/tmp/sp24-v-$v; dir=.devdata/sp24base; [ $v = new ] && dir=-
  ab_variant_tree $src $dir
  (cd $src && B=$src/build OUT=$L/build-$v SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $L/build-$v.log 2>&1; echo "build $v rc $? at $(( $(date +%s) - t0 )) s") &
done
wait
timeout 200 /tmp/sp24-v-new/build/tests/gpu_sparse24 > $L/gpu_sparse24-new.log 2>&1
echo "gpu_sparse24 new: rc $? $(tail -1 $L/gpu_sparse24-new.log) at $(( $(date +%s) - t0 )) s"
for r in 1 2 3 4 5; do
  for v in base new; do
    [ $(( $(date +%s) - t0 )) -gt 490 ] && break 2
    for p in bf16 fp16 tf32; do
      timeout 100 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 4096,8192 --reps 10 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-${p}large-$v.md
    done
    for p in bf16 fp16; do
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 512 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-${p}512-$v.md
    done
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call2.tgz -C $L .
