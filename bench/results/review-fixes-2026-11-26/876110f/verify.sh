#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j16 >> /tmp/fbl 2>&1; echo "build rc $?"
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed|GPUs: plans|one GPU" $L/ctest.log
wait
for t in "gpu_graph" "gpu_set_values" "gpu_device_input"; do
  log=$L/memcheck-${t%% *}.log
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/fb/tests/$t > $log 2>&1
  echo "memcheck $t: exit $?, $(grep -E 'ERROR SUMMARY' $log | tail -1)"
done

cp src/call_scope.c /tmp/cs.orig
python3 - <<'PY'
p='src/call_scope.c'; s=open(p).read()
a='''        s->caller_mode = cudaStreamCaptureModeRelaxed;
        e = cudaThreadExchangeStreamCaptureMode(&s->caller_mode);
        s->set_mode = e == cudaSuccess;'''
assert a in s; open(p,'w').write(s.replace(a,'''        s->set_mode = 0;'''))
PY
cmake --build /tmp/fb -j16 --target gpu_graph > $L/mutant-build.log 2>&1 || echo "mutant build failed"
/tmp/fb/tests/gpu_graph > $L/mutant-no-relax.log 2>&1; echo "mutant no-relax rc $? $(tail -1 $L/mutant-no-relax.log)"; grep FAIL $L/mutant-no-relax.log | head -5
cp /tmp/cs.orig src/call_scope.c
cp /tmp/fbl $L/build.log
tar czf $OUT/device-run.tgz -C $L .
