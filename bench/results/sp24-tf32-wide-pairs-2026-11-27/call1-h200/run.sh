#!/usr/bin/env bash
# Session 44, call 1: the working tree (8b0898d + land.patch: tf32 in pairs
# of 128 x 256 tiles) on the GPU: build, README run line, ctest -L gpu,
# memcheck of gpu_sparse24 --small; then tf32 A/B against 8b0898d's kernel
# (overlay .devdata/v44-old) at M = K = 4096..16384, N = 4096, 8192,
# alternating processes, two rounds.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree /tmp/old .devdata/v44-old
(cd /tmp/old && B=/tmp/old/build OUT=$OUT/oldbuild SP24_BUILD_ONLY=1 bash tools/sp24_device.sh) > $OUT/oldbuild.log 2>&1 &
oldpid=$!
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $OUT/readme-run.log | tail -2 | tr '\n' ' ')"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
grep -E "passed|failed" build/Testing/Temporary/LastTest.log 2>/dev/null | grep -i sparse24 | tail -2
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/memcheck-gpu_sparse24.log 2>&1
echo "memcheck gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_sparse24.log | tail -1) at $(( $(date +%s) - t0 )) s"
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || tail -20 $OUT/sp24build.log
wait $oldpid; echo "old build rc $?; sp24_bench built at $(( $(date +%s) - t0 )) s; $(grep -o 'cuSPARSELt: .*' $OUT/sp24build.log | head -1)"
for round in 1 2; do
  for v in old new; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && break 2
    bin=build/sp24_bench; [ $v = old ] && bin=/tmp/old/build/sp24_bench
    timeout 60 $bin --precision tf32 --m 4096,8192,16384 --n 4096,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace > $OUT/bench-r$round-tf32-$v.md
    echo "round $round tf32 $v rc $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
