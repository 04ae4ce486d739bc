#!/usr/bin/env bash
# Session 45, call B (same machine, after s45a.sh): old (a9492c2) against new
# (c331d41) sp24_bench in alternating processes, three rounds, bf16 and fp16,
# M = K = 8192, 16384, N = 4096, 8192.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for round in 1 2 3; do
  for p in bf16 fp16; do
    for v in old new; do
      [ $(( $(date +%s) - t0 )) -gt 520 ] && break 3
      bin=build/sp24_bench; [ $v = old ] && bin=build_old/sp24_bench
      timeout 40 $bin --precision $p --m 8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-$p-$v.md
      echo "round $round $p $v rc $? at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
