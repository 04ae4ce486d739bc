#!/usr/bin/env bash
# Session 41, call 2: clusters of two that share B (TMA multicast) where a
# launch has fewer than three waves (overlay .devdata/v41-pairs:
# PAIR_MIN_WAVES 1 for the 256 x 128 tiles, and a 128 x 128 pair config
# for unsplit 128-row tiles) against the tree, fp16 and bf16 (16-bit B),
# sizes whose launch shape the overlay changes; rounds alternate base, new
# while time allows. gpu_sparse24 on the variant first.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for v in base:- pairs:.devdata/v41-pairs; do
  name=${v%%:*} dir=${v#*:}
  src=/tmp/sp24-v-$name
  ab_variant_tree "$src" "$dir"
  (cd "$src" && B="$src/build" OUT="$OUT/build-$name" SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > "$OUT/build-$name.log" 2>&1) &
done
wait
echo "built in $(( $(date +%s) - t0 )) s"; ls /tmp/sp24-v-*/build/sp24_bench
timeout 200 /tmp/sp24-v-pairs/build/tests/gpu_sparse24 > $OUT/test-pairs.log 2>&1
echo "gpu_sparse24 (pairs): rc $? $(tail -1 $OUT/test-pairs.log) at $(( $(date +%s) - t0 )) s"
for round in 1 2 3; do
  [ $(( $(date +%s) - t0 )) -gt 380 ] && break
  for p in fp16 bf16; do
    for name in base pairs; do
      echo "## round $round, $name, $p"
      timeout 150 /tmp/sp24-v-$name/build/sp24_bench --precision $p --m 4096,8192,16384 --n 128,256,512,1024 --reps 20 --no-hrpb 2>&1 | grep -v workspace
    done
  done
  echo "round $round done at $(( $(date +%s) - t0 )) s" >&2
done > $OUT/bench.md
echo "bench done at $(( $(date +%s) - t0 )) s"
python3 - $OUT/bench.md <<'PY'
import sys,re,collections
rows=collections.defaultdict(list)
name=None
for line in open(sys.argv[1]):
    m=re.match(r'## round (\d), (\w+), (\w+)',line)
    if m: name=m.group(2); continue
    c=[x.strip() for x in line.split('|')]
    if len(c)>5 and c[1] in ('fp16','bf16') and name:
        rows[(c[1],c[2],c[3])].append((name,float(c[4].split()[0]),float(c[8].split()[0])))
for k,v in rows.items():
    b=[x[1] for x in v if x[0]=='base']; n=[x[1] for x in v if x[0]=='pairs']; lt=[x[2] for x in v]
    print(*k,'base',b,'pairs',n,'base/pairs',[round(x/y,3) for x,y in zip(b,n)],'Lt',lt, 'pairs vs Lt', [round(l/y,3) for l,y in zip(lt[1::2],n)])
PY
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
