#!/usr/bin/env bash
# Session 40, call 3: every panel row's index of C in shared memory, written
# once per thread block (rows), against 9951d6b (base), TF32 and FP32, at
# N = 64, 97, 128: the main loops then hold no row indices.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base:- rows:.devdata/v40-rows base32:-:--precision+fp32 rows32:.devdata/v40-rows:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 64,97,128 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
