#!/usr/bin/env bash
# Session 37 scratch: the tree's GPU tests (TCSPMM_REQUIRE_GPU=1: a skip fails), and gpu_hrpb's
# new check against TF32-rounded inputs on two other kernels: the old integer-add rounding
# (must pass) and a mutant that does not round at all (must fail); spmm_run --bench on two
# bundled matrices.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j10 > $OUT/build.log 2>&1) &
for v in old:.devdata/base trunc:.devdata/v-trunc; do
  name=${v%%:*} dir=${v#*:}
  ab_variant_tree build-$name/src $dir
  (cmake -S build-$name/src -B build-$name/b -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-$name.log 2>&1 && cmake --build build-$name/b -j3 --target gpu_hrpb > $OUT/build-$name.log 2>&1) &
done
wait
[ -x build/tests/gpu_hrpb ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for v in old trunc; do
  TCSPMM_DATA=$PWD/data build-$v/b/tests/gpu_hrpb > $OUT/gpu_hrpb-$v.log 2>&1
  echo "gpu_hrpb, $v kernel: exit $? $(tail -1 $OUT/gpu_hrpb-$v.log); $(grep -c 'TF32-rounded' $OUT/gpu_hrpb-$v.log) rounded-check reports"
done
for m in cora.mtx ted_B.mtx.gz; do build/spmm_run data/$m --n 128 --bench --check > $OUT/bench-$m.txt 2>&1; echo "spmm_run $m: exit $? $(grep -E '^bench' $OUT/bench-$m.txt | head -2 | tr '\n' ' ')"; done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
