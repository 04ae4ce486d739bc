#!/usr/bin/env bash
# Session 39, call 3: three epilogues, same call, TF32 and FP32, odd N (97,
# staged C) and N = 128 (aligned): base = 6f832ef; rowmap = the staged C
# also in FP32, rows from row_map as before; shfl = the staged C in both
# modes with each row's C index shuffled from the lanes that hold it.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
VARIANTS="base:.devdata/v39-base rowmap:.devdata/v39-rowmap shfl:- base32:.devdata/v39-base:--precision+fp32 rowmap32:.devdata/v39-rowmap:--precision+fp32 shfl32:-:--precision+fp32" \
  OUT=$OUT/ab bash tools/hrpb_ab.sh 97,128 30 .devdata/m39
echo "A/B done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
