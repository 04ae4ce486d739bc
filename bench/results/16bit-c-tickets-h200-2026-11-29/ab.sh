#!/usr/bin/env bash
# one device call: build new (tree) and base (.devbase), GPU tests of new, A/B of 16-bit C
set -uo pipefail
mkdir -p $OUT
NEW=/tmp/b-new; BASE=/tmp/b-base
( cmake -S . -B $NEW -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=${COMMIT:-new} >$OUT/new-cmake.log 2>&1 && cmake --build $NEW -j12 >$OUT/new-build.log 2>&1; echo $? >$OUT/new-build.rc ) &
( cmake -S .devbase -B $BASE -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=aaf9c13 >$OUT/base-cmake.log 2>&1 && cmake --build $BASE -j4 --target spmm_run >$OUT/base-build.log 2>&1; echo $? >$OUT/base-build.rc ) &
wait
cat $OUT/new-build.rc $OUT/base-build.rc
[ "$(cat $OUT/new-build.rc)" = 0 ] || { tail -30 $OUT/new-build.log; exit 1; }
( cd $NEW/tests && TCSPMM_DATA=$OLDPWD/data OMP_NUM_THREADS=8 ./gpu_hrpb > $OUT/gpu_hrpb.log 2>&1; echo "gpu_hrpb rc=$?" >> $OUT/gpu_hrpb.log )
tail -5 $OUT/gpu_hrpb.log
if [ "${TESTS:-1}" = 1 ]; then
  TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest --test-dir $NEW -j4 --output-on-failure -L gpu > $OUT/ctest-gpu.log 2>&1
  tail -4 $OUT/ctest-gpu.log
fi
[ "$(cat $OUT/base-build.rc)" = 0 ] || { echo base build failed; tail -20 $OUT/base-build.log; exit 1; }
J=$OUT/ab.jsonl; : > $J
run() { # build label path input n
  OMP_NUM_THREADS=16 $1/spmm_run "$4" --bench --json --n $5 --path $3 --b-type bf16 --c-type bf16 2>>$OUT/ab.err | sed "s/^{/{\"build\":\"$2\",/" >> $J; }
for round in 1 2; do
  for spec in "hrpb .devdata/hs/pubmed.mtx.gz" "hrpb .devdata/hs/cnr-2000.mtx.gz" "hrpb .devdata/hs/pkustk04.mtx.gz" "hrpb data/cora.mtx" "hrpb data/astro-ph.mtx.gz" "hrpb data/lp_stocfor3.mtx.gz" "auto .devdata/hs/pubmed.mtx.gz" "auto data/cora.mtx" "auto data/astro-ph.mtx.gz" "auto data/lp_stocfor3.mtx.gz" "auto data/de2010.mtx.gz" "hrpb .devdata/hs/cont-201.mtx.gz"; do
    set -- $spec
    for n in ${NS:-128}; do
      case "$2$n" in *pubmed*64|*cora*64|*cnr-2000*64|*de2010*64|*128) ;; *) continue ;; esac
      if [ $round = 1 ]; then run $BASE base $1 $2 $n; run $NEW new $1 $2 $n; else run $NEW new $1 $2 $n; run $BASE base $1 $2 $n; fi
    done
  done
done
python3 - $J <<'PY'
import json,sys,collections
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(sys.argv[1]):
    r=json.loads(l); k=(r['file'].split('/')[-1],r.get('path')+'->'+str(r.get('path_run')),r['n'],r.get('split_panels'))
    rows[k][r['build']].append((r['time_ms'],r['float_ms'],r['cusparse_ms']))
print("| matrix | path | N | split | base ms | new ms | base/new | new float_ms/new | vs cuSPARSE float |")
for k,v in rows.items():
    b=min(x[0] for x in v['base']) if v['base'] else float('nan'); n=min(x[0] for x in v['new']) if v['new'] else float('nan')
    f=min(x[1] for x in v['new']) if v['new'] else float('nan'); c=min(x[2] for x in v['new']) if v['new'] else float('nan')
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {b:.4f} | {n:.4f} | {b/n:.3f} | {f/n:.3f} | {c/n:.2f}x |")
PY
