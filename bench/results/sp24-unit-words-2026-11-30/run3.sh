#!/usr/bin/env bash
# Call 3: a 16-bit C written 64 columns a pass, 16 bytes a lane, in whole 128-byte rows
# (new = this tree, e5a50fc) against 32 columns a pass, 8 bytes a lane (base = 2835ab5, whose
# kernel is e1bc7cd's; .devdata/sp24base = its git archive). Both trees built at once;
# gpu_sparse24 (all cases) on new; then tools/sp24_bench --ours-only for bf16 and fp16 at
# N <= 512 and at N = 4096, 8192 (M = K = 4096, 8192), the two variants in alternating order
# (base first in odd rounds, new first in even ones), rounds until about 330 s.
# Logs into $OUT/call3.tgz.
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
(cd /tmp/sp24-v-new && timeout 240 build/tests/gpu_sparse24 > $L/gpu_sparse24-new.log 2>&1)
echo "gpu_sparse24 new: rc $? $(tail -1 $L/gpu_sparse24-new.log) at $(( $(date +%s) - t0 )) s"
for r in 1 2 3 4 5 6 7 8 9 10; do
  order="base new"; [ $((r % 2)) = 0 ] && order="new base"
  for v in $order; do
    [ $(( $(date +%s) - t0 )) -gt 330 ] && break 2
    for p in bf16 fp16; do
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 64,128,512 --reps 20 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}small-$v.md
      timeout 60 /tmp/sp24-v-$v/build/sp24_bench --precision $p --m 4096,8192 --n 4096,8192 --reps 10 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/bench-r$r-${p}large-$v.md
    done
    echo "round $r $v done at $(( $(date +%s) - t0 )) s"
  done
done
tar czf $OUT/call3.tgz -C $L .
