#!/usr/bin/env bash
# test_sp24_ab.sh: tools/sp24_ab.sh without a GPU, in a scratch tree whose tools/sp24_device.sh
# is a stub: its "build" writes an sp24_bench that prints one table row with the time in the
# variant's tools/MARK and takes a second, and a gpu_sparse24 that echoes its arguments. Three
# variants (the tree, a whole tree laid in its place, one whose build fails), three rounds with
# BUDGET unset: each built variant's tables land in bench-r<round>-<type>-<name>.md (named and
# unnamed BENCH entries), in the given order in odd rounds and reversed in even ones, the
# failed build is reported and left out, TEST_ARGS reaches gpu_sparse24, and
# tools/sp24_ab_summary.py reads the result (base/new 2.000). Then BUDGET=0 runs the first round
# only (whenever the second ticks over), TEST_ARGS=skip no test, and REUSE=1 keeps the build
# left by the run before (ROUNDS=0: no table).
#   test_sp24_ab.sh REPOSITORY_ROOT
set -u
root=$1 T=$(mktemp -d) failures=0
trap 'rm -rf "$T" /tmp/sp24-v-abtest*' EXIT
check() {  # check WHAT CONDITION...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
tree() {  # tree DIR MARK: the files ab_variant_tree copies, the two tools, a stub build
  mkdir -p "$1"/{cmake,include,src,tests,tools,data,examples}
  touch "$1/CMakeLists.txt" "$1/include/tcspmm.h"
  cp "$root/tools/sp24_ab.sh" "$root/tools/ab_common.sh" "$1/tools/"
  echo "$2" >"$1/tools/MARK"
  cat >"$1/tools/sp24_device.sh" <<'STUB'
mkdir -p "$B/tests"
printf '#!/bin/bash\necho "%s$*"\n' 'device: stub ' >"$B/sp24_bench"
printf '%s\n' 'echo "| prec | M=K | N | ours 16-bit B | x | x | x | x | x | x | x | x | x | x |"' \
  "echo \"| fp16 | 4096 | 512 | $(cat tools/MARK) 1.0 | 1 1 | 1 1 | -1 0 | -1 0 | -1 0 | -1 0 |\
 0 | 0 | 0 | nan |\"; sleep 1" >>"$B/sp24_bench"
printf '#!/bin/bash\necho "tested with [$*]"\n' >"$B/tests/gpu_sparse24"
chmod +x "$B/sp24_bench" "$B/tests/gpu_sparse24"
STUB
}
tree "$T/repo" 0.5
tree "$T/repo/whole" 1.0
mkdir -p "$T/repo/broken/tools"
echo 'echo "no compiler"; exit 1' >"$T/repo/broken/tools/sp24_device.sh"
cd "$T/repo"
OUT=$T/out VARIANTS="abtestbase:whole abtestnew:- abtestbad:broken" TEST_ARGS=--small ROUNDS=3 \
  BENCH="fp16=--precision+fp16;--precision+bf16" bash tools/sp24_ab.sh >"$T/log" 2>&1
cat "$T/log"
for r in 1 2 3; do
  for v in base new; do
    check "round $r, $v: both entries" test -s "$T/out/bench-r$r-fp16-abtest$v.md" -a \
      -s "$T/out/bench-r$r-b2-abtest$v.md"
  done
done
check "no tables of the failed build" test -z "$(ls "$T/out" | grep bench-r.*-abtestbad)"
check "the failed build reported" grep -q "build abtestbad failed" "$T/log"
check "TEST_ARGS reach gpu_sparse24" grep -q "tested with \[--small\]" "$T/out/test-abtestnew.log"
check "odd rounds in order, even ones reversed" grep -q \
  "round 1 (abtestbase abtestnew).*round 2 (abtestnew abtestbase).*round 3 (abtestbase" \
  <(tr '\n' ' ' <"$T/log")
check "sp24_bench gets the entry's arguments" grep -q "stub --precision bf16 --no-hrpb" \
  "$T/out/bench-r2-b2-abtestnew.md"
rm "$T"/out/bench-r*-b2-*
check "sp24_ab_summary reads the tables" grep -q "abtestbase/abtestnew time 2.000" \
  <(python3 "$root/tools/sp24_ab_summary.py" "$T/out" abtestbase)
rm -rf "$T/out"
OUT=$T/out VARIANTS="abtestnew:-" TEST_ARGS=skip ROUNDS=3 BUDGET=0 BENCH="fp16=--precision+fp16" \
  bash tools/sp24_ab.sh >"$T/log" 2>&1
check "BUDGET=0: one round" test "$(ls "$T/out" | grep -c bench-r)" = 1
check "TEST_ARGS=skip: no test" test ! -e "$T/out/test-abtestnew.log"
echo 0.25 >tools/MARK # a rebuild would print this
rm -rf "$T/out"
OUT=$T/out VARIANTS="abtestnew:-" TEST_ARGS=skip ROUNDS=0 REUSE=1 bash tools/sp24_ab.sh >"$T/log" 2>&1
check "ROUNDS=0: no table" test "$(ls "$T/out" | grep -c bench-r)" = 0
OUT=$T/out VARIANTS="abtestnew:-" TEST_ARGS=skip ROUNDS=1 REUSE=1 BENCH="fp16=--precision+fp16" \
  bash tools/sp24_ab.sh >"$T/log" 2>&1
check "REUSE=1: the earlier build kept" grep -q "build abtestnew kept" "$T/log"
check "REUSE=1: the earlier build runs" grep -q "| 0.5 1.0 |" "$T/out/bench-r1-fp16-abtestnew.md"
echo "$failures failed"
[ "$failures" = 0 ]
