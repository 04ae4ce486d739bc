#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs
COMMIT=$COMMIT tools/device_run.sh > /tmp/f.log 2>&1
grep -E 'build ok|tests passed|tests failed|Failed|\*\*\*' /tmp/f.log | head
grep -E 'passed, .* failed' $L/ctest.log | head -20
gcc -O2 -fopenmp -Iinclude -isystem /usr/local/cuda/include .devdata/pool_exp.c /tmp/tcspmm-build/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/pool_exp
/tmp/pool_exp data/astro-ph.mtx.gz 16 > $L/pool_exp.txt 2>&1; cat $L/pool_exp.txt
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/tcspmm-build/tests/gpu_graph > $L/memcheck-gpu_graph.log 2>&1
echo "memcheck gpu_graph: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_graph.log | tail -1)"
tar czf $OUT/device-run.tgz -C $L .
