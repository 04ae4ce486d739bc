#!/usr/bin/env bash
# Session 39, call 1: 6f832ef on the GPU. Build sm_90 and, beside it, a
# compute_80 PTX build (JIT here: the cvt.rna branch of tf32_round.h and the
# mma.sp warp kernel); ctest -L gpu (TCSPMM_REQUIRE_GPU=1); gpu_nan_b,
# gpu_sparse24 and gpu_hrpb from the PTX build; memcheck on gpu_nan_b.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j12 > $OUT/build.log 2>&1) &
(cmake -S . -B build80 -DCMAKE_CUDA_ARCHITECTURES=80-virtual -DTCSPMM_GIT_COMMIT="${COMMIT:-}-ptx80" > $OUT/cfg80.log 2>&1 && cmake --build build80 -j4 --target gpu_nan_b gpu_sparse24 gpu_hrpb > $OUT/build80.log 2>&1) &
wait
[ -x build/tests/gpu_scale_only ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for t in gpu_nan_b gpu_sparse24 gpu_hrpb; do
  [ -x build80/tests/$t ] || { echo "no build80/tests/$t"; tail -5 $OUT/build80.log; continue; }
  (TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/data build80/tests/$t) > $OUT/$t-ptx80.log 2>&1
  echo "$t (compute_80 PTX): exit $? $(tail -1 $OUT/$t-ptx80.log) at $(( $(date +%s) - t0 )) s"
done
compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_nan_b > $OUT/memcheck-gpu_nan_b.log 2>&1
echo "memcheck gpu_nan_b: exit $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_nan_b.log | tail -1) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
