#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j16 >> /tmp/fbl 2>&1; echo "build rc $?"
mkdir -p /tmp/base && tar xzf .devdata/base32.tgz -C /tmp/base
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bbl 2>&1 && cmake --build /tmp/bb -j16 --target plan_profile >> /tmp/bbl 2>&1; echo "base build rc $?") &
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed" $L/ctest.log
wait
for t in gpu_csr_check gpu_set_values gpu_device_input; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $L/memcheck-$t.log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $L/memcheck-$t.log | tail -1)"
done
for b in bb fb; do
  timeout 100 /tmp/$b/plan_profile --reps 5 gen:geometric:2000000:24:3 gen:uniform:16:4000000:1000000:1 > $L/plan_profile-$b.txt 2>&1
  echo "$b: $(grep -E 'device check|device build|^  from device' $L/plan_profile-$b.txt | tr -s ' ' | tr '\n' ';')"
done
/tmp/fb/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-command.txt 2>&1; echo "README command rc $? $(grep -c 'check_pass=1' $L/readme-command.txt) pass"
tar czf $OUT/device-run.tgz -C $L .
