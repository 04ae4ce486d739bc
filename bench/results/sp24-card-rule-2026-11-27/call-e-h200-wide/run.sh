#!/usr/bin/env bash
# Session 45, call E (H200): bf16 and fp16 128 x 256 tiles above 2^37 on a
# card of rich DRAM (working tree, "new") against c331d41 (256 x 128 tiles
# above 2^37 on every card, "old", overlay .devdata/v45-c331), alternating
# processes, three rounds, M = K = 8192, 16384, N = 4096, 8192.
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi --query-gpu=name --format=csv,noheader; echo "not an H200: stop"; exit 3; }
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree $PWD/build_oldtree .devdata/v45-c331
(cd build_oldtree && B=$PWD/../build_old SP24_BUILD_ONLY=1 OUT=$OUT/oldbuild bash tools/sp24_device.sh > $OUT/oldbuild.log 2>&1; echo "old rc $? at $(( $(date +%s) - t0 )) s") &
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/newbuild bash tools/sp24_device.sh > $OUT/newbuild.log 2>&1; echo "new rc $? at $(( $(date +%s) - t0 )) s"
wait
for round in 1 2 3; do
  for p in bf16 fp16; do
    for v in old new; do
      [ $(( $(date +%s) - t0 )) -gt 540 ] && break 3
      bin=build/sp24_bench; [ $v = old ] && bin=build_old/sp24_bench
      timeout 40 $bin --precision $p --m 8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-$v.md
      echo "round $round $p $v rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
