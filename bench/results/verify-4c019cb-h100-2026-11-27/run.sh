#!/usr/bin/env bash
# Session 44, call 4: the final commit on an H100: build (sm_90), README run line,
# ctest -L gpu, memcheck of gpu_sparse24 --small; the structured
# benchmark's tables in random turns (one process per type).
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
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/memcheck-gpu_sparse24.log 2>&1
echo "memcheck gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_sparse24.log | tail -1) at $(( $(date +%s) - t0 )) s"
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || tail -20 $OUT/sp24build.log
echo "sp24_bench built at $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/sp24build.log | head -1)"
for p in bf16 fp16 tf32; do
  [ $(( $(date +%s) - t0 )) -gt 470 ] && break
  timeout 90 build/sp24_bench --precision $p --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-$p.md
  echo "bench $p rc $? at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
