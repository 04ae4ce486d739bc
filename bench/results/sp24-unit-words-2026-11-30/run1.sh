#!/usr/bin/env bash
# Call 1: the structured kernel with its two sets of metadata words declared in the unit
# loop (new = this tree; ba8dfe9 declared them before it, and they spilled), and a variant
# of new whose waiting tiles (128 x 128, 128 x 64) also run two stages a pass with the odd
# one after the loop (uni = .devdata/sp24uni laid over this tree: e1bc7cd's sp24_wgmma.cu
# with uni.patch applied), against
# base = b122688 (.devdata/sp24base = its git archive). The three trees built at once;
# gpu_sparse24 --small on new and uni; then tools/sp24_bench --ours-only at N <= 512 and at
# N = 4096, 8192 (bf16, fp16, tf32), the variants in turn, in rounds until about 360 s
# (M = K = 4096, 8192 only at the large N). Logs into $OUT/call1.tgz.
set -uo pipefail
L=/tmp/logs1; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
for v in base new uni; do
  src=/tmp/sp24-v-$v; dir=-
  [ $v = base ] && dir=.devdata/sp24base; [ $v = uni ] && dir=.devdata/sp24uni
  ab_variant_tree $src $dir
  (cd $src && B=$src/build OUT=$L/build-$v SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $L/build-$v.log 2>&1; echo "build $v rc $? at $(( $(date +%s) - t0 )) s") &
done
wait
for v in new uni; do
  timeout 100 /tmp/sp24-v-$v/build/tests/gpu_sparse24 --small > $L/gpu_sparse24-small-$v.log 2>&1
  echo "gpu_sparse24 --small $v: rc $? $(tail -1 $L/gpu_sparse24-small-$v.log) at $(( $(date +%s) - t0 )) s"
done
for r in 1 2 3 4 5 6 7 8; do
  for v in base new uni; do
    [ $(( $(date +%s) - t0 )) -gt 360 ] && break 2
    for p in bf16 fp16 tf32; do
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 64,128,512 --reps 20 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}small-$v.md
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --m 4096,8192 --n 4096,8192 --reps 10 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}large-$v.md
    done
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call1.tgz -C $L .
