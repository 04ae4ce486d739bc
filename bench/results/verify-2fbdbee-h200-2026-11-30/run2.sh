#!/usr/bin/env bash
# Call 2 of session 67, on call 1's machine (its A/B builds kept, REUSE=1): C stored evict first
# in every bf16 and fp16 tile (ef16) against the tree (base), 8 rounds in alternating order, bf16
# and fp16 at M = K = 8192, 16384 and N = 512, 4096, 8192 (the products that run the 256 x 128
# and 128 x 256 tiles), --ours-only. The call's command, as it ran:
mkdir -p /tmp/ab2 && cd . && REUSE=1 COMMIT=2fbdbee VARIANTS="base:- ef16:.devdata/ef16" TEST_ARGS=skip ROUNDS=8 BUDGET=330 OUT=/tmp/ab2 BENCH="bf16=--precision+bf16+--m+8192,16384+--n+512,4096,8192+--reps+10+--ours-only;fp16=--precision+fp16+--m+8192,16384+--n+512,4096,8192+--reps+10+--ours-only" bash tools/sp24_ab.sh; python3 tools/sp24_ab_summary.py /tmp/ab2 base; python3 tools/sp24_ab_summary.py /tmp/ab2 base --c16; tar czf $OUT/call2.tgz -C /tmp/ab2 .
