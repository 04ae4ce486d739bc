#!/usr/bin/env bash
# session 33, final: GPU tests, memcheck, README command, spmm_run --bench against 9c5dc49
set -u
L=/tmp/logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: $COMMIT"; } > $L/device.txt 2>&1; cat $L/device.txt
(cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > $L/build.log 2>&1 && cmake --build /tmp/fb -j12 >> $L/build.log 2>&1; echo "build rc $?") &
mkdir -p /tmp/base && tar xzf .devdata/base33.tgz -C /tmp/base
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-base.log 2>&1 && cmake --build /tmp/bb -j4 --target spmm_run >> $L/build-base.log 2>&1; echo "base build rc $?") &
wait
(cd /tmp/fb && timeout 330 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "measuring n = 512|the plan now|graph launched|memory back" $L/ctest.log | head -8
for t in gpu_graph gpu_cusparse; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $L/memcheck-$t.log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $L/memcheck-$t.log | tail -1)"
done
/tmp/fb/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-command.txt 2>&1; echo "README command rc $? $(grep -c 'check_pass=1' $L/readme-command.txt) pass"
for r in 1 2; do for m in data/cora.mtx data/ted_B.mtx.gz data/astro-ph.mtx.gz; do for n in 1 32 128; do for b in bb fb; do
  printf "%s r%s %s n=%s: " $b $r $(basename $m) $n; timeout 60 /tmp/$b/spmm_run $m --bench --n $n --reps 50 2>&1 | grep "^bench:"
done; done; done; done | tee $L/bench-ab.txt
tar czf $OUT/final33.tgz -C $L .
