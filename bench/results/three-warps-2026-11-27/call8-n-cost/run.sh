#!/usr/bin/env bash
# Session 41, call 8 (a question for the next session, nothing changed):
# what N = 65..128 costs against N = 64 and 128 on the HRPB kernel. N = 80 is
# the LOBPCG example's block at k = 64; it runs four-warp blocks whose fourth
# warp has no columns. TF32 and FP32, --path hrpb, 12 matrices, median of 30.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
for p in tf32 fp32; do
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/$p --n 64,80,96,128 --reps 30 \
    --extra="--path hrpb --precision $p" .devdata/m39 > $OUT/$p.log 2>&1
  echo "sweep $p: $(tail -1 $OUT/$p.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
