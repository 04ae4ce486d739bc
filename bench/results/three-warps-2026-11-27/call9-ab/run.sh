#!/usr/bin/env bash
# Session 41, call 9: three-warp HRPB blocks for 64 < N <= 96 on the GPU.
# Build (sm_90); gpu_hrpb (N = 80 added) and gpu_fp32 (N = 80 added);
# memcheck of gpu_hrpb --quick; then TF32 and FP32 at N = 72, 80, 96
# against the previous commit's kernel (four-warp blocks there), 12
# matrices, median of 30.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
M12=$(for f in bcsstk32 cfd1 circuit_4 cnr-2000 cora delaunay_n16 pkustk04 pubmed rail_79841 shyy161 tsyl201 worms20_10NN; do echo .devdata/m39/$f.mtx.gz; done)
ab_variant_tree /tmp/vw4 .devdata/v41-w4
(cd /tmp/vw4 && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build-w4.log 2>&1 &&
  cmake --build build -j6 --target spmm_run >> $OUT/build-w4.log 2>&1; echo "w4 build: exit $?" >> $OUT/build-w4.log) &
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j10 --target spmm_run gpu_hrpb gpu_fp32 > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
for t in gpu_hrpb gpu_fp32; do
  TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/data timeout 200 build/tests/$t > $OUT/$t.log 2>&1
  echo "$t: exit $? $(tail -1 $OUT/$t.log) at $(( $(date +%s) - t0 )) s"
done
TCSPMM_DATA=$PWD/data compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_hrpb --quick > $OUT/memcheck-gpu_hrpb.log 2>&1
echo "memcheck gpu_hrpb --quick: exit $? $(grep -E 'ERROR SUMMARY' $OUT/memcheck-gpu_hrpb.log | tail -1) $(grep passed $OUT/memcheck-gpu_hrpb.log | tail -1) at $(( $(date +%s) - t0 )) s"
wait
tail -1 $OUT/build-w4.log
for p in tf32 fp32; do
  for v in w4:/tmp/vw4/build/spmm_run w3:build/spmm_run; do
    python3 tools/sweep.py run --spmm-run "${v#*:}" --out "$OUT/sweep-${v%%:*}-$p" --n 72,80,96 --reps 30 \
      --extra="--path hrpb --precision $p" $M12 > "$OUT/sweep-${v%%:*}-$p.log" 2>&1
    echo "sweep ${v%%:*} $p: $(tail -1 $OUT/sweep-${v%%:*}-$p.log) at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
