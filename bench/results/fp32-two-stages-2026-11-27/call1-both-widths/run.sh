#!/usr/bin/env bash
# Session 41, call 1 (run at 7e3e7ff). (1) HEAD's gpu_scale_only (b180148 changed it; not yet
# run on a GPU). (2) FP32 mode with two copy stages where a launch makes two
# waves of three-stage blocks, as TF32 has (overlay .devdata/v40-fp32shallow:
# has_shallow for SPLIT with 2 and 4 warps; __launch_bounds__ minimum 7 blocks
# (four warps) and 11 (two warps)). Same-call A/B against the tree, FP32 at
# N = 64, 128, 512, 12 matrices; then gpu_fp32 on the variant's tree.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base32:-:--precision+fp32 shallow32:.devdata/v40-fp32shallow:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 64,128,512 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
B=/tmp/v-_
(cd $B && cmake --build build -j16 --target gpu_scale_only > $OUT/build-gpu_scale_only.log 2>&1 &&
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$B/data timeout 200 build/tests/gpu_scale_only > $OUT/gpu_scale_only.log 2>&1)
echo "gpu_scale_only (HEAD): exit $? $(tail -1 $OUT/gpu_scale_only.log) at $(( $(date +%s) - t0 )) s"
V=/tmp/v-_devdata_v40_fp32shallow
(cd $V && cmake --build build -j16 --target gpu_fp32 > $OUT/build-gpu_fp32.log 2>&1 &&
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$V/data timeout 200 build/tests/gpu_fp32 > $OUT/gpu_fp32.log 2>&1)
echo "gpu_fp32 (shallow): exit $? $(tail -1 $OUT/gpu_fp32.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
