#!/usr/bin/env bash
# Call 3 of session 67, on a fresh machine: 2fbdbee built for sm_90 (and tools/sp24_bench with
# cuSPARSELt, as tools/sp24_device.sh builds it); compute-sanitizer memcheck of gpu_set_values
# alone (call 1's, run beside ctest's gpu_oom, reported 12 out-of-memory API errors); then
# issue 5's tables (fp16, bf16, tf32; one process each, contenders in random turns), nothing
# else on the GPU. Logs into $OUT/call3.tgz.
set -uo pipefail
L=/tmp/logs3; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
save() { tar czf $OUT/call3.tgz -C $L .; }
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $L/cfg.log 2>&1 &&
  cmake --build build -j16 > $L/build.log 2>&1 || { tail -30 $L/build.log; save; exit 1; }
echo "tree built $(at)"
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$L/sp24build bash tools/sp24_device.sh > $L/sp24build.log 2>&1 ||
  { tail -20 $L/sp24build.log; save; exit 1; }
echo "sp24_bench built $(at)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_set_values > $L/san-memcheck-gpu_set_values.log 2>&1
echo "memcheck gpu_set_values alone: rc $? $(grep -E 'ERROR SUMMARY' $L/san-memcheck-gpu_set_values.log | tail -1) $(at)"
save
for p in fp16 bf16 tf32; do
  timeout 90 build/sp24_bench --precision $p --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-$p.md
  echo "bench $p rc $? $(at)"; save
done
