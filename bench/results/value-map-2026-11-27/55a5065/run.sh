#!/usr/bin/env bash
# Session 34 scratch: the per-entry value map: its GPU tests, then plan creation against 1dda8ab's map.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
ab_variant_tree /tmp/base .devdata/base2
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1 && cmake --build build -j16 --target gpu_set_values gpu_hrpb_build spmm_run > $OUT/build.log 2>&1) &
(cd /tmp/base && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-base.log 2>&1 && cmake --build build -j8 --target spmm_run > $OUT/build-base.log 2>&1) &
wait
echo "built $(date +%T)"
for t in gpu_set_values gpu_hrpb_build; do TCSPMM_DATA=$PWD/data timeout 120 build/tests/$t > $OUT/$t.log 2>&1; echo "$t rc $? $(tail -1 $OUT/$t.log)"; done
for in in gen:uniform:1:2000000:2000000:1 gen:rmat:20:16:0.57:0.19:0.19:1 data/cora.mtx; do
  for v in base new; do
    bin=$([ $v = base ] && echo /tmp/base/build/spmm_run || echo build/spmm_run)
    f=$OUT/plan-$v-$(echo $in | tr -c 'A-Za-z0-9\n' _).json
    timeout 60 $bin $in --path hrpb --new-values --n 8 --check --bench --reps 5 --json > $f 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], 'plan_ms %.2f warm %.2f check %s rel_err %s' % (d.get('plan_ms',-1), d.get('plan_ms_warm',-1), d.get('check_pass'), d.get('check_rel_err')))" $f "$in" $v || tail -3 $f
  done
done
