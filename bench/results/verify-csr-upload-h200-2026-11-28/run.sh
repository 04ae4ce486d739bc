#!/usr/bin/env bash
# Session 48: the GPU tests at the tree (tools/device_run.sh), then the
# staged-upload mutant of ../gpu-host-mutation-2026-11-28/ (07) against the
# new gpu_csr_upload: patched into the same build, which must fail, then
# taken out again. Run from the repository root with OUT set.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
OUT=$OUT bash tools/device_run.sh # its logs: $OUT/device-run.tgz
echo "tests done at $(( $(date +%s) - t0 )) s"
m=bench/results/gpu-host-mutation-2026-11-28/mutants/07-stager-no-offset.patch
patch -p1 < $m > $OUT/mutant07.log 2>&1 &&
  cmake --build /tmp/tcspmm-build -j16 --target gpu_csr_upload >> $OUT/mutant07.log 2>&1
/tmp/tcspmm-build/tests/gpu_csr_upload >> $OUT/mutant07.log 2>&1
echo "gpu_csr_upload with mutant 07: exit $? ($(grep -c FAIL $OUT/mutant07.log) FAIL lines)"
patch -p1 -R < $m >> $OUT/mutant07.log 2>&1
cmake --build /tmp/tcspmm-build -j16 --target gpu_csr_upload > $OUT/unmutated.log 2>&1
/tmp/tcspmm-build/tests/gpu_csr_upload >> $OUT/unmutated.log 2>&1
echo "gpu_csr_upload after the patch is taken out: exit $?, $(tail -1 $OUT/unmutated.log)"
echo "done at $(( $(date +%s) - t0 )) s"
