#!/usr/bin/env bash
# Call 5: on call 4's build of b7e6c2e (same warm machine), the structured benchmark's tables
# (fp16, bf16, tf32; one process each, contenders in random turns), a table begun only
# before 230 s.
# Logs into $OUT/call5.tgz.
set -uo pipefail
L=/tmp/logs5; rm -rf $L; mkdir -p $L
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
B=$PWD/build SP24_BUILD_ONLY=1 OUT=$L/sp24build bash tools/sp24_device.sh > $L/sp24build.log 2>&1 || tail -20 $L/sp24build.log
echo "sp24_bench built at $(( $(date +%s) - t0 )) s"
for p in fp16 bf16 tf32; do
  [ $(( $(date +%s) - t0 )) -gt 230 ] && break
  timeout 75 build/sp24_bench --precision $p --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-$p.md
  echo "bench $p rc $? at $(( $(date +%s) - t0 )) s"
  tar czf $OUT/call5.tgz -C $L .  # after each table: what ran comes back if the call is cut
done
tar czf $OUT/call5.tgz -C $L .
