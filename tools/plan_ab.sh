#!/usr/bin/env bash
# tools/plan_ab.sh: one device call comparing plan creation between versions
# of the tree, run from the repository root. Each VARIANTS entry
# NAME:DIR[:ENV] builds spmm_run from a copy of the tree with the files under
# DIR laid over it (ab_variant_tree: "-" the tree as it is, a base commit's
# archive a whole tree; variants with the same DIR share one build, and a
# DIR that cannot be laid over is left out; "=PATH": the
# spmm_run already built in the build folder PATH) and runs it with the
# environment ENV ('+' for a space, e.g. CUDA_MODULE_LOADING=EAGER).
# Per input, ROUNDS rounds in which every variant runs spmm_run --bench
# --json in a new process, in turn; the table (table.md) gives plan_ms (the
# process's first plan), plan_ms_warm, upload_ms and preprocess_ms (of the
# first plan) and the plans' ratios to the best cuSPARSE SpMM of the same
# process, then each variant's medians over the rounds. ARGS: more spmm_run
# arguments for every variant (e.g. --precision fp16); TREE_ARGS: more for
# the "-" variants (e.g. --check); KEYS: more JSON fields for the tables
# (e.g. set_values_host_warm_ms). The JSON and logs go into $OUT/plan-ab.tgz.
#   VARIANTS="base:.devbase new:-" ROUNDS=3 REPS=20 bash tools/plan_ab.sh INPUT...
set -uo pipefail
OUT=${OUT:-/tmp/plan-ab-out}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-20}
out=/tmp/plan-ab
rm -rf $out && mkdir -p $out "$OUT"
trap 'tar czf "$OUT/plan-ab.tgz" -C $out .' EXIT
. tools/ab_common.sh
ab_device_header $out
names=() bins=() envs=() args=() built=()
for spec in ${VARIANTS:-new:-}; do
  name=${spec%%:*} rest=${spec#*:}
  dir=${rest%%:*} env=$([ "$rest" = "$dir" ] || echo "${rest#*:}" | tr + ' ')
  src=/tmp/pv-$([ "$dir" = - ] && echo tree || echo "$dir" | tr -c 'A-Za-z0-9\n' _)
  bin=$src/build/spmm_run
  if [ "${dir:0:1}" = = ]; then
    bin=${dir:1}/spmm_run
  elif [[ " ${built[*]} " != *" $src "* ]]; then
    built+=("$src")
    ab_variant_tree "$src" "$dir" || { echo "$name: cannot lay $dir over the tree"; rm -rf "$src"; continue; }
    (cd "$src" && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 \
       -DTCSPMM_GIT_COMMIT="$([ "$dir" = - ] && echo "${COMMIT:-}" || echo "$name")" &&
       cmake --build build -j16 --target spmm_run) >$out/build-$name.log 2>&1 &
  fi
  names+=("$name") bins+=("$bin") envs+=("$env")
  args+=("$([ "$dir" = - ] && echo "${TREE_ARGS:-}")")
done
wait
for i in "${!names[@]}"; do # a variant that did not build is left out
  [ -x "${bins[$i]}" ] || { echo "${names[$i]}: no ${bins[$i]}"; unset "names[$i]"; }
done
for input in "$@"; do
  tag=$(echo "$input" | tr ':/' '__')
  for r in $(seq 1 "$ROUNDS"); do
    for i in "${!names[@]}"; do
      env ${envs[$i]} "${bins[$i]}" "$input" --bench --reps "$REPS" --json ${ARGS:-} ${args[$i]} \
        >$out/$tag.${names[$i]}.$r.json 2>$out/$tag.${names[$i]}.$r.err ||
        echo "${names[$i]} $input round $r: exit $?"
    done
  done
done
python3 - "$out" "${names[*]}" "${KEYS:-}" "$@" <<'PY' | tee $out/table.md
import json, math, os, statistics, sys
out, names, extra, inputs = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4:]
keys = ["plan_ms", "plan_ms_warm", "upload_ms", "preprocess_ms"] + extra
print("| input | variant | round | path | " + " | ".join(keys) +
      " | cuSPARSE ms | first / cuSPARSE | warm / cuSPARSE | check |")
print("|---" * (len(keys) + 8) + "|")
seen = {}  # (input, variant): the rounds' values of keys
for inp in inputs:
    tag = inp.replace(":", "_").replace("/", "_")
    for name in names:
        r = 1
        while os.path.exists(f"{out}/{tag}.{name}.{r}.json"):
            try:
                j = json.load(open(f"{out}/{tag}.{name}.{r}.json"))
                num = lambda k: j.get(k) if isinstance(j.get(k), (int, float)) else float("nan")
                cus = num("cusparse_ms")  # NaN where missing, null or 0: no ratio
                ratio = lambda k: "%.1fx" % (num(k) / cus) if cus > 0 else "-"
                vals = " | ".join("%.3f" % num(k) for k in keys)
                print("| %s | %s | %d | %s | %s | %.3f | %s | %s | %s |" % (inp, name, r,
                      j.get("path"), vals, cus, ratio("plan_ms"), ratio("plan_ms_warm"),
                      j.get("check_pass", "-")))
                seen.setdefault((inp, name), []).append([num(k) for k in keys])
            except ValueError as e:
                print("| %s | %s | %d | no result (%s) |" % (inp, name, r, e))
            r += 1
# Medians over the rounds (a round without a value, NaN, is left out of that key's).
print("\n| input | variant | rounds | " + " | ".join("median " + k for k in keys) + " |")
print("|---" * (len(keys) + 3) + "|")
for (inp, name), rounds in seen.items():
    med = [statistics.median(v) if v else float("nan")
           for v in ([x[i] for x in rounds if not math.isnan(x[i])] for i in range(len(keys)))]
    print("| %s | %s | %d | %s |" % (inp, name, len(rounds), " | ".join("%.3f" % m for m in med)))
PY
