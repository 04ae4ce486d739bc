#!/usr/bin/env bash
# Session 38, call 3: build the tree (sm_90) and, beside it, a5714ce's TF32
# rounding (.devdata/v38-oldnan, gpu_nan_b for compute_80 PTX and sm_90) and
# a5714ce's row_order.c (.devdata/v38-oldro, spmm_run); ctest -L gpu
# (TCSPMM_REQUIRE_GPU=1); the old rounding through the new gpu_nan_b; HRPB
# and auto at N = 32, 128, 512 over INPUTS; clustered plans old/new at N = 128.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree old/src .devdata/v38-oldnan
ab_variant_tree oldro/src .devdata/v38-oldro
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j8 > $OUT/build.log 2>&1) &
(cmake -S old/src -B old/b80 -DCMAKE_CUDA_ARCHITECTURES=80-virtual > $OUT/cfg-old80.log 2>&1 && cmake --build old/b80 -j3 --target gpu_nan_b > $OUT/build-old80.log 2>&1) &
(cmake -S old/src -B old/b90 -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-old90.log 2>&1 && cmake --build old/b90 -j2 --target gpu_nan_b > $OUT/build-old90.log 2>&1) &
(cmake -S oldro/src -B oldro/b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}-oldro" > $OUT/cfg-oldro.log 2>&1 && cmake --build oldro/b -j3 --target spmm_run > $OUT/build-oldro.log 2>&1) &
wait
[ -x build/spmm_run ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for v in 80 90; do
  old/b$v/tests/gpu_nan_b > $OUT/gpu_nan_b-old$v.log 2>&1; echo "gpu_nan_b, a5714ce's rounding, $v: exit $? $(tail -1 $OUT/gpu_nan_b-old$v.log)"
done
INPUTS=${INPUTS:-.devdata/ho}
for s in hrpb auto; do
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/$s --n 32,128,512 --reps 50 --extra="--path $s" $INPUTS > $OUT/$s.log 2>&1
  echo "sweep $s: $(tail -1 $OUT/$s.log) at $(( $(date +%s) - t0 )) s"
done
if [ "${CLUSTERED:-1}" = 1 ]; then
  for v in old new; do
    b=build/spmm_run; [ $v = old ] && b=oldro/b/spmm_run
    python3 tools/sweep.py run --spmm-run $b --out $OUT/clustered-$v --n 128 --reps 20 --extra="--path hrpb --row-order clustered" $INPUTS > $OUT/clustered-$v.log 2>&1
    echo "clustered $v: $(tail -1 $OUT/clustered-$v.log) at $(( $(date +%s) - t0 )) s"
  done
fi
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
