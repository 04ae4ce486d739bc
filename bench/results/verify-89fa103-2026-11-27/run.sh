#!/usr/bin/env bash
# Session 41, call 5: 89fa103 (FP32 one- and two-warp blocks with two copy
# stages) on the GPU. Build (sm_90), the README's run line, ctest -L gpu,
# memcheck and racecheck of gpu_hrpb --quick, memcheck of gpu_fp32 --quick;
# FP32 at N = 16 and 32 against 9744334's kernel (.devdata/v41-prev, the
# one-warp change alone; a second round of call 4), 12 matrices, median of
# 30; then FP32 with HRPB forced and auto against cuSPARSE at N = 16, 32, 64
# over the 28 matrices of .devdata/ss.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
M12=$(for f in bcsstk32 cfd1 circuit_4 cnr-2000 cora delaunay_n16 pkustk04 pubmed rail_79841 shyy161 tsyl201 worms20_10NN; do echo .devdata/ss/$f.mtx.gz; done)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
ab_variant_tree /tmp/vprev .devdata/v41-prev
(cd /tmp/vprev && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build-prev.log 2>&1 &&
  cmake --build build -j6 --target spmm_run >> $OUT/build-prev.log 2>&1; echo "prev build: exit $?" >> $OUT/build-prev.log) &
./build/spmm_run data/ted_B.mtx.gz --check --info > $OUT/readme-run.log 2>&1
echo "README run line: exit $? $(grep -iE 'check|pass|fail' $OUT/readme-run.log | tail -2 | tr '\n' ' ')"
(cd build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
echo "ctest done at $(( $(date +%s) - t0 )) s"
wait
tail -1 $OUT/build-prev.log
for spec in memcheck:gpu_hrpb racecheck:gpu_hrpb memcheck:gpu_fp32; do
  tool=${spec%%:*} t=${spec#*:}
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t --quick > $OUT/$tool-$t.log 2>&1
  echo "$tool $t --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/$tool-$t.log | tail -1) $(grep -E 'passed' $OUT/$tool-$t.log | tail -1) at $(( $(date +%s) - t0 )) s"
done
for n in 16 32; do
  for v in prev:/tmp/vprev/build/spmm_run new:build/spmm_run; do
    name=${v%%:*}-fp32
    python3 tools/sweep.py run --spmm-run "${v#*:}" --out "$OUT/sweep-$name-n$n" --n $n --reps 30 \
      --extra="--path hrpb --precision fp32" $M12 > "$OUT/sweep-$name-n$n.log" 2>&1
    echo "sweep $name N=$n: $(tail -1 $OUT/sweep-$name-n$n.log) at $(( $(date +%s) - t0 )) s"
  done
done
for s in hrpb auto; do
  [ $(( $(date +%s) - t0 )) -gt 470 ] && break
  timeout $(( 560 - ($(date +%s) - t0) )) \
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/fp32-$s --n 16,32,64 --reps 30 \
    --extra="--path $s --precision fp32" .devdata/ss > $OUT/fp32-$s.log 2>&1
  echo "sweep fp32 $s: $(tail -1 $OUT/fp32-$s.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
