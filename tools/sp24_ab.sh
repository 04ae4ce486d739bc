#!/usr/bin/env bash
# tools/sp24_ab.sh: one device call comparing versions of the structured-
# sparsity path, run from the repository root. Each VARIANTS entry NAME:DIR
# builds a copy of the tree with the files under DIR laid over it ("-": the
# tree as it is) the way tools/sp24_device.sh does, and runs gpu_sparse24 on
# it. Then ROUNDS rounds (default 2) run every variant's sp24_bench in turn
# with each BENCH entry's arguments ('+' for a space; ';' between entries),
# and NCU=1 adds Nsight Compute's kernel times and DRAM bytes per variant
# for NCU_KERNELS (a regex) on NCU_ARGS. Logs go to $OUT.
#   VARIANTS="base:.devdata/base new:-" BENCH="--precision+tf32+--m+4096" \
#     bash tools/sp24_ab.sh
set -uo pipefail
OUT=${OUT:-/tmp/sp24-ab}
mkdir -p "$OUT"
. tools/ab_common.sh
ab_device_header "$OUT"
names=() srcs=()
for spec in ${VARIANTS:-new:-}; do
  name=${spec%%:*} dir=${spec#*:}
  src=/tmp/sp24-v-$name
  ab_variant_tree "$src" "$dir"
  (cd "$src" && B="$src/build" OUT="$OUT/build-$name" SP24_BUILD_ONLY=1 bash tools/sp24_device.sh) \
    >"$OUT/build-$name.log" 2>&1 || { echo "build $name failed"; tail -20 "$OUT/build-$name.log"; continue; }
  timeout 300 "$src/build/tests/gpu_sparse24" >"$OUT/test-$name.log" 2>&1
  echo "gpu_sparse24, $name: rc $? $(tail -1 "$OUT/test-$name.log")"
  names+=("$name") srcs+=("$src")
done
IFS=';' read -ra benches <<<"${BENCH:---precision+tf32}"
for round in $(seq "${ROUNDS:-2}"); do
  for b in "${benches[@]}"; do
    for i in "${!names[@]}"; do
      echo "## round $round, ${names[$i]}: sp24_bench ${b//+/ }"
      timeout 300 "${srcs[$i]}/build/sp24_bench" ${b//+/ } --no-hrpb 2>&1 | grep -v workspace
    done
  done
done | tee "$OUT/bench.md"
if [ "${NCU:-0}" = 1 ]; then
  for i in "${!names[@]}"; do
    echo "## ${names[$i]}: ncu on sp24_bench ${NCU_ARGS//+/ }"
    timeout 300 ncu --clock-control none -k "regex:${NCU_KERNELS:-pack_b}" --launch-count "${NCU_COUNT:-6}" \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "${srcs[$i]}/build/sp24_bench" ${NCU_ARGS//+/ } --no-hrpb 2>&1 |
      grep -E "^  [a-zA-Z].*\(|gpu__time|dram__bytes" | sed "s/^ *//"
  done | tee "$OUT/ncu.txt"
fi
