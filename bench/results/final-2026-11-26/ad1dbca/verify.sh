set -u
L=/tmp/logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=index,name,driver_version --format=csv; echo "commit: $COMMIT"; } > $L/device.txt 2>&1; cat $L/device.txt
(cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build.log 2>&1 && cmake --build /tmp/fb -j12 >> $L/build.log 2>&1; echo "build rc $?") &
mkdir -p /tmp/base && tar xzf .devdata/base33.tgz -C /tmp/base && cp tests/gpu_oom.c /tmp/base/tests/
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-base.log 2>&1 && cmake --build /tmp/bb -j4 --target gpu_oom >> $L/build-base.log 2>&1; echo "base build rc $?") &
wait
timeout 120 /tmp/fb/tests/gpu_oom > $L/gpu_oom.log 2>&1; echo "gpu_oom rc $? $(tail -1 $L/gpu_oom.log)"; grep -E "about 1 MB|graph launched|memory back|the plan now" $L/gpu_oom.log
timeout 120 /tmp/bb/tests/gpu_oom > $L/gpu_oom-on-9c5dc49.log 2>&1; echo "new gpu_oom on 9c5dc49 (should fail): rc $? $(tail -1 $L/gpu_oom-on-9c5dc49.log)"; grep -E "FAIL|about 1 MB" $L/gpu_oom-on-9c5dc49.log | head -6
(cd /tmp/fb && timeout 330 ctest -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed" $L/ctest.log | tail -4
tar czf $OUT/oom2.tgz -C $L .
