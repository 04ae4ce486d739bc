#!/usr/bin/env bash
# Session 39, call 5: split K's add_parts with the store test before the
# peer loads (de40081) against 6f832ef's sp24_wgmma.cu, same call, at the
# sizes that split K (fp16 and bf16, M = 4096 and 8192, N = 64 and 128);
# two rounds alternating. No tests (call 4 ran them).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for v in base:.devdata/v39-sp24base new:-; do
  name=${v%%:*} dir=${v#*:}
  src=/tmp/sp24-v-$name
  ab_variant_tree "$src" "$dir"
  (cd "$src" && B="$src/build" OUT="$OUT/build-$name" SP24_BUILD_ONLY=1 bash tools/sp24_device.sh > "$OUT/build-$name.log" 2>&1) &
done
wait
echo "built in $(( $(date +%s) - t0 )) s"; ls -la /tmp/sp24-v-*/build/sp24_bench
for round in 1 2; do
  for p in fp16 bf16; do
    for name in base new; do
      echo "## round $round, $name, $p"
      timeout 120 /tmp/sp24-v-$name/build/sp24_bench --precision $p --m 4096,8192 --n 64,128 --reps 30 --no-hrpb 2>&1 | grep -v workspace
    done
  done
done > $OUT/bench.md 2>&1
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
    b=[x[1] for x in v if x[0]=='base']; n=[x[1] for x in v if x[0]=='new']; lt=[x[2] for x in v]
    print(k,'base',b,'new',n,'base/new',[round(x/y,3) for x,y in zip(b,n)],'Lt',lt)
PY
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
