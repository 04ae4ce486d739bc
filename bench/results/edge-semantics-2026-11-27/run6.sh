#!/usr/bin/env bash
# Session 38, call 6: gpu_scale_only with the 0 x 29 matrix (plan creation on
# every path), and memcheck on it.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target gpu_scale_only > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data tests/gpu_scale_only) > $OUT/gpu_scale_only.log 2>&1
echo "gpu_scale_only: exit $? $(tail -1 $OUT/gpu_scale_only.log)"
grep -E '0 x 29|FAIL' $OUT/gpu_scale_only.log | head -20
(cd build && TCSPMM_DATA=$PWD/../data compute-sanitizer --tool memcheck --error-exitcode 9 tests/gpu_scale_only) > $OUT/memcheck-gpu_scale_only.log 2>&1
echo "memcheck: exit $? $(grep 'ERROR SUMMARY' $OUT/memcheck-gpu_scale_only.log)"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
