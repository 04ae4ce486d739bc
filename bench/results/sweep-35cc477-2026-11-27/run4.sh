#!/usr/bin/env bash
# Session 38, call 4: spmm_run at the tree (sm_90); HRPB and auto at
# N = 32, 128, 512 over INPUTS (the other shared matrices of call 3's sweep).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
for s in hrpb auto; do
  python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/$s --n 32,128,512 --reps 50 --extra="--path $s" ${INPUTS:-.devdata/ss} > $OUT/$s.log 2>&1
  echo "sweep $s: $(tail -1 $OUT/$s.log) at $(( $(date +%s) - t0 )) s"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
