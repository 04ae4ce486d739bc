#!/usr/bin/env bash
# Session 37 scratch: after the merge of twins (CUB scratch helper, tests_rounded_copy), the GPU
# tests that use them: gpu_hrpb, gpu_sparse24, gpu_csr_transpose, gpu_hrpb_build.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j16 --target gpu_hrpb gpu_sparse24 gpu_csr_transpose gpu_hrpb_build > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -R "gpu_hrpb|gpu_sparse24|gpu_csr_transpose" -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "Test +#|tests passed|tests failed" $OUT/ctest.log | tail -8
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
