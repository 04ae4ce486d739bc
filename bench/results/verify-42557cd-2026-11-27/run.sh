#!/usr/bin/env bash
# Session 42, call 6: the session's last commit on the GPU. Build (sm_90),
# the README's run line, ctest -L gpu, memcheck and racecheck of gpu_hrpb
# --quick, memcheck of gpu_fp32 --quick and of spmm_run --bench (the timing
# in turns, the cuSPARSE algorithms); then a third run of the structured
# benchmark in random turns at N = 512, 4096, 8192 (bf16, fp16).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/sp24-build bash tools/sp24_device.sh > $OUT/sp24-build.log 2>&1) &
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
compute-sanitizer --tool memcheck --error-exitcode 9 build/spmm_run data/ted_B.mtx.gz --n 32 --bench --reps 5 --json > $OUT/memcheck-spmm_run-bench.log 2>&1
echo "memcheck spmm_run --bench: exit $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-spmm_run-bench.log | tail -1) at $(( $(date +%s) - t0 )) s"
wait
for p in bf16 fp16; do
  [ $(( $(date +%s) - t0 )) -gt 500 ] && break
  timeout 60 /tmp/b/sp24_bench --precision $p --n 512,4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace >> $OUT/sp24-random-run3.md
done
echo "sp24 done at $(( $(date +%s) - t0 )) s"; grep -c "^| [bf]" $OUT/sp24-random-run3.md
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
