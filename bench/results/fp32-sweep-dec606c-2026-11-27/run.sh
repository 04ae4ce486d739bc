#!/usr/bin/env bash
# Session 40, call 5: FP32 mode at the tree (sm_90) against cuSPARSE: HRPB and
# auto at N = 32, 128, 512 over the 28 shared matrices of .devdata/ss.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
for s in hrpb auto; do
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/fp32-$s --n 32,128,512 --reps 30 \
    --extra="--path $s --precision fp32" .devdata/ss > $OUT/fp32-$s.log 2>&1
  echo "sweep fp32 $s: $(tail -1 $OUT/fp32-$s.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
