#!/usr/bin/env bash
# Session 46, call D: our kernels' Nsight Compute times (L2 flushed, card's
# clock) at fp16 8192 x 128, 4096 x 512, 4096 x 128, 8192 x 512, to set
# beside cuSPARSELt's kernels of call C.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
if [ ! -x build/sp24_bench ]; then
  B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || { tail -20 $OUT/sp24build.log; exit 1; }
fi
echo "built at $(( $(date +%s) - t0 )) s"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum
for pmn in "fp16 8192 128" "fp16 4096 512" "fp16 4096 128" "fp16 8192 512" "bf16 8192 128"; do
  set -- $pmn
  timeout 100 ncu --clock-control none -k regex:sp24_wgmma -c 24 --metrics $M --csv --print-units base \
    build/sp24_bench --precision $1 --m $2 --n $3 --reps 2 --no-hrpb > $OUT/ncu-$1-$2-$3.csv 2> $OUT/ncu-$1-$2-$3.err
  echo "$pmn rc $? at $(( $(date +%s) - t0 )) s: $(wc -l < $OUT/ncu-$1-$2-$3.csv) lines"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
