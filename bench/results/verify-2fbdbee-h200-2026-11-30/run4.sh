#!/usr/bin/env bash
# Call 4 of session 67: where our fp16 kernel stalls at the two sizes it trails cuSPARSELt by
# most (4096 x 512: one wave of 128 x 128 tiles; 8192 x 512: 128 x 256 tiles). Build
# (tools/sp24_device.sh, build only), then Nsight Compute on the first wgmma.sp launch of
# sp24_bench --ours-only (16-bit B, float C) at the card's clock: speed of light, warp states,
# source counters; each report exported as its details page and its SASS source page (stall
# samples per instruction). Logs into $OUT/call4.tgz.
set -uo pipefail
L=/tmp/logs4; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$L/sp24build bash tools/sp24_device.sh > $L/sp24build.log 2>&1 ||
  { tail -20 $L/sp24build.log; exit 1; }
echo "built $(at)"
for mn in "4096 512" "8192 512"; do
  set -- $mn; r=$L/fp16-$1-$2
  timeout 150 ncu --clock-control none -k regex:sp24_wgmma -c 1 --section SpeedOfLight \
    --section WarpStateStats --section SourceCounters --section LaunchStats -o $r -f \
    build/sp24_bench --precision fp16 --m $1 --n $2 --reps 2 --no-hrpb --ours-only > $r.log 2>&1
  echo "fp16 $1 x $2: rc $? $(at)"
  ncu --import $r.ncu-rep --page details --csv --print-units base > $r-details.csv 2>&1
  ncu --import $r.ncu-rep --page source --csv --print-source sass > $r-sass.csv 2>&1
  echo "exported: $(wc -l < $r-details.csv) and $(wc -l < $r-sass.csv) lines"
done
tar czf $OUT/call4.tgz -C $L .
