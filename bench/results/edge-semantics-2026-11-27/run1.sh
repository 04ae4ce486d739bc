#!/usr/bin/env bash
# Session 38, call 1: build the tree (sm_90) and, beside it, the tree for
# compute_80 PTX only (JIT on this GPU: the cvt.rna branch of tf32_bits) and
# the tree with a5714ce's sp24 tf32 rounding (no NaN select); ctest -L gpu
# (TCSPMM_REQUIRE_GPU=1); gpu_nan_b and gpu_scale_only from the PTX build;
# memcheck on the new tests; sp24_bench tf32 old/new alternating.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree build-old/src .devdata/v38-oldpack
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j10 > $OUT/build.log 2>&1) &
(cmake -S . -B build80 -DCMAKE_CUDA_ARCHITECTURES=80-virtual -DTCSPMM_GIT_COMMIT="${COMMIT:-}-ptx80" > $OUT/cfg80.log 2>&1 && cmake --build build80 -j4 --target gpu_nan_b gpu_scale_only > $OUT/build80.log 2>&1) &
(cmake -S build-old/src -B build-old/b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}-oldpack" > $OUT/cfg-old.log 2>&1 && cmake --build build-old/b -j3 --target sp24_bench > $OUT/build-old.log 2>&1) &
wait
[ -x build/tests/gpu_scale_only ] || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
for t in gpu_nan_b gpu_scale_only; do
  build80/tests/$t > $OUT/$t-ptx80.log 2>&1; echo "$t (compute_80 PTX): exit $? $(tail -1 $OUT/$t-ptx80.log)"
  compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/$t > $OUT/memcheck-$t.log 2>&1
  echo "memcheck $t: exit $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-$t.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
for r in 1 2; do
  for v in old new; do
    b=build/sp24_bench; [ $v = old ] && b=build-old/b/sp24_bench
    [ -x $b ] || b=$(dirname $b)/tools/sp24_bench
    $b --precision tf32 --m 4096,8192 --n 512,4096,8192 --reps 20 --no-hrpb > $OUT/sp24-$v-$r.md 2>&1
    echo "sp24_bench $v run $r: exit $? at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
