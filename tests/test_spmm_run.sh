#!/bin/sh
# test_spmm_run.sh: spmm_run end to end: outputs, exit statuses, errors.
# usage: test_spmm_run.sh SPMM_RUN DATA_DIR CASES_DIR
run=$1; data=$2; cases=$3
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect NAME STATUS REGEX -- CMD...: CMD exits with STATUS and its output matches REGEX.
expect() {
    name=$1; want=$2; regex=$3; shift 4
    "$@" >"$tmp/out" 2>&1; got=$?
    if [ "$got" -eq "$want" ] && grep -Eq -- "$regex" "$tmp/out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $got (want $want), output:"; sed 's/^/  | /' "$tmp/out"
    fi
}

expect help 0 'usage: spmm_run FILE' -- "$run" --help
expect check_cpu 0 '^check: rel_err=.* PASS$' -- "$run" "$data/cora.mtx" --check --path cpu
expect check_sym_col 0 '^check: .* PASS$' -- "$run" "$data/ted_B.mtx.gz" --check --n 7 --layout col --beta 0.5
expect check_rect_n1 0 '^check: .* PASS$' -- "$run" "$data/lp_stocfor3.mtx.gz" --check --n 1 --alpha -2
expect shape 0 'matrix: .*: 16675 x 23541, 76473 non-zeros' -- "$run" "$data/lp_stocfor3.mtx.gz"
expect transpose_shape 0 'matrix: .* \(transposed\): 23541 x 16675, 76473 non-zeros' -- "$run" "$data/lp_stocfor3.mtx.gz" --transpose
expect transpose_check 0 '^check: .* PASS$' -- "$run" "$data/lp_stocfor3.mtx.gz" --transpose --check --n 9
expect transpose_ms 0 '^info: transpose_ms=' -- "$run" "$data/cora.mtx" --transpose --info
expect new_values_check 0 '^check: .* PASS$' -- "$run" "$data/ted_B.mtx.gz" --new-values --check --n 5 --beta 0.5
expect new_values_ms 0 '^info: set_values_host_ms=' -- "$run" "$data/cora.mtx" --new-values --info
expect info_rows 0 '^info: rows=10605$' -- "$run" "$data/ted_B.mtx.gz" --info
expect info_nnz_sym 0 '^info: nnz=144579$' -- "$run" "$data/ted_B.mtx.gz" --info
expect info_path 0 '^info: path=' -- "$run" "$data/cora.mtx" --info
expect info_path_run 0 '^info: path_run=(cpu|hrpb|cusparse|auto)$' -- "$run" "$data/cora.mtx" --info
expect rule_only 0 '^check: .* PASS$' -- "$run" "$data/cora.mtx" --check --rule-only
expect json 0 '^\{"file": ".*", .*"check_pass": 1.*\}$' -- "$run" "$data/cora.mtx" --check --json
# A file name that is not UTF-8: --json still prints UTF-8, the byte as U+FFFD.
expect json_name_bytes 0 '^valid$' -- sh -c 'name="$3/caf$(printf "\351").mtx"; cp "$2/cora.mtx" "$name" &&
    "$1" "$name" --json | grep "^{" | python3 -c "import json, sys
o = json.loads(sys.stdin.buffer.read().decode())
print(\"valid\" if o[\"file\"].endswith(\"caf\ufffd.mtx\") else o[\"file\"])"' sh "$run" "$data" "$tmp"
expect bench_cpu 0 '^bench: cpu .* GFLOP/s' -- "$run" "$data/cora.mtx" --bench --path cpu --reps 3
expect stdin 0 '^check: .* PASS$' -- sh -c "\"$run\" - --check --n 5 < \"$data/cora.mtx\""
expect missing_file 2 '^spmm_run: reading the matrix: .*no_such_file.mtx' -- "$run" "$tmp/no_such_file.mtx"
expect bad_line 2 '^spmm_run: reading the matrix: .*bad_entry.mtx:4:' -- "$run" "$cases/bad_entry.mtx"
expect bad_flag 2 '^spmm_run: unknown option --frobnicate' -- "$run" "$data/cora.mtx" --frobnicate
expect bad_value 2 "^spmm_run: bad value 'x' for --n" -- "$run" "$data/cora.mtx" --n x
expect bad_path 2 "^spmm_run: bad value 'gpu' for --path" -- "$run" "$data/cora.mtx" --path gpu
expect no_file 2 '^spmm_run: no FILE given' -- "$run" --check
expect bad_tm 2 'panel_rows' -- "$run" "$data/cora.mtx" --tm 8
expect row_order 0 '^info: row_order=clustered$' -- "$run" "$data/astro-ph.mtx.gz" --info --path hrpb --row-order clustered
expect row_order_check 0 '^check: .* PASS$' -- "$run" "$data/de2010.mtx.gz" --check --n 9 --path hrpb --row-order clustered
expect bad_row_order 2 "^spmm_run: bad value 'random' for --row-order" -- "$run" "$data/cora.mtx" --row-order random
# Integer options take whole decimal numbers in range: no fractions, hex or junk.
expect bad_n_fraction 2 "^spmm_run: bad value '2.9' for --n: want a decimal integer in \[1, " -- "$run" "$data/cora.mtx" --n 2.9
expect bad_n_small_fraction 2 "^spmm_run: bad value '0.4' for --n" -- "$run" "$data/cora.mtx" --n 0.4 --check
expect bad_n_zero 2 "^spmm_run: bad value '0' for --n" -- "$run" "$data/cora.mtx" --n 0 --check
expect bad_n_hex 2 "^spmm_run: bad value '0x10' for --n" -- "$run" "$data/cora.mtx" --n 0x10
expect bad_n_junk 2 "^spmm_run: bad value '16k' for --n" -- "$run" "$data/cora.mtx" --n 16k
expect bad_reps_fraction 2 "^spmm_run: bad value '1.5' for --reps" -- "$run" "$data/cora.mtx" --bench --path cpu --reps 1.5
expect bad_tm_fraction 2 "^spmm_run: bad value '16.7' for --tm" -- "$run" "$data/cora.mtx" --tm 16.7
expect bad_threads_fraction 2 "^spmm_run: bad value '2.5' for --threads" -- "$run" "$data/cora.mtx" --threads 2.5
expect bad_seed_negative 2 "^spmm_run: bad value '-1' for --seed" -- "$run" "$data/cora.mtx" --seed -1
expect bad_seed_2_64 2 "^spmm_run: bad value '18446744073709551616' for --seed" -- "$run" "$data/cora.mtx" --seed 18446744073709551616
expect bad_alpha_junk 2 "^spmm_run: bad value '1x' for --alpha" -- "$run" "$data/cora.mtx" --alpha 1x
expect bad_beta_inf 2 "^spmm_run: bad value 'inf' for --beta" -- "$run" "$data/cora.mtx" --beta inf
expect bad_alpha_big 2 "^spmm_run: bad value '1e31' for --alpha: want 0 or a real of magnitude 1e-30 to 1e30" -- "$run" "$data/cora.mtx" --alpha 1e31
expect bad_alpha_tiny 2 "^spmm_run: bad value '1e-50' for --alpha" -- "$run" "$data/cora.mtx" --alpha 1e-50
expect alpha_range_ends 0 '^check: .* PASS$' -- "$run" "$data/cora.mtx" --check --path cpu --n 2 --alpha 1e-30 --beta -1e30
expect seed_2_64_max 0 '^check: .* PASS$' -- "$run" "$data/cora.mtx" --check --path cpu --n 2 --seed 18446744073709551615
# Seeds above 2^53 stay exact: 2^53 and 2^53 + 1 give different B (so different errors).
expect seed_above_2_53 0 '^distinct$' -- sh -c 'for s in 9007199254740992 9007199254740993; do
    "$1" "$2" --check --info --path cpu --n 4 --seed $s | grep "^info: check_.*_err=" > "$3.$s" || exit 1; done
    cmp -s "$3.9007199254740992" "$3.9007199254740993" || echo distinct' sh "$run" "$data/cora.mtx" "$tmp/seed"

# gen: specs nest at most 16 levels deep (deeper ones used to overflow the stack).
nest() { s=; i=0; while [ $i -lt "$1" ]; do s="${s}blockdiag:1:"; i=$((i + 1)); done; echo "gen:${s}stencil2d:4:4:5"; }
expect nest_16 0 '^check: .* PASS$' -- "$run" "$(nest 15)" --check --path cpu --n 2
expect nest_17 2 "^spmm_run: reading the matrix: gen spec '.*': blockdiag nests specs more than 16 levels deep" -- "$run" "$(nest 16)" --path cpu
expect nest_20 2 'blockdiag nests specs more than 16 levels deep \(TCSPMM_ERROR_INVALID_ARGUMENT\)$' -- "$run" "$(nest 20)" --path cpu
expect nest_prune_file 2 'prune24file nests specs more than 16 levels deep' -- "$run" "gen:$(i=0; while [ $i -lt 20 ]; do printf prune24file:; i=$((i + 1)); done)prune24:8:8:1" --path cpu

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
