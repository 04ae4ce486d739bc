#!/usr/bin/env bash
# Call 4, on call 3's machine and builds: (1) issue 5's tables at 6d2ee83 (fp16, bf16, tf32;
# one process each, contenders in random turns); (2) HRPB at N = 128 on cnr-2000 and the
# geometric graph (issue 4's roofline matrices that fit in a call), variants base (plain
# stores), new (the tree: only a 16-bit C evict first) and hcs (float C evict first too), a
# process each, the order reversed in even rounds, float C for all three and bf16 B and C for
# base and new; (3) tf32 structured products, base against the tree, --ours-only, the order
# reversed in even rounds (sp24_ab_summary.py reads ab-tf32/). Nothing begins after 380 s.
# Logs into $OUT/call4.tgz.
set -uo pipefail
L=/tmp/logs4; rm -rf $L; mkdir -p $L/ab-tf32
. tools/ab_common.sh
ab_device_header $L
t0=$(date +%s)
at() { echo "at $(( $(date +%s) - t0 )) s"; }
late() { [ $(( $(date +%s) - t0 )) -gt ${1:-380} ]; }
save() { tar czf $OUT/call4.tgz -C $L .; }
for x in build/sp24_bench /tmp/v-base/build/sp24_bench /tmp/v-base/build/spmm_run \
         /tmp/v-hcs/build/spmm_run build/spmm_run; do
  [ -x $x ] || { echo "missing $x: call 3's builds are gone"; exit 1; }
done
declare -A RUN=([base]=/tmp/v-base/build/spmm_run [new]=build/spmm_run [hcs]=/tmp/v-hcs/build/spmm_run)
declare -A BENCH=([base]=/tmp/v-base/build/sp24_bench [new]=build/sp24_bench)
for p in fp16 bf16 tf32; do
  timeout 75 build/sp24_bench --precision $p --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-$p.md
  echo "bench $p rc $? $(at)"; save
done
for r in 1 2; do
  order="base new hcs"; [ $r = 2 ] && order="hcs new base"
  for m in .devdata/s3/cnr-2000.mtx.gz gen:geometric:2000000:24:3; do
    tag=$(basename $m .mtx.gz | tr ':' '_')
    for v in $order; do
      late 250 && break 3
      timeout 60 ${RUN[$v]} $m --path hrpb --n 128 --bench --reps 50 --check --json > $L/hrpb-r$r-$tag-f32-$v.txt 2>&1
      echo "hrpb r$r $tag f32 $v: rc $? $(grep -o 'bench:.*roofline)' $L/hrpb-r$r-$tag-f32-$v.txt) $(at)"
      [ $v = hcs ] && continue
      timeout 60 ${RUN[$v]} $m --path hrpb --n 128 --bench --reps 50 --check --b-type bf16 --c-type bf16 --json > $L/hrpb-r$r-$tag-bf16-$v.txt 2>&1
      echo "hrpb r$r $tag bf16 $v: rc $? $(grep -o 'bench:.*roofline)' $L/hrpb-r$r-$tag-bf16-$v.txt) $(at)"
    done
  done
  save
done
for r in 1 2 3 4 5 6; do
  order="base new"; [ $((r % 2)) = 0 ] && order="new base"
  for v in $order; do
    late && break 2
    timeout 60 ${BENCH[$v]} --precision tf32 --n 64,128,512 --reps 20 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/ab-tf32/bench-r$r-tf32small-$v.md
    timeout 60 ${BENCH[$v]} --precision tf32 --m 4096,8192 --n 4096,8192 --reps 10 --no-hrpb --ours-only 2>&1 | grep -v workspace > $L/ab-tf32/bench-r$r-tf32large-$v.md
  done
  echo "tf32 round $r done $(at)"; save
done
save
