#!/usr/bin/env bash
# tools/sp24_ab.sh: one device call comparing versions of the structured-
# sparsity path, run from the repository root. Each VARIANTS entry NAME:DIR
# (NAME of letters, digits and _) builds a copy of the tree with the files
# under DIR laid over it ("-": the tree as it is; a git archive of a commit
# replaces it: ab_common.sh) the way tools/sp24_device.sh does, all
# variants at once, and runs gpu_sparse24 on it with TEST_ARGS (e.g.
# --small; TEST_ARGS=skip runs none). Then up to
# ROUNDS rounds (default 2) run, for each BENCH entry, every variant's
# sp24_bench in its own process, the variants in the given order in odd
# rounds and in reverse in even ones, each table into
# OUT/bench-r<round>-<TYPE>-<NAME>.md (what tools/sp24_ab_summary.py reads).
# A BENCH entry is TYPE=ARGS or ARGS (TYPE then b1, b2, ...), '+' for a
# space, ';' between entries. With BUDGET (seconds), no round but the first
# begins after that long from the start, and a round that begins runs whole. NCU=1 adds
# Nsight Compute's kernel times and DRAM bytes per variant for NCU_KERNELS
# (a regex) on NCU_ARGS. REUSE=1 keeps a variant's build where an earlier call
# on the same machine left its sp24_bench (ROUNDS=0 builds and tests only).
# Logs go to $OUT.
#   VARIANTS="base:.devdata/base new:-" BENCH="tf32=--precision+tf32+--m+4096" \
#     bash tools/sp24_ab.sh
set -uo pipefail
OUT=${OUT:-/tmp/sp24-ab}
mkdir -p "$OUT"
. tools/ab_common.sh
ab_device_header "$OUT"
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
specs=(${VARIANTS:-new:-})
for spec in "${specs[@]}"; do
  name=${spec%%:*} dir=${spec#*:}
  [ -n "${REUSE:-}" ] && [ -x "/tmp/sp24-v-$name/build/sp24_bench" ] &&
    { echo "build $name kept from an earlier call"; continue; }
  ab_variant_tree "/tmp/sp24-v-$name" "$dir" &&
    (cd "/tmp/sp24-v-$name" && B="/tmp/sp24-v-$name/build" OUT="$OUT/build-$name" \
       SP24_BUILD_ONLY=1 bash tools/sp24_device.sh) >"$OUT/build-$name.log" 2>&1 &
done
wait
names=()
for spec in "${specs[@]}"; do
  name=${spec%%:*} src=/tmp/sp24-v-$name
  [ -x "$src/build/sp24_bench" ] ||
    { echo "build $name failed"; tail -20 "$OUT/build-$name.log"; continue; }
  names+=("$name")
  [ "${TEST_ARGS:-}" = skip ] && continue
  timeout 300 "$src/build/tests/gpu_sparse24" ${TEST_ARGS:-} >"$OUT/test-$name.log" 2>&1
  rc=$?
  echo "gpu_sparse24${TEST_ARGS:+ $TEST_ARGS}, $name: rc $rc $(tail -1 "$OUT/test-$name.log")" \
    "at $(elapsed) s"
done
IFS=';' read -ra benches <<<"${BENCH:---precision+tf32}"
for round in $(seq "${ROUNDS:-2}"); do
  [ "$round" -gt 1 ] && [ -n "${BUDGET:-}" ] && [ "$(elapsed)" -gt "$BUDGET" ] && break
  order=("${names[@]}")
  [ $((round % 2)) = 0 ] && for i in "${!names[@]}"; do order[$i]=${names[-1 - i]}; done
  for j in "${!benches[@]}"; do
    b=${benches[$j]} type=b$((j + 1))
    [[ $b == *=* ]] && type=${b%%=*} b=${b#*=}
    for name in "${order[@]}"; do
      timeout 300 "/tmp/sp24-v-$name/build/sp24_bench" ${b//+/ } --no-hrpb 2>&1 |
        grep -v workspace >"$OUT/bench-r$round-$type-$name.md"
    done
  done
  echo "round $round (${order[*]}) done at $(elapsed) s"
done
if [ "${NCU:-0}" = 1 ]; then
  for name in "${names[@]}"; do
    echo "## $name: ncu on sp24_bench ${NCU_ARGS//+/ }"
    timeout 300 ncu --clock-control none -k "regex:${NCU_KERNELS:-pack_b}" \
      --launch-count "${NCU_COUNT:-6}" \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "/tmp/sp24-v-$name/build/sp24_bench" ${NCU_ARGS//+/ } --no-hrpb 2>&1 |
      grep -E "^  [a-zA-Z].*\(|gpu__time|dram__bytes" | sed "s/^ *//"
  done | tee "$OUT/ncu.txt"
fi
