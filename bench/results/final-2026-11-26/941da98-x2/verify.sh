#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j32 >> /tmp/fbl 2>&1; echo "build rc $?"
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed|GPUs: plans|one GPU|^12: " $L/ctest.log | head -30
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/gpu_devices > $L/memcheck-gpu_devices.log 2>&1; echo "memcheck gpu_devices: exit $?, $(grep -E 'ERROR SUMMARY' $L/memcheck-gpu_devices.log | tail -1)"
/tmp/fb/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-command.txt 2>&1; echo "README command rc $? $(grep -c PASS $L/readme-command.txt) PASS"
cp /tmp/fbl $L/build.log
tar czf $OUT/device-run.tgz -C $L .
