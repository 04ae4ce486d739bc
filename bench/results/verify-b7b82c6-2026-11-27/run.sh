#!/usr/bin/env bash
# Session 39, call 6: b7b82c6 (cusparse_path_index_bytes, a refactor of the
# cuSPARSE path's index width) on the GPU: gpu_cusparse, and spmm_run
# --bench on a bundled matrix through the cuSPARSE path (its roofline bytes).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target gpu_cusparse spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/data build/tests/gpu_cusparse) > $OUT/gpu_cusparse.log 2>&1
echo "gpu_cusparse: exit $? $(tail -1 $OUT/gpu_cusparse.log) at $(( $(date +%s) - t0 )) s"
build/spmm_run data/ted_B.mtx.gz --path cusparse --bench --check --reps 20 > $OUT/spmm_run-cusparse.log 2>&1
echo "spmm_run cusparse: exit $? $(grep -E 'check:|roofline|bench' $OUT/spmm_run-cusparse.log | tr '\n' ' ' | cut -c1-400)"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
