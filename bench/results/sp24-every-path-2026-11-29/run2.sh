#!/usr/bin/env bash
# Call 2: as call 1 (run1.sh), with the waiting tiles (128 x 128, 128 x 64) back to two stages a
# pass (call 1: one stage a pass was 0.97x-0.98x as fast at 16-bit 4096 x 512 and fp16 8192 x 128);
# the tiles that keep a group in flight as in call 1; against
# base = 250826f (.devdata/sp24base = its git archive). Both trees built at once;
# gpu_sparse24 --small on the new tree; then tools/sp24_bench --ours-only at N <= 512 and at
# N = 4096, 8192 (bf16, fp16, tf32), base and new in alternating processes, rounds until
# about 330 s (M = K = 4096, 8192 only at the large N). Logs into $OUT/call2.tgz.
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
timeout 100 /tmp/sp24-v-new/build/tests/gpu_sparse24 --small > $L/gpu_sparse24-small-new.log 2>&1
echo "gpu_sparse24 --small new: rc $? $(tail -1 $L/gpu_sparse24-small-new.log) at $(( $(date +%s) - t0 )) s"
for r in 1 2 3 4 5 6 7 8; do
  for v in base new; do
    [ $(( $(date +%s) - t0 )) -gt 330 ] && break 2
    for p in bf16 fp16 tf32; do
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 64,128,512 --reps 20 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}small-$v.md
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --m 4096,8192 --n 4096,8192 --reps 10 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}large-$v.md
    done
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call2.tgz -C $L .
