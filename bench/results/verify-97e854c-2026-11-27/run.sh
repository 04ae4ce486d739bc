#!/usr/bin/env bash
# Session 41, call 6: gpu_hrpb's new FP32 stage test (the FP32 two-stage
# kernels forced; until now no test ran them: gpu_fp32's matrices are too
# small for two waves) on the sm_90 build, with memcheck and racecheck of
# gpu_hrpb --quick; then a compute_80 PTX build, JIT-compiled here, of
# gpu_fp32 and gpu_hrpb --quick: the pre-sm_90 branch of min_blocks_per_sm
# (FP32 one-warp two-stage blocks at most 20 per SM).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j10 --target gpu_hrpb > $OUT/build.log 2>&1; echo "sm_90 build: exit $?" >> $OUT/build.log) &
(cmake -S . -B build80 -DCMAKE_CUDA_ARCHITECTURES=80-virtual -DTCSPMM_GIT_COMMIT="${COMMIT:-}-ptx80" > $OUT/cfg80.log 2>&1 &&
  cmake --build build80 -j6 --target gpu_fp32 gpu_hrpb > $OUT/build80.log 2>&1; echo "compute_80 build: exit $?" >> $OUT/build80.log) &
wait
tail -1 $OUT/build.log; tail -1 $OUT/build80.log
echo "built in $(( $(date +%s) - t0 )) s"
TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_hrpb > $OUT/gpu_hrpb.log 2>&1
echo "gpu_hrpb (sm_90): exit $? $(tail -1 $OUT/gpu_hrpb.log) at $(( $(date +%s) - t0 )) s"
for tool in memcheck racecheck; do
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu_hrpb --quick > $OUT/$tool-gpu_hrpb.log 2>&1
  echo "$tool gpu_hrpb --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/$tool-gpu_hrpb.log | tail -1) $(grep -E 'passed' $OUT/$tool-gpu_hrpb.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
for t in gpu_fp32 gpu_hrpb; do
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/data timeout 300 build80/tests/$t $([ $t = gpu_hrpb ] && echo --quick) > $OUT/$t-ptx80.log 2>&1
  echo "$t (compute_80 PTX): exit $? $(tail -1 $OUT/$t-ptx80.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
