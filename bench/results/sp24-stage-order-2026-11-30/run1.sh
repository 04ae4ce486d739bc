#!/usr/bin/env bash
# Call 1: two experiments against the tree (base, 88b53db) in one tools/sp24_ab.sh call:
#   kt1 (kt1.patch): 128 x 128 tiles with eight stages of one k-tile (64 k) and one wgmma
#       group in flight (session 44 tried the small stages waiting for each group: 5-20% slower);
#   rot (rot.patch): each unit starts its K loop at a different stage, (m + 3 n) % 8 eighths
#       into its range, so the tiles that share B (or A) do not read the same stage at once.
# gpu_sparse24 --small on each; then bf16 and fp16 at N = 64, 128, 512 (M = K = 4096..16384),
# --ours-only, the variants' order reversed in even rounds, rounds until BUDGET.
set -uo pipefail
OUT=${OUT:-/tmp/out}
VARIANTS="base:- kt1:.devdata/kt1 rot:.devdata/rot" ROUNDS=12 BUDGET=380 TEST_ARGS=--small \
BENCH="bf16small=--precision+bf16+--n+64,128,512+--reps+20+--ours-only;fp16small=--precision+fp16+--n+64,128,512+--reps+20+--ours-only" \
  OUT=$OUT/call1 bash tools/sp24_ab.sh
tar czf $OUT/call1.tgz -C $OUT call1 && rm -rf $OUT/call1
