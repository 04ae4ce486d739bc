#!/usr/bin/env bash
# Session 41, call 3: 9744334 (FP32 two-warp blocks with two copy stages) on the GPU.
# Build (sm_90), the README's run line, ctest -L gpu, memcheck and racecheck
# on gpu_hrpb --quick and memcheck on gpu_fp32 --quick; then FP32 at N = 40
# and 64 (two-warp blocks) against 7e3e7ff's kernel (a second round of call 1's
# A/B), and TF32 at N = 64 (unchanged code, a control), 12 matrices, median of 30.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
ab_variant_tree /tmp/vbase .devdata/v41-base
(cd /tmp/vbase && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build-base.log 2>&1 &&
  cmake --build build -j6 --target spmm_run >> $OUT/build-base.log 2>&1; echo "base build: exit $?" >> $OUT/build-base.log) &
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $OUT/readme-run.log | tail -2 | tr '\n' ' ')"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
wait
tail -1 $OUT/build-base.log
for spec in memcheck:gpu_hrpb racecheck:gpu_hrpb memcheck:gpu_fp32; do
  tool=${spec%%:*} t=${spec#*:}
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t --quick > $OUT/$tool-$t.log 2>&1
  echo "$tool $t --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/$tool-$t.log | tail -1) $(grep -E 'passed' $OUT/$tool-$t.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
for n in 40 64; do
  for v in base:/tmp/vbase/build/spmm_run new:build/spmm_run; do
    for p in fp32 $([ $n = 64 ] && echo tf32); do
      name=${v%%:*}-$p
      python3 tools/sweep.py run --spmm-run "${v#*:}" --out "$OUT/sweep-$name-n$n" --n $n --reps 30 \
        --extra="--path hrpb --precision $p" .devdata/m39 > "$OUT/sweep-$name-n$n.log" 2>&1
      echo "sweep $name N=$n: $(tail -1 $OUT/sweep-$name-n$n.log) at $(( $(date +%s) - t0 )) s"
    done
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
