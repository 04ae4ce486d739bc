#!/usr/bin/env bash
# Session 48, call 2: the GPU tests at the tree (tools/device_run.sh), then
# mutant 04 (split K's C stores at any address) against gpu_offset_operands,
# which has since taken a 1:2 matrix wide enough to split K: patched into the
# same build, run, taken out. Run from the repository root with OUT set.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
OUT=$OUT bash tools/device_run.sh # its logs: $OUT/device-run.tgz
echo "tests done at $(( $(date +%s) - t0 )) s"
m=bench/results/offset-operands-mutation-2026-11-28/mutants/04-wgmma-quads-any-address.patch
patch -p1 < $m > $OUT/mutant04.log 2>&1 &&
  cmake --build /tmp/tcspmm-build -j16 --target gpu_offset_operands >> $OUT/mutant04.log 2>&1
/tmp/tcspmm-build/tests/gpu_offset_operands >> $OUT/mutant04.log 2>&1
echo "gpu_offset_operands with mutant 04: exit $? ($(grep -c FAIL $OUT/mutant04.log) FAIL lines)"
patch -p1 -R < $m >> $OUT/mutant04.log 2>&1
echo "done at $(( $(date +%s) - t0 )) s"
