#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j16 >> /tmp/fbl 2>&1; echo "build rc $?"
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed" $L/ctest.log
for t in "gpu_device_input"; do
  log=$L/memcheck-${t%% *}.log
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $log | tail -1)"
done
# mutant: the permutation reads the wrong source entries
sed -i 's/const int64_t shift = row_ptr\[order\[i\]\] - start;/const int64_t shift = row_ptr[order[i]] - lo;/' src/kernels/csr_permute_gpu.cu
cmake --build /tmp/fb -j16 --target gpu_device_input > $L/mutant-build.log 2>&1 || echo "mutant build failed"
/tmp/fb/tests/gpu_device_input > $L/mutant-gpu_device_input.log 2>&1; echo "mutant shift-from-lo rc $? $(tail -1 $L/mutant-gpu_device_input.log)"
tar czf $OUT/device-run.tgz -C $L .
