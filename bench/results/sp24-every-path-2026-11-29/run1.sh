#!/usr/bin/env bash
# Call 1: the structured kernel with the same waits on every path (a unit's first stage waits
# too; the odd stage after the two-stage loop; both sets of words held through the last wait;
# the waiting tiles' loop back to one step a pass, without the extra wait after it) against
# base = 250826f (.devdata/sp24base = its git archive). Both trees built at once;
# gpu_sparse24 --small on the new tree; then tools/sp24_bench --ours-only at N <= 512 and at
# N = 4096, 8192 (bf16, fp16, tf32), base and new in alternating processes, rounds until
# about 530 s. Logs into $OUT/call1.tgz.
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
timeout 100 /tmp/sp24-v-new/build/tests/gpu_sparse24 --small > $L/gpu_sparse24-small-new.log 2>&1
echo "gpu_sparse24 --small new: rc $? $(tail -1 $L/gpu_sparse24-small-new.log) at $(( $(date +%s) - t0 )) s"
for r in 1 2 3 4 5 6 7 8; do
  for v in base new; do
    [ $(( $(date +%s) - t0 )) -gt 530 ] && break 2
    for p in bf16 fp16 tf32; do
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 64,128,512 --reps 20 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}small-$v.md
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 4096,8192 --reps 10 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}large-$v.md
    done
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call1.tgz -C $L .
