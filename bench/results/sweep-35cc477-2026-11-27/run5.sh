#!/usr/bin/env bash
# Session 38, call 5: spmm_run at the tree (sm_90); HRPB at N = 128 on three
# large generated matrices (plan creation against one cuSPARSE SpMM, and the
# memory roofline).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/gen --n 128 --reps 50 --extra="--path hrpb" \
  gen:geometric:2000000:24:3 gen:stencil3d:100:100:100:27 gen:blockdiag:24:.devdata/pk/pkustk04.mtx.gz > $OUT/gen.log 2>&1
echo "sweep gen: $(tail -1 $OUT/gen.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
