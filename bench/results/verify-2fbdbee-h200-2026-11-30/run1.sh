#!/usr/bin/env bash
# Call 1 of session 67: 2fbdbee (everything since 8775d01, none of which had run on a GPU) built
# for sm_90: the README's run line, ctest -L gpu, and beside it compute-sanitizer memcheck and
# racecheck on small cases, one after another until 400 s; and, for call 2, the two variants
# of the evict-first A/B (base: the tree; ef16: ef16.patch of sp24-stage-order-2026-11-30 laid
# over it from .devdata/ef16) built by tools/sp24_ab.sh with ROUNDS=0, gpu_sparse24 --small on
# each. Logs into $OUT/call1.tgz.
set -uo pipefail
L=/tmp/logs1; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
late() { [ $(( $(date +%s) - t0 )) -gt $1 ]; }
save() { tar czf $OUT/call1.tgz -C $L .; }
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $L/cfg.log 2>&1 &&
  cmake --build build -j16 > $L/build.log 2>&1 || { tail -30 $L/build.log; save; exit 1; }
echo "tree built $(at)"
(VARIANTS="base:- ef16:.devdata/ef16" TEST_ARGS=--small ROUNDS=0 OUT=$L/ab bash tools/sp24_ab.sh > $L/ab.log 2>&1
 echo "A/B variants: $(grep -E 'rc|failed' $L/ab.log | tr '\n' ' ') $(at)") &
./build/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check' $L/readme-run.log | tail -1)"
(for t in "memcheck gpu_sparse24 --small" "memcheck gpu_hrpb --quick" "racecheck gpu_hrpb --quick" \
          "memcheck gpu_device_input" "memcheck gpu_set_values" "memcheck gpu_csr_transpose" \
          "memcheck gpu_fp32 --quick" "racecheck gpu_sparse24 --small" "memcheck gpu_devices" \
          "memcheck gpu_cusparse_values" "memcheck gpu_graph"; do
   late 400 && { echo "sanitizers: stopped before $t $(at)"; break; }
   set -- $t; log=$L/san-$1-$2.log
   timeout 150 compute-sanitizer --tool $1 --error-exitcode 9 build/tests/$2 ${3:-} > $log 2>&1
   echo "$t: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1) $(at)"
 done) > $L/sanitizers.txt 2>&1 &
(cd build && TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest -L gpu -j4 --output-on-failure --timeout 300) > $L/ctest.log 2>&1
echo "ctest -L gpu: exit $? $(at)"
grep -E "tests passed|tests failed|\(Failed\)|Timeout" $L/ctest.log | tail -8
cp build/Testing/Temporary/LastTest.log $L/ctest-last.log 2>/dev/null
save
wait
cat $L/sanitizers.txt
save
