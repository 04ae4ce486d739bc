#!/usr/bin/env bash
# Call 3: 6d2ee83 (C written evict first, c_store.h) built for sm_90: the README's run line,
# ctest -L gpu, compute-sanitizer memcheck of gpu_sparse24 --small beside ctest (racecheck not
# run: the change is to global stores only). Beside the tree's build, call 4's variants are
# built in /tmp: base (.devdata/sp24base, git archive of 2835ab5: plain C stores; spmm_run and
# sp24_bench) and hcs (the tree with HRPB's float C also written evict first, hcs.patch;
# spmm_run). Logs into $OUT/call3.tgz.
set -uo pipefail
L=/tmp/logs3; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
for v in base hcs; do
  dir=.devdata/sp24base; [ $v = hcs ] && dir=.devdata/hcs
  ab_variant_tree /tmp/v-$v $dir
  (cd /tmp/v-$v && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $L/cfg-$v.log 2>&1 &&
     cmake --build build -j6 --target spmm_run > $L/build-$v.log 2>&1 &&
     { [ $v = hcs ] || B=/tmp/v-$v/build SP24_BUILD_ONLY=1 OUT=$L/sp24build-$v bash tools/sp24_device.sh > $L/sp24build-$v.log 2>&1; }
   echo "variant $v built: rc $? $(at)") &
done
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $L/cfg.log 2>&1 &&
  cmake --build build -j16 > $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
echo "tree built $(at)"
./build/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $L/readme-run.log | tail -2 | tr '\n' ' ')"
(timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $L/memcheck-gpu_sparse24.log 2>&1
 echo "memcheck gpu_sparse24 --small: rc $? $(grep -E 'ERROR SUMMARY' $L/memcheck-gpu_sparse24.log | tail -1) $(at)") &
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $L/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $L/ctest.log | tail -8
grep -E "passed" build/Testing/Temporary/LastTest.log | grep -i sparse24 | tail -2
cp build/Testing/Temporary/LastTest.log $L/ctest-last.log 2>/dev/null
echo "ctest done $(at)"
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$L/sp24build bash tools/sp24_device.sh > $L/sp24build.log 2>&1 || tail -20 $L/sp24build.log
echo "tree's sp24_bench built $(at)"
wait
tar czf $OUT/call3.tgz -C $L .
