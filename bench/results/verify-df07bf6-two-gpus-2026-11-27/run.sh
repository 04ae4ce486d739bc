#!/usr/bin/env bash
# Session 37 scratch: the tree on two GPUs: build, ctest -L gpu (gpu_devices then runs device 1's
# memory against plans on device 0), gpu_devices' and gpu_nan_b's logs.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
nvidia-smi -L >> $OUT/device.txt
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j32 > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for t in gpu_devices gpu_oom gpu_nan_b; do TCSPMM_DATA=$PWD/data build/tests/$t > $OUT/$t.log 2>&1; echo "$t: exit $? $(tail -1 $OUT/$t.log)"; done
grep -A6 "device 1's memory" $OUT/gpu_devices.log
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
