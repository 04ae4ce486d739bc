#!/usr/bin/env bash
# Session 47: ctest -L gpu -j4 with OMP_NUM_THREADS=4 (was: one thread per core per test).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
t1=$(date +%s)
(cd build && OMP_NUM_THREADS=4 TCSPMM_REQUIRE_GPU=1 ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest-omp4.log 2>&1
grep -E "tests passed|Passed|Failed" $OUT/ctest-omp4.log | tail -22
echo "ctest OMP_NUM_THREADS=4: $(( $(date +%s) - t1 )) s"
