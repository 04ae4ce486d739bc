#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j32 >> /tmp/fbl 2>&1; echo "build rc $?"
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed|GPUs: plans|one GPU" $L/ctest.log
for t in "gpu_devices" "gpu_sparse24 --small"; do
  log=$L/memcheck-${t%% *}.log
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $log | tail -1)"
done
cp src/spmm.c /tmp/spmm.orig; cp src/kernels/sp24_mma.cu /tmp/sp24.orig
sed -i '0,/    device_scope_leave(&scope);/s//    (void)scope;/' src/spmm.c
cmake --build /tmp/fb -j32 --target gpu_devices > $L/mutant1-build.log 2>&1 || echo "mutant1 build failed"
/tmp/fb/tests/gpu_devices > $L/mutant-no-restore.log 2>&1; echo "mutant no-restore rc $? $(tail -1 $L/mutant-no-restore.log)"
cp /tmp/spmm.orig src/spmm.c
sed -i 's/                           g->cols > 0 \&\& ldb % 8 == 0/                           ldb % 8 == 0/' src/kernels/sp24_mma.cu
sed -i 's/(!dC || (g->cols > 0 \&\& !dB))/(!dB || !dC)/' src/kernels/sp24_mma.cu
cmake --build /tmp/fb -j32 --target gpu_sparse24 > $L/mutant2-build.log 2>&1 || echo "mutant2 build failed"
/tmp/fb/tests/gpu_sparse24 --small > $L/mutant-no-columns.log 2>&1; echo "mutant no-columns rc $? $(tail -1 $L/mutant-no-columns.log)"; grep -E "FAIL|no columns" $L/mutant-no-columns.log | head -4
cp /tmp/sp24.orig src/kernels/sp24_mma.cu
cp /tmp/fbl $L/build.log
tar czf $OUT/device-run.tgz -C $L .
