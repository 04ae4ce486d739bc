#!/usr/bin/env bash
# Call 5 of session 67: COMMIT (tcspmm_plan_destroy leaves a pending CUDA error; the padding
# checks of gpu_cusparse and gpu_graph) built for sm_90: ctest -L gpu; beside it, a second tree
# with 2fbdbee's src/plan.c laid over (.devdata/oldplan) builds gpu_pending_error alone, which
# must fail there (the old destroy clears the caller's error); then memcheck of
# gpu_pending_error (--report-api-errors no: its failed cudaMalloc calls are meant), gpu_graph
# and gpu_cusparse. Logs into $OUT/call5.tgz.
set -uo pipefail
L=/tmp/logs5; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
save() { tar czf $OUT/call5.tgz -C $L .; }
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $L/cfg.log 2>&1 &&
  cmake --build build -j16 > $L/build.log 2>&1 || { tail -30 $L/build.log; save; exit 1; }
echo "tree built $(at)"
(ab_variant_tree /tmp/oldplan .devdata/oldplan && cd /tmp/oldplan &&
   cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $L/cfg-old.log 2>&1 &&
   cmake --build build -j8 --target gpu_pending_error > $L/build-old.log 2>&1
 echo "old plan.c built: rc $? $(at)") &
(cd build && TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest -L gpu -j4 --output-on-failure --timeout 300) > $L/ctest.log 2>&1
echo "ctest -L gpu: exit $? $(at)"
grep -E "tests passed|tests failed|\(Failed\)|Timeout" $L/ctest.log | tail -8
cp build/Testing/Temporary/LastTest.log $L/ctest-last.log 2>/dev/null
save
wait
timeout 60 /tmp/oldplan/build/tests/gpu_pending_error > $L/old-gpu_pending_error.log 2>&1
echo "gpu_pending_error with 2fbdbee's plan.c: rc $? $(tail -1 $L/old-gpu_pending_error.log)"
for t in "gpu_pending_error --report-api-errors no" gpu_graph gpu_cusparse; do
  set -- $t
  timeout 150 compute-sanitizer --tool memcheck "${@:2}" --error-exitcode 9 build/tests/$1 > $L/san-memcheck-$1.log 2>&1
  echo "memcheck $1: rc $? $(grep -E 'ERROR SUMMARY' $L/san-memcheck-$1.log | tail -1) $(at)"
done
save
