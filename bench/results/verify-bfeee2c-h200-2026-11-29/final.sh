#!/usr/bin/env bash
set -uo pipefail
mkdir -p $OUT
B=/tmp/b-final
{ cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=${COMMIT} && cmake --build $B -j16; } >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
cd $B/tests
TCSPMM_DATA=$OLDPWD/data OMP_NUM_THREADS=8 ./gpu_hrpb > $OUT/gpu_hrpb.log 2>&1; echo "gpu_hrpb rc=$?" | tee -a $OUT/gpu_hrpb.log; tail -2 $OUT/gpu_hrpb.log
TCSPMM_DATA=$OLDPWD/data OMP_NUM_THREADS=8 ./gpu_16bit_operands > $OUT/gpu_16bit_operands.log 2>&1; echo "gpu_16bit_operands rc=$?" | tee -a $OUT/gpu_16bit_operands.log
grep "de2010, auto" $OUT/gpu_16bit_operands.log; tail -2 $OUT/gpu_16bit_operands.log
cd $OLDPWD
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest --test-dir $B -j4 --output-on-failure -L gpu > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log
cd $B/tests
TCSPMM_DATA=$OLDPWD/data OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck ./gpu_hrpb --quick > $OUT/memcheck-gpu_hrpb-quick.log 2>&1; echo "memcheck rc=$?" | tee -a $OUT/memcheck-gpu_hrpb-quick.log; tail -4 $OUT/memcheck-gpu_hrpb-quick.log
