#!/usr/bin/env bash
# one device call: build new (tree) and base (.devbase), GPU tests of new, A/B of 16-bit operands on auto plans
set -uo pipefail
mkdir -p $OUT
NEW=/tmp/b-new; BASE=/tmp/b-base
( cmake -S . -B $NEW -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=${COMMIT:-new} >$OUT/new-cmake.log 2>&1 && cmake --build $NEW -j12 >$OUT/new-build.log 2>&1; echo $? >$OUT/new-build.rc ) &
( cmake -S .devbase -B $BASE -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=aaf9c13 >$OUT/base-cmake.log 2>&1 && cmake --build $BASE -j4 --target spmm_run >$OUT/base-build.log 2>&1; echo $? >$OUT/base-build.rc ) &
wait
[ "$(cat $OUT/new-build.rc)" = 0 ] || { tail -30 $OUT/new-build.log; exit 1; }
( cd $NEW/tests && TCSPMM_DATA=$OLDPWD/data OMP_NUM_THREADS=8 ./gpu_16bit_operands > $OUT/gpu_16bit_operands.log 2>&1; echo "rc=$?" >> $OUT/gpu_16bit_operands.log )
grep -E "auto: n = (1|4)," $OUT/gpu_16bit_operands.log; tail -2 $OUT/gpu_16bit_operands.log
if [ "${TESTS:-1}" = 1 ]; then
  TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest --test-dir $NEW -j4 --output-on-failure -L gpu > $OUT/ctest-gpu.log 2>&1
  tail -4 $OUT/ctest-gpu.log
fi
[ "$(cat $OUT/base-build.rc)" = 0 ] || { echo base build failed; tail -20 $OUT/base-build.log; exit 1; }
J=$OUT/ab.jsonl; : > $J
run() { # build label path input n types...
  local b=$1 l=$2 p=$3 f=$4 n=$5; shift 5
  OMP_NUM_THREADS=16 $b/spmm_run "$f" --bench --json --n $n --path $p "$@" 2>>$OUT/ab.err | sed "s/^{/{\"build\":\"$l\",/" >> $J; }
for f in ${FILES}; do
  for n in ${NS:-32 64 128}; do
    for types in "--b-type bf16 --c-type bf16" "--b-type bf16"; do
      run $BASE base auto $f $n $types; run $NEW new auto $f $n $types
    done
  done
done
python3 - $J <<'PY'
import json,sys,collections
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(sys.argv[1]):
    r=json.loads(l); k=(r['file'].split('/')[-1].replace('.mtx.gz',''),r['n'],r['b_type']+'/'+r['c_type'])
    rows[k][r['build']].append(r)
print("| matrix | N | B/C | base path | new path | base ms | new ms | base/new | float/new | cuSPARSE float/new |")
for k,v in rows.items():
    if not v['base'] or not v['new']: continue
    b=v['base'][0]; n=v['new'][0]
    print(f"| {k[0]} | {k[1]} | {k[2]} | {b.get('path_run')} | {n.get('path_run')} | {b['time_ms']:.4f} | {n['time_ms']:.4f} | {b['time_ms']/n['time_ms']:.3f} | {n['float_ms']/n['time_ms']:.3f} | {n['cusparse_ms']/n['time_ms']:.2f}x |")
PY
