#!/usr/bin/env bash
# Session 39, call 4: the session's commits on the GPU. Build (sm_90), the
# README's run line on the GPU, ctest -L gpu (TCSPMM_REQUIRE_GPU=1; now with
# gpu_sparse24_small_device), memcheck on gpu_sparse24 --small in both modes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $OUT/readme-run.log | tail -2 | tr '\n' ' ')"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for mode in "" --small-device; do
  compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small $mode > $OUT/memcheck-gpu_sparse24$mode.log 2>&1
  echo "memcheck gpu_sparse24 --small $mode: exit $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_sparse24$mode.log | tail -1) $(grep -E 'passed' $OUT/memcheck-gpu_sparse24$mode.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
