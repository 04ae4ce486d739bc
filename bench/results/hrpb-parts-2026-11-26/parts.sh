#!/usr/bin/env bash
# What each part of the HRPB main loop costs: one build, then the timing-only
# variants of make_variants.py laid over hrpb_tf32.cu in turn (only that file
# recompiles), each timed by spmm_run --bench (no --check: their answers are
# wrong by design) at N = 128 on the inputs; the full kernel first and last.
#   OUT=... bash bench/results/hrpb-parts-2026-11-26/parts.sh INPUT...
set -uo pipefail
OUT=${OUT:-/tmp/parts}
mkdir -p "$OUT"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } | tee "$OUT/device.txt"
src=/tmp/parts-tree
rm -rf $src && mkdir -p $src && cp -r CMakeLists.txt cmake include src tests tools data examples $src/
cp src/kernels/hrpb_tf32.cu /tmp/hrpb_tf32.full.cu
build() { (cd $src && cmake --build build -j16 --target spmm_run) >>"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }; }
(cd $src && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90) >"$OUT/build.log" 2>&1
build && cp $src/build/spmm_run /tmp/spmm_run.full
for v in gather nob nodec; do
  cp .devdata/parts/$v/src/kernels/hrpb_tf32.cu $src/src/kernels/hrpb_tf32.cu && build && cp $src/build/spmm_run /tmp/spmm_run.$v
done
for m in "$@"; do
  for v in full gather nob nodec full; do
    /tmp/spmm_run.$v "$m" --n 128 --path hrpb --bench --reps 20 --json > "$OUT/run.json" 2>"$OUT/run.err" ||
      { echo "$m $v: failed: $(tail -2 "$OUT/run.err")"; continue; }
    python3 - "$m" "$v" "$OUT/run.json" <<'PY'
import json, sys
m, v, p = sys.argv[1:]
o = json.load(open(p))
t = o['time_ms'] * 1e-3
gather = o['blocks'] * 16 * 128 * 4  # B rows the blocks gather at N = 128
label = m if m.startswith('gen:') else m.split('/')[-1]
print(f"| {label} | {v} | {o['time_ms']:.4f} | {o['roofline_frac']:.2f} | "
      f"{gather / t / 1e12:.2f} | {o['min_bytes'] / t / 1e12:.2f} | {o['copy_gbs'] / 1e3:.2f} |")
PY
  done
done | { echo "| matrix | kernel | ms | roofline | B gather TB/s | compulsory TB/s | copy TB/s |"
         echo "|---|---|---|---|---|---|---|"; cat; } | tee "$OUT/parts.md"
