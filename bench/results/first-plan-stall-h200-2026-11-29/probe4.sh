#!/usr/bin/env bash
# Session 57, probe 4: the staging buffers filled by at most 8 threads (the
# tree) against every thread (.devbase, 2f7b660's archive): first plans of
# the block-diagonal matrix, spmm_run without --bench, ROUNDS rounds in turn,
# with /proc/stat's steal ticks around each process.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; log=$OUT/probe4; mkdir -p $log
trap 'tar czf $OUT/probe4.tgz -C $log .' EXIT
for v in base new; do
  src=$([ $v = base ] && echo .devbase || echo .)
  (cmake -S $src -B /tmp/b-$v -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$v &&
   cmake --build /tmp/b-$v -j8 --target spmm_run) >$log/build-$v.log 2>&1 &
done
wait
M=gen:blockdiag:24:.devdata/s3/pkustk04.mtx.gz
for r in $(seq 1 ${ROUNDS:-18}); do
  for v in base new; do
    head -1 /proc/stat >$log/$v.$r.stat0
    /tmp/b-$v/spmm_run $M --json --path hrpb >$log/$v.$r.json 2>$log/$v.$r.err
    head -1 /proc/stat >$log/$v.$r.stat1
  done
done
python3 - $log base new <<'PY'
import glob, json, statistics, sys
log = sys.argv[1]
for v in sys.argv[2:]:
    fs = sorted(glob.glob(f"{log}/{v}.*.json"), key=lambda f: int(f.split(".")[-2]))
    rows = [json.load(open(f)) for f in fs]
    plan = [d["plan_ms"] for d in rows]; up = [d["upload_ms"] for d in rows]
    steal = []
    for f in fs:
        a, b = (open(f[:-4] + x).read().split() for x in ("stat0", "stat1"))
        steal.append(int(b[8]) - int(a[8]))
    print(f"{v}: n={len(rows)} plan_ms median {statistics.median(plan):.1f} max {max(plan):.1f}, over 60 ms: "
          f"{sum(p > 60 for p in plan)}; upload_ms median {statistics.median(up):.1f} max {max(up):.1f}")
    print("   plan_ms:", " ".join("%.0f" % p for p in plan))
    print("   upload_ms:", " ".join("%.0f" % p for p in up))
    print("   steal ticks:", " ".join(map(str, steal)))
PY
