#!/usr/bin/env bash
# Session 34 scratch: ctest -L gpu on the tree; plan creation with updatable values, 1dda8ab's value map against the tree's.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1 && cmake --build build -j16 > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
ab_variant_tree /tmp/base .devdata/base2
(cd /tmp/base && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-base.log 2>&1 && cmake --build build -j16 --target spmm_run > $OUT/build-base.log 2>&1) || { tail -20 $OUT/build-base.log; exit 1; }
echo "built $(date +%T)"
(cd build && TCSPMM_DATA=$PWD/../data ctest -L gpu --output-on-failure --timeout 400) > $OUT/ctest.log 2>&1
echo "ctest rc $?"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.log | tail -5
cp build/Testing/Temporary/LastTest.log $OUT/
for in in gen:uniform:1:2000000:2000000:1 gen:rmat:20:16:0.57:0.19:0.19:1 data/cora.mtx; do
  for order in natural clustered; do
    for v in base new; do
      bin=$([ $v = base ] && echo /tmp/base/build/spmm_run || echo build/spmm_run)
      timeout 120 $bin $in --path hrpb --row-order $order --new-values --n 8 --check --bench --reps 5 --json > $OUT/plan-$v-$order-$(echo $in | tr -c 'A-Za-z0-9\n' _).json 2>&1
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], sys.argv[4], 'plan_ms %.2f warm %.2f check %s rel_err %s' % (d.get('plan_ms',-1), d.get('plan_ms_warm',-1), d.get('check_pass'), d.get('check_rel_err')))" $OUT/plan-$v-$order-$(echo $in | tr -c 'A-Za-z0-9\n' _).json "$in" $order $v || tail -3 $OUT/plan-$v-$order-$(echo $in | tr -c 'A-Za-z0-9\n' _).json
    done
  done
done
