#!/usr/bin/env bash
# tools/plan_ab.sh: plan creation of the tree against a base tree, on the
# device, from the repository root. spmm_run --bench --json runs in a new
# process per measurement, base and tree taking turns, ROUNDS rounds per
# input; a table gives plan_ms (the process's first plan), plan_ms_warm,
# upload_ms and preprocess_ms (of the first plan) and each plan's ratio to
# the best cuSPARSE SpMM of its own process. Logs and JSON under $OUT/plan-ab.
#   BASE=.devbase ROUNDS=3 REPS=20 bash tools/plan_ab.sh INPUT...
# (TREE_ARGS: more spmm_run arguments for the tree's runs, e.g. --check;
# TREE_BUILD: where the tree builds, /tmp/plan-ab-tree unless given; only
# spmm_run is built, so device_run.sh can reuse /tmp/tcspmm-build.)
# (BASE: a copy of the base commit's tree, e.g. git archive into .devbase,
# carried to the device; BASE_COMMIT labels it.)
set -uo pipefail
source tools/ab_common.sh
OUT=${OUT:-/tmp/plan-ab-out}
BASE=${BASE:-.devbase}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-20}
out=$OUT/plan-ab
mkdir -p $out
ab_device_header $out
build() { # SRC DIR COMMIT
  cmake -S "$1" -B "$2" -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="$3" >"$2.log" 2>&1 &&
    cmake --build "$2" -j16 --target spmm_run >>"$2.log" 2>&1 || { tail -30 "$2.log"; exit 1; }
}
TREE_BUILD=${TREE_BUILD:-/tmp/plan-ab-tree}
build "$BASE" /tmp/plan-ab-base "${BASE_COMMIT:-base}" & build . $TREE_BUILD "${COMMIT:-}" & wait
[ -x /tmp/plan-ab-base/spmm_run ] && [ -x $TREE_BUILD/spmm_run ] || exit 1
cp /tmp/plan-ab-base.log $TREE_BUILD.log $out/
for input in "$@"; do
  name=$(echo "$input" | tr ':/' '__')
  for r in $(seq 1 "$ROUNDS"); do
    for side in base tree; do
      bin=/tmp/plan-ab-base/spmm_run; extra=
      [ $side = tree ] && bin=$TREE_BUILD/spmm_run && extra=${TREE_ARGS:-}
      $bin "$input" --bench --reps "$REPS" --json $extra \
        >$out/$name.$side.$r.json 2>$out/$name.$side.$r.err || echo "$side $input round $r: exit $?"
    done
  done
done
python3 - "$out" "$@" <<'PY'
import json, os, sys
out, inputs = sys.argv[1], sys.argv[2:]
keys = ["plan_ms", "plan_ms_warm", "upload_ms", "preprocess_ms"]
print("| input | side | path | " + " | ".join(keys) + " | cuSPARSE ms | first / cuSPARSE | warm / cuSPARSE |")
print("|---" * (len(keys) + 6) + "|")
for inp in inputs:
    name = inp.replace(":", "_").replace("/", "_")
    for side in ("base", "tree"):
        rows = []
        for f in sorted(os.listdir(out)):
            if f.startswith(name + "." + side + ".") and f.endswith(".json"):
                try: rows.append(json.load(open(os.path.join(out, f))))
                except Exception: pass
        if not rows: continue
        for j in rows:
            cus = j.get("cusparse_ms")
            vals = " | ".join("%.2f" % j.get(k, float("nan")) for k in keys)
            print("| %s | %s | %s | %s | %.3f | %.1fx | %.1fx |" % (name, side, j.get("path"), vals,
                  cus, j["plan_ms"] / cus, j["plan_ms_warm"] / cus))
PY
