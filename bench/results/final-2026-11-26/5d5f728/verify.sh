#!/usr/bin/env bash
set -u
L=/tmp/logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=index,name,driver_version --format=csv; echo "commit: $COMMIT"; } > $L/device.txt 2>&1; cat $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > $L/build.log 2>&1 && cmake --build /tmp/fb -j16 >> $L/build.log 2>&1; echo "build rc $?"
(cd /tmp/fb && timeout 330 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -6
grep -E "about 1 MB|many shapes .*40 shapes|column-major" $L/ctest.log | head -8
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/gpu_graph > $L/memcheck-gpu_graph.log 2>&1; echo "memcheck gpu_graph: exit $?, $(grep -E "ERROR SUMMARY" $L/memcheck-gpu_graph.log | tail -1)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/gpu_hrpb --quick > $L/memcheck-gpu_hrpb.log 2>&1; echo "memcheck gpu_hrpb --quick: exit $?, $(grep -E "ERROR SUMMARY" $L/memcheck-gpu_hrpb.log | tail -1)"
/tmp/fb/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-command.txt 2>&1; echo "README command rc $? $(grep -c 'check_pass=1' $L/readme-command.txt) pass"
tar czf $OUT/final33b.tgz -C $L .
