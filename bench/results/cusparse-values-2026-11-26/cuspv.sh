#!/usr/bin/env bash
# A/B: cuSPARSE path updates keeping preprocessing (this tree) vs re-preprocessing (ff70003's cusparse_path.c).
set -u
L=/tmp/tcspmm-logs
( rm -rf /tmp/base && mkdir -p /tmp/base && cp -r CMakeLists.txt cmake include src tests tools data examples /tmp/base/ &&
  tar xzf .devdata/cusp_base.tgz -C /tmp/base &&
  cmake -S /tmp/base -B /tmp/base-build -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.log 2>&1 &&
  cmake --build /tmp/base-build --target spmm_run -j6 >>/tmp/base-build.log 2>&1; echo "base build rc $?" ) &
COMMIT=$COMMIT tools/device_run.sh --n 128 --reps 20 --no-tests
wait
B=/tmp/tcspmm-build
$B/tests/gpu_cusparse_values > $L/gpu_cusparse_values.log 2>&1; echo "gpu_cusparse_values rc $? $(tail -1 $L/gpu_cusparse_values.log)"
grep FAIL $L/gpu_cusparse_values.log | head -20
IN=".devdata/ssb data/cora.mtx gen:rmat:20:16:0.57:0.19:0.19:1 gen:rmat:21:16:0.57:0.19:0.19:2"
for lay in row col; do
 for who in new base; do
  bin=$B/spmm_run; [ $who = base ] && bin=/tmp/base-build/spmm_run
  python3 tools/sweep.py run --spmm-run $bin --out $L/cusp_${lay}_$who --n 1,32,128 --reps 20 \
    --extra="--path cusparse --new-values --layout $lay" $IN > $L/cusp_${lay}_$who.log 2>&1
  echo "$lay $who: $(tail -1 $L/cusp_${lay}_$who.log)"
 done
done
for f in $L/cusp_*/sweep.csv; do
  echo "== $f"; python3 - "$f" <<'PY'
import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['file'][-24:], r['n'], r['status'], r.get('cusparse_alg'), 'check', r.get('check_pass'), 'prod', r.get('time_ms'), 'sv', r.get('set_values_ms'), 'sv+prod', r.get('set_values_product_ms'), r.get('error','')[:80])
PY
done
(cd $B && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -16
compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_cusparse_values > $L/memcheck-gpu_cusparse_values.log 2>&1
echo "memcheck gpu_cusparse_values: $? $(grep 'ERROR SUMMARY' $L/memcheck-gpu_cusparse_values.log | tail -1)"
tar czf $OUT/device-run.tgz -C $L .
