#!/usr/bin/env bash
# Session 57, probe 2: where a stalled first plan waits. spmm_run on the
# block-diagonal matrix in 10 processes under cuda_trace.so (CUDA calls of
# 1 ms or more, and every allocation, registration and copy), with the
# host's NUMA, THP and fault counters (/proc/vmstat) before and after each.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; log=$OUT/probe2; mkdir -p $log
trap 'tar czf $OUT/probe2.tgz -C $log .' EXIT
here=bench/results/first-plan-stall-h200-2026-11-29
b=/tmp/tcspmm-build
cmake -S . -B $b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" >$log/build.log 2>&1 &&
  cmake --build $b -j16 --target spmm_run >>$log/build.log 2>&1 || { tail -30 $log/build.log; exit 1; }
cuda=$(dirname $(dirname $(which nvcc)))
cc -O2 -shared -fPIC $here/cuda_trace.c -o /tmp/cuda_trace.so -ldl -I$cuda/include || exit 1
{ echo "numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>&1)"; ls /sys/devices/system/node/ 2>&1;
  cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag 2>&1;
  nproc; uname -r; } >$log/host.txt
cat $log/host.txt
M=gen:blockdiag:24:.devdata/s3/pkustk04.mtx.gz
for r in $(seq 1 10); do
  cat /proc/vmstat >$log/vm$r.before
  LD_PRELOAD=/tmp/cuda_trace.so $b/spmm_run $M --bench --reps 5 --json --path hrpb >$log/run$r.json 2>$log/run$r.err
  cat /proc/vmstat >$log/vm$r.after
  python3 - $log $r <<'PY'
import json, sys
log, r = sys.argv[1], sys.argv[2]
d = json.load(open(f"{log}/run{r}.json"))
def vm(f): return dict(l.split() for l in open(f))
a, b = vm(f"{log}/vm{r}.before"), vm(f"{log}/vm{r}.after")
delta = {k: int(b[k]) - int(a[k]) for k in a if k in b and int(b[k]) != int(a[k]) and
         any(s in k for s in ("numa", "thp", "compact", "migrat", "pgmajfault", "pgfault"))}
print(f"run {r}", *("%s=%.1f" % (k, d[k]) for k in ("read_ms", "plan_ms", "upload_ms", "preprocess_ms")), delta)
PY
done
