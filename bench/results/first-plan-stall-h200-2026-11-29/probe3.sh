#!/usr/bin/env bash
# Session 57, probe 3: probe 2 found a stalled first plan's upload slow in
# the host's copies into the staging (no CUDA call of 1 ms or more there),
# which run on every core. Are the stalls threads that lose their core?
# spmm_run (one product, no --bench) on the block-diagonal matrix, ROUNDS
# rounds of three variants in turn: all 16 threads (the default), 15
# threads, and 16 threads that sleep rather than spin when idle
# (VARIANTS: t<threads> or passive), with /proc/stat's steal ticks around each.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; log=$OUT/probe3; mkdir -p $log
trap 'tar czf $OUT/probe3.tgz -C $log .' EXIT
b=/tmp/tcspmm-build
cmake -S . -B $b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" >$log/build.log 2>&1 &&
  cmake --build $b -j16 --target spmm_run >>$log/build.log 2>&1 || { tail -30 $log/build.log; exit 1; }
M=gen:blockdiag:24:.devdata/s3/pkustk04.mtx.gz
for r in $(seq 1 ${ROUNDS:-15}); do
  for v in ${VARIANTS:-t16 t15 passive}; do
    case $v in t16) e="";; passive) e="OMP_WAIT_POLICY=passive";; t*) e="OMP_NUM_THREADS=${v#t}";; esac
    head -1 /proc/stat >$log/$v.$r.stat0
    env $e $b/spmm_run $M --json --path hrpb >$log/$v.$r.json 2>$log/$v.$r.err
    head -1 /proc/stat >$log/$v.$r.stat1
  done
done
python3 - $log ${VARIANTS:-t16 t15 passive} <<'PY'
import glob, json, statistics, sys
log = sys.argv[1]
for v in sys.argv[2:]:
    rows = [json.load(open(f)) for f in sorted(glob.glob(f"{log}/{v}.*.json"))]
    plan = [d["plan_ms"] for d in rows]; up = [d["upload_ms"] for d in rows]; pre = [d["preprocess_ms"] for d in rows]
    print(f"{v}: n={len(rows)} plan_ms median {statistics.median(plan):.1f} max {max(plan):.1f}; "
          f"over 60 ms: {sum(p > 60 for p in plan)}; upload median {statistics.median(up):.1f} max {max(up):.1f}; "
          f"preprocess median {statistics.median(pre):.1f} max {max(pre):.1f}")
    print("   plan_ms:", " ".join("%.0f" % p for p in plan))
    steal = []
    for f in sorted(glob.glob(f"{log}/{v}.*.json")):
        a, b = (open(f[:-4] + x).read().split() for x in ("stat0", "stat1"))
        steal.append(int(b[8]) - int(a[8]))
    print("   steal ticks:", " ".join(map(str, steal)))
PY
