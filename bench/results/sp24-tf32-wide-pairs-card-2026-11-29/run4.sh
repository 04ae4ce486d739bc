#!/usr/bin/env bash
# Call 4: after a review's mends (tf32 pairs where 256 x 128 pairs make three waves, either
# shape; gpu_sparse24 checks that each case launched the pairs it forced): build (sm_90),
# gpu_sparse24, memcheck of gpu_sparse24 --small. Logs into $OUT/call4.tgz.
set -uo pipefail
L=/tmp/logs4; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
B=/tmp/b4 OUT=$L/build SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "built at $(( $(date +%s) - t0 )) s"
timeout 150 /tmp/b4/tests/gpu_sparse24 > $L/gpu_sparse24.log 2>&1
echo "gpu_sparse24: rc $? $(tail -1 $L/gpu_sparse24.log) at $(( $(date +%s) - t0 )) s"
grep -E "FAIL|pairs" $L/gpu_sparse24.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b4/tests/gpu_sparse24 --small > $L/memcheck.log 2>&1
echo "memcheck --small: rc $? $(grep -E 'ERROR SUMMARY' $L/memcheck.log | tail -1) at $(( $(date +%s) - t0 )) s"
tar czf $OUT/call4.tgz -C $L .
