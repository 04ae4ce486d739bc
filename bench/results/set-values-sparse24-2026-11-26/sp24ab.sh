#!/usr/bin/env bash
# A/B of sparse24 updates: this tree (GPU placement) against f403e6e (host recompression).
set -u
L=/tmp/tcspmm-logs
( mkdir -p /tmp/base && tar xzf .devdata/base.tgz -C /tmp/base &&
  cmake -S /tmp/base -B /tmp/base-build -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.log 2>&1 &&
  cmake --build /tmp/base-build --target spmm_run -j8 >>/tmp/base-build.log 2>&1; echo "base build rc $?" ) &
COMMIT=$COMMIT tools/device_run.sh --n 128 --reps 20 --no-tests
wait
cd /tmp/tcspmm-build && ctest -V -L gpu > $L/ctest.log 2>&1; cd - >/dev/null
grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -14
B=/tmp/tcspmm-build
for who in new base; do
  bin=$B/spmm_run; [ $who = base ] && bin=/tmp/base-build/spmm_run
  python3 tools/sweep.py run --spmm-run $bin --out $L/sp24_bf16_$who --n 128 --reps 20 \
    --extra='--path sparse24 --precision bf16 --new-values' gen:prune24:4096:4096:1 gen:prune24:8192:8192:1 > $L/sp24_bf16_$who.log 2>&1
  python3 tools/sweep.py run --spmm-run $bin --out $L/sp24_tf32_$who --n 128 --reps 20 \
    --extra='--path sparse24 --precision tf32 --new-values' gen:prune12:8192:8192:1 > $L/sp24_tf32_$who.log 2>&1
done
python3 tools/sweep.py run --spmm-run $B/spmm_run --out $L/sp24_bf16_big --n 128 --reps 20 \
    --extra='--path sparse24 --precision bf16 --new-values' gen:prune24:16384:16384:1 > $L/sp24_bf16_big.log 2>&1
for f in $L/sp24_*/sweep.csv; do
  echo "== $f"; python3 - "$f" <<'PY'
import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['file'][:28], r['status'], r.get('path_run'), 'check', r.get('check_pass'), 'prod_ms', r.get('time_ms'), 'sv_ms', r.get('set_values_ms'), 'sv_host_ms', r.get('set_values_host_ms'), 'plan_ms', r.get('plan_ms'), r.get('error','')[:80])
PY
done
compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_set_values > $L/memcheck-gpu_set_values.log 2>&1
echo "memcheck gpu_set_values: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_set_values.log | tail -1)"
tar czf $OUT/device-run.tgz -C $L .
