#!/usr/bin/env bash
# Session 34 scratch: A/B of HEAD's HRPB launch against the tree, then gpu_hrpb --time on the tree.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
VARIANTS="base:.devdata/base new:-" bash tools/hrpb_ab.sh ${AB_NS:-7,31,33,129,160,192,288,544} 30 gen:stencil3d:100:100:100:7 .devdata/sel 2>&1 | tail -90
cmake --build /tmp/v-_/build -j16 --target spmm_gen > /dev/null && /tmp/v-_/build/spmm_gen stencil3d:100:100:100:7 /tmp/lap7.mtx > /dev/null
timeout 300 /tmp/v-_/build/tests/gpu_hrpb --time --n ${NS:-7,15,31,33,63,65,129,160} /tmp/lap7.mtx .devdata/sel/*.mtx.gz > $OUT/time.log 2>&1
echo "timed rc $? $(date +%T)"
grep TIME $OUT/time.log | sed -E 's/ nnz=.*row: / row: /; s/ GFLOP\/s.*\| row in place/ | rd/; s/row copied/rc/; s/col in place/cd/; s/col transposed/ct/; s/ ms//g; s/\| cuSPARSE ([A-Z_0-9]+) ([0-9.]+):.*/| cus \2/'
