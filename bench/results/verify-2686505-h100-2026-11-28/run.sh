#!/usr/bin/env bash
# (Archived copy: it ran with the probe at bench/results/l2-flush-dirty-2026-11-27/, since renamed -2026-11-28.)
# Session 46, verify call: 2686505 built (sm_90); README run line and cora
# (a pattern file: random values now); ctest -L gpu; memcheck of
# gpu_sparse24 --small; sp24_bench at each type on small sizes (its checks
# now poison C and set the exit status); the L2-flush probe.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
nvcc -O2 -arch=sm_90 bench/results/l2-flush-dirty-2026-11-28/l2_dirty_probe.cu -o /tmp/l2probe > $OUT/probe-build.log 2>&1 &
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait
echo "built in $(( $(date +%s) - t0 )) s"
/tmp/l2probe > $OUT/l2-probe.md 2>&1; echo "probe rc $?"; cat $OUT/l2-probe.md
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check' $OUT/readme-run.log | tail -1)"
./build/spmm_run data/cora.mtx --check --bench --reps 20 > $OUT/cora.log 2>&1
echo "cora: exit $? $(head -3 $OUT/cora.log | tr '\n' ' ')"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
cp build/Testing/Temporary/LastTest.log $OUT/ctest-last.log 2>/dev/null
grep -E "^[0-9]+ passed" $OUT/ctest-last.log | head -30 | tr '\n' ' '; echo
echo "ctest done at $(( $(date +%s) - t0 )) s"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $OUT/memcheck-gpu_sparse24.log 2>&1
echo "memcheck gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_sparse24.log | tail -1) at $(( $(date +%s) - t0 )) s"
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$OUT/sp24build bash tools/sp24_device.sh > $OUT/sp24build.log 2>&1 || tail -20 $OUT/sp24build.log
for p in bf16 fp16 tf32; do
  [ $(( $(date +%s) - t0 )) -gt 520 ] && break
  timeout 60 build/sp24_bench --precision $p --m 4096,8192 --n 64,512,4096 --reps 10 2>&1 | grep -v workspace > $OUT/bench-$p.md
  echo "sp24_bench $p rc ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
