#!/usr/bin/env bash
# Call 4: b7e6c2e (the kernel of e1bc7cd) built for sm_90: the README's run line, ctest -L gpu, compute-sanitizer
# memcheck and racecheck of gpu_sparse24 --small beside ctest, until 580 s.
# Logs into $OUT/call4.tgz.
set -uo pipefail
L=/tmp/logs4; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $L/cfg.log 2>&1 &&
  cmake --build build -j16 > $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
./build/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $L/readme-run.log | tail -2 | tr '\n' ' ')"
for tool in memcheck racecheck; do  # beside ctest: all of them check, none times
  (timeout $(( 580 - ($(date +%s) - t0) )) compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu_sparse24 --small > $L/$tool-gpu_sparse24.log 2>&1
   echo "$tool gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-gpu_sparse24.log | tail -1) at $(( $(date +%s) - t0 )) s") &
done
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $L/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $L/ctest.log | tail -8
cp build/Testing/Temporary/LastTest.log $L/ctest-last.log 2>/dev/null
echo "ctest done at $(( $(date +%s) - t0 )) s"
wait
tar czf $OUT/call4.tgz -C $L .
