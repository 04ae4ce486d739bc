#!/usr/bin/env bash
# Session 34 scratch: build, gpu_hrpb --quick, then row / column-major direct / transposed times.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt
cat $OUT/gpu.txt
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1
cmake --build build -j16 --target gpu_hrpb spmm_gen spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built $(date +%T)"
TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_hrpb --quick > $OUT/quick.log 2>&1; echo "gpu_hrpb --quick rc $?"; tail -2 $OUT/quick.log
echo "tested $(date +%T)"
build/spmm_gen stencil3d:100:100:100:7 /tmp/lap7.mtx
timeout ${TIME_LIMIT:-300} build/tests/gpu_hrpb --time --n ${NS:-16,64,128} /tmp/lap7.mtx "$@" > $OUT/time.log 2>&1
echo "timed rc $? $(date +%T)"
grep TIME $OUT/time.log | sed -E 's/ nnz=.*row: / row: /; s/GFLOP\/s.*\| col direct/| col direct/; s/\| cuSPARSE ([A-Z_0-9]+) ([0-9.]+) ms.*/| cus \2/'
