#!/usr/bin/env bash
# Session 35 scratch: staged C stores for aligned row-major C too (TCSPMM_AB_STAGE_ALL=1)
# against float4 stores, at aligned N, in gpu_hrpb --time; gpu_hrpb under the env too.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j16 > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
TCSPMM_AB_STAGE_ALL=1 TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_hrpb > $OUT/gpu_hrpb-all.log 2>&1; echo "gpu_hrpb (stage all) rc $? $(tail -1 $OUT/gpu_hrpb-all.log)"
for round in 1 2; do
for v in vec all; do
  if [ $v = all ]; then export TCSPMM_AB_STAGE_ALL=1; else unset TCSPMM_AB_STAGE_ALL; fi
  TCSPMM_DATA=$PWD/data timeout 250 build/tests/gpu_hrpb --time --n ${NS:-16,32,64,128,256} $INPUTS > $OUT/time-$v-$round.log 2>&1
  echo "time $v round $round rc $? at $(( $(date +%s) - t0 )) s"
done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
