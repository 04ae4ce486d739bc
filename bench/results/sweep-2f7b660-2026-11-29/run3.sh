#!/usr/bin/env bash
# Session 57, call 3: the sweep of the last three shared matrices (.devdata/s3:
# cnr-2000, lp_nug30, pkustk04), HRPB and auto at N = 32, 128, 512; then
# HRPB at N = 128 on three large generated matrices, four new processes each
# (plan creation against one cuSPARSE SpMM, first and warm; the roofline).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
COMMIT=${COMMIT:-} OUT=$OUT bash tools/device_run.sh --no-tests --sweep hrpb='--path hrpb' \
  --sweep auto='--path auto' .devdata/s3 2>&1 | grep -E "^==|build|\*\*all"
echo "shared sweep done at $(( $(date +%s) - t0 )) s"
VARIANTS="tree:=/tmp/tcspmm-build" ROUNDS=4 REPS=50 ARGS="--path hrpb --check" \
  KEYS="speedup roofline_frac check_pass time_ms cusparse_ms" OUT=$OUT bash tools/plan_ab.sh \
  gen:stencil3d:100:100:100:27 gen:geometric:2000000:24:3 gen:blockdiag:24:.devdata/s3/pkustk04.mtx.gz 2>&1 | tail -40
echo "generated done at $(( $(date +%s) - t0 )) s"
