#!/usr/bin/env bash
# Session 42, call 1: 5c07460 (4fda609's gpu_hrpb helpers, fe0d667's gpu_fp32
# tolerance: never run on a GPU). Build (sm_90), the README's run line,
# ctest -L gpu, memcheck and racecheck of gpu_hrpb --quick, memcheck of
# gpu_fp32 --quick; then tf32 4096^2 structured baseline (sp24_bench).
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
for spec in memcheck:gpu_hrpb racecheck:gpu_hrpb memcheck:gpu_fp32; do
  tool=${spec%%:*} t=${spec#*:}
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t --quick > $OUT/$tool-$t.log 2>&1
  echo "$tool $t --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/$tool-$t.log | tail -1) $(grep -E 'passed' $OUT/$tool-$t.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
