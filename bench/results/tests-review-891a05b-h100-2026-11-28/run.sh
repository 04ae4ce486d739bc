#!/usr/bin/env bash
# Session 46, call F: the GPU tests changed after the tests review, at
# 891a05b: gpu_device_input (beta 0.25 and 0), gpu_set_values (1e-5 for
# FP32-accurate plans), gpu_hrpb and gpu_sparse24 (gaps hold -3), and
# gpu_cusparse (the reference's own loop, as every test now).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data timeout 200 ctest -R '^(gpu_device_input|gpu_set_values|gpu_hrpb|gpu_sparse24|gpu_cusparse)$' -j5 --output-on-failure --timeout 190) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)|Test +#" $OUT/ctest.log | tail -8
cp build/Testing/Temporary/LastTest.log $OUT/ctest-last.log 2>/dev/null
grep -E "^[0-9]+ passed" $OUT/ctest-last.log | tr '\n' ' '; echo
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
