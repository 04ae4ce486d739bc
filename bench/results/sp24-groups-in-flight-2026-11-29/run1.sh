#!/usr/bin/env bash
# Call 1: the structured kernel's consumers keep one wgmma group in flight (wait_group 1, the
# metadata words held live until their group retires) against base = 77ca230, which waits for
# each stage's group (.devdata/sp24base = its git archive without bench/results). Both trees
# built at once; gpu_sparse24 on the new tree; then tools/sp24_bench at N <= 512 (fp16, bf16)
# and at N = 4096 (fp16, tf32), base and new in alternating processes, rounds until about
# 520 s. Logs into $OUT/call1.tgz.
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
timeout 200 /tmp/sp24-v-new/build/tests/gpu_sparse24 > $L/gpu_sparse24-new.log 2>&1
echo "gpu_sparse24 new: rc $? $(tail -1 $L/gpu_sparse24-new.log) at $(( $(date +%s) - t0 )) s"
for r in 1 2 3 4 5 6; do
  for p in fp16 bf16 big; do
    for v in base new; do
      [ $(( $(date +%s) - t0 )) -gt 520 ] && break 3
      if [ $p = big ]; then
        for q in fp16 tf32; do
          timeout 80 /tmp/sp24-v-$v/build/sp24_bench --precision $q --m 4096,8192 --n 4096 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-${q}big-$v.md
        done
      else
        timeout 80 /tmp/sp24-v-$v/build/sp24_bench --precision $p --n 64,128,512 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-r$r-$p-$v.md
      fi
      echo "round $r $p $v done at $(( $(date +%s) - t0 )) s"
    done
  done
done
tar czf $OUT/call1.tgz -C $L .
