#!/usr/bin/env bash
# Session 38, call 2: build the tree (sm_90) and, beside it, the tree with
# a5714ce's TF32 rounding (.devdata/v38-oldnan) for compute_80 PTX and for
# sm_90, each with the new gpu_nan_b; ctest on the GPU tests this session
# changed and those that use clustered rows (TCSPMM_REQUIRE_GPU=1); the old
# rounding through gpu_nan_b; then HRPB and auto at N = 128 over INPUTS.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree old/src .devdata/v38-oldnan
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j9 > $OUT/build.log 2>&1) &
(cmake -S old/src -B old/b80 -DCMAKE_CUDA_ARCHITECTURES=80-virtual > $OUT/cfg-old80.log 2>&1 && cmake --build old/b80 -j4 --target gpu_nan_b > $OUT/build-old80.log 2>&1) &
(cmake -S old/src -B old/b90 -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-old90.log 2>&1 && cmake --build old/b90 -j3 --target gpu_nan_b > $OUT/build-old90.log 2>&1) &
wait
[ -x build/spmm_run ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -j4 --output-on-failure --timeout 300 \
  -R "^(gpu_cusparse|gpu_scale_only|gpu_nan_b|gpu_device_input|gpu_graph|gpu_set_values|gpu_hrpb)$") > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for v in old80 old90; do
  old/b${v#old}/tests/gpu_nan_b > $OUT/gpu_nan_b-$v.log 2>&1; echo "gpu_nan_b, a5714ce's rounding, $v: exit $? $(tail -1 $OUT/gpu_nan_b-$v.log)"
done
for s in hrpb auto; do
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/$s --n 128 --reps 50 --extra="--path $s" ${INPUTS:-.devdata/ss} > $OUT/$s.log 2>&1
  echo "sweep $s: $(tail -1 $OUT/$s.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
