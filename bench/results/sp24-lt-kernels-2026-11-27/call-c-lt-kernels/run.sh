#!/usr/bin/env bash
# Session 46, call C: which kernels cuSPARSELt runs (names, grids, blocks,
# shared memory, clusters) against ours at fp16 4096 x 512 and 8192 x 128,
# bf16 4096 x 512: Nsight Compute's launch statistics of every kernel of
# one sp24_bench run (its search included).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
if [ ! -x build/sp24_bench ]; then
  B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || { tail -20 $OUT/sp24build.log; exit 1; }
fi
echo "built at $(( $(date +%s) - t0 )) s"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,launch__registers_per_thread,launch__cluster_dim_x,launch__cluster_dim_y
for pmn in "fp16 4096 512" "fp16 8192 128" "bf16 4096 512"; do
  set -- $pmn
  [ $(( $(date +%s) - t0 )) -gt 420 ] && break
  timeout 150 ncu --clock-control none -c 600 --metrics $M --csv --print-units base \
    build/sp24_bench --precision $1 --m $2 --n $3 --reps 1 --no-hrpb > $OUT/ncu-$1-$2-$3.csv 2> $OUT/ncu-$1-$2-$3.err
  echo "$pmn rc $? at $(( $(date +%s) - t0 )) s: $(wc -l < $OUT/ncu-$1-$2-$3.csv) lines"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
