#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs
COMMIT=$COMMIT tools/device_run.sh
B=/tmp/tcspmm-build
for t in gpu_csr_transpose gpu_set_values; do
  compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/$t > $L/memcheck-$t.log 2>&1
  echo "memcheck $t: $? $(grep 'ERROR SUMMARY' $L/memcheck-$t.log | tail -1) $(grep 'passed, ' $L/memcheck-$t.log | tail -1)"
done
echo "skip lines in ctest.log: $(grep -c serialized $L/ctest.log)"
grep -h "passed, " $L/ctest.log
tar czf $OUT/device-run.tgz -C $L .
