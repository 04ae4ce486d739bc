#!/usr/bin/env bash
# Session 44, call 2: tf32 pairs of 128 x 256 tiles on an H100: builds of the
# working tree and of 8b0898d's kernel (overlay .devdata/v44-old) in
# parallel, gpu_sparse24 on the new one, then tf32 at M = K = 4096..16384,
# N = 4096, 8192 in alternating processes, three rounds.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree /tmp/old .devdata/v44-old
(cd /tmp/old && B=/tmp/old/build OUT=$OUT/oldbuild SP24_BUILD_ONLY=1 bash tools/sp24_device.sh) > $OUT/oldbuild.log 2>&1 &
oldpid=$!
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait $oldpid; echo "built (old rc $?) in $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/build.log | head -1)"
TCSPMM_DATA=$PWD/data timeout 200 /tmp/b/tests/gpu_sparse24 > $OUT/gpu_sparse24.log 2>&1
echo "gpu_sparse24: rc $? $(tail -1 $OUT/gpu_sparse24.log) at $(( $(date +%s) - t0 )) s"
for round in 1 2 3; do
  for v in old new; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && break 2
    bin=/tmp/b/sp24_bench; [ $v = old ] && bin=/tmp/old/build/sp24_bench
    timeout 60 $bin --precision tf32 --m 4096,8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-tf32-$v.md
    echo "round $round tf32 $v rc $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
