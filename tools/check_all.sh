#!/usr/bin/env bash
# tools/check_all.sh: spmm_run --check on every matrix of a folder, one line
# each and a closing count. usage: tools/check_all.sh SPMM_RUN DIR [spmm_run args...]
set -u
run=$1; dir=$2; shift 2
pass=0; fail=0
for f in "$dir"/*.mtx "$dir"/*.mtx.gz; do
  [ -e "$f" ] || continue
  out=$("$run" "$f" --check "$@" 2>&1)
  line=$(printf '%s\n' "$out" | grep -E '^check:' || printf '%s\n' "$out" | tail -n 1)
  case $line in *PASS) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
  printf '%-24s %s\n' "$(basename "$f")" "$line"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
