#!/usr/bin/env bash
# Call 2: the structured kernels' C written with streaming stores (cs.patch: st.global.cs,
# which ptxas emits as STG.E.EF, evict first) against the tree (base, 88b53db). Call 1 found
# that tiles which read the same stages at different times are 25-32% slower at N = 512, as if
# L2 held too little of A and B; C's writes evicted first would leave it more of them.
# gpu_sparse24 --small on each; then bf16 and fp16 at N = 64, 128, 512 (M = K = 4096..16384)
# and at N = 4096, 8192 (M = K = 4096, 8192), --ours-only (which times both C types), the
# variants' order reversed in even rounds, rounds until BUDGET.
set -uo pipefail
OUT=${OUT:-/tmp/out}
VARIANTS="base:- cs:.devdata/cs" ROUNDS=12 BUDGET=400 TEST_ARGS=--small \
BENCH="bf16small=--precision+bf16+--n+64,128,512+--reps+20+--ours-only;fp16small=--precision+fp16+--n+64,128,512+--reps+20+--ours-only;bf16large=--precision+bf16+--m+4096,8192+--n+4096,8192+--reps+10+--ours-only;fp16large=--precision+fp16+--m+4096,8192+--n+4096,8192+--reps+10+--ours-only" \
  OUT=$OUT/call2 bash tools/sp24_ab.sh
tar czf $OUT/call2.tgz -C $OUT call2 && rm -rf $OUT/call2
