#!/usr/bin/env bash
# Call 2: why ours with a 16-bit C is slower than with a float C at one wave of 128 x 128
# tiles (fp16 4096 x 512: 0.0269 against 0.0256 ms at ba8dfe9; fp16 8192 x 128 0.0378 against
# 0.0370). Build (tools/sp24_device.sh, build only), then Nsight Compute on sp24_bench
# --ours-only at those two sizes: the first 9 wgmma.sp launches (16-bit B with float C,
# 16-bit B and C, fp32 B), speed of light, warp states, scheduler, memory sections, card's
# clock. Logs into $OUT/call2.tgz.
set -uo pipefail
L=/tmp/logs2; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$L/sp24build bash tools/sp24_device.sh > $L/sp24build.log 2>&1 || { tail -20 $L/sp24build.log; exit 1; }
echo "built at $(( $(date +%s) - t0 )) s"
for pmn in "fp16 4096 512" "fp16 8192 128"; do
  set -- $pmn
  timeout 150 ncu --clock-control none -k regex:sp24_wgmma -c 9 --section SpeedOfLight \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section LaunchStats --csv --print-units base \
    build/sp24_bench --precision $1 --m $2 --n $3 --reps 2 --no-hrpb --ours-only \
    > $L/ncu-$1-$2-$3.csv 2> $L/ncu-$1-$2-$3.err
  echo "$pmn rc $? at $(( $(date +%s) - t0 )) s: $(wc -l < $L/ncu-$1-$2-$3.csv) lines"
done
tar czf $OUT/call2.tgz -C $L .
