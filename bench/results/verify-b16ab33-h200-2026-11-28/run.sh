#!/usr/bin/env bash
# Session 47, verify call: HEAD built (sm_90); the README's run line;
# ctest -L gpu (helper-38's tightened tests among them); memcheck of
# gpu_sparse24 --small.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check' $OUT/readme-run.log | tail -1)"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)|Passed|Failed" $OUT/ctest.log | tail -24
cp build/Testing/Temporary/LastTest.log $OUT/ctest-last.log 2>/dev/null
echo "ctest done at $(( $(date +%s) - t0 )) s"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/memcheck-gpu_sparse24.log 2>&1
echo "memcheck gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_sparse24.log | tail -1) at $(( $(date +%s) - t0 )) s"
gzip -f $OUT/ctest-last.log
