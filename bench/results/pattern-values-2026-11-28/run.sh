#!/usr/bin/env bash
# Session 46, call E: does A's values being all ones (how spmm_run ran
# pattern files until 28101d5) change the timings? Old spmm_run (42fb8e7's
# tools/spmm_run.c: a pattern file's ones) against the new one (random
# values), same library (2686505+), HRPB and the best cuSPARSE algorithm at
# N = 128, alternating processes, two rounds, 12 pattern matrices.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
ab_variant_tree $PWD/build_oldtree .devdata/v46-ones
(cd build_oldtree && cmake -S . -B ../build_old -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg-old.log 2>&1 &&
  cmake --build ../build_old -j8 --target spmm_run > $OUT/build-old.log 2>&1; echo "old built rc $?") &
cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cfg.log 2>&1 &&
  cmake --build build -j8 --target spmm_run > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait
echo "built in $(( $(date +%s) - t0 )) s"
for round in 1 2; do
  for m in cnr-2000 pkustk04 bcsstk32 cfd1 c-67b opt1 delaunay_n16 rail_79841 tube2 shyy161 pubmed epb2; do
    for v in ones random; do
      [ $(( $(date +%s) - t0 )) -gt 400 ] && break 3
      bin=build/spmm_run; [ $v = ones ] && bin=build_old/spmm_run
      timeout 30 $bin .devdata/ss/$m.mtx.gz --path hrpb --n 128 --bench --check --reps 30 --json > $OUT/r$round-$m-$v.json 2> $OUT/r$round-$m-$v.err
    done
  done
  echo "round $round done at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT > $OUT/summary.txt <<'PY'
import json, glob, os, sys, collections
d = collections.defaultdict(dict)
for f in glob.glob(os.path.join(sys.argv[1], 'r*-*.json')):
    r, rest = os.path.basename(f)[:-5].split('-', 1)
    m, v = rest.rsplit('-', 1)
    try: j = json.load(open(f))
    except Exception: continue
    d[(m, r)][v] = j
print('matrix round | ones: ours ms, cuSPARSE ms, speedup | random: ours ms, cuSPARSE ms, speedup | ours ones/random')
for (m, r), x in sorted(d.items()):
    if len(x) < 2: continue
    o, n = x['ones'], x['random']
    print('%s %s | %.4f %.4f %.3f | %.4f %.4f %.3f | %.3f | values %s/%s check %s/%s' % (m, r,
        o['time_ms'], o['cusparse_ms'], o['speedup'], n['time_ms'], n['cusparse_ms'], n['speedup'],
        o['time_ms'] / n['time_ms'], o.get('values', 'file'), n.get('values'), o.get('check_pass'), n.get('check_pass')))
PY
cat $OUT/summary.txt
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
