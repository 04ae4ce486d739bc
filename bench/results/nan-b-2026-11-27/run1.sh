#!/usr/bin/env bash
# Session 37 scratch: the tree (NaN-safe TF32 rounding of B, other-device pointers refused,
# gpu_nan_b) built whole, and beside it the tree with the old hrpb_tf32.cu (.devdata/base);
# ctest -L gpu on the tree; gpu_nan_b on the old kernel (must fail); then HRPB at N = 32, 128
# on .devdata/ho, old and new kernels in alternate processes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree build-old/src .devdata/base
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j10 > $OUT/build.log 2>&1) &
(cmake -S build-old/src -B build-old/b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}-old" > $OUT/cfg-old.log 2>&1 && cmake --build build-old/b -j6 --target spmm_run gpu_nan_b > $OUT/build-old.log 2>&1) &
wait
[ -x build/tests/gpu_nan_b ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
if [ "${TESTS:-1}" = 1 ]; then
  (cd build && TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
  grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
  echo "ctest done at $(( $(date +%s) - t0 )) s"
  build/tests/gpu_nan_b > $OUT/gpu_nan_b.log 2>&1; echo "gpu_nan_b: exit $? $(tail -1 $OUT/gpu_nan_b.log)"
  build-old/b/tests/gpu_nan_b > $OUT/gpu_nan_b-old.log 2>&1; echo "gpu_nan_b, old kernel: exit $? $(tail -1 $OUT/gpu_nan_b-old.log) (non-zero wanted)"
  compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_nan_b > $OUT/san-gpu_nan_b.log 2>&1
  echo "memcheck gpu_nan_b: exit $? $(grep -E 'ERROR SUMMARY' $OUT/san-gpu_nan_b.log | tail -1)"
fi
NS=${NS:-32,128}; INPUTS=${INPUTS:-.devdata/ho}
for n in ${NS//,/ }; do
  for v in old new; do
    exe=build/spmm_run; [ $v = old ] && exe=build-old/b/spmm_run
    python3 tools/sweep.py run --spmm-run $exe --out $OUT/sw-$v-n$n --n $n --reps ${REPS:-20} \
      --extra="--path hrpb ${EXTRA:-}" $INPUTS > $OUT/sw-$v-n$n.log 2>&1
    echo "sweep $v N=$n: $(tail -1 $OUT/sw-$v-n$n.log) at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
