# lib.sh: shell functions the LOBPCG tests share (sourced, POSIX sh).
# Counters: pass, fail. Needs $tmp, a scratch folder.
pass=0; fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/out" ] && sed 's/^/  | /' "$tmp/out"; }

# build_example SOURCE_DIR PREFIX BUILD_DIR CMAKE_ARGS...: configures and
# builds examples/lobpcg against the tcspmm installed in PREFIX.
build_example() {
    src=$1; prefix=$2; dir=$3; shift 3
    cmake -S "$src/examples/lobpcg" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$tmp/out" 2>&1 &&
        cmake --build "$dir" >>"$tmp/out" 2>&1
}

# analytic K N1 N2 [N3]: the K smallest eigenvalues of the Dirichlet
# Laplacian on an N1 x N2 (x N3) grid: sums over the dimensions of
# 4 sin^2(pi j / (2 (n + 1))), j = 1..n, sorted.
analytic() {
    k=$1; shift
    awk -v dims="$*" 'BEGIN {
        nd = split(dims, n, " "); pi = atan2(0, -1); count = 1; v[1] = 0
        for (d = 1; d <= nd; d++) {
            c = 0
            for (i = 1; i <= count; i++)
                for (j = 1; j <= n[d]; j++) w[++c] = v[i] + 4 * sin(pi * j / (2 * (n[d] + 1)))^2
            count = c
            for (i = 1; i <= count; i++) v[i] = w[i]
        }
        for (i = 1; i <= count; i++) printf "%.17g\n", v[i]
    }' | sort -g | head -n "$k"
}

# reference FILE END K REFERENCE_TXT: the K eigenvalues eigsh_reference.py
# wrote for FILE.
reference() {
    awk -v f="$1" -v e="$2" -v k="$3" '$1 == f && $2 == e && $3 <= k { print $4 }' "$4"
}

# compare NAME EXPECTED TOL [unconverged]: the 'eigenvalue' lines of
# $tmp/out against the values in the file EXPECTED, one per line, in order,
# to relative TOL; the run must also say 'converged yes' unless the fourth
# argument is 'unconverged'.
compare() {
    name=$1; expected=$2; tol=$3
    grep '^eigenvalue ' "$tmp/out" | awk '{ print $3 }' >"$tmp/got"
    if [ "$4" != unconverged ] && ! grep -q '^converged yes$' "$tmp/out"; then
        bad "$name: not converged"; return
    fi
    if [ "$(wc -l <"$tmp/got")" -ne "$(wc -l <"$expected")" ] || [ ! -s "$expected" ]; then
        bad "$name: $(wc -l <"$tmp/got") eigenvalues, expected $(wc -l <"$expected")"; return
    fi
    # A value that is not a plain number (nan, inf) makes the error "nan".
    worst=$(paste "$tmp/got" "$expected" | awk '
        $1 !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/ { bad = 1 }
        { e = ($1 - $2) / $2; if (e < 0) e = -e; if (e > worst) worst = e }
        END { if (bad) print "nan"; else printf "%.3e\n", worst }')
    if [ "$worst" != nan ] && awk -v w="$worst" -v t="$tol" 'BEGIN { exit !(w + 0 <= t + 0) }'; then
        ok "$name (largest relative error $worst)"
    else
        bad "$name: largest relative error $worst > $tol"
        paste "$tmp/got" "$expected" | sed 's/^/  got, expected: /'
    fi
}

# expect NAME STATUS REGEX -- CMD...: CMD exits with STATUS and its output
# (stdout and stderr) matches REGEX.
expect() {
    name=$1; want=$2; regex=$3; shift 4
    "$@" >"$tmp/out" 2>&1; got=$?
    if [ "$got" -eq "$want" ] && grep -Eq -- "$regex" "$tmp/out"; then ok "$name"
    else bad "$name: exit $got (want $want), or no line matching '$regex'"; fi
}
