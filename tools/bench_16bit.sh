#!/usr/bin/env bash
# tools/bench_16bit.sh: 16-bit B and C on the float paths, timed. For each
# input and path, spmm_run --bench at N = 128 (row-major) with B bf16 and C
# f32, with both bf16, and with B fp16 and C f32; each run times, in one process and in turns, our
# call with those types, our call with float B and C (float_ms), and the
# best cuSPARSE algorithm on float B and C. JSON lines go to
# $OUT/bench_16bit.jsonl; a table is printed last.
#   tools/bench_16bit.sh SPMM_RUN PATHS INPUT...   (PATHS e.g. "hrpb auto")
set -uo pipefail
OUT=${OUT:-/tmp/tcspmm-out}
spmm_run=$1; paths=$2; shift 2
mkdir -p "$OUT"
jsonl=$OUT/bench_16bit.jsonl
: >"$jsonl"
for input in "$@"; do
  for path in $paths; do
    for types in "--b-type bf16" "--b-type bf16 --c-type bf16" "--b-type fp16"; do
      $spmm_run "$input" --bench --json --n 128 --path $path $types >>"$jsonl" 2>>"$OUT/bench_16bit.err" ||
        echo "failed: $input --path $path $types" | tee -a "$OUT/bench_16bit.err"
    done
  done
done
python3 - "$jsonl" <<'PY'
import json, sys
print("| matrix | path run | split panels | B | C | ours ms | ours, float B and C, ms | float time / this | cuSPARSE (float) ms | speedup | roofline |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(f"| {r['file'] if r['file'].startswith('gen:') else r['file'].split('/')[-1]} | {r.get('path_run')} | {r.get('split_panels')} | {r['b_type']} | {r['c_type']} | "
          f"{r['time_ms']:.4f} | {r['float_ms']:.4f} | {r['float_ms'] / r['time_ms']:.3f} | "
          f"{r['cusparse_ms']:.4f} | {r['speedup']:.2f}x | {r['roofline_frac']:.2f} |")
PY
