#!/usr/bin/env bash
# Session 57, probe 1: first plans of the 101M-entry block-diagonal matrix
# stalled 50-60 ms in 2 of 4 processes (sweep-2f7b660's call 3). Is the stall
# tied to the process before (run back to back, or 3 s apart), and which step
# of plan_profile's first round shows it?
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; log=$OUT/probe1; mkdir -p $log
trap 'tar czf $OUT/probe1.tgz -C $log .' EXIT
b=/tmp/tcspmm-build
cmake -S . -B $b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" >$log/build.log 2>&1 &&
  cmake --build $b -j16 --target spmm_run plan_profile >>$log/build.log 2>&1 || { tail -30 $log/build.log; exit 1; }
M=gen:blockdiag:24:.devdata/s3/pkustk04.mtx.gz
smi() { nvidia-smi --query-gpu=pstate,clocks.sm,clocks.mem,memory.used --format=csv,noheader; }
for r in 1 2 3 4 5 6 7 8; do
  gap=$(( r % 2 ? 0 : 3 )); sleep $gap
  echo "run $r gap ${gap}s before: $(smi)" >>$log/smi.txt
  $b/spmm_run $M --bench --reps 5 --json --path hrpb >$log/run$r.json 2>$log/run$r.err
  python3 -c "import json;d=json.load(open('$log/run$r.json'));print('run $r gap ${gap}s', *('%s=%.1f'%(k,d[k]) for k in ('read_ms','plan_ms','upload_ms','preprocess_ms','plan_ms_warm')))"
done
for r in 1 2 3 4; do
  $b/plan_profile --reps 1 $M >$log/profile$r.txt 2>&1
  echo "profile $r:"; cat $log/profile$r.txt | tail -16
done
