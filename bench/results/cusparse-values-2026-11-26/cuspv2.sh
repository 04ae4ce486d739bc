#!/usr/bin/env bash
# cuSPARSE preprocessing kept across buffers (this tree) vs ff70003's cusparse_path.c; transpose re-timed vs 3e553b7.
set -u
L=/tmp/tcspmm-logs
( rm -rf /tmp/base && mkdir -p /tmp/base && cp -r CMakeLists.txt cmake include src tests tools data examples /tmp/base/ &&
  tar xzf .devdata/cusp_base.tgz -C /tmp/base &&
  cmake -S /tmp/base -B /tmp/base-build -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.log 2>&1 &&
  cmake --build /tmp/base-build --target tcspmm_static -j5 >>/tmp/base-build.log 2>&1; echo "base build rc $?" ) &
( rm -rf /tmp/tbase && mkdir -p /tmp/tbase && tar xzf .devdata/tbase.tgz -C /tmp/tbase &&
  cmake -S /tmp/tbase -B /tmp/tbase-build -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/tbase-build.log 2>&1 &&
  cmake --build /tmp/tbase-build --target gpu_csr_transpose -j5 >>/tmp/tbase-build.log 2>&1; echo "tbase build rc $?" ) &
COMMIT=$COMMIT tools/device_run.sh --no-tests
wait
B=/tmp/tcspmm-build
$B/tests/gpu_cusparse_values > $L/gpu_cusparse_values.log 2>&1; echo "gpu_cusparse_values rc $? $(tail -1 $L/gpu_cusparse_values.log)"
grep FAIL $L/gpu_cusparse_values.log | head -20
(cd $B && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -16
grep -E 'passed, .* failed' $L/ctest.log | head -20
P=bench/results/n1-spmv-2026-11-26/prep_alt.c
for who in new base; do
  lib=$B/libtcspmm.a; [ $who = base ] && lib=/tmp/base-build/libtcspmm.a
  gcc -O2 -fopenmp -Iinclude -Isrc -isystem /usr/local/cuda/include $P $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/prep_alt_$who 2>$L/prep_alt_$who.build.log || tail -5 $L/prep_alt_$who.build.log
  for m in data/astro-ph.mtx.gz .devdata/ssb/cnr-2000.mtx.gz; do echo "== $m"; timeout 120 /tmp/prep_alt_$who $m 1 8 32 128; done > $L/prep_alt_$who.txt 2>&1
  echo "prep_alt $who: $(grep -c plan: $L/prep_alt_$who.txt) plan lines"
done
grep -h 'plan:' $L/prep_alt_new.txt | head -40
echo ---; grep -h 'plan:' $L/prep_alt_base.txt | head -40
$B/spmm_gen geometric:2000000:24:3 /tmp/geo.mtx > /dev/null 2>&1; echo "gen rc $?"
for who in new tbase; do
  bin=$B/tests/gpu_csr_transpose; [ $who = tbase ] && bin=/tmp/tbase-build/tests/gpu_csr_transpose
  timeout 200 $bin --time .devdata/ssb/cnr-2000.mtx.gz /tmp/geo.mtx > $L/transpose_$who.txt 2>&1; echo "transpose $who rc $?"; grep -v '^$' $L/transpose_$who.txt | tail -6
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_cusparse_values > $L/memcheck-gpu_cusparse_values.log 2>&1
echo "memcheck gpu_cusparse_values: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_cusparse_values.log | tail -1)"
tar czf $OUT/device-run.tgz -C $L .
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_set_values > $L/memcheck-gpu_set_values.log 2>&1
echo "memcheck gpu_set_values: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_set_values.log | tail -1)"
tar czf $OUT/device-run.tgz -C $L .
