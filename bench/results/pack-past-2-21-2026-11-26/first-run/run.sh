#!/usr/bin/env bash
# session 33: new tree's GPU tests + memcheck; sp24 pack A/B against 9c5dc49
set -u
L=/tmp/logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: $COMMIT"; } > $L/device.txt 2>&1; cat $L/device.txt
(cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > $L/build-new.log 2>&1 && cmake --build /tmp/fb -j12 >> $L/build-new.log 2>&1; echo "new build rc $?") &
mkdir -p /tmp/base && tar xzf .devdata/base33.tgz -C /tmp/base && cp tests/gpu_graph.c /tmp/base/tests/
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-base.log 2>&1 && cmake --build /tmp/bb -j4 --target sp24_bench gpu_graph >> $L/build-base.log 2>&1; echo "base build rc $?") &
wait
tail -3 $L/build-new.log
(cd /tmp/fb && timeout 420 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "many shapes|2097" $L/ctest.log | head -12
for r in 1 2; do for b in bb fb; do
  echo "## round $r $b"; timeout 120 /tmp/$b/sp24_bench --precision tf32 --m 4096,8192 --n 64,512,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace
done; done > $L/sp24-ab.md 2>&1
grep -E "^## |^\| tf32" $L/sp24-ab.md | awk -F'|' '/^##/{print; next}{print $3,$4,$6}'
timeout 60 /tmp/bb/tests/gpu_graph > $L/mutant-gpu_graph-base.log 2>&1; echo "new gpu_graph on 9c5dc49's library (should fail): rc $? $(grep -cE 'FAIL|CHECK' $L/mutant-gpu_graph-base.log) fail lines; $(tail -1 $L/mutant-gpu_graph-base.log)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/gpu_graph > $L/memcheck-gpu_graph.log 2>&1; echo "memcheck gpu_graph: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_graph.log | tail -1)"
tar czf $OUT/s33.tgz -C $L .
