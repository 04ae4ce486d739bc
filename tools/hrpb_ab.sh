#!/usr/bin/env bash
# tools/hrpb_ab.sh: one device call comparing versions of the HRPB kernel,
# run from the repository root. Each VARIANTS entry NAME:DIR[:ARGS] builds a
# copy of the tree with the files under DIR laid over it ("-": the tree as it
# is; variants with the same DIR share one build), checks it with gpu_hrpb
# --quick, and sweeps it (spmm_run --path hrpb and ARGS, '+' for a space,
# through tools/sweep.py) at each N over the inputs; a table of times per
# matrix follows, the first variant the base (table.md; logs in logs.tgz).
# TESTS=1: also ctest -L gpu and compute-sanitizer memcheck and racecheck
# (gpu_hrpb --quick) on the tree's own build. SWEEP_PATH=auto (or cusparse)
# sweeps that path instead of hrpb.
#   VARIANTS="base:.devdata/base new:- new32:-:--tm+32" TESTS=1 \
#     bash tools/hrpb_ab.sh 32,128,512 REPS INPUT...
set -uo pipefail
OUT=${OUT:-/tmp/hrpb-ab}
mkdir -p "$OUT"
ns=$1 reps=$2
shift 2
. tools/ab_common.sh
ab_device_header "$OUT"
names=() srcs=() extras=() built=()
for spec in ${VARIANTS:-new:-}; do
  name=${spec%%:*} rest=${spec#*:}
  file=${rest%%:*} extra=$([ "$rest" = "$file" ] || echo "${rest#*:}" | tr + ' ')
  src=/tmp/v-$(echo "$file" | tr -c 'A-Za-z0-9\n' _)
  if [[ " ${built[*]} " != *" $src "* ]]; then
    ab_variant_tree "$src" "$file"
    targets=$([ "${TESTS:-0}" = 1 ] && [ "$file" = - ] || echo "--target spmm_run gpu_hrpb")
    (cd "$src" && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build-$name.log" 2>&1 &&
       cmake --build build -j16 $targets >>"$OUT/build-$name.log" 2>&1) ||
      { tail -20 "$OUT/build-$name.log"; continue; }
    TCSPMM_DATA=$PWD/data timeout 240 "$src/build/tests/gpu_hrpb" --quick >"$OUT/test-$name.log" 2>&1
    echo "gpu_hrpb --quick, $name: rc $? $(grep -E 'passed|FAIL' "$OUT/test-$name.log" | tail -1)"
    if [ "${TESTS:-0}" = 1 ] && [ "$file" = - ]; then
      (cd "$src" && ctest --test-dir build --output-on-failure -L gpu) >"$OUT/test-$name-ctest.log" 2>&1
      grep -E "tests passed|tests failed|Failed" "$OUT/test-$name-ctest.log" | tail -5
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 "$src/build/tests/gpu_hrpb" --quick \
          >"$OUT/test-$name-$tool.log" 2>&1
        echo "compute-sanitizer $tool gpu_hrpb --quick: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/test-$name-$tool.log" | tail -1)"
      done
    fi
    built+=("$src")
  fi
  names+=("$name") srcs+=("$src") extras+=("$extra")
done
for n in ${ns//,/ }; do
  for i in "${!names[@]}"; do
    name=${names[$i]}
    python3 tools/sweep.py run --spmm-run "${srcs[$i]}/build/spmm_run" --out "$OUT/sweep-$name-n$n" \
      --n "$n" --reps "$reps" --extra="--path ${SWEEP_PATH:-hrpb} ${extras[$i]}" "$@" \
      >"$OUT/sweep-$name-n$n.log" 2>&1
    echo "sweep $name N=$n: $(tail -1 "$OUT/sweep-$name-n$n.log")"
  done
done
python3 - "$OUT" "$ns" "${names[@]}" <<'EOF' | tee "$OUT/table.md"
import csv, math, sys, os
out, ns, names = sys.argv[1], sys.argv[2].split(','), sys.argv[3:]
for n in ns:
    rows = {}
    for s in names:
        path = f"{out}/sweep-{s}-n{n}/sweep.csv"
        if not os.path.exists(path): continue
        for r in csv.DictReader(open(path)):
            rows.setdefault(r['input'], {})[s] = r
    print(f"\nN = {n}: ms (roofline fraction) per variant; base/variant = speedup")
    print("| matrix | syn | " + " | ".join(names) + " | " + " | ".join(f"base/{s}" for s in names[1:]) + " |")
    print("|---|---|" + "---|" * (2 * len(names) - 1))
    logs = {s: [] for s in names[1:]}
    for m, d in rows.items():
        cells, ratios = [], []
        ok = {s: bool(d.get(s) and d[s]['time_ms'] and d[s].get('status') == 'ok')
              for s in names}
        for s in names:
            r = d.get(s)
            cells.append(f"{float(r['time_ms']):.4f} ({float(r['roofline_frac']):.2f})" if ok[s] else "FAIL/-")
        for s in names[1:]:
            if ok[names[0]] and ok[s]:  # a ratio only between runs that passed their check
                q = float(d[names[0]]['time_ms']) / float(d[s]['time_ms'])
                logs[s].append(math.log(q)); ratios.append(f"{q:.3f}")
            else:
                ratios.append("-")
        syn = next(iter(d.values()))['synergy']
        label = m if m.startswith('gen:') else os.path.basename(m)
        print(f"| {label[:40]} | {syn} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    for s, l in logs.items():
        if l: print(f"geomean base/{s}: {math.exp(sum(l)/len(l)):.3f} over {len(l)}")
EOF
(cd "$OUT" && tar czf logs.tgz build-*.log test-*.log sweep-* && rm -rf build-*.log test-*.log sweep-*)
