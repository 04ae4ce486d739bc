#!/bin/bash
# scratch: timeline of the wgmma.sp kernel per shape (instrumented trees)
set -u
mkdir -p $OUT/tl
SKIP_TESTS=${SKIP_TESTS-1} TREES=none PRECS=none ROUNDS=1 OUT=$OUT/tl bash exp/ab.sh 2>&1 | grep -v "^bench\|^tar\|Li1ELi4\|Li2ELi3"
for r in 1 2; do
for spec in ${SPECS:-"fp16 4096 64" "fp16 4096 128" "fp16 8192 64"}; do
  set -- $spec
  for tree in ${TL_TREES:-base new}; do
    b=/tmp/bn; [ $tree = base ] && b=/tmp/bb
    $b/sp24_bench --precision $1 --no-hrpb --m $2 --n $3 --reps 30 > $OUT/tl/$1-$2-$3-$tree-$r.md 2>&1
    echo "== $1 $2 x $3 $tree $r: $(awk -F"|" '$3 ~ /[0-9]/{print "ours16", $5, "lt", $9}' $OUT/tl/$1-$2-$3-$tree-$r.md)"
    [ $r = 1 ] && sed -n '/timeline/,$p' $OUT/tl/$1-$2-$3-$tree-$r.md | grep -v "^  last\|^  inited\|^  entry"
  done
done
done
