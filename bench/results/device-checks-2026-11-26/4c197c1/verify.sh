#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j16 >> /tmp/fbl 2>&1; echo "build rc $?"
mkdir -p /tmp/base && tar xzf .devdata/base32.tgz -C /tmp/base
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bbl 2>&1 && cmake --build /tmp/bb -j16 --target plan_profile >> /tmp/bbl 2>&1; echo "base build rc $?") &
(cd /tmp/fb && timeout 240 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
wait
for t in "gpu_csr_check" "gpu_hrpb_build" "gpu_csr_transpose"; do
  log=$L/memcheck-${t%% *}.log
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $log | tail -1)"
done
for r in 1 2; do for b in bb fb; do
  timeout 100 /tmp/$b/plan_profile --reps 5 gen:geometric:2000000:24:3 gen:rmat:21:16:0.57:0.19:0.19:1 gen:uniform:16:4000000:1000000:1 gen:stencil3d:100:100:100:27 > $L/plan_profile-$b-$r.txt 2>&1
  echo "$b round $r: $(grep -E 'device check|device build|^  from device' $L/plan_profile-$b-$r.txt | tr -s ' ' | tr '\n' ';')"
done; done
# mutants: each must make a test fail
cp src/kernels/csr_chunks.h /tmp/chunks.orig; cp src/kernels/csr_check_gpu.cu /tmp/check.orig
mutant() { # name file python-replacement
  cmake --build /tmp/fb -j16 --target gpu_csr_check gpu_hrpb_build gpu_csr_transpose > $L/mutant-$1-build.log 2>&1 || echo "mutant $1 build failed"
  for t in gpu_csr_check gpu_hrpb_build gpu_csr_transpose; do /tmp/fb/tests/$t > $L/mutant-$1-$t.log 2>&1; echo "mutant $1 $t rc $? $(tail -1 $L/mutant-$1-$t.log)"; done
}
sed -i 's/i = near != 0xffffffffu ? i + 1 + __popc(near)/i = near != 0xffffffffu ? i + 1/' src/kernels/csr_chunks.h; mutant no-skip
cp /tmp/chunks.orig src/kernels/csr_chunks.h
sed -i 's/(k == start || col_idx\[k - 1\] < c)/(k == lo || col_idx[k - 1] < c)/' src/kernels/csr_check_gpu.cu; mutant chunk-neighbour
cp /tmp/check.orig src/kernels/csr_check_gpu.cu
sed -i 's/for (int64_t j = k - 1; j >= start \&\& j >= k - 3/for (int64_t j = k - 1; j >= lo \&\& j >= k - 3/' src/kernels/csr_check_gpu.cu; mutant group-from-chunk
cp /tmp/check.orig src/kernels/csr_check_gpu.cu
git diff --stat 2>/dev/null | tail -1
tar czf $OUT/device-run.tgz -C $L .
